"""`w2c import`: When2Call items and results that others produced."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from w2c_tui.cli.choices import ImportKind
from w2c_tui.cli.context import EXIT_STRICT, fail, name_option, print_json, services

if TYPE_CHECKING:
    from w2c_tui.domain.records import ImportReport

PROGRESS_MIN_BYTES = 256 * 1024
KIND_HELP = (
    "when2call_test, when2call_sft, when2call_pref, lm_eval_samples, official_judge, "
    "official_inference, api_suite, critictool (default: detected from the content)"
)


def import_files(
    ctx: typer.Context,
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Files (JSONL), an API-suite run folder, or a folder whose manifest.json "
            "lists its files."
        ),
    ],
    dataset: Annotated[
        str | None,
        typer.Option(
            help="Dataset to import into (items: default the file's stem; results: the only "
            "dataset).",
            callback=name_option,
        ),
    ] = None,
    kind: Annotated[ImportKind | None, typer.Option(help=KIND_HELP)] = None,
    target_model: Annotated[
        str | None,
        typer.Option(
            help="Target model name for results files that do not carry one (and for "
            "CriticTool predictions files).",
            callback=name_option,
        ),
    ] = None,
    judge: Annotated[
        str | None,
        typer.Option(help="Judge name for judge-output files.", callback=name_option),
    ] = None,
    scorer: Annotated[
        str | None,
        typer.Option(
            help="Scorer name for lm-evaluation-harness samples files.", callback=name_option
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Validate and report; write nothing.")
    ] = False,
    strict: Annotated[
        bool,
        typer.Option("--strict", help="Fail on results for unknown uuids and on changed items."),
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print the reports as JSON.")] = False,
) -> None:
    """Import When2Call items, or results attached to items by uuid.

    Items: the When2Call test files (MCQ and LLM-judge subset) and the train files (SFT,
    preference). Results: lm-evaluation-harness samples_*.jsonl (log-prob MCQ), the official
    judge scripts' outputs, the API evaluation suite's run folder or checkpoint files. A folder
    whose manifest.json lists its files (as the bundled demo's does) is imported file by file.

    Each file is validated first and stored whole or not at all: a bad line is reported with
    its file, line and field, and the command exits with status 2. Importing a file again
    changes nothing; results whose uuid is not in the dataset are counted and listed.
    """
    from w2c_tui.io.options import ReadOptions

    options = ReadOptions(target_model=target_model, judge=judge, scorer=scorer)
    reports: list[ImportReport] = []
    with services(ctx) as svc, _collector_paused():
        for path in paths:
            manifest = svc.imports.folder_manifest(path)
            if manifest is not None:
                done = svc.imports.import_manifest(
                    path / "manifest.json",
                    dataset=dataset,
                    dry_run=dry_run,
                    strict=strict,
                    manifest=manifest,
                )
            else:
                with _progress(path) as progress:
                    done = [
                        svc.imports.import_path(
                            path,
                            dataset=dataset,
                            kind=kind.value if kind else None,
                            dry_run=dry_run,
                            strict=strict,
                            options=options,
                            progress=progress,
                        )
                    ]
            for report in done:
                reports.append(report)
                if not json_out:
                    _print_report(report)
                if report.items_changed:
                    typer.echo(
                        f"warning: {report.path}: {len(report.items_changed)} item(s) differ "
                        "from the stored version and were NOT updated (first: "
                        f"{report.items_changed[0]})",
                        err=True,
                    )
    if json_out:
        print_json([asdict(r) for r in reports])
    if strict and any(r.items_changed for r in reports):
        raise fail("changed items (see above)", EXIT_STRICT)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while this one-shot command imports: a file's items
    live until it is stored and hold no cycles, yet every full pass walks all of them (7 passes,
    ~0.6 s of CPU for 100,000 items; bench/bench_import.py)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _progress:
    """A rich progress bar on stderr for files big enough to take a moment."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.bar: object | None = None

    def __enter__(self) -> _Callback | None:
        size = self.path.stat().st_size if self.path.is_file() else 0
        if size < PROGRESS_MIN_BYTES or not sys.stderr.isatty():
            return None
        from rich.console import Console
        from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

        bar = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            DownloadColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        bar.start()
        task = bar.add_task(f"reading {self.path.name}", total=size)
        self.bar = bar
        return _Callback(bar, task)

    def __exit__(self, *_: object) -> None:
        if self.bar is not None:
            self.bar.stop()  # type: ignore[attr-defined]


class _Callback:
    def __init__(self, bar: object, task: object) -> None:
        self.bar = bar
        self.task = task

    def __call__(self, done: int, total: int) -> None:
        self.bar.update(self.task, completed=done, total=total)  # type: ignore[attr-defined]


def _print_report(report: ImportReport) -> None:
    verb = "would import" if report.dry_run else "imported"
    parts = []
    if report.items_new or report.items_unchanged or report.items_changed:
        parts.append(
            f"{report.items_new} new items, {report.items_unchanged} unchanged"
            + (
                f", {len(report.items_changed)} changed (not updated)"
                if report.items_changed
                else ""
            )
        )
    if report.responses_new or report.responses_unchanged:
        parts.append(
            f"{report.responses_new} new responses, {report.responses_unchanged} unchanged"
        )
    if report.verdicts_new or report.verdicts_unchanged:
        invalid = f" ({report.verdicts_invalid} invalid)" if report.verdicts_invalid else ""
        parts.append(
            f"{report.verdicts_new} new verdicts{invalid}, {report.verdicts_unchanged} unchanged"
        )
    summary = "; ".join(parts) or "nothing to import"
    typer.echo(f"{report.path} [{report.kind}] → dataset {report.dataset!r}: {verb} {summary}")
    if report.unknown_records:
        shown = ", ".join(report.unknown_uuids[:5])
        more = f" and {len(report.unknown_uuids) - 5} more" if len(report.unknown_uuids) > 5 else ""
        typer.echo(
            f"  {report.unknown_records} record(s) for {len(report.unknown_uuids)} "
            f"uuid(s) not in the dataset were not attached: {shown}{more}"
        )
    for note in report.notes:
        typer.echo(f"  note: {note}")
