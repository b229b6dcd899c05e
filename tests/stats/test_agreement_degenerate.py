"""Degenerate and invalid input: an explained None, never a crash, a NaN or a warning."""

from __future__ import annotations

import json

import numpy as np
import pytest

from w2c_tui.stats import (
    Estimate,
    RatingTable,
    agreement_summary,
    cohen_kappa,
    fleiss_kappa,
    gwet_ac1,
    krippendorff_alpha,
    one_vs_rest,
    pairwise,
    percent_agreement,
    specific_agreement,
)

pytestmark = pytest.mark.filterwarnings("error")

CATS = ["direct", "tool_call", "request_for_info", "cannot_answer"]
M = -1


def table(rows: list[list[int]], categories: list[str] = CATS) -> RatingTable:
    return RatingTable.from_codes(np.array(rows, dtype=np.int16).reshape(len(rows), -1), categories)


ONE_CATEGORY = table([[1, 1, 1], [1, 1, M], [1, 1, 1]])
ONE_RATER = table([[0], [1], [2], [3]])
ALL_MISSING = table([[M, M], [M, M]])
NO_OVERLAP = table([[0, M], [M, 1], [2, M], [M, 3]])
EMPTY = RatingTable.from_long([])


def check_undefined(est: Estimate, *words: str) -> None:
    assert est.value is None
    assert est.ci is None
    assert est.reason
    for w in words:
        assert w in est.reason
    json.dumps(est.as_json(), allow_nan=False)


@pytest.mark.parametrize("bootstrap", [0, 50])
def test_one_category_only(bootstrap: int) -> None:
    t = ONE_CATEGORY
    check_undefined(krippendorff_alpha(t, bootstrap=bootstrap), "one category")
    check_undefined(fleiss_kappa(t, bootstrap=bootstrap), "one category")
    # AC1 and p_a stay defined: p_e(AC1) = 0 when one of q = 4 categories is used.
    assert gwet_ac1(t, bootstrap=bootstrap).value == 1.0
    assert percent_agreement(t, bootstrap=bootstrap).value == 1.0
    sa = specific_agreement(t, bootstrap=bootstrap)
    assert sa["tool_call"].value == 1.0
    check_undefined(sa["direct"], "never given")
    ovr = one_vs_rest(t, bootstrap=bootstrap)
    check_undefined(ovr["tool_call"]["alpha"], "none or all")
    check_undefined(ovr["direct"]["kappa"], "none or all")
    for p in pairwise(t, bootstrap=bootstrap):
        check_undefined(p.cohen_kappa, "same single category")
        assert p.percent_agreement.value == 1.0


def test_ac1_needs_two_categories() -> None:
    check_undefined(gwet_ac1(table([[0, 0], [0, 0]], ["only"])), "q ≥ 2")
    check_undefined(krippendorff_alpha(table([[0, 0], [0, 0]], ["only"])), "one category")


@pytest.mark.parametrize("t", [ONE_RATER, ALL_MISSING, NO_OVERLAP, EMPTY], ids=str)
def test_nothing_pairable(t: RatingTable) -> None:
    for fn in (krippendorff_alpha, fleiss_kappa, percent_agreement):
        check_undefined(fn(t, bootstrap=20), "two or more ratings")
    if t.q >= 2:
        check_undefined(gwet_ac1(t, bootstrap=20), "two or more ratings")
    for est in specific_agreement(t).values():
        check_undefined(est)
    for d in one_vs_rest(t, bootstrap=10).values():
        check_undefined(d["alpha"])
        check_undefined(d["kappa"])


def test_empty_overlap_pair() -> None:
    [pair] = pairwise(NO_OVERLAP, bootstrap=30)
    assert pair.n == 0
    check_undefined(pair.cohen_kappa, "empty overlap")
    check_undefined(pair.percent_agreement, "empty overlap")
    check_undefined(cohen_kappa(np.array([0, -1]), np.array([-1, 1]), 4), "empty overlap")
    check_undefined(cohen_kappa(np.array([], dtype=int), np.array([], dtype=int), 4))


def test_cohen_constant_raters() -> None:
    check_undefined(cohen_kappa([2, 2, 2], [2, 2, 2], 4), "same single category")
    # Two different constants: p_e = 0, κ = 0 is defined.
    assert cohen_kappa([0, 0, 0], [1, 1, 1], 4).value == 0.0


@pytest.mark.parametrize("t", [ONE_CATEGORY, ONE_RATER, ALL_MISSING, NO_OVERLAP, EMPTY], ids=str)
def test_summary_of_degenerate_tables_is_valid_json(t: RatingTable) -> None:
    doc = agreement_summary(t, bootstrap=25, seed=1)
    json.dumps(doc, allow_nan=False)
    if t is not ONE_CATEGORY:
        assert doc["krippendorff_alpha"]["value"] is None  # type: ignore[index]
        assert doc["p_alpha_below"] == {"0.667": None, "0.800": None}


def test_invalid_input_is_an_error_not_a_number() -> None:
    with pytest.raises(ValueError, match="codes must lie"):
        table([[0, 5]])
    with pytest.raises(ValueError, match="differ in length"):
        cohen_kappa([0, 1], [0], 4)
    with pytest.raises(ValueError, match=r"\[-1, 3\]"):
        cohen_kappa([0, 4], [0, 1], 4)
    with pytest.raises(ValueError, match="B must be"):
        fleiss_kappa(ONE_CATEGORY, bootstrap=-1)
    with pytest.raises(ValueError, match="non-finite"):
        Estimate(value=float("nan"), ci=None)


def test_judge_that_labelled_nothing() -> None:
    from w2c_tui.stats import judge_vs_humans

    rng = np.random.default_rng(0)
    humans = rng.choice(4, size=(30, 3))
    codes = np.c_[humans, np.full(30, -1)]
    t = RatingTable.from_codes(codes, CATS, raters=["h1", "h2", "h3", "judge"])
    res = judge_vs_humans(t, "judge", ["h1", "h2", "h3"], bootstrap=40, seed=2)
    check_undefined(res.kappa_judge_human, "no pair")
    check_undefined(res.delta_kappa, "first term")
    assert res.kappa_human_human.value is not None
    assert res.delta_alpha.value == pytest.approx(0.0, abs=1e-12)
    json.dumps(res.as_json(), allow_nan=False)
    with pytest.raises(ValueError, match="also listed"):
        judge_vs_humans(t, "judge", ["judge", "h1"])


@pytest.mark.parametrize("humans", [["h1"], []])
def test_judge_against_fewer_than_two_humans(humans: list[str]) -> None:
    from w2c_tui.stats import judge_vs_humans

    rng = np.random.default_rng(1)
    t = RatingTable.from_codes(rng.choice(4, size=(25, 2)), CATS, raters=["h1", "judge"])
    res = judge_vs_humans(t, "judge", humans, bootstrap=30)
    check_undefined(res.kappa_human_human, "no pair")
    check_undefined(res.alpha_humans, "two or more ratings")
    check_undefined(res.delta_alpha, "two or more ratings")
    if humans:
        assert res.kappa_judge_human.value is not None
        assert res.alpha_with_judge.value is not None
    json.dumps(res.as_json(), allow_nan=False)
