"""Benchmark w2c-tui's import, review-screen and labelling paths on synthetic When2Call data."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from review_data import ANNOTATOR, DATASET, JUDGE, MODELS, write_items, write_judge_file
from review_figures import Report, load_average, machine_info, median_ms, peak_rss_mib, stopwatch
from review_floor import bench_floor, report_goals
from review_tui import bench_label_keys, bench_moves, bench_open

from w2c_tui.domain.labels import LABELS, Label
from w2c_tui.domain.review import ItemFilter, ListOrder, ReviewMode, ToolCount
from w2c_tui.io.options import ReadOptions
from w2c_tui.services import Services, open_services

SERVICE_ANNOTATOR = "bench-service"
DEEP_ROW = 90_000
TARGET_LABEL_MS = 10.0
# ---- sections -----------------------------------------------------------------------------


def fresh_db(workdir: Path, name: str) -> str:
    """A SQLite URL of a new, empty database file in `workdir`."""
    path = workdir / name
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return f"sqlite:///{path}"


def cli_command() -> list[str]:
    """The `w2c` entry point of this interpreter's environment."""
    script = Path(sys.executable).parent / "w2c"
    return [str(script)] if script.exists() else [sys.executable, "-m", "w2c_tui"]


def bench_import(report: Report, workdir: Path, n_import: int) -> None:
    """Section 1: import N_import items through the service and through the CLI."""
    path = workdir / f"when2call_bench_{n_import}.jsonl"
    took: list[float] = []
    with stopwatch(took):
        write_items(path, n_import, seed=1)
    mib = path.stat().st_size / 2**20
    report.add("import", f"generate {n_import} items", took[-1], "s", note=f"{mib:.1f} MiB")
    services = open_services(fresh_db(workdir, "import.db"))
    try:
        with stopwatch(took):
            result = services.imports.import_path(path, dataset="bench-import")
        assert result.items_new == n_import, result
    finally:
        services.close()
    report.add("import", "service import_path", took[-1], "s")
    report.add("import", "service import rate", n_import / took[-1], "items/s")
    url = fresh_db(workdir, "cli.db")
    with stopwatch(took):
        done = subprocess.run(
            [*cli_command(), "--db", url, "import", str(path)],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "W2C_CONFIG": str(workdir / "config.toml")},
        )
    if done.returncode != 0:
        raise RuntimeError(f"w2c import failed ({done.returncode}): {done.stderr[-2000:]}")
    report.add("import", "CLI `w2c import` (whole process)", took[-1], "s")
    report.add("import", "CLI import rate", n_import / took[-1], "items/s")


def build_review_db(
    report: Report, workdir: Path, n_items: int, n_responses: int, moves: int
) -> Services:
    """Section 2: the big review database, with two models' responses on the first items of
    the blind order (the one the screen shows) and on the deep rows the benchmark visits."""
    path = workdir / f"when2call_bench_{n_items}.jsonl"
    took: list[float] = []
    with stopwatch(took):
        head = write_items(
            path, n_items, seed=2, keep=n_responses, deep=(deep_row(n_items), moves + 2)
        )
    mib = path.stat().st_size / 2**20
    report.add("build", f"generate {n_items} items", took[-1], "s", note=f"{mib:.1f} MiB")
    services = open_services(fresh_db(workdir, "review.db"))
    with stopwatch(took):
        result = services.imports.import_path(path, dataset=DATASET)
    assert result.items_new == n_items, result
    report.add("build", f"import {n_items} items", took[-1], "s")
    report.add("build", "item import rate", n_items / took[-1], "items/s")
    report.add("build", "peak RSS so far", peak_rss_mib(), "MiB", note="the item import's peak")
    responders = head
    for number, model in enumerate(MODELS):
        judge_path = workdir / f"{model}.jsonl"
        write_judge_file(judge_path, responders, seed=10 + number)
        with stopwatch(took):
            services.imports.import_path(
                judge_path,
                dataset=DATASET,
                kind="official_judge",
                options=ReadOptions(target_model=model, judge=JUDGE),
            )
        report.add(
            "build",
            f"import judge file ({len(responders)} responses)",
            took[-1],
            "s",
            note=model,
        )
    return services


