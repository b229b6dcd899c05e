"""What to label next, simulated over the 300 real When2Call judge-subset items.

Each replay draws a world: a fifth of the items are hard; a judge (right 97% / 45% of the
time on easy / hard items) and three other automated readers (log-prob, MCQ-index, a judge
repeat; 85–93% / 35–50%) read every item, a wrong reading falling on any wrong class. The
items' recorded gold labels are the human labels (the oracle). The question: can the judge
stand in — is its agreement with the humans at least the bar 0.80? — with the stopping rule
of stats.active (20 labels at least; stop when the interval is on one side of the bar or
narrower than 0.10).

Compared per replay: the labels the informative-first order needs against the median that
stratified random sampling (proportional by gold, Agresti–Coull per stratum) needs over 25
random orders of the same world; and the coverage of θ (the full-data agreement) by the
weighted interval where the active order stops.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import numpy.typing as npt

from w2c_tui.stats import active

BAR, WIDTH, REPLAYS, RANDOM_ORDERS = 0.80, 0.10, 200, 25
CODES = {"direct": 0, "tool_call": 1, "request_for_info": 2, "cannot_answer": 3}
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def items(path: Path) -> tuple[IntArray, FloatArray]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    gold = np.array([CODES[r["correct_answer"]] for r in rows])
    questions = [" ".join(r["question"].lower().split()) for r in rows]
    counts = Counter(questions)
    return gold, np.array([counts[q] for q in questions], dtype=float)


def world(rng: np.random.Generator, gold: IntArray) -> tuple[FloatArray, FloatArray, IntArray]:
    """y (judge agrees with the human), the agreement of its readers, and the judge."""
    n = gold.shape[0]
    hard = rng.random(n) < 0.2

    def reader(easy: float, tough: float) -> IntArray:
        right = rng.random(n) < np.where(hard, tough, easy)
        return np.where(right, gold, (gold + rng.integers(1, 4, n)) % 4)

    judge = reader(0.97, 0.45)
    others = [reader(0.90, 0.40), reader(0.85, 0.35), reader(0.93, 0.50)]
    readings = [judge, *others]
    pairs = [(a == b).mean() for i, a in enumerate(readings) for b in readings[i + 1 :]]
    agree = sum((o == judge).astype(int) for o in others)
    f = active.prior(
        agree,
        np.full(n, 3),
        np.zeros(n, bool),
        active.accuracy_from_agreement(float(np.mean(pairs))),
    )
    return (judge == gold).astype(float), f, judge


def stops(lo: FloatArray, hi: FloatArray, n: IntArray) -> int:
    """The first label count at which the rule stops (the last one if it never does)."""
    stop = (n >= active.MIN_LABELS) & ((lo >= BAR) | (hi < BAR) | (hi - lo < WIDTH))
    return int(n[np.argmax(stop)]) if stop.any() else int(n[-1])


def random_stop(rng: np.random.Generator, gold: IntArray, y: FloatArray) -> int:
    """Labels stratified random sampling needs: median over RANDOM_ORDERS orders."""
    n_units = gold.shape[0]
    classes = np.unique(gold)
    sizes = np.array([(gold == k).sum() for k in classes], dtype=float)
    takes = []
    for _ in range(RANDOM_ORDERS):
        strata = [rng.permutation(np.flatnonzero(gold == k)) for k in classes]
        # proportional allocation: strata interleaved by each unit's place in its stratum
        keys = np.concatenate([(np.arange(len(s)) + 0.5) / len(s) for s in strata])
        order = np.concatenate(strata)[np.argsort(keys, kind="stable")]
        onehot = (gold[order][:, None] == classes[None, :]).astype(float)
        nh = np.cumsum(onehot, axis=0)
        sh = np.cumsum(onehot * y[order][:, None], axis=0)
        weight = sizes / n_units
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = np.where(nh > 0, sh / nh, 0.0)
            p = (sh + 1) / (nh + 2)
            var = np.where(nh > 0, weight**2 * p * (1 - p) / nh * (1 - nh / sizes), 0.0)
        complete = (nh > 0).all(axis=1)
        value = (weight * mean).sum(axis=1)
        half = 1.96 * np.sqrt(var.sum(axis=1))
        n = np.arange(1, n_units + 1)
        lo = np.where(complete, value - half, -np.inf)
        hi = np.where(complete, value + half, np.inf)
        takes.append(stops(lo, hi, n))
    return int(np.median(takes))


def test_informative_first_needs_fewer_labels_and_its_interval_covers(judge_file: Path) -> None:
    gold, groups = items(judge_file)
    rng = np.random.default_rng(2026)
    fewer, covered, act, rand = 0, 0, [], []
    for replay in range(REPLAYS):
        y, f, _ = world(rng, gold)
        w = active.weights(f, groups)
        q = active.priorities(w, seed=replay)
        n, _, lo, hi = active.walk(f, w, q, y)
        n_active = stops(lo, hi, n)
        at = n_active - 1
        covered += bool(lo[at] <= y.mean() <= hi[at])
        n_random = random_stop(rng, gold, y)
        fewer += n_active <= 0.7 * n_random
        act.append(n_active)
        rand.append(n_random)
    print(
        f"labels: active median {np.median(act):.0f}, random median {np.median(rand):.0f}; "
        f"≥30% fewer in {fewer / REPLAYS:.1%}; coverage at the stop {covered / REPLAYS:.1%}"
    )
    assert fewer / REPLAYS >= 0.80
    assert covered / REPLAYS >= 0.93
