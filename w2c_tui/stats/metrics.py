"""When2Call classification metrics for one rater against one reference (pure, JSON-able)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from w2c_tui.domain.labels import LABELS, InvalidMode, Label
from w2c_tui.stats.reference import class_scores

# Prediction codes: 0..3 are the labels in option order; these two states are never a class.
INVALID: Final = -1
"""The rater answered but its output could not be parsed into a label."""
MISSING: Final = -2
"""The rater has no answer for this unit."""

N_LABELS: Final = len(LABELS)
LABEL_NAMES: Final[tuple[str, ...]] = tuple(label.value for label in LABELS)
DIRECT: Final = Label.DIRECT.option
TOOL_CALL: Final = Label.TOOL_CALL.option
REQUEST_FOR_INFO: Final = Label.REQUEST_FOR_INFO.option
CANNOT_ANSWER: Final = Label.CANNOT_ANSWER.option

Codes = Sequence[int] | npt.NDArray[np.integer[Any]]
IntArray = npt.NDArray[np.int64]
Rate = dict[str, float | int | None]


def as_codes(values: Codes, *, name: str, states: bool) -> IntArray:
    """Validate a 1-D int sequence of label codes (and INVALID/MISSING when `states`)."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional")
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} must hold ints, got dtype {arr.dtype}")
    low = MISSING if states else 0
    if int(arr.min()) < low or int(arr.max()) >= N_LABELS:
        raise ValueError(f"{name} codes must lie in {low}..{N_LABELS - 1}")
    return arr.astype(np.int64)


def ratio(num: float, den: float) -> float | None:
    """num/den as a plain float, None when the denominator is 0."""
    return float(num) / float(den) if den else None


def _rate(num: int, den: int) -> Rate:
    return {"rate": ratio(num, den), "numerator": int(num), "denominator": int(den)}


@dataclass(frozen=True)
class _Scores:
    """Per-class counts and scores of one prediction vector."""

    confusion: IntArray  # 4x4, rows gold, columns pred, valid units only
    support: IntArray  # gold count per class over scored units (invalid included when strict)
    precision: list[float | None]
    recall: list[float | None]
    f1: list[float | None]
    union: list[int]  # sorted(set(gold) ∪ set(pred)) over scored units, states excluded

    def macro(self, labels: Sequence[int]) -> float | None:
        """Mean F1 over `labels`; an undefined F1 counts 0 (sklearn and API-suite convention)."""
        if not labels:
            return None
        return float(np.mean([self.f1[k] or 0.0 for k in labels]))


def _scores(gold: IntArray, pred: IntArray, scored: npt.NDArray[np.bool_]) -> _Scores:
    """Per-class counts and scores from scikit-learn (stats/reference.py).

    An invalid prediction on a scored unit (the strict mode) is passed to sklearn as a fifth
    code outside the labels: a false negative of its gold class, in no confusion cell.
    """
    valid = scored & (pred >= 0)
    as_sklearn = np.where(pred >= 0, pred, N_LABELS)
    confusion, precision, recall, f1 = class_scores(
        gold[scored], as_sklearn[scored], range(N_LABELS)
    )
    support = np.bincount(gold[scored], minlength=N_LABELS).astype(np.int64)
    union = sorted({int(g) for g in gold[scored]} | {int(p) for p in pred[valid]})
    return _Scores(
        confusion=confusion,
        support=support,
        precision=precision,
        recall=recall,
        f1=f1,
        union=union,
    )


@dataclass(frozen=True)
class Metrics:
    """Table 3 and metrics-panel numbers for one rater against one reference.

    Counts: `n` units passed in; `n_missing` have no prediction and are always excluded;
    `n_invalid` have an unparsable one; `n_valid` have a label; `n_scored` is the denominator of
    accuracy and of every rate under `invalid_mode` (valid, plus invalid when strict).
    `invalid_rate` = n_invalid / (n − n_missing). The confusion matrix counts valid units only:
    an invalid prediction is in no cell, but in `invalid_by_gold` (its gold row), and under the
    strict mode it adds to that class's support (a false negative), never to any precision.
    `macro_f1_ref` is fed by `pred` (for a log-prob rater, the raw argmax, as the patched
    harness did) and averages sklearn-style over `macro_f1_ref_labels`; `macro_f1_ref_norm` is
    the same over `pred_norm`. In `per_class` a precision/recall/F1 whose denominator is 0 is None;
    every macro average counts such an F1 as 0 (sklearn and API-suite convention). Rates are
    {"rate", "numerator", "denominator"} with rate None when the denominator is 0; tool
    hallucination adds `rate_official` (0.0 when undefined, as additional_metrics.py).
    """

    n: int
    n_valid: int
    n_scored: int
    n_invalid: int
    n_missing: int
    invalid_rate: float | None
    invalid_mode: str
    accuracy: float | None
    accuracy_invalid_missing: float | None
    accuracy_invalid_wrong: float | None
    accuracy_norm: float | None
    macro_f1_ref: float | None
    macro_f1_ref_labels: list[str]
    macro_f1_ref_source: str
    macro_f1_ref_norm: float | None
    macro_f1_4: float | None
    macro_f1_no_direct: float | None
    per_class: dict[str, dict[str, float | int | None]]
    confusion: list[list[int]]
    invalid_by_gold: list[int]
    tool_hallucination: Rate
    answer_hallucination: Rate
    parameter_hallucination: Rate

    def as_json(self) -> dict[str, object]:
        """A plain dict for json.dumps (no NaN anywhere)."""
        return asdict(self)


