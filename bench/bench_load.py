"""Load test (issue 10): 8 annotator processes labelling for 60 s while a run's worker writes
results, on SQLite (WAL) and on PostgreSQL; every acknowledged label must be in the database,
no unit may have two current verdicts, no annotator may see an error. Prints label latency
p50/p95 and the run's throughput for each database.

    .venv/bin/python bench/bench_load.py [--seconds 60] [--annotators 8] [--items 20000]
        [--think-ms 200]
        [--pg-url postgresql+psycopg://postgres@127.0.0.1:55432/postgres] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from pg_scratch import fresh_pg
from review_data import DATASET, MODELS, write_items, write_judge_file
from review_figures import load_average
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from load_harness import run_load, summary

from w2c_tui.io.options import ReadOptions
from w2c_tui.services import Services, open_services

PG_DATABASE = "w2c_bench_load"
RESPONDED = 400


def build(url: str, folder: Path, n_items: int) -> Services:
    """The synthetic items, two models' responses on the first RESPONDED of them."""
    path = folder / "items.jsonl"
    if not path.exists():
        head = write_items(path, n_items, seed=5, keep=RESPONDED)
        for number, model in enumerate(MODELS):
            write_judge_file(folder / f"{model}.jsonl", head, seed=20 + number)
    services = open_services(url)
    services.imports.import_path(path, dataset=DATASET)
    for model in MODELS:
        services.imports.import_path(
            folder / f"{model}.jsonl",
            dataset=DATASET,
            kind="official_judge",
            options=ReadOptions(target_model=model, judge="bench-judge"),
        )
    return services


def main(argv: list[str] | None = None) -> int:
    """Build, load, check, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--annotators", type=int, default=8)
    parser.add_argument("--items", type=int, default=20_000, help="items the run goes through")
    parser.add_argument("--pg-url", help="a PostgreSQL server URL to run there too")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=200.0,
        help="pause after each label, ±50%% (a person reads the next item; 0: a stress test)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    print(f"load average at start: {load_average()}", file=sys.stderr)
    results = []
    with tempfile.TemporaryDirectory(prefix="w2c-load-") as name:
        folder = Path(name)
        targets = [f"sqlite:///{folder / 'load.db'}"]
        if args.pg_url:
            targets.append(fresh_pg(args.pg_url, PG_DATABASE))
        for url in targets:
            services = build(url, folder, args.items)
            try:
                work = folder / make_url(url).get_backend_name()
                work.mkdir()
                result = run_load(
                    services,
                    DATASET,
                    work,
                    args.annotators,
                    args.seconds,
                    RESPONDED * 2,
                    args.think_ms / 1000,
                )
            finally:
                services.close()
            results.append(result)
            print(result.line(), file=sys.stderr)
    print(f"load average at end: {load_average()}", file=sys.stderr)
    if args.json:
        print(json.dumps([summary(r) for r in results], indent=2))
    else:
        for result in results:
            print(result.line())
    failed = [r for r in results if (r.lost, r.duplicates, r.errors) != (0, 0, 0)]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
