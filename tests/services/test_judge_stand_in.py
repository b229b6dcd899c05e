"""Numbers that agree with each other, and a decision on each judge."""

from __future__ import annotations

import math
import random

import pytest
from sklearn.metrics import cohen_kappa_score

from w2c_tui.domain.dashboard import SliceBy
from w2c_tui.domain.labels import LABELS, Label, RaterKind, VerdictStatus
from w2c_tui.domain.records import ImportBundle, RaterSpec, VerdictRecord
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services

RESP = ReviewMode.RESPONSES


def _units(svc: Services) -> list[tuple[int, int, str]]:
    out = []
    for row in svc.review.window("demo", ItemFilter(), RESP, None, 0, 30):
        for response in svc.review.detail(row.id, None).responses:
            assert response.id is not None
            out.append((row.id, response.id, response.target_model))
    return out


def _label(svc: Services, names: list[str], n: int, agree: float, seed: int = 0) -> None:
    """`names` label the first n responses: each copies the judge with probability `agree`."""
    rng = random.Random(seed)
    for item, response, _ in _units(svc)[:n]:
        judge = next(
            v
            for r in svc.review.detail(item, None).responses
            if r.id == response
            for v in r.verdicts
            if v.rater.kind is RaterKind.JUDGE
        )
        for name in names:
            label = judge.label if judge.label and rng.random() < agree else rng.choice(LABELS)
            svc.review.label_response(name, item, response, label)


def test_per_class_kappa_is_sklearn_on_the_matrix_units(demo: Services) -> None:
    _label(demo, ["ann"], 40, agree=0.6)
    dash = demo.agreement.dashboard("demo", bootstrap=0)
    readings = demo.agreement.readings("demo")
    judge = next(r.key for r in readings.raters if r.kind is RaterKind.JUDGE)
    drill = dash.drilldown[judge].matrix
    assert drill is not None
    human = "human:ann"
    units = [
        u.key
        for u in readings.units
        if readings.label(u.key, human) is not None and readings.label(u.key, judge) is not None
    ]
    assert drill.n == len(units) == sum(map(sum, drill.confusion))
    a = [readings.label(u, human) for u in units]
    b = [readings.label(u, judge) for u in units]
    for label in Label:
        expected = cohen_kappa_score([x is label for x in a], [y is label for y in b])
        got = drill.per_class[label.value].kappa.value
        if got is None:
            assert expected != expected  # sklearn's nan: one class only on the matrix units
        else:
            assert got == pytest.approx(expected, abs=1e-12)


def test_a_scorer_without_shared_units_is_not_defined(demo: Services) -> None:
    units = _units(demo)
    _label(demo, ["ann", "ben", "cat"], 10, agree=0.8)
    lone = RaterSpec(RaterKind.JUDGE, "lone-judge")
    demo.store.imports.apply(
        ImportBundle(
            path="lone.jsonl",
            kind="official_judge",
            sha256="3" * 64,
            verdicts=tuple(
                VerdictRecord(
                    uuid=demo.review.detail(item, None).item.uuid,
                    rater=lone,
                    target_model=model,
                    label=Label.TOOL_CALL,
                    status=VerdictStatus.OK,
                    line=n,
                )
                for n, (item, _, model) in enumerate(units[40:50], 1)
            ),
        ),
        "demo",
    )
    dash = demo.agreement.dashboard("demo", bootstrap=50)
    row = next(r for r in dash.automated if r.key == "judge:lone-judge")
    assert (row.reason or "").startswith("not defined: no unit shared")
    assert row.stand_in.decision == "not defined"
    assert row.stats is None
    written = row.to_json()
    assert "versus_humans" not in written and "alt_test" not in written
    assert (dash.drilldown["judge:lone-judge"].reason or "").startswith("not defined")
    labelled = dash.coverage.overlap
    i = labelled.raters.index("judge:lone-judge")
    j = labelled.raters.index("human:ann")
    assert labelled.labelled[i][j] == 0


def test_verdict_advice_and_slices_with_three_humans(demo: Services) -> None:
    _label(demo, ["ann", "ben", "cat"], 60, agree=0.85)
    dash = demo.agreement.dashboard("demo", bootstrap=200, by=SliceBy.TOOLS)
    judge = next(r for r in dash.automated if r.kind == "judge")
    stand_in = judge.stand_in
    assert stand_in.decision in ("can stand in", "cannot stand in", "undecided")
    assert "alternative-annotator test" in stand_in.rule
    assert any(e.startswith("κ vs consensus") for e in stand_in.evidence)
    assert stand_in.weakest_class in {"direct", "tool_call", "request_for_info", "cannot_answer"}
    advice = judge.advice
    n, half = advice.n, advice.half_width
    assert n == judge.n and half is not None
    assert advice.more_for_005 == max(0, math.ceil(n * (half / 0.05) ** 2) - n)
    assert advice.more_for_005 >= advice.more_for_010 >= 0
    assert dash.slices is not None
    parts = {s.name: s for s in dash.slices.slices}
    assert set(parts) <= {"0 tools", "1 tool", "2+ tools"}
    assert sum(p.n_units for p in parts.values()) == dash.meta.n_units
    norm = [r for p in parts.values() for r in p.rows if r.rater.endswith(":norm")]
    assert any(r.macro_f1 is not None for r in norm)  # the normalised reading has its own F1
    assert not any(r.key.endswith(":norm") for r in dash.automated)  # an MCQ reading: no decision


def test_agreement_answers_the_judge_question_by_default(demo: Services) -> None:
    _label(demo, ["ann", "ben"], 30, agree=0.9)
    doc = demo.agreement.judges("demo", bootstrap=100)
    assert doc.humans.raters == ("human:ann", "human:ben")
    decisions = {j.key: j.stand_in.decision for j in doc.judges}
    assert decisions and all(
        d in ("can stand in", "cannot stand in", "undecided", "not defined")
        for d in decisions.values()
    )
    judge = next(j for j in doc.judges if j.kind == "judge")
    assert "Δκ" in judge.stand_in.rule and judge.alt_test is None  # 2 humans
    assert "alt_test" not in judge.to_json()
    pooled = demo.agreement.summary("demo", bootstrap=0)
    assert "krippendorff_alpha" in pooled.to_json()
    assert pooled.raters is not None and len(pooled.raters) > 2


@pytest.mark.parametrize("by", list(SliceBy))
def test_metrics_slices_match_the_dashboards(demo: Services, by: SliceBy) -> None:
    """`w2c metrics --by` and the dashboard's slices tab cut the units alike (one slicing,
    services/slicing.py): the same slices in the same order with the same n, and each judge's
    metrics on a slice scored on as many units as the tab says."""
    _label(demo, ["ann", "ben"], 30, agree=0.9)
    parts = demo.metrics.sliced("demo", by)
    dash = demo.agreement.dashboard("demo", bootstrap=20, by=by)
    assert dash.slices is not None
    tab = dash.slices.slices
    assert [(name, n) for name, n, _ in parts] == [(s.name, s.n_units) for s in tab]
    assert sum(n for _, n, _ in parts) == dash.meta.n_units
    checked = 0
    for (_, _, rows), part in zip(parts, tab, strict=True):
        scored = {row.rater.key: row.metrics.n_scored for row in rows}
        for row in part.rows:
            if row.n_gold and row.rater in scored:  # metrics leaves out the :norm readings
                assert scored[row.rater] == row.n_gold
                checked += 1
    assert checked
