"""``agreement_summary``: the JSON contract of ``w2c agreement --json``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from w2c_tui.stats import (
    RatingTable,
    agreement_summary,
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
ESTIMATE_KEYS = {"value", "ci"}


def small_table() -> RatingTable:
    L = "direct", "tool_call", "request_for_info", "cannot_answer"
    rows = [
        ("q1", L[0], L[0], L[0]),
        ("q2", L[1], L[1], None),
        ("q3", L[1], L[2], L[1]),
        ("q4", L[0], L[0], L[1]),
        ("q5", L[2], L[2], L[2]),
        ("q6", L[1], None, L[1]),
        ("q7", L[0], L[1], L[0]),
        ("q8", None, None, None),
        ("q9", L[1], L[1], L[1]),
        ("q10", L[0], L[0], None),
    ]
    records = [
        (u, rater, lab)
        for u, *labels in rows
        for rater, lab in zip(("alice", "bob", "judge"), labels, strict=True)
    ]
    return RatingTable.from_long(records, categories=CATS)


def plain(x: object) -> None:
    """Only JSON's own types: dict/list/str/int/float/bool/None (no numpy scalars)."""
    if isinstance(x, dict):
        for k, v in x.items():
            assert type(k) is str
            plain(v)
    elif isinstance(x, list):
        for v in x:
            plain(v)
    else:
        assert x is None or type(x) in (str, int, float, bool), (x, type(x))


def check_estimate(e: object) -> None:
    assert isinstance(e, dict) and e.keys() >= ESTIMATE_KEYS
    assert e["value"] is None or isinstance(e["value"], float)
    ci = e["ci"]
    assert ci is None or (isinstance(ci, list) and len(ci) == 2 and ci[0] <= ci[1])


def test_contract_keys_and_plain_json() -> None:
    table = small_table()
    doc = agreement_summary(table, bootstrap=200, seed=3)
    text = json.dumps(doc, allow_nan=False)
    plain(json.loads(text))
    plain(doc)
    assert doc["n_items"] == 9  # q8 has no rating
    assert doc["n_raters"] == 3
    assert doc["categories"] == CATS
    for key in ("krippendorff_alpha", "fleiss_kappa", "gwet_ac1", "percent_agreement"):
        check_estimate(doc[key])
    assert isinstance(doc["pairwise"], list) and len(doc["pairwise"]) == 3
    for p in doc["pairwise"]:
        assert {"a", "b", "n", "cohen_kappa", "percent_agreement"} <= p.keys()
        check_estimate(p["cohen_kappa"])
        check_estimate(p["percent_agreement"])
    per = doc["per_category"]
    assert isinstance(per, dict) and list(per) == CATS
    for c in CATS:
        assert {"specific_agreement", "alpha", "kappa"} <= per[c].keys()
        for v in per[c].values():
            check_estimate(v)
    assert doc["bootstrap"] == {"B": 200, "seed": 3, "level": 0.95}
    assert set(doc["p_alpha_below"]) == {"0.667", "0.800"}  # type: ignore[arg-type]


def test_summary_values_equal_the_individual_functions() -> None:
    table = small_table()
    B, seed = 150, 9
    doc = agreement_summary(table, bootstrap=B, seed=seed)
    for key, fn in [
        ("krippendorff_alpha", krippendorff_alpha),
        ("fleiss_kappa", fleiss_kappa),
        ("gwet_ac1", gwet_ac1),
        ("percent_agreement", percent_agreement),
    ]:
        assert doc[key] == fn(table, bootstrap=B, seed=seed).as_json(), key
    pw = pairwise(table, bootstrap=B, seed=seed)
    assert doc["pairwise"] == [p.as_json() for p in pw]
    sa = specific_agreement(table, bootstrap=B, seed=seed)
    ovr = one_vs_rest(table, bootstrap=B, seed=seed)
    per = doc["per_category"]
    for c in CATS:
        assert per[c]["specific_agreement"] == sa[c].as_json()  # type: ignore[index]
        assert per[c]["alpha"] == ovr[c]["alpha"].as_json()  # type: ignore[index]
        assert per[c]["kappa"] == ovr[c]["kappa"].as_json()  # type: ignore[index]
    # cannot_answer is never used: explained None, not NaN
    assert per["cannot_answer"]["specific_agreement"]["value"] is None  # type: ignore[index]
    assert per["cannot_answer"]["specific_agreement"]["reason"]  # type: ignore[index]


def test_without_bootstrap() -> None:
    doc = agreement_summary(small_table(), bootstrap=0)
    assert doc["krippendorff_alpha"]["ci"] is None  # type: ignore[index]
    assert doc["krippendorff_alpha"]["value"] is not None  # type: ignore[index]
    assert doc["p_alpha_below"] == {"0.667": None, "0.800": None}
    json.dumps(doc, allow_nan=False)


def test_summary_on_larger_random_table_is_fast_enough_and_consistent() -> None:
    rng = np.random.default_rng(0)
    codes = rng.choice(4, size=(2000, 5), p=[0.55, 0.25, 0.15, 0.05])
    codes[rng.random(codes.shape) < 0.2] = -1
    doc = agreement_summary(RatingTable.from_codes(codes, CATS), bootstrap=200, seed=1)
    alpha = doc["krippendorff_alpha"]
    assert alpha["degenerate"] == 0  # type: ignore[index]
    lo, hi = alpha["ci"]  # type: ignore[index]
    assert lo <= alpha["value"] <= hi  # type: ignore[index]
    assert len(doc["pairwise"]) == 10  # type: ignore[arg-type]
