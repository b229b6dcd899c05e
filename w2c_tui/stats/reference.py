"""Point values from scikit-learn, the reference for Cohen's κ, confusion matrices and F1.

The bootstrap intervals stay vectorised (a Python loop over 1,000 sklearn calls takes ~15 s
on 64k pairs; AGREEMENT.md §9); the point values come from sklearn itself, called the safe way:
on the pairwise-complete overlap only, always with the full label list (the `labels=` subset
trap of §8 silently drops items).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

EMPTY_OVERLAP = "the two raters never labelled the same unit (empty overlap)"
SAME_SINGLE = "both raters used one and the same single category: chance agreement is 1"


def _metrics() -> Any:
    from sklearn import metrics

    return metrics


def kappa_point(a: npt.ArrayLike, b: npt.ArrayLike, q: int) -> tuple[float | None, str | None]:
    """Cohen's κ on the overlap of two code vectors (-1 = missing), with numpy on the codes:
    sklearn's `cohen_kappa_score(a, b, labels=range(q))` computed the way it computes it (the
    q × q confusion, the outer product of its margins over n, 1 − Σ off-diagonal observed /
    Σ off-diagonal expected), so the value is the same to the last bit; the tests hold it
    against sklearn. One bincount instead of sklearn's checks: 5 raters × 100,000 units took
    ~2.8 s in sklearn."""
    ca, cb = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    both = (ca >= 0) & (cb >= 0)
    if not both.any():
        return None, EMPTY_OVERLAP
    confusion = np.bincount(ca[both] * q + cb[both], minlength=q * q).reshape(q, q)
    sum0 = np.sum(confusion, axis=0)
    sum1 = np.sum(confusion, axis=1)
    expected = np.outer(sum0, sum1) / np.sum(sum0)
    off = np.ones((q, q), dtype=int)
    off.flat[:: q + 1] = 0
    with np.errstate(divide="ignore", invalid="ignore"):
        value = float(1 - np.sum(off * confusion) / np.sum(off * expected))
    if not np.isfinite(value):
        return None, SAME_SINGLE
    return value, None


def class_scores(
    gold: npt.ArrayLike, pred: npt.ArrayLike, labels: Sequence[int]
) -> tuple[npt.NDArray[np.int64], list[float | None], list[float | None], list[float | None]]:
    """(confusion over `labels`, precision, recall, F1 per label) from sklearn.

    `pred` may hold codes outside `labels` (an invalid output scored as wrong): such a unit is
    a false negative of its gold class and in no confusion cell, as sklearn counts it. A score
    whose denominator is 0 is None.
    """
    g, p = np.asarray(gold, dtype=np.int64), np.asarray(pred, dtype=np.int64)
    label_list = list(labels)
    if g.size == 0:  # sklearn refuses empty input; nothing is defined
        empty: list[float | None] = [None] * len(label_list)
        zeros = np.zeros((len(label_list), len(label_list)), dtype=np.int64)
        return zeros, empty, list(empty), list(empty)
    m = _metrics()
    confusion = m.confusion_matrix(g, p, labels=label_list).astype(np.int64)
    precision, recall, f1, _ = m.precision_recall_fscore_support(
        g, p, labels=label_list, average=None, zero_division=np.nan
    )

    def clean(values: Any) -> list[float | None]:
        return [float(v) if np.isfinite(v) else None for v in values]

    return confusion, clean(precision), clean(recall), clean(f1)
