"""CriticTool label agreement: humans vs the model's self-critique vs a judge, on detect and
category as nominal labels, through the service and `w2c critictool agreement`."""

from __future__ import annotations

import json
from pathlib import Path

import krippendorff
import numpy as np
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.critictool_labels import CriticToolLabel, ErrorCategory, Policy
from w2c_tui.domain.labels import RaterKind
from w2c_tui.services import Services
from w2c_tui.services.critictool_agreement import SELF, CriticToolAgreementService

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool" / "predictions"
runner = CliRunner()

E = ErrorCategory


def label(category: ErrorCategory) -> CriticToolLabel:
    return CriticToolLabel(error=category is not E.NONE, category=category)


def test_humans_self_critique_and_a_judge(services: Services, db_url: str) -> None:
    services.critictool.import_file(
        CT / "interal_base_data_wo_cot.json", dataset="ct", target_model="tiny"
    )
    review = services.critictool_review
    units = review.open("ct").units[:4]
    critiques = review.self_critiques(review.open("ct"))
    model = [critiques[(u.item_id, u.response_id)] for u in units]  # type: ignore[index]
    assert [m.category for m in model] == [
        E.PARAMETERS_VALUE,
        None,  # "I think the answer is 3.": no parse, no answer
        E.PARAMETERS_VALUE,
        E.TOOL_SELECT,
    ]
    ann, bob = review.rater("ann"), review.rater("bob")
    judge = services.store.labels.rater_id("critic-judge", kind=RaterKind.JUDGE)
    assert judge is not None
    ann_says = [E.PARAMETERS_VALUE, E.NONE, E.PARAMETERS_VALUE, E.TOOL_HALLUCINATION]
    bob_says = [E.PARAMETERS_VALUE, E.NONE, E.PARAMETERS_KEY, E.TOOL_HALLUCINATION]
    judge_says = [E.PARAMETERS_VALUE, E.NONE, E.PARAMETERS_VALUE, E.TOOL_SELECT]
    store = services.store.critictool_labels
    for unit, a, b, j in zip(units, ann_says, bob_says, judge_says, strict=True):
        store.set_label(ann, unit.item_id, unit.response_id, label(a))
        store.set_label(bob, unit.item_id, unit.response_id, label(b))
        store.set_label(judge, unit.item_id, unit.response_id, label(j))
    results = {r.label: r for r in CriticToolAgreementService(services.store).compute("ct")}
    category = results["category"]
    assert category.raters == ("ann", "bob", "judge:critic-judge", SELF)
    assert category.units == 4
    # the same table straight into the krippendorff package (raters × units, NaN = missing)
    codes = {c.value: k for k, c in enumerate(ErrorCategory)}
    rows = [ann_says, bob_says, judge_says, [m.category for m in model]]
    data = np.array(
        [[codes[c.value] if c is not None else np.nan for c in row] for row in rows], dtype=float
    )
    expected = krippendorff.alpha(
        reliability_data=data, level_of_measurement="nominal", value_domain=list(range(6))
    )
    assert category.alpha.value is not None
    assert abs(category.alpha.value - expected) < 1e-12
    pair = {(p.a, p.b): p for p in category.pairs}[("ann", SELF)]
    assert pair.n == 3 and pair.percent_agreement.value == 2 / 3
    detect = results["detect"]
    ann_self = {(p.a, p.b): p for p in detect.pairs}[("ann", SELF)]
    assert ann_self.n == 3 and ann_self.percent_agreement.value == 1.0
    assert results["observed_policy"].units == 0  # internal samples have no policy

    out = runner.invoke(
        app, ["--db", db_url, "critictool", "agreement", "--dataset", "ct", "--json"]
    )
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    by_label = {d["label"]: d for d in doc["labels"]}
    assert by_label["category"]["alpha"]["value"] == category.alpha.value
    assert by_label["category"]["alpha"]["n"] == 4 and doc["bootstrap"]["B"] == 1000
    same = runner.invoke(app, ["--db", db_url, "agreement", "--dataset", "ct", "--json"])
    assert same.exit_code == 0, same.output  # `w2c agreement` on a CriticTool dataset
    assert json.loads(same.output) == doc
    text = runner.invoke(app, ["--db", db_url, "critictool", "agreement", "--dataset", "ct"])
    assert text.exit_code == 0 and "self-critique" in text.output and "category" in text.output


def test_external_observed_policy(services: Services) -> None:
    services.critictool.import_file(
        CT / "external_skip_base_data_wo_cot.json", dataset="ext", target_model="tiny"
    )
    review = services.critictool_review
    units = review.open("ext").units
    ann = review.rater("ann")
    critiques = review.self_critiques(review.open("ext"))
    for unit in units:
        seen = critiques[(unit.item_id, unit.response_id)].observed_policy  # type: ignore[index]
        services.store.critictool_labels.set_label(
            ann,
            unit.item_id,
            unit.response_id,
            CriticToolLabel(observed_policy=seen or Policy.SKIP),
        )
    policy = {r.label: r for r in CriticToolAgreementService(services.store).compute("ext")}[
        "observed_policy"
    ]
    pair = policy.pairs[0]
    parsed = sum(1 for u in units if critiques[(u.item_id, u.response_id)].observed_policy)  # type: ignore[index]
    assert pair.n == parsed and pair.percent_agreement.value == 1.0
