"""CriticTool agreement with bootstrap intervals and slices (issue 19), through the service and
`w2c critictool agreement --bootstrap B --seed S --by …`: each statistic carries its value,
interval and n; the slices partition the labelled units, each with its n; a slice is the same
computation on its units alone; the same seed gives the same intervals (both databases)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.critictool_labels import CriticToolLabel, ErrorCategory, Policy
from w2c_tui.domain.critictool_slices import CriticToolSliceBy
from w2c_tui.services import Services
from w2c_tui.services.critictool_agreement import CriticToolAgreementService
from w2c_tui.services.critictool_slicing import slice_units

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool" / "predictions"
FILES = {  # file: target model
    "interal_base_data_wo_cot.json": "tiny",
    "interal_evol_data_w_cot.json": "tiny",
    "external_skip_base_data_wo_cot.json": "tiny",
    "external_finish_base_data_wo_cot.json": "tiny",
}
CATEGORIES = list(ErrorCategory)
POLICIES = list(Policy)
B, SEED = 60, 4


@pytest.fixture
def labelled(services: Services) -> Services:
    """Every file in dataset `ct` (and the internal base predictions of a second model), ann
    labelling every unit and bob two in three, deterministically."""
    for name, model in FILES.items():
        services.critictool.import_file(CT / name, dataset="ct", target_model=model)
    services.critictool.import_file(CT / "interal_base_data_wo_cot.json", target_model="m2")
    review = services.critictool_review
    store = services.store.critictool_labels
    ann, bob = review.rater("ann"), review.rater("bob")
    for k, unit in enumerate(review.open("ct").units):
        category = CATEGORIES[k % len(CATEGORIES)]
        policy = POLICIES[k % 3] if unit.sample.source == "external" else None
        store.set_label(
            ann,
            unit.item_id,
            unit.response_id,
            CriticToolLabel(
                error=category is not ErrorCategory.NONE,
                category=category,
                observed_policy=policy,
            ),
        )
        if k % 3:
            other = CATEGORIES[(k + k // 4) % len(CATEGORIES)]
            store.set_label(
                bob,
                unit.item_id,
                unit.response_id,
                CriticToolLabel(error=other is not ErrorCategory.NONE, category=other),
            )
    return services


@pytest.mark.parametrize("by", list(CriticToolSliceBy))
def test_slices_partition_the_units(labelled: Services, by: CriticToolSliceBy) -> None:
    service = CriticToolAgreementService(labelled.store)
    report = service.report("ct", bootstrap=B, seed=SEED, by=by)
    units = set().union(*service.labels("ct").values())
    assert report.n == len(units) == 21 * 2 + 5 + 7 * 2
    variants = {s.item_id: s.variant for s in labelled.critictool.samples("ct")}
    groups = slice_units(labelled.critictool_review.open("ct").units, by, variants, units)
    keys = [key for _, members in groups for key in members]
    assert len(keys) == len(set(keys)) and set(keys) == units  # disjoint, and all of them
    assert [(s.name, s.n) for s in report.slices] == [(n, len(m)) for n, m in groups]
    assert len(report.slices) >= 2


def test_slices_are_named_from_sample_and_prediction(labelled: Services) -> None:
    service = CriticToolAgreementService(labelled.store)
    names = {
        by: {s.name: s.n for s in service.report("ct", by=by).slices} for by in CriticToolSliceBy
    }
    assert names[CriticToolSliceBy.SOURCE] == {"external": 14, "internal": 47}
    assert names[CriticToolSliceBy.MODEL] == {"m2": 21, "tiny": 40}
    assert names[CriticToolSliceBy.VARIANT] == {"base": 56, "evol": 5}
    assert names[CriticToolSliceBy.SETTING] == {
        "external finish · no CoT": 7,
        "external skip · no CoT": 7,
        "internal · CoT": 5,
        "internal · no CoT": 42,
    }
    assert names[CriticToolSliceBy.ERROR]["external"] == 14
    assert sum(names[CriticToolSliceBy.ERROR].values()) == 61


def test_a_slice_is_the_computation_on_its_units_alone(labelled: Services) -> None:
    service = CriticToolAgreementService(labelled.store)
    by_model = service.report("ct", bootstrap=B, seed=SEED, by=CriticToolSliceBy.MODEL)
    alone = service.report("ct", "m2", bootstrap=B, seed=SEED)
    [m2] = [s for s in by_model.slices if s.name == "m2"]
    assert m2.n == alone.n
    for mine, theirs in zip(m2.labels, alone.labels, strict=True):
        assert (mine.alpha, mine.percent, mine.pairs) == (
            theirs.alpha,
            theirs.percent,
            theirs.pairs,
        )
    again = service.report("ct", bootstrap=B, seed=SEED, by=CriticToolSliceBy.MODEL)
    assert again == by_model
    other_seed = service.report("ct", bootstrap=B, seed=SEED + 1)
    assert other_seed.labels[1].alpha.ci != by_model.labels[1].alpha.ci


def test_cli_json_has_value_interval_and_n(labelled: Services) -> None:
    args = ["--db", labelled.url, "critictool", "agreement", "--dataset", "ct", "--json"]
    result = CliRunner().invoke(
        app, [*args, "--bootstrap", str(B), "--seed", str(SEED), "--by", "source"]
    )
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["bootstrap"] == {"B": B, "seed": SEED, "level": 0.95}
    assert doc["by"] == "source" and doc["n"] == 61
    assert [(s["slice"], s["n"]) for s in doc["slices"]] == [("external", 14), ("internal", 47)]
    for part in [doc, *doc["slices"]]:
        for label in part["labels"]:
            for stat in (label["alpha"], label["percent_agreement"]):
                assert {"value", "ci", "n"} <= set(stat)
    category = next(x for x in doc["labels"] if x["label"] == "category")
    lo, hi = category["alpha"]["ci"]
    assert lo <= category["alpha"]["value"] <= hi and category["alpha"]["n"] > 0
    pair = category["pairs"][0]
    assert pair["cohen_kappa"]["ci"] is not None and pair["n"] == pair["cohen_kappa"]["n"]
    same_args = ["--db", labelled.url, "agreement", "--dataset", "ct", "--json"]
    same_args += ["--bootstrap", str(B), "--seed", str(SEED), "--by", "source"]
    same = CliRunner().invoke(app, same_args)
    assert same.exit_code == 0 and json.loads(same.stdout) == doc
    text = CliRunner().invoke(app, [*args[:-1], "--bootstrap", "20", "--by", "model"])
    assert text.exit_code == 0, text.stderr
    assert "\nmodel = m2 (21 units)\n" in text.stdout and "[bold]" not in text.stdout
    wrong = CliRunner().invoke(
        app, ["--db", labelled.url, "agreement", "--dataset", "ct", "--by", "gold"]
    )
    assert wrong.exit_code == 2 and "no gold slices" in wrong.stderr
