"""compute_metrics and per_class_recall against hand-derived numbers and sklearn."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix, f1_score

from w2c_tui.stats.metrics import (
    INVALID,
    MISSING,
    InvalidMode,
    Metrics,
    compute_metrics,
    per_class_recall,
)

D, T, R, C = 0, 1, 2, 3  # direct, tool_call, request_for_info, cannot_answer

# Set A: direct never appears. Confusion rows gold: T→{T:1, R:1}, R→{R:2}, C→{C:1, T:1}.
# F1_k = 2TP/(#pred_k + #gold_k): T 2/(2+2)=1/2, R 4/(3+2)=4/5, C 2/(1+2)=2/3.
# Over the union {T,R,C}: (1/2+4/5+2/3)/3 = 59/90; fixed 4 labels: (59/30)/4 = 59/120.
GOLD_A = [T, T, R, R, C, C]
PRED_A = [T, R, R, R, C, T]
# Set B: the last prediction becomes direct. T 2/(1+2)=2/3, R 4/5, C 2/3, D 0/(1+0)=0.
# Union {D,T,R,C}: (2/3+4/5+2/3+0)/4 = (32/15)/4 = 8/15; without direct: (32/15)/3 = 32/45.
# One `direct` costs exactly 25% relative: 8/15 = 3/4 · 32/45 (§2.3).
GOLD_B = [T, T, R, R, C, C]
PRED_B = [T, R, R, R, C, D]


def metrics(gold: list[int], pred: list[int], **kwargs: object) -> Metrics:
    return compute_metrics(gold, pred, no_tools=[False] * len(gold), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("gold", "pred", "ref", "labels", "f1_4", "f1_3"),
    [
        (
            GOLD_A,
            PRED_A,
            59 / 90,
            ["tool_call", "request_for_info", "cannot_answer"],
            59 / 120,
            59 / 90,
        ),
        (
            GOLD_B,
            PRED_B,
            8 / 15,
            ["direct", "tool_call", "request_for_info", "cannot_answer"],
            8 / 15,
            32 / 45,
        ),
    ],
    ids=["direct-never", "direct-once"],
)
def test_macro_f1_variants(
    gold: list[int], pred: list[int], ref: float, labels: list[str], f1_4: float, f1_3: float
) -> None:
    m = metrics(gold, pred)
    assert m.macro_f1_ref == pytest.approx(ref)
    assert m.macro_f1_ref_labels == labels
    assert m.macro_f1_ref_source == "pred"
    assert m.macro_f1_4 == pytest.approx(f1_4)
    assert m.macro_f1_no_direct == pytest.approx(f1_3)
    # The reference-compatible form is sklearn's default (labels=None → sorted union).
    assert m.macro_f1_ref == pytest.approx(f1_score(gold, pred, average="macro"))
    assert m.accuracy == pytest.approx(4 / 6)


def test_minus_25_percent_effect() -> None:
    """B differs from A only in one wrong answer (tool_call → direct): same accuracy 4/6."""
    a, b = metrics(GOLD_A, PRED_A), metrics(GOLD_B, PRED_B)
    assert a.accuracy == b.accuracy
    assert (len(a.macro_f1_ref_labels), len(b.macro_f1_ref_labels)) == (3, 4)
    assert b.macro_f1_no_direct is not None
    assert b.macro_f1_ref == pytest.approx(0.75 * b.macro_f1_no_direct)
    assert a.macro_f1_ref == pytest.approx(59 / 90) and b.macro_f1_ref == pytest.approx(8 / 15)


def test_sklearn_equals_api_suite_forms_as_stated() -> None:
    """§4.5: sklearn = macro_f1_no_direct if direct is never predicted, else = macro_f1_4."""
    rng = np.random.default_rng(7)
    for _ in range(50):
        gold = rng.integers(1, 4, size=40).tolist()
        pred = rng.integers(0, 4, size=40).tolist()
        if rng.random() < 0.5:
            pred = [p if p else T for p in pred]
        m = metrics(gold, pred)
        sk = f1_score(gold, pred, average="macro", zero_division=0)
        expected = m.macro_f1_4 if D in pred else m.macro_f1_no_direct
        assert sk == pytest.approx(expected)
        assert m.macro_f1_ref == pytest.approx(sk)
        fixed = f1_score(gold, pred, labels=[0, 1, 2, 3], average="macro", zero_division=0)
        assert m.macro_f1_4 == pytest.approx(fixed)


def test_confusion_is_always_4x4_rows_gold() -> None:
    m = metrics(GOLD_A, PRED_A)
    assert m.confusion == [[0, 0, 0, 0], [0, 1, 1, 0], [0, 0, 2, 0], [0, 1, 0, 1]]
    # The official script's call gives 3x3 here, hence its crash (§2.5); ours passes labels.
    assert confusion_matrix(GOLD_A, PRED_A).shape == (3, 3)
    assert m.confusion == confusion_matrix(GOLD_A, PRED_A, labels=[0, 1, 2, 3]).tolist()
    assert metrics(GOLD_B, PRED_B).confusion[C] == [1, 0, 0, 1]


def test_per_class_scores() -> None:
    pc = metrics(GOLD_A, PRED_A).per_class
    assert pc["tool_call"] == {"precision": 0.5, "recall": 0.5, "f1": 0.5, "support": 2}
    assert pc["request_for_info"]["precision"] == pytest.approx(2 / 3)
    assert pc["request_for_info"]["recall"] == 1.0
    assert pc["cannot_answer"] == pytest.approx(
        {"precision": 1.0, "recall": 0.5, "f1": 2 / 3, "support": 2}
    )
    # direct: never gold, never predicted → undefined, not 0.
    assert pc["direct"] == {"precision": None, "recall": None, "f1": None, "support": 0}


# Fact 15: 17 no-tool units, all gold cannot_answer: 5 predicted tool_call, 10 cannot_answer,
# 2 request_for_info → 5/17. Three cannot_answer units WITH tools predicted tool_call and two
# tool_call units do not count.
HALL_GOLD = [C] * 17 + [C] * 3 + [T] * 2
HALL_PRED = [T] * 5 + [C] * 10 + [R] * 2 + [T] * 3 + [T] * 2
HALL_NO_TOOLS = [True] * 17 + [False] * 5


def test_tool_hallucination_fact_15() -> None:
    m = compute_metrics(HALL_GOLD, HALL_PRED, no_tools=HALL_NO_TOOLS)
    assert m.tool_hallucination == {
        "rate": pytest.approx(5 / 17),
        "rate_official": pytest.approx(5 / 17),
        "numerator": 5,
        "denominator": 17,
    }


def test_tool_hallucination_empty_denominator() -> None:
    m = compute_metrics(HALL_GOLD, HALL_PRED, no_tools=[False] * len(HALL_GOLD))
    assert m.tool_hallucination == {
        "rate": None,  # API suite / honest form
        "rate_official": 0.0,  # additional_metrics.py returns 0.0
        "numerator": 0,
        "denominator": 0,
    }


@pytest.mark.parametrize(
    ("mode", "numerator", "denominator"),
    [(InvalidMode.MISSING, 1, 2), (InvalidMode.WRONG, 1, 3)],
)
def test_tool_hallucination_with_invalid(
    mode: InvalidMode, numerator: int, denominator: int
) -> None:
    # Three no-tool refusals: tool_call, invalid, cannot_answer; a fourth is missing (always out).
    m = compute_metrics(
        [C, C, C, C], [T, INVALID, C, MISSING], no_tools=[True] * 4, invalid_mode=mode
    )
    assert (m.tool_hallucination["numerator"], m.tool_hallucination["denominator"]) == (
        numerator,
        denominator,
    )


def test_answer_and_parameter_hallucination() -> None:
    # AnswerHall: pred direct ∧ gold ≠ direct = units 0 and 3 → 2/7.
    # ParamHall: gold rfi = units 1, 2, 5; of these pred tool_call = 1, 5 → 2/3.
    m = metrics([T, R, R, C, C, R, T], [D, T, R, D, C, T, T])
    assert m.answer_hallucination == {
        "rate": pytest.approx(2 / 7),
        "numerator": 2,
        "denominator": 7,
    }
    assert m.parameter_hallucination == {
        "rate": pytest.approx(2 / 3),
        "numerator": 2,
        "denominator": 3,
    }


def test_acc_vs_acc_norm_worked_example() -> None:
    """§2.2: lls [-40,-30,-35,-60], lengths [160,90,110,150] → pred 1, pred_norm 0."""
    lls = np.array([-40.0, -30.0, -35.0, -60.0])
    lengths = np.array([160, 90, 110, 150])
    pred, pred_norm = int(np.argmax(lls)), int(np.argmax(lls / lengths))
    assert (pred, pred_norm) == (1, 0)  # normalised: -0.250, -0.333, -0.318, -0.400
    m = compute_metrics([T], [pred], no_tools=[False], pred_norm=[pred_norm])
    assert (m.accuracy, m.accuracy_norm) == (1.0, 0.0)
    assert m.macro_f1_ref == 1.0  # raw argmax over {tool_call}
    # pred_norm over the union {direct, tool_call}: both F1 0.
    assert m.macro_f1_ref_norm == 0.0
    assert metrics([T], [T]).accuracy_norm is None


# Invalid handling: gold T T R C C R, pred T inv R C miss inv. n=6, missing 1, invalid 2, valid 3.
INV_GOLD = [T, T, R, C, C, R]
INV_PRED = [T, INVALID, R, C, MISSING, INVALID]


def test_invalid_coverage_conditional() -> None:
    m = metrics(INV_GOLD, INV_PRED, invalid_mode=InvalidMode.MISSING)
    assert (m.n, m.n_valid, m.n_scored, m.n_invalid, m.n_missing) == (6, 3, 3, 2, 1)
    assert m.invalid_rate == pytest.approx(2 / 5)  # invalid / (n − missing)
    assert m.accuracy == 1.0
    assert m.macro_f1_ref == 1.0
    assert m.per_class["tool_call"]["support"] == 1


def test_invalid_strict() -> None:
    m = metrics(INV_GOLD, INV_PRED, invalid_mode=InvalidMode.WRONG)
    assert (m.n_scored, m.invalid_mode) == (5, "wrong")
    assert m.accuracy == pytest.approx(3 / 5)
    # Invalid = false negative of its gold: T and R recall 1/2, precision 1 → F1 2/3; C F1 1.
    assert m.per_class["tool_call"] == pytest.approx(
        {"precision": 1.0, "recall": 0.5, "f1": 2 / 3, "support": 2}
    )
    assert m.macro_f1_ref == pytest.approx(7 / 9)  # (2/3 + 2/3 + 1) / 3
    assert m.macro_f1_4 == pytest.approx(7 / 12)
    # sklearn with invalid mapped to an outside code and the union labels gives the same.
    kept = [i for i, p in enumerate(INV_PRED) if p != MISSING]
    g = [INV_GOLD[i] for i in kept]
    p = [4 if INV_PRED[i] == INVALID else INV_PRED[i] for i in kept]
    assert m.macro_f1_ref == pytest.approx(f1_score(g, p, labels=[1, 2, 3], average="macro"))


@pytest.mark.parametrize("mode", list(InvalidMode))
def test_invalid_never_a_class(mode: InvalidMode) -> None:
    m = metrics(INV_GOLD, INV_PRED, invalid_mode=mode)
    assert m.confusion == [[0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    assert m.invalid_by_gold == [0, 1, 1, 0]
    assert m.per_class["cannot_answer"]["precision"] == 1.0  # invalid never coerced to it
    # Both accuracies are reported whatever the mode.
    assert m.accuracy_invalid_missing == 1.0
    assert m.accuracy_invalid_wrong == pytest.approx(0.6)


def test_all_missing_is_undefined_not_nan() -> None:
    m = metrics([T, R], [MISSING, MISSING])
    assert (m.accuracy, m.macro_f1_ref, m.macro_f1_4, m.invalid_rate) == (None, None, None, None)
    assert m.macro_f1_ref_labels == []
    json.dumps(m.as_json(), allow_nan=False)


def test_as_json_round_trips() -> None:
    m = compute_metrics(HALL_GOLD, HALL_PRED, no_tools=HALL_NO_TOOLS, pred_norm=HALL_PRED)
    data = json.loads(json.dumps(m.as_json(), allow_nan=False))
    assert data["confusion"] == m.confusion
    assert data["tool_hallucination"]["denominator"] == 17


def test_numpy_inputs_accepted() -> None:
    m = compute_metrics(np.array(GOLD_A), np.array(PRED_A), no_tools=np.zeros(6, dtype=bool))
    assert m.macro_f1_ref == pytest.approx(59 / 90)
    assert isinstance(m.accuracy, float) and type(m.confusion[0][0]) is int


@pytest.mark.parametrize(
    ("gold", "pred", "kwargs", "error"),
    [
        ([T, INVALID], [T, T], {}, ValueError),  # a reference is always a label
        ([T], [4], {}, ValueError),
        ([T], [-3], {}, ValueError),
        ([T, R], [T], {}, ValueError),
        ([1.0], [1], {}, TypeError),
        ([T, R], [T, INVALID], {"pred_norm": [T, R]}, ValueError),  # states must match pred's
    ],
)
def test_bad_input(
    gold: list[int], pred: list[int], kwargs: dict[str, object], error: type
) -> None:
    with pytest.raises(error):
        compute_metrics(gold, pred, no_tools=[False] * len(gold), **kwargs)  # type: ignore[arg-type]


def test_per_class_recall_official_judge() -> None:
    # cannot_answer: C, T, inv → 1/3; rfi: R, D → 1/2; tool_call: T (+ a missing, dropped) → 1/1.
    out = per_class_recall([C, C, C, R, R, T, T], [C, T, INVALID, R, D, T, MISSING])
    assert list(out) == ["tool_call", "request_for_info", "cannot_answer"]
    ca = out["cannot_answer"]
    assert (ca.n, ca.correct) == (3, 1)
    assert ca.recall == pytest.approx(1 / 3)
    assert ca.distribution == {
        "direct": 0,
        "tool_call": 1,
        "request_for_info": 0,
        "cannot_answer": 1,
        "invalid": 1,
    }
    assert out["request_for_info"].recall == 0.5
    assert out["tool_call"].as_json()["n"] == 1
    # Same as Metrics recall in the strict mode.
    m = metrics([C, C, C, R, R, T], [C, T, INVALID, R, D, T], invalid_mode=InvalidMode.WRONG)
    assert m.per_class["cannot_answer"]["recall"] == pytest.approx(ca.recall)
