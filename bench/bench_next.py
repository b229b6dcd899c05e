"""`w2c next` on 100,000 units: how long ranking the queue and estimating take.

Builds the readings in memory (no database: reading them from the store is what
bench_review.py and bench_agreement.py time) — N responses, a judge and three other automated
readers, and human labels on the first `--labelled` units of the queue — then times
`services.next_units.plan_readings` (the priors, weights, the seeded priority queue, the
estimate and the stopping rule) and, separately, the stats core alone.

    .venv/bin/python bench/bench_next.py [--units 100000] [--labelled 500] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from w2c_tui.domain.labels import LABELS, RaterKind
from w2c_tui.domain.review import UnitKind
from w2c_tui.services.next_units import NextOptions, plan_readings
from w2c_tui.services.readings import RaterInfo, Readings, Unit
from w2c_tui.stats import active


def readings(n: int, labelled: int, seed: int = 0) -> Readings:
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 4, n)
    hard = rng.random(n) < 0.2
    raters = [
        RaterInfo("judge:bench", RaterKind.JUDGE, "bench"),
        RaterInfo("logprob:a", RaterKind.MCQ_LOGPROB, "a"),
        RaterInfo("mcq-index:b", RaterKind.MCQ_INDEX, "b"),
        RaterInfo("judge:other", RaterKind.JUDGE, "other"),
        RaterInfo("human:h", RaterKind.HUMAN, "h"),
    ]
    units = [
        Unit(f"u{i}", i // 2, f"uuid-{i // 2}", i // 2, f"m{i % 2}", LABELS[gold[i]], 2)
        for i in range(n)
    ]
    out = Readings(kind=UnitKind.BEHAVIOUR, units=units, raters=raters)
    for rater, easy, tough in (
        (raters[0], 0.97, 0.45),
        (raters[1], 0.9, 0.4),
        (raters[2], 0.85, 0.35),
        (raters[3], 0.93, 0.5),
    ):
        right = rng.random(n) < np.where(hard, tough, easy)
        codes = np.where(right, gold, (gold + rng.integers(1, 4, n)) % 4)
        for u, c in zip(units, codes, strict=True):
            out.values[(u.key, rater.key)] = LABELS[c]
    # humans label the gold answer on the queue's first units (as `w2c next` lists them)
    first = plan_readings(out, "bench", NextOptions(judge="judge:bench", k=labelled, bar=0.8))
    by_place = {(u.item_uuid, u.target_model): u for u in units}
    for nxt in first.next:
        unit = by_place[(nxt.item_uuid, nxt.target_model)]
        out.values[(unit.key, "human:h")] = unit.gold  # type: ignore[assignment]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=100_000)
    parser.add_argument("--labelled", type=int, default=500)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    t0 = time.perf_counter()
    data = readings(args.units, args.labelled)
    built = time.perf_counter() - t0
    t0 = time.perf_counter()
    result = plan_readings(data, "bench", NextOptions(judge="judge:bench", k=20, bar=0.8))
    planned = time.perf_counter() - t0
    rng = np.random.default_rng(1)
    f = active.prior(
        rng.integers(0, 4, args.units), np.full(args.units, 3), np.zeros(args.units, bool), 0.85
    )
    t0 = time.perf_counter()
    w = active.weights(f)
    q = active.priorities(w, 0)
    lab = np.zeros(args.units, bool)
    lab[active.queue(q)[: args.labelled]] = True
    est = active.estimate(f, w, q, lab, rng.random(args.units) < f)
    core = time.perf_counter() - t0
    figures = {
        "units": args.units,
        "labelled": args.labelled,
        "build_readings_s": round(built, 3),
        "plan_s": round(planned, 3),
        "stats_core_s": round(core, 4),
        "estimate": est.value,
        "decision": result.decision,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for key, value in figures.items():
        print(f"{key:>18}  {value}")


if __name__ == "__main__":
    main()
