"""Label latency while several annotators label at once (the team workflow's load).

Builds a fresh database with the bundled demo (30 items, 60 responses), starts P labelling
processes that are released together, each recording N labels on the same units as the TUI
does (one committed transaction per label, taking the write lock first), and prints label
latency p50 / p95 / max per process count, labels per second, errors and duplicate current
verdicts (both must be 0).

    .venv/bin/python bench/bench_team.py                 # P = 1, 2, 4, 8; N = 100 each
    .venv/bin/python bench/bench_team.py --processes 8 --labels 300 --db postgresql+psycopg://…
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "db"))

from processes import run_together  # noqa: E402
from sqlalchemy import text  # noqa: E402

from w2c_tui.domain.review import ItemFilter, ReviewMode  # noqa: E402
from w2c_tui.services import open_services  # noqa: E402

WORKER = ROOT / "tests" / "db" / "concurrent_labels.py"


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(url: str, processes: int, labels: int) -> dict[str, object]:
    """One round: `processes` annotators (one name each) label the same units."""
    services = open_services(url)
    try:
        if not services.datasets.all():
            services.imports.import_demo()
        units = []
        for row in services.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 30):
            units += [(row.id, r.id) for r in services.review.detail(row.id, None).responses]
    finally:
        services.close()
    began = time.perf_counter()
    results = run_together(
        [
            [str(WORKER), url, f"ann{index}", str(index), str(labels), json.dumps(units)]
            for index in range(processes)
        ]
    )
    wall = time.perf_counter() - began
    latencies = [ms for r in results for ms in r["latencies_ms"]]
    errors = sum(len(r["errors"]) for r in results)
    services = open_services(url, migrate=False)
    try:
        with services.store.engine.connect() as connection:
            duplicates = connection.execute(
                text(
                    "SELECT COUNT(*) FROM (SELECT rater_id, item_id, COALESCE(response_id, 0) "
                    "FROM label WHERE is_current AND question = 'behaviour' "
                    "AND schema_name LIKE 'when2call-%' GROUP BY rater_id, item_id, "
                    "COALESCE(target_model_id, 0), COALESCE(response_id, 0) "
                    "HAVING COUNT(*) > 1) d"
                )
            ).scalar_one()
    finally:
        services.close()
    return {
        "processes": processes,
        "labels": len(latencies),
        "p50_ms": round(statistics.median(latencies), 2),
        "p95_ms": round(_quantile(latencies, 0.95), 2),
        "max_ms": round(max(latencies), 2),
        "labels_per_s": round(len(latencies) / wall, 1),
        "errors": errors,
        "duplicate_current": int(duplicates),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, nargs="*", default=[1, 2, 4, 8])
    parser.add_argument("--labels", type=int, default=100, help="labels per process")
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file per round)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for count in args.processes:
            url = args.db or f"sqlite:///{Path(folder) / f'team-{count}.db'}"
            print(f"… {count} process(es) × {args.labels} labels", file=sys.stderr)
            rows.append(run(url, count, args.labels))
    load = os.getloadavg()[0]
    if args.json:
        print(json.dumps({"load_1min": load, "rounds": rows}, indent=2))
        return
    where = args.db or "SQLite (WAL)"
    print(f"nproc {os.cpu_count()}, load (1 min) {load:.2f}, database {where}")
    print("procs  labels   p50 ms   p95 ms   max ms  labels/s  errors  dup. current")
    for r in rows:
        print(
            f"{r['processes']:>5}  {r['labels']:>6}  {r['p50_ms']:>7}  {r['p95_ms']:>7}  "
            f"{r['max_ms']:>7}  {r['labels_per_s']:>8}  {r['errors']:>6}  "
            f"{r['duplicate_current']:>12}"
        )


if __name__ == "__main__":
    main()
