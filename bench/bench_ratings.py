"""Benchmark: `w2c agreement --ratings FILE` at scale, the whole command as a user runs it.

Writes a seeded long-format CSV (5 raters × 100,000 units, 4 classes with prevalence
.55/.25/.15/.05, each label replaced by a uniform class with probability .3, 20% missing: the
data of bench_agreement.py), then times, in the same run:

- the whole command (`w2c agreement --ratings FILE --json`, 1,000 bootstrap resamples) as a
  process, median of `--repeat` runs, against the goal of 4 s;
- its floor: the same interpreter starting and importing the CLI (`w2c --version`);
- inside one process: reading the file into codes, and the agreement document.

The 1-minute load average is printed at the start and the end: figures on a shared machine
follow its load.

Run: ``.venv/bin/python bench/bench_ratings.py [--units N] [--repeat 3] [--workdir DIR]``
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from w2c_tui.io.ratings import read_rating_codes
from w2c_tui.stats import RatingTable, agreement_summary

CATS = ["direct", "tool_call", "request_for_info", "cannot_answer"]
GOAL_S = 4.0


def write(path: Path, n_units: int, n_raters: int = 5, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    truth = rng.choice(4, size=n_units, p=[0.55, 0.25, 0.15, 0.05])
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["item", "rater", "label"])
        for r in range(n_raters):
            labels = np.where(rng.random(n_units) < 0.3, rng.integers(0, 4, n_units), truth)
            missing = rng.random(n_units) < 0.2
            out.writerows(
                (f"item-{i:06d}", f"rater{r}", "" if missing[i] else CATS[labels[i]])
                for i in range(n_units)
            )


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workdir", type=Path, default=None)
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}; cores: {os.cpu_count()}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.workdir or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "ratings.csv"
        write(path, args.units)
        w2c = str(Path(sys.executable).with_name("w2c"))
        whole = [
            timed([w2c, "agreement", "--ratings", str(path), "--json"]) for _ in range(args.repeat)
        ]
        floor = [timed([w2c, "--version"]) for _ in range(args.repeat)]
        start = time.perf_counter()
        read = read_rating_codes(path)
        t_read = time.perf_counter() - start
        start = time.perf_counter()
        table = RatingTable.from_coded_long(
            read.unit, read.rater, read.label, read.units, read.raters, read.labels
        )
        agreement_summary(table, bootstrap=1000, seed=0)
        t_stats = time.perf_counter() - start
    rows = len(read.unit)
    print(f"{rows:,} ratings ({args.units:,} units × {len(read.raters)} raters), B = 1000")
    print(
        f"whole command, median of {args.repeat}: {statistics.median(whole):.2f} s "
        f"(goal ≤ {GOAL_S:.1f} s; runs {', '.join(f'{t:.2f}' for t in whole)})"
    )
    print(f"floor (`w2c --version`: start + CLI imports): {statistics.median(floor):.2f} s")
    print(
        f"in one process: read into codes {t_read:.2f} s ({rows / t_read:,.0f} rows/s), "
        f"agreement document {t_stats:.2f} s"
    )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
