"""The calibration dashboard through the services, on the demo with three annotators."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from w2c_tui.domain.labels import Label, RaterKind
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services


def label_like_judge(
    services: Services, annotators: tuple[str, ...], agree: float, seed: int = 3
) -> None:
    """Every annotator labels every response: the judge's label with probability `agree`."""
    rng = random.Random(seed)
    rows = services.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 30)
    for row in rows:
        for response in services.review.detail(row.id, None).responses:
            assert response.id is not None
            judge = next(
                (v.label for v in response.verdicts if v.rater.kind is RaterKind.JUDGE and v.label),
                Label.CANNOT_ANSWER,
            )
            for name in annotators:
                label = judge if rng.random() < agree else rng.choice(list(Label))
                services.review.label_response(name, row.id, response.id, label)


@pytest.fixture
def annotated(demo: Services) -> Services:
    label_like_judge(demo, ("alice", "bob", "carol"), 0.8)
    return demo


def test_dashboard_panels(annotated: Services) -> None:
    dash = annotated.agreement.dashboard("demo", bootstrap=200, seed=1)
    json.dumps(dash.to_json())  # plain JSON all the way down
    assert dash.meta.n_units == 60
    assert dash.coverage.overlap.labelled[0][0] == 60
    humans = dash.humans
    assert humans.raters == ("human:alice", "human:bob", "human:carol")
    alpha = humans.alpha
    assert alpha is not None
    assert (
        alpha.value is not None and alpha.ci is not None and alpha.ci[0] < alpha.value < alpha.ci[1]
    )
    rows = {r.key: r for r in dash.automated}
    assert set(rows) == {"judge:demo-judge"}  # the MCQ readings are in mcq_consistency
    judge = rows["judge:demo-judge"]
    versus, alt = judge.versus_humans, judge.alt_test
    assert versus is not None and versus.delta_kappa.ci is not None
    assert alt is not None and alt.winning_rate is not None  # three humans: the alt-test runs
    assert dash.mcq_consistency is not None
    mcq = {(r.scorer, r.target_model): r for r in dash.mcq_consistency.rows}
    assert set(mcq) == {
        (scorer, model)
        for scorer in ("logprob:demo-logprob", "logprob:demo-logprob:norm")
        for model in ("acme-7b-instruct", "tiny-tools-1b")
    }
    kappa = judge.cohen_kappa
    assert kappa is not None and kappa.value is not None
    for row in mcq.values():  # the annotators copy the judge, not the model's MCQ choice
        assert row.n_mcq == 30 and row.n == row.n_reference  # the scorer read every unit
        assert row.cohen_kappa.value is not None and kappa.value > row.cohen_kappa.value
    drill = dash.drilldown["judge:demo-judge"].matrix
    assert drill is not None
    n_consensus = dash.meta.consensus.n
    assert sum(map(sum, drill.confusion)) == n_consensus - 2  # two invalid judge outputs
    assert all(d.consensus != d.rater for d in drill.disagreements)
    assert {m.target_model for m in dash.metrics} == {"acme-7b-instruct", "tiny-tools-1b"}


def test_invalid_as_wrong_adds_a_category(annotated: Services) -> None:
    doc = annotated.agreement.summary(
        "demo", raters=["human:alice", "judge:demo-judge"], bootstrap=0, invalid_mode="wrong"
    )
    assert doc.categories == (
        "direct",
        "tool_call",
        "request_for_info",
        "cannot_answer",
        "invalid",
    )


def test_dashboard_without_humans_says_why(demo: Services) -> None:
    dash = demo.agreement.dashboard("demo", bootstrap=0)
    assert "at least two annotators" in (dash.humans.reason or "")
    assert all("no human consensus" in (r.reason or "") for r in dash.automated)
    assert dash.metrics  # metrics against gold need no human
    assert dash.pairwise  # the judge and the scorer still agree or not with each other


def test_summary_contract(annotated: Services) -> None:
    summary = annotated.agreement.summary("demo", bootstrap=100, seed=2)
    for estimate in (
        summary.krippendorff_alpha,
        summary.fleiss_kappa,
        summary.gwet_ac1,
        summary.percent_agreement,
    ):
        assert set(estimate.to_json()) >= {"value", "ci"}
    assert summary.n_raters == 6 and summary.n_items == 60
    pair = summary.pairwise[0]
    assert set(pair.to_json()) >= {"a", "b", "n", "cohen_kappa", "percent_agreement"}
    doc = summary.to_json()
    assert list(doc) == [
        "n_items",
        "n_raters",
        "categories",
        "krippendorff_alpha",
        "fleiss_kappa",
        "gwet_ac1",
        "percent_agreement",
        "pairwise",
        "per_category",
        "bootstrap",
        "p_alpha_below",
        "dataset",
        "unit_kind",
        "raters",
        "invalid_mode",
        "reveal",
    ]
    per_category = doc["per_category"]
    assert isinstance(per_category, dict)
    assert set(per_category["tool_call"]) >= {"specific_agreement", "alpha"}


def test_real_data_with_the_api_suite(
    services: Services, judge_file: Path, api_suite_run: Path
) -> None:
    services.imports.import_path(judge_file)
    services.imports.import_path(api_suite_run)
    name = "when2call_test_llm_judge"
    rows = services.metrics.metrics(name)
    judge = [r for r in rows if r.rater.kind is RaterKind.JUDGE]
    assert judge and judge[0].metrics.n_invalid == 4 and judge[0].metrics.n_valid == 0
    index = [r for r in rows if r.rater.kind is RaterKind.MCQ_INDEX]
    assert index and index[0].metrics.n_valid + index[0].metrics.n_invalid == 4
    dash = services.agreement.dashboard(name, bootstrap=50)
    assert dash.meta.n_units == 4 and dash.metrics