def bench_label_service(
    report: Report, services: Services, labels: int, n_items: int, n_responses: int
) -> None:
    """Section 5a: one committed, fsynced transaction per label, straight through the service
    (responses: the last `labels` of the items given responses, which the TUI part left)."""
    flt = ItemFilter()
    review = services.review
    blind = flt.with_(order=ListOrder.SHUFFLED)
    start = n_responses - labels
    rows = review.window(DATASET, blind, ReviewMode.RESPONSES, ANNOTATOR, start, labels)
    targets = []
    for row in rows:
        detail = review.detail(row.id, SERVICE_ANNOTATOR)
        response = next(r for panel in detail.models for r in panel.responses)
        assert response.id is not None
        targets.append((row.id, response.id))
    review.label_item(SERVICE_ANNOTATOR, rows[-1].id, Label.DIRECT)  # creates the rater
    took: list[float] = []
    for number, (item_id, response_id) in enumerate(targets):
        with stopwatch(took):
            review.label_response(SERVICE_ANNOTATOR, item_id, response_id, LABELS[number % 4])
    report.add_spread("label", "label_response (service)", took, TARGET_LABEL_MS)
    far = review.window(DATASET, flt, ReviewMode.ITEM_QA, SERVICE_ANNOTATOR, n_items // 2, labels)
    took = []
    for number, row in enumerate(far):
        with stopwatch(took):
            review.label_item(SERVICE_ANNOTATOR, row.id, LABELS[number % 4])
    report.add_spread("label", "label_item (service)", took, TARGET_LABEL_MS)


def bench_queries(report: Report, services: Services, n_items: int, deep: int) -> None:
    """Section 6: the list window and the counts the screen runs, alone."""
    review = services.review
    mode = ReviewMode.RESPONSES
    plain = ItemFilter()
    no_tools = ItemFilter(tools=ToolCount.NONE)

    def window(flt: ItemFilter, offset: int) -> Callable[[], object]:
        return lambda: review.window(DATASET, flt, mode, ANNOTATOR, offset, 200)

    def count(flt: ItemFilter, in_mode: ReviewMode) -> Callable[[], object]:
        return lambda: review.count(DATASET, flt, in_mode, ANNOTATOR)

    calls: list[tuple[str, Callable[[], object]]] = [
        (f"window(offset={offset}, 200)", window(plain, offset))
        for offset in (0, n_items // 2, max(0, n_items - 200))
    ]
    calls += [
        ("window(offset=0, 200), tools=0", window(no_tools, 0)),
        ("count: no filter", count(plain, mode)),
        ("count: gold=tool_call", count(ItemFilter(gold=Label.TOOL_CALL), mode)),
        ("count: tools=0", count(no_tools, mode)),
        ("count: search 'invoice'", count(ItemFilter(search="invoice"), mode)),
        ("count: unlabelled (responses mode)", count(ItemFilter(labelled=False), mode)),
        ("count: unlabelled (item QA)", count(ItemFilter(labelled=False), ReviewMode.ITEM_QA)),
    ]
    far = review.window(DATASET, plain, mode, ANNOTATOR, deep, 1)[0]
    calls += [
        (f"index_of(row {deep})", lambda: review.index_of(DATASET, plain, mode, ANNOTATOR, far.id)),
        ("progress (responses mode)", lambda: review.progress(DATASET, mode, ANNOTATOR)),
        ("progress (item QA)", lambda: review.progress(DATASET, ReviewMode.ITEM_QA, ANNOTATOR)),
        ("detail (item with 2 responses)", lambda: review.detail(first_id, ANNOTATOR)),
    ]
    first_id = review.window(DATASET, plain, mode, ANNOTATOR, 0, 1)[0].id
    for name, call in calls:
        value, note = median_ms(call)
        report.add("queries", name, value, "ms", note=note)


# ---- main ---------------------------------------------------------------------------------


def deep_row(n_items: int) -> int:
    """The row "deep down" the list: 90,000, or 90 % of a smaller list."""
    return min(DEEP_ROW, n_items * 9 // 10)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--items", type=int, default=100_000, help="items in the review db")
    parser.add_argument("--import-items", type=int, default=10_000, help="items to import")
    parser.add_argument("--responses", type=int, default=2000, help="items with responses")
    parser.add_argument("--moves", type=int, default=200, help="next-item steps per place")
    parser.add_argument("--labels", type=int, default=200, help="service labels per kind")
    parser.add_argument("--keys", type=int, default=200, help="TUI label keypresses per place")
    parser.add_argument("--workdir", type=Path, help="keep the files here (default: a tmp dir)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.items < 10 * (args.moves + args.labels) + args.responses:
        parser.error("--items must be at least 10 × (--moves + --labels) + --responses")
    if max(args.labels, args.keys * 2) > args.responses:
        parser.error("--responses must be at least --labels and twice --keys")
    return args


async def bench_tui(report: Report, services: Services, args: argparse.Namespace) -> None:
    """Sections 3, 4 and 5b: everything that runs the Textual app."""
    await bench_open(report, services)
    deep = deep_row(args.items)
    moves = await bench_moves(report, services, args.moves, deep)
    bare = await bench_floor(report, services, args.moves, moves["top"])
    keys = await bench_label_keys(report, services, args.keys, deep)
    report_goals(report, moves, keys, bare)


def main(argv: list[str] | None = None) -> int:
    """Run every section; print the table (or JSON) to stdout, progress to stderr."""
    args = parse_args(argv)
    owned = args.workdir is None
    workdir = Path(tempfile.mkdtemp(prefix="w2c-bench-")) if owned else args.workdir
    workdir.mkdir(parents=True, exist_ok=True)
    os.environ["W2C_CONFIG"] = str(workdir / "config.toml")
    params = {
        "items": args.items,
        "import_items": args.import_items,
        "responses": args.responses,
        "moves": args.moves,
        "labels": args.labels,
        "keys": args.keys,
    }
    report = Report(machine=machine_info(workdir), params=params)
    started = time.perf_counter()
    try:
        bench_import(report, workdir, args.import_items)
        services = build_review_db(report, workdir, args.items, args.responses, args.moves)
        try:
            bench_queries(report, services, args.items, deep_row(args.items))
            asyncio.run(bench_tui(report, services, args))
            bench_label_service(report, services, args.labels, args.items, args.responses)
        finally:
            services.close()
    finally:
        if owned:
            shutil.rmtree(workdir, ignore_errors=True)
    report.machine["load_at_end"] = load_average()
    report.add("total", "benchmark wall time", time.perf_counter() - started, "s")
    print(json.dumps(report.as_json(), indent=2) if args.json else report.table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