def compute_metrics(
    gold: Codes,
    pred: Codes,
    *,
    no_tools: Sequence[bool] | npt.NDArray[np.bool_],
    pred_norm: Codes | None = None,
    invalid_mode: InvalidMode = InvalidMode.MISSING,
) -> Metrics:
    """Score `pred` (codes 0..3, INVALID, MISSING) against `gold` (0..3 per unit).

    `no_tools[i]` is True when unit i offers no tools (for tool hallucination). `pred_norm` is the
    length-normalised argmax of a log-prob rater; its INVALID/MISSING units must match `pred`'s.
    """
    mode = InvalidMode(invalid_mode)
    g = as_codes(gold, name="gold", states=False)
    p = as_codes(pred, name="pred", states=True)
    tools_absent = np.asarray(no_tools, dtype=bool)
    if not len(g) == len(p) == len(tools_absent):
        raise ValueError("gold, pred and no_tools must have the same length")
    invalid, missing = p == INVALID, p == MISSING
    valid = p >= 0
    scored = valid | invalid if mode is InvalidMode.WRONG else valid
    n_valid, n_invalid, n_scored = int(valid.sum()), int(invalid.sum()), int(scored.sum())
    scores = _scores(g, p, scored)
    correct = int(np.trace(scores.confusion))

    accuracy_norm = macro_norm = None
    if pred_norm is not None:
        pn = as_codes(pred_norm, name="pred_norm", states=True)
        if len(pn) != len(p) or not np.array_equal(np.minimum(pn, 0), np.minimum(p, 0)):
            raise ValueError("pred_norm must have pred's length and its invalid/missing units")
        norm = _scores(g, pn, scored)
        accuracy_norm = ratio(np.trace(norm.confusion), n_scored)
        macro_norm = norm.macro(norm.union)

    no_tool_refusal = scored & (g == CANNOT_ANSWER) & tools_absent
    tool_hall = _rate(int((no_tool_refusal & (p == TOOL_CALL)).sum()), int(no_tool_refusal.sum()))
    tool_hall["rate_official"] = tool_hall["rate"] or 0.0
    rfi = scored & (g == REQUEST_FOR_INFO)
    return Metrics(
        n=len(g),
        n_valid=n_valid,
        n_scored=n_scored,
        n_invalid=n_invalid,
        n_missing=int(missing.sum()),
        invalid_rate=ratio(n_invalid, len(g) - int(missing.sum())),
        invalid_mode=mode.value,
        accuracy=ratio(correct, n_scored),
        accuracy_invalid_missing=ratio(correct, n_valid),
        accuracy_invalid_wrong=ratio(correct, n_valid + n_invalid),
        accuracy_norm=accuracy_norm,
        macro_f1_ref=scores.macro(scores.union),
        macro_f1_ref_labels=[LABEL_NAMES[k] for k in scores.union],
        macro_f1_ref_source="pred",
        macro_f1_ref_norm=macro_norm,
        macro_f1_4=scores.macro(range(N_LABELS)) if n_scored else None,
        macro_f1_no_direct=scores.macro(range(1, N_LABELS)) if n_scored else None,
        per_class={
            LABEL_NAMES[k]: {
                "precision": scores.precision[k],
                "recall": scores.recall[k],
                "f1": scores.f1[k],
                "support": int(scores.support[k]),
            }
            for k in range(N_LABELS)
        },
        confusion=scores.confusion.tolist(),
        invalid_by_gold=np.bincount(g[invalid], minlength=N_LABELS).tolist(),
        tool_hallucination=tool_hall,
        answer_hallucination=_rate(int((scored & (p == DIRECT) & (g != DIRECT)).sum()), n_scored),
        parameter_hallucination=_rate(int((rfi & (p == TOOL_CALL)).sum()), int(rfi.sum())),
    )


@dataclass(frozen=True)
class ClassRecall:
    """The official judge score of one gold class: recall, with the raw answer distribution."""

    label: str
    n: int
    correct: int
    recall: float
    distribution: dict[str, int]  # the four labels and "invalid"

    def as_json(self) -> dict[str, object]:
        """A plain dict for json.dumps."""
        return asdict(self)


def per_class_recall(gold: Codes, pred: Codes) -> dict[str, ClassRecall]:
    """The official judge aggregation (§3.4): per gold class present, mean(pred == gold).

    Invalid answers stay in and count as wrong (the official script counts any off-list string
    verbatim); missing ones are dropped. Differs from `Metrics.per_class` recall in the
    coverage-conditional mode, which drops invalid units too.
    """
    g = as_codes(gold, name="gold", states=False)
    p = as_codes(pred, name="pred", states=True)
    if len(g) != len(p):
        raise ValueError("gold and pred must have the same length")
    keep = p != MISSING
    g, p = g[keep], p[keep]
    out: dict[str, ClassRecall] = {}
    for k in sorted({int(x) for x in g}):
        answers = p[g == k]
        counts = np.bincount(answers + 1, minlength=N_LABELS + 1)  # index 0 = INVALID
        out[LABEL_NAMES[k]] = ClassRecall(
            label=LABEL_NAMES[k],
            n=len(answers),
            correct=int(counts[k + 1]),
            recall=float(counts[k + 1]) / len(answers),
            distribution={
                **{name: int(counts[j + 1]) for j, name in enumerate(LABEL_NAMES)},
                "invalid": int(counts[0]),
            },
        )
    return out
