"""The typed documents write the JSON they always wrote: keys in field order, a key the document
only sometimes has left out while None, a two-case document's keys written flat."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum

import pytest

from w2c_tui.domain.dashboard import (
    AdviceDoc,
    AutomatedDoc,
    DrilldownDoc,
    EstimateDoc,
    HumansDoc,
    JudgeStatsDoc,
    StandInDoc,
    StratifiedDoc,
    undefined,
)
from w2c_tui.domain.jsondoc import FLATTEN, OMIT_NONE, JsonDoc, to_json


class Colour(StrEnum):
    RED = "red"


@dataclass(frozen=True, slots=True)
class Inner(JsonDoc):
    x: int
    y: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Outer(JsonDoc):
    name: str
    colour: Colour
    maybe: int | None = field(default=None, metadata=OMIT_NONE)
    nothing: int | None = None
    inner: Inner | None = field(default=None, metadata=FLATTEN)
    by_key: dict[str, Inner] = field(default_factory=dict)


def test_fields_in_order_omitted_flattened_and_nested() -> None:
    doc = Outer("a", Colour.RED, inner=Inner(1, (2, 3)), by_key={"k": Inner(4, ())})
    assert json.dumps(doc.to_json()) == (
        '{"name": "a", "colour": "red", "nothing": null, "x": 1, "y": [2, 3], '
        '"by_key": {"k": {"x": 4, "y": []}}}'
    )
    assert list(Outer("b", Colour.RED, maybe=0).to_json()) == [
        "name",
        "colour",
        "maybe",
        "nothing",
        "by_key",
    ]


def test_only_a_document_is_flattened() -> None:
    @dataclass(frozen=True)
    class Bad:
        value: int = field(default=1, metadata=FLATTEN)

    with pytest.raises(TypeError, match="only a document"):
        to_json(Bad())


def test_an_estimate_reads_the_statistics_json() -> None:
    plain = {"value": 0.5, "ci": [0.25, 0.75], "n": 9, "reason": None, "degenerate": 0}
    estimate = EstimateDoc.of(plain)
    assert estimate.ci == (0.25, 0.75) and estimate.to_json() == plain
    assert undefined("why", 3).to_json() == {
        "value": None,
        "ci": None,
        "n": 3,
        "reason": "why",
        "degenerate": 0,
    }
    with pytest.raises(TypeError, match="JSON object"):
        EstimateDoc.of([0.5])


VERDICT = StandInDoc("not defined", "t", "rule", (), None)
ADVICE = AdviceDoc(0, None, None, None, (), "no advice")
HEAD = {
    "key": "judge:j",
    "kind": "judge",
    "name": "j",
    "reading": "label",
    "coverage": 1.0,
    "invalid_rate": 0.0,
    "n_consensus": 0,
}


def test_a_judge_row_without_numbers_says_why() -> None:
    row = AutomatedDoc(**HEAD, reason="no consensus", stand_in=VERDICT, advice=ADVICE)  # type: ignore[arg-type]
    assert list(row.to_json()) == [*HEAD, "reason", "stand_in", "advice"]
    assert row.n == 0 and row.cohen_kappa is None and row.versus_humans is None


def test_a_judge_row_writes_its_numbers_flat_in_the_contract_order() -> None:
    kappa = undefined("x", 5)
    stats = JudgeStatsDoc(
        n=5,
        p_o=0.8,
        cohen_kappa=kappa,
        gwet_ac1=kappa,
        macro_f1=None,
        macro_f1_reason="none",
        versus_humans=None,
        versus_humans_reason="no human",
        stratified=StratifiedDoc(kappa, kappa),
    )
    row = AutomatedDoc(**HEAD, stats=stats, stand_in=VERDICT, advice=ADVICE)  # type: ignore[arg-type]
    assert list(row.to_json()) == [
        *HEAD,
        "n",
        "p_o",
        "cohen_kappa",
        "gwet_ac1",
        "macro_f1",
        "macro_f1_reason",
        "versus_humans",
        "versus_humans_reason",
        "stratified",
        "stand_in",
        "advice",
    ]
    assert row.n == 5 and row.cohen_kappa == kappa


def test_humans_and_drilldown_without_numbers() -> None:
    assert HumansDoc(raters=("human:a",), reason="one").to_json() == {
        "raters": ["human:a"],
        "reason": "one",
    }
    assert HumansDoc(raters=()).alpha is None
    assert DrilldownDoc(reason="none").to_json() == {"reason": "none"}
