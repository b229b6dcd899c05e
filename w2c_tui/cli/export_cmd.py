"""`w2c items export` (the cleaned dataset), `w2c export table` and `w2c export preference`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from w2c_tui.cli.context import EXIT_BAD_INPUT, fail, print_json, services
from w2c_tui.cli.outcome_options import FlagCode
from w2c_tui.domain.outcomes import CleanOptions, GoldSource, ItemFormat, Ratio, TableFormat

export_app = typer.Typer(help="Files for analysis and training.", no_args_is_help=True)

DatasetOpt = Annotated[
    str | None, typer.Option(help="Dataset (may be left out when the store has one).")
]
OutputOpt = Annotated[Path | None, typer.Option("-o", "--output", help="Where to write.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="What was written, as JSON on stdout.")]
DropOpt = Annotated[
    list[FlagCode] | None,
    typer.Option(
        "--drop-flagged",
        help="Drop items with this QA flag switched on by anyone (repeat it for several; "
        "`any`: every flagged item).",
    ),
]


def _options(drop: list[FlagCode] | None, gold: GoldSource, only_reviewed: bool) -> CleanOptions:
    return CleanOptions(
        drop_flags=frozenset(f.value for f in drop or ()), gold=gold, only_reviewed=only_reviewed
    )


def items_export(
    ctx: typer.Context,
    dataset: DatasetOpt = None,
    fmt: Annotated[ItemFormat, typer.Option("--format", help="Output format.")] = (
        ItemFormat.WHEN2CALL
    ),
    drop_flagged: DropOpt = None,
    gold: Annotated[
        GoldSource, typer.Option(help="Which gold to write (dataset, adjudicated, qa-consensus).")
    ] = GoldSource.DATASET,
    only_reviewed: Annotated[
        bool, typer.Option("--only-reviewed", help="Only items somebody reviewed in item QA.")
    ] = False,
    output: OutputOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The cleaned dataset, and beside it NAME.changelog.md listing every dropped or relabelled
    item and why. `when2call` is the official test-file format: an untouched item is written
    byte for byte as imported. Default output: exports/DATASET-clean.EXT."""
    options = _options(drop_flagged, gold, only_reviewed)
    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        report = svc.exports.items(name, fmt, options, output)
    if json_out:
        plan_doc = {
            "dataset": name,
            "path": report.path,
            "changelog": report.changelog,
            "format": report.format.value,
            "written": report.written,
            "dropped": report.dropped,
            "relabelled": report.relabelled,
            "ties_kept": report.ties_kept,
            "lines": {
                "raw": report.lines_raw,
                "relabelled": report.lines_relabelled,
                "rebuilt": report.lines_rebuilt,
            },
        }
        print_json(plan_doc)
        return
    typer.echo(
        f"wrote {report.written} item(s) to {report.path} ({report.format.value}); dropped "
        f"{report.dropped}, relabelled {report.relabelled}, ties kept {report.ties_kept}; "
        f"changelog: {report.changelog}",
        err=True,
    )
    if report.lines_rebuilt:
        typer.echo(
            f"note: {report.lines_rebuilt} item(s) had no imported line kept (imported before "
            "it was); they were rebuilt in the official layout. Importing the source file "
            "again keeps their lines.",
            err=True,
        )


@export_app.command("table")
def table(
    ctx: typer.Context,
    dataset: DatasetOpt = None,
    fmt: Annotated[TableFormat, typer.Option("--format", help="Output format.")] = (
        TableFormat.CSV
    ),
    output: OutputOpt = None,
) -> None:
    """One joined table: per unit (an item, or a model's latest response to it) the item, its
    gold, each rater's current label (humans, judges, scorers, adjudicated), the response
    text, QA flags and notes. Default output: exports/DATASET-table.FORMAT."""
    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        path, rows = svc.exports.table(name, fmt, output)
    typer.echo(f"wrote {rows} row(s) to {path}", err=True)


@export_app.command("preference")
def preference(
    ctx: typer.Context,
    seed: Annotated[int, typer.Option(help="Seed of the rejected answers and the sampling.")],
    dataset: DatasetOpt = None,
    ratio: Annotated[
        str | None,
        typer.Option(help="Tool-call : non-call pairs, e.g. 2:1 (default: every item)."),
    ] = None,
    drop_flagged: DropOpt = None,
    output: OutputOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """RPO/DPO pairs in the official When2Call preference format: chosen = the answer of the
    correct behaviour (gold, or an item adjudication), rejected = one of the other three drawn
    with the seed. A manifest NAME.pairs.csv beside it says which item each line is."""
    try:
        parsed = Ratio.parse(ratio) if ratio is not None else None
    except ValueError as error:
        raise fail(f"--ratio: {error}", EXIT_BAD_INPUT) from error
    options = _options(drop_flagged, GoldSource.ADJUDICATED, only_reviewed=False)
    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        report = svc.preference.export(name, seed, parsed, output, options)
    if json_out:
        print_json(
            {
                "dataset": name,
                "path": report.path,
                "manifest": report.manifest,
                "seed": report.seed,
                "ratio": str(report.ratio) if report.ratio else None,
                "pairs": len(report.pairs),
                "tool_call": report.n_tool_call,
                "other": report.n_other,
                "eligible": {
                    "tool_call": report.eligible_tool_call,
                    "other": report.eligible_other,
                },
                "dropped": report.dropped,
            }
        )
        return
    typer.echo(
        f"wrote {len(report.pairs)} pair(s) to {report.path}: {report.n_tool_call} tool call, "
        f"{report.n_other} other (of {report.eligible_tool_call} and {report.eligible_other} "
        f"eligible); manifest: {report.manifest}",
        err=True,
    )
