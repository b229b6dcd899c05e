"""The pure parts of the blind view: the in-sample measure, which fields show, plan policies."""

from __future__ import annotations

import json

from w2c_tui.domain.blind import (
    BlindPolicy,
    PlanBlind,
    item_facts,
    majority_gain,
    pre_label_fields,
    predictive_fields,
)
from w2c_tui.domain.labels import Label
from w2c_tui.domain.models import Item

GOLDS = ["a", "a", "b", "b", "c", "c"]


def test_majority_gain_is_zero_for_noise_and_high_for_giveaways() -> None:
    assert majority_gain(["x"] * 6, GOLDS) == 0.0
    assert round(majority_gain(["p", "q", "p", "q", "p", "q"], GOLDS), 3) == 0.0
    assert round(majority_gain(GOLDS, GOLDS), 3) == round(1 - 1 / 3, 3)
    assert round(majority_gain([str(n) for n in range(6)], GOLDS), 3) == round(2 / 3, 3)  # ids
    assert majority_gain([], []) == 0.0


def test_a_predictive_source_is_kept_back_presence_counts_too() -> None:
    source = ["s1", "s1", "s2", "s2", "s3", "s3"]  # names the gold
    assert predictive_fields({"source": source}, GOLDS) == {"source"}
    assert pre_label_fields({"source": source}, GOLDS) == ("kind",)
    present = ["x", "y", None, None, "z", "w"]  # present on a and c, never on b
    assert predictive_fields({"held_out": present}, GOLDS) == {"held_out"}
    assert pre_label_fields({"source": ["same"] * 6}, GOLDS) == ("source", "kind")


def test_gold_revealing_fields_never_show_before_the_label() -> None:
    item = Item(
        id=1,
        dataset="d",
        uuid="u",
        position=0,
        question="q",
        tools=(),
        answers=(),
        gold=Label.REQUEST_FOR_INFO,
        source="BFCL",
        source_id="live_1",
        held_out_param="city",
        target_tool=json.dumps({"name": "weather.get"}),
    )
    shown = ("source", "kind", "held_out_param", "target_tool", "source_id")
    blind = {f.name for f in item_facts(item, blind=True, shown=shown)}
    assert blind == {"source", "kind"}
    everything = {f.name: f.value for f in item_facts(item, blind=False)}
    assert everything["target_tool"] == "weather.get" and everything["held_out_param"] == "city"


def test_plan_policies() -> None:
    assert PlanBlind(BlindPolicy.DEFAULT, 2).opens_blind(False)
    assert not PlanBlind(BlindPolicy.DEFAULT, 1).opens_blind(False)
    assert PlanBlind(BlindPolicy.DEFAULT, 1).opens_blind(True)
    assert PlanBlind(BlindPolicy.REQUIRED, 1).opens_blind(False)
    assert not PlanBlind(BlindPolicy.OFF, 3).opens_blind(True)
