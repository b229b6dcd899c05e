"""Run-to-run stability of k repeated predictions per unit (When2Call API-suite definitions)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from itertools import pairwise

from w2c_tui.stats.metrics import LABEL_NAMES, MISSING, N_LABELS, Codes, as_codes, ratio

METRICS: tuple[str, ...] = (
    "stability_at_k",
    "mean_consistency_at_k",
    "stable_and_correct_rate",
    "stable_but_wrong_rate",
    "mode_correct_rate",
    "mean_accuracy_across_runs",
    "mean_entropy",
    "mean_normalized_entropy",
    "mean_flip_rate",
)
"""Aggregate names, in report order; each is the mean of one per-unit value."""


@dataclass(frozen=True)
class UnitStability:
    """One unit's k runs (missing runs dropped, INVALID kept as its own symbol)."""

    k: int
    mode: int  # most frequent code; ties go to the code seen first; may be INVALID (-1)
    mode_count: int
    consistency: float  # mode_count / k
    is_stable: bool  # every run agrees
    is_mode_correct: bool
    accuracy: float  # share of runs equal to gold
    entropy: float  # bits, over the empirical run-symbol distribution
    normalized_entropy: float  # entropy / log2(4); can pass 1 when INVALID is a 5th symbol
    flip_rate: float  # changes between consecutive runs / (k − 1); 0 when k ≤ 1

    def values(self) -> dict[str, float]:
        """The per-unit value behind each aggregate in METRICS."""
        return {
            "stability_at_k": float(self.is_stable),
            "mean_consistency_at_k": self.consistency,
            "stable_and_correct_rate": float(self.is_stable and self.is_mode_correct),
            "stable_but_wrong_rate": float(self.is_stable and not self.is_mode_correct),
            "mode_correct_rate": float(self.is_mode_correct),
            "mean_accuracy_across_runs": self.accuracy,
            "mean_entropy": self.entropy,
            "mean_normalized_entropy": self.normalized_entropy,
            "mean_flip_rate": self.flip_rate,
        }


def unit_stability(runs: Sequence[int], gold: int) -> UnitStability | None:
    """Stability of one unit, or None when it has no non-missing run (not processed)."""
    labels = [int(r) for r in runs if int(r) != MISSING]
    if not labels:
        return None
    k = len(labels)
    counts: dict[int, int] = {}
    for label in labels:  # dicts keep first-seen order, so max() breaks ties to the first
        counts[label] = counts.get(label, 0) + 1
    mode = max(counts, key=lambda label: counts[label])
    m = counts[mode]
    entropy = 0.0 - sum(c / k * math.log2(c / k) for c in counts.values())
    flips = sum(a != b for a, b in pairwise(labels))
    return UnitStability(
        k=k,
        mode=mode,
        mode_count=m,
        consistency=m / k,
        is_stable=m == k,
        is_mode_correct=mode == gold,
        accuracy=labels.count(gold) / k,
        entropy=entropy,
        normalized_entropy=entropy / math.log2(N_LABELS),
        flip_rate=flips / (k - 1) if k > 1 else 0.0,
    )


def _means(units: Sequence[UnitStability], den: int) -> dict[str, float | None]:
    values = [u.values() for u in units]
    return {name: ratio(sum(v[name] for v in values), den) for name in METRICS}


@dataclass(frozen=True)
class Stability:
    """Aggregates over N (as the reference), over processed units, and per gold label.

    `over_n` divides by all N units (an unprocessed unit counts 0, as the API suite does);
    `over_processed` divides by the units with ≥ 1 run; `per_gold[label]` divides by that
    label's processed units (the reference's `<metric>_gold_<label>`) and adds its counts.
    """

    n: int
    n_processed: int
    coverage: float | None
    k: int | None  # runs per processed unit when uniform, else None (see k_min, k_max)
    k_min: int | None
    k_max: int | None
    over_n: dict[str, float | None]
    over_processed: dict[str, float | None]
    per_gold: dict[str, dict[str, float | int | None]]
    units: list[dict[str, object] | None]  # per unit, None when not processed

    def as_json(self) -> dict[str, object]:
        """A plain dict for json.dumps."""
        return asdict(self)


def stability(runs: Sequence[Sequence[int]], gold: Codes) -> Stability:
    """Stability of `runs[i]` (k codes: 0..3, INVALID, or MISSING which is dropped) vs gold[i]."""
    g = as_codes(gold, name="gold", states=False)
    if len(runs) != len(g):
        raise ValueError("runs and gold must have the same length")
    units = []
    for i, unit_runs in enumerate(runs):
        codes = as_codes(unit_runs, name=f"runs[{i}]", states=True)
        units.append(unit_stability(codes.tolist(), int(g[i])))
    done = [u for u in units if u is not None]
    ks = sorted({u.k for u in done})
    per_gold: dict[str, dict[str, float | int | None]] = {}
    for label in range(N_LABELS):
        mine = [u for u, gi in zip(units, g, strict=True) if gi == label]
        mine_done = [u for u in mine if u is not None]
        per_gold[LABEL_NAMES[label]] = {
            "n": len(mine),
            "n_processed": len(mine_done),
            **_means(mine_done, len(mine_done)),
        }
    return Stability(
        n=len(g),
        n_processed=len(done),
        coverage=ratio(len(done), len(g)),
        k=ks[0] if len(ks) == 1 else None,
        k_min=ks[0] if ks else None,
        k_max=ks[-1] if ks else None,
        over_n=_means(done, len(g)),
        over_processed=_means(done, len(done)),
        per_gold=per_gold,
        units=[asdict(u) if u is not None else None for u in units],
    )


def stability_metrics(runs: Sequence[Sequence[int]], gold: Codes) -> dict[str, object]:
    """`stability(runs, gold)` as a plain JSON-able dict."""
    return stability(runs, gold).as_json()
