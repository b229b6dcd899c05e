"""How long `w2c estimate`'s computation takes on 100,000 units.

Builds, in memory, what the store hands the estimate service for a dataset of N units of one
target model: the items' facts and the current verdicts (a judge on every unit, 1 % of them
invalid, and one human on `--labelled` units), then times what the service does with them:
arranging the readings, the human consensus, and each metric's split and estimate (macro-F1
with `--bootstrap` resamples). Reading the rows from the database is left out: it is the same
query `w2c metrics` runs, and bench_review.py times imports and reads at this scale.

    .venv/bin/python bench/bench_estimate.py                # 100,000 units, 1,000 labelled
    .venv/bin/python bench/bench_estimate.py --units 20000 --json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from w2c_tui.domain.estimate import CorrectedDoc, EstimateMetric  # noqa: E402
from w2c_tui.domain.labels import LABELS, RaterKind, VerdictStatus  # noqa: E402
from w2c_tui.domain.models import ItemFacts, Rater, Rating  # noqa: E402
from w2c_tui.domain.review import UnitKind  # noqa: E402
from w2c_tui.services.consensus import consensus  # noqa: E402
from w2c_tui.services.estimate import document  # noqa: E402
from w2c_tui.services.readings import build_readings  # noqa: E402

MODEL = "bench-model"
T = TypeVar("T")


def data(units: int, labelled: int, seed: int) -> tuple[list[ItemFacts], list[Rating]]:
    """Items with gold, a judge's verdict on every unit, a human's on the first `labelled`."""
    rng = np.random.default_rng(seed)
    gold = rng.choice(4, size=units, p=[0.2, 0.35, 0.2, 0.25])
    truth = np.where(rng.random(units) < 0.7, gold, (gold + rng.integers(1, 4, units)) % 4)
    judge = np.where(rng.random(units) < 0.15, (truth + 1) % 4, truth)
    invalid = rng.random(units) < 0.01
    tools = rng.integers(0, 4, units)
    judge_rater = Rater(1, RaterKind.JUDGE, "bench-judge")
    human = Rater(2, RaterKind.HUMAN, "alice")
    now = datetime.now(UTC)
    items, ratings = [], []
    for k in range(units):
        items.append(ItemFacts(k, f"u{k}", k, LABELS[gold[k]], int(tools[k])))
        status = VerdictStatus.INVALID if invalid[k] else VerdictStatus.OK
        label = None if invalid[k] else LABELS[judge[k]]
        ratings.append(Rating(k, f"u{k}", MODEL, k, judge_rater, label, status, {}, now))
        if k < labelled:
            ratings.append(
                Rating(k, f"u{k}", MODEL, k, human, LABELS[truth[k]], VerdictStatus.OK, {}, now)
            )
    return items, ratings


def timed(label: str, fn: Callable[[], T], rows: list[tuple[str, float]]) -> T:
    start = time.perf_counter()
    result = fn()
    rows.append((label, time.perf_counter() - start))
    print(f"  {label}: {rows[-1][1]:.2f} s", file=sys.stderr)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--units", type=int, default=100_000)
    parser.add_argument("--labelled", type=int, default=1_000)
    parser.add_argument("--bootstrap", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows: list[tuple[str, float]] = []
    items, ratings = data(args.units, args.labelled, args.seed)
    readings = timed("readings", lambda: build_readings(items, ratings, UnitKind.BEHAVIOUR), rows)
    reference = timed("consensus", lambda: consensus(readings).labels, rows)
    rater = readings.rater("judge:bench-judge")
    docs: dict[str, CorrectedDoc] = {}
    for metric in EstimateMetric:

        def run(metric: EstimateMetric = metric) -> CorrectedDoc:
            return document(
                readings, reference, "bench", MODEL, rater, metric, 1, args.seed, args.bootstrap
            )

        docs[metric.value] = timed(metric.value, run, rows)
    total = sum(seconds for _, seconds in rows)
    if args.json:
        figures = {"units": args.units, "labelled": args.labelled, "seconds": dict(rows)}
        print(json.dumps({**figures, "total": total}, indent=2))
        return
    print(f"w2c estimate's computation: {args.units:,} units, {args.labelled:,} labelled")
    for label, seconds in rows:
        print(f"  {label:<26} {seconds:7.2f} s")
    print(f"  {'all five metrics, in all':<26} {total:7.2f} s")
    acc = docs["accuracy"].to_json()
    judge_only = acc["judge_only"]
    assert isinstance(judge_only, dict)
    print(f"  accuracy corrected {acc['corrected']}, judge only {judge_only['value']:.4f}")


if __name__ == "__main__":
    main()
