"""RatingTable construction and the Estimate record."""

from __future__ import annotations

import json

import numpy as np
import pytest

from w2c_tui.stats import Estimate, RatingTable

pytestmark = pytest.mark.filterwarnings("error")

CATS = ("direct", "tool_call", "request_for_info", "cannot_answer")


def test_from_long_orders_and_encodes() -> None:
    t = RatingTable.from_long(
        [
            ("u1", "alice", "tool_call"),
            ("u1", "bob", "direct"),
            ("u2", "alice", None),
            ("u2", "judge", ""),
            ("u3", "bob", "tool_call"),
            ("u1", "alice", "tool_call"),  # repeated with the same label: fine
        ],
        categories=CATS,
    )
    assert t.units == ("u1", "u2", "u3")
    assert t.raters == ("alice", "bob", "judge")
    assert t.categories == CATS
    assert t.codes.dtype == np.int16
    assert t.codes.tolist() == [[1, 0, -1], [-1, -1, -1], [-1, 1, -1]]
    assert t.counts().tolist() == [[1, 1, 0, 0], [0, 0, 0, 0], [0, 1, 0, 0]]
    assert t.rated().units == ("u1", "u3")


def test_default_categories_are_sorted_labels() -> None:
    t = RatingTable.from_long([("u", "a", "zeta"), ("u", "b", "alpha"), ("v", "a", None)])
    assert t.categories == ("alpha", "zeta")


def test_unknown_label_is_named() -> None:
    with pytest.raises(ValueError, match="'invalid'"):
        RatingTable.from_long([("u", "a", "invalid")], categories=CATS)


def test_conflicting_duplicate_is_an_error() -> None:
    with pytest.raises(ValueError, match="given twice"):
        RatingTable.from_long([("u", "a", "direct"), ("u", "a", "tool_call")], categories=CATS)
    with pytest.raises(ValueError, match="given twice"):
        RatingTable.from_long([("u", "a", "direct"), ("u", "a", None)], categories=CATS)


def test_subset_and_take() -> None:
    t = RatingTable.from_codes([[0, 1, 2], [3, -1, 0]], CATS, raters=["h1", "h2", "j"])
    s = t.subset(["j", "h1"])
    assert s.raters == ("j", "h1")
    assert s.codes.tolist() == [[2, 0], [0, 3]]
    assert s.units == t.units
    with pytest.raises(ValueError, match="unknown rater"):
        t.subset(["nobody"])
    r = t.take([1, 1, 0])
    assert r.codes.tolist() == [[3, -1, 0], [3, -1, 0], [0, 1, 2]]
    assert len(set(r.units)) == 3


def test_validation() -> None:
    with pytest.raises(ValueError, match="duplicate rater"):
        RatingTable.from_codes([[0, 1]], CATS, raters=["a", "a"])
    with pytest.raises(ValueError, match="does not match"):
        RatingTable(codes=np.zeros((2, 2), np.int16), categories=CATS, raters=("a",), units=("x",))
    with pytest.raises(ValueError, match="integers"):
        RatingTable.from_codes([[0.5]], CATS)


def test_estimate_json_is_plain() -> None:
    e = Estimate(value=np.float64(0.5), ci=(np.float64(0.1), np.float64(0.9)), n=np.int64(7))  # type: ignore[arg-type]
    doc = e.as_json()
    assert doc == {"value": 0.5, "ci": [0.1, 0.9], "n": 7, "reason": None, "degenerate": 0}
    assert type(doc["value"]) is float and type(doc["n"]) is int
    json.dumps(doc, allow_nan=False)
    assert Estimate.undefined("why", n=3).as_json()["reason"] == "why"


def test_from_coded_long_is_from_long() -> None:
    rng = np.random.default_rng(3)
    records = [
        (f"u{u}", f"r{r}", None if rng.random() < 0.2 else str(rng.choice(["b", "a", "c"])))
        for u in range(40)
        for r in range(3)
        if rng.random() < 0.9
    ]
    units = list(dict.fromkeys(u for u, _, _ in records))
    raters = list(dict.fromkeys(r for _, r, _ in records))
    cats = sorted({lab for _, _, lab in records if lab is not None})
    coded = RatingTable.from_coded_long(
        [units.index(u) for u, _, _ in records],
        [raters.index(r) for _, r, _ in records],
        [cats.index(lab) if lab is not None else -1 for _, _, lab in records],
        units,
        raters,
        cats,
    )
    plain = RatingTable.from_long(records)
    assert (coded.codes == plain.codes).all()
    assert (coded.units, coded.raters, coded.categories) == (
        plain.units,
        plain.raters,
        plain.categories,
    )
