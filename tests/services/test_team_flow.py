"""Reveal effects, adjudication precedence, guidelines, team status and imported labels."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from w2c_tui.domain.dashboard import Against
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import Label, RaterKind
from w2c_tui.domain.review import ItemFilter, ReviewMode, UnitKind
from w2c_tui.domain.team import AssignUnits, Seen, Selection
from w2c_tui.io import report
from w2c_tui.services import Services
from w2c_tui.tui.review_views import ReviewController

RESP = ReviewMode.RESPONSES


def _responses(svc: Services, n: int) -> list[tuple[int, int, str]]:
    """(item id, response id, model) of the first `n` responses of the demo, in file order."""
    out = []
    for row in svc.review.window("demo", ItemFilter(), RESP, None, 0, 30):
        for response in svc.review.detail(row.id, None).responses:
            assert response.id is not None
            out.append((row.id, response.id, response.target_model))
    return out[:n]


def test_post_reveal_flips_and_agreement_before_and_after(demo: Services) -> None:
    state = ReviewController(demo, "alice", "demo")
    state.open()
    assert state.is_blind
    card = state.card
    assert card is not None and card.response is not None and card.mine is None
    judge = next(v for v in card.response.verdicts if v.rater.kind is RaterKind.JUDGE)
    other = next(label for label in Label if label is not judge.label)
    state.record(other, advance=False)  # blind: disagrees with the judge
    state.load(card.response.id)
    assert state.card is not None and state.card.revealed and state.card.mine is not None
    assert judge.label is not None
    state.record(judge.label, advance=False)  # after seeing the judge: agrees now
    summary = demo.agreement.summary("demo", bootstrap=0)
    reveal = summary.reveal
    assert reveal is not None
    [alice] = reveal.annotators
    assert (alice.first_labels_blind, alice.post_reveal_flips) == (1, 1)
    versus = next(v for v in alice.versus if v.rater.startswith("judge:"))
    assert (versus.n, versus.agreement_pre_reveal, versus.agreement_current) == (1, 0, 1)
    history = demo.store.team.history("demo")
    assert [e.seen for e in history] == [Seen.BLIND, Seen.REVEALED]


def test_adjudication_takes_precedence_over_the_majority(demo: Services) -> None:
    (item, response, model), *_ = _responses(demo, 1)
    for name, label in (("ann", Label.TOOL_CALL), ("ben", Label.TOOL_CALL), ("cat", Label.DIRECT)):
        demo.review.label_response(name, item, response, label)
    [case] = [c for c in demo.adjudication.queue("demo") if c.response_id == response]
    assert case.majority is Label.TOOL_CALL and case.split == pytest.approx(1 / 3)
    assert [n for n, _ in case.humans] == ["ann", "ben", "cat"]
    demo.adjudication.decide(case, "dora", Label.DIRECT, "the reply answers from memory")
    dash = demo.agreement.dashboard("demo", bootstrap=0)
    assert dash.meta.consensus.adjudicated == 1
    assert dash.distributions.consensus.direct == 1  # not the majority's tool_call
    assert "1 from adjudication" in report.markdown(dash)
    assert demo.metrics.reference("demo", Against.HUMANS).adjudicated == 1
    judged = demo.metrics.metrics("demo", against=Against.HUMANS)
    row = next(m for m in judged if m.rater.kind is RaterKind.JUDGE and m.target_model == model)
    assert row.metrics.n_scored == 1 and sum(row.metrics.confusion[0]) == 1  # reference: direct
    unit = next(
        u
        for u in demo.adjudication.readings("demo", UnitKind.BEHAVIOUR).units
        if u.item_id == item and u.target_model == model
    )
    [exported] = demo.adjudication.export("demo")
    assert exported["label"] == "direct" and exported["majority"] == "tool_call"
    assert exported["overrides_majority"] and exported["note"].startswith("the reply")
    [decided] = [c for c in demo.adjudication.queue("demo") if c.unit == unit.key]
    assert (decided.decision, decided.adjudicator) == (Label.DIRECT, "dora")


def test_guidelines_versions_and_the_version_each_label_was_made_under(
    demo: Services, tmp_path: Path
) -> None:
    text = tmp_path / "guide.md"
    text.write_text("# Labelling\n\nA tool call needs every required argument.\n")
    first, created = demo.guidelines.set("demo", text)
    assert created and first.version == 1
    assert demo.guidelines.set("demo", text) == (first, False)
    assert demo.guidelines.unseen("demo", "alice") == first
    assert demo.guidelines.mark_seen("alice", first.id)
    assert demo.guidelines.unseen("demo", "alice") is None
    (item, response, _), *_ = _responses(demo, 1)
    demo.review.label_response("alice", item, response, Label.TOOL_CALL)
    text.write_text("# Labelling\n\nv2: a tool call may omit optional arguments.\n")
    second, created = demo.guidelines.set("demo", text)
    assert created and second.version == 2
    assert demo.guidelines.unseen("demo", "alice") == second
    demo.review.label_response("alice", item, response, Label.CANNOT_ANSWER)
    versions = [e.guideline_id for e in demo.store.team.history("demo")]
    assert versions == [first.id, second.id]
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"ok\n\xff\xfe")
    with pytest.raises(InputError, match=r"bad.md:2: not UTF-8"):
        demo.guidelines.set("demo", bad)


def test_team_status_alpha_on_complete_units(demo: Services) -> None:
    demo.assignments.assign(
        "demo", ["ann", "ben"], overlap=2, seed=0, selection=Selection(sample=6)
    )
    assigned = demo.assignments.show("demo", "ann")
    for index, unit in enumerate(assigned):
        assert unit.response_id is not None
        demo.review.label_response("ann", unit.item_id, unit.response_id, Label.TOOL_CALL)
        if index < 4:  # ben finishes four of the six
            label = Label.TOOL_CALL if index < 2 else Label.CANNOT_ANSWER
            demo.review.label_response("ben", unit.item_id, unit.response_id, label)
    status = demo.team.status("demo", bootstrap=200)
    assert status.units is AssignUnits.RESPONSES and status.overlap == 2
    assert (status.units_assigned, status.units_complete) == (6, 4)
    rows = {a.annotator: a for a in status.annotators}
    assert (rows["ann"].assigned, rows["ann"].done) == (6, 6)
    assert (rows["ben"].assigned, rows["ben"].done) == (6, 4)
    assert status.alpha.n == 4 and status.alpha.value is not None
    assert status.alpha.low is not None and status.alpha.low <= status.alpha.value


def _label_rows(svc: Services, n: int) -> list[list[str]]:
    units = _responses(svc, 60)
    uuids = {row.id: row.uuid for row in svc.review.window("demo", ItemFilter(), RESP, None, 0, 30)}
    labels = ["direct", "tool_call", "request_for_info", "cannot_answer"]
    rows = []
    for i in range(n):
        item, _, model = units[i % len(units)]
        rows.append([uuids[item], f"annotator{i // len(units)}", labels[i % 4], model, ""])
    return rows


def test_a_thousand_labels_import_once(demo: Services, tmp_path: Path) -> None:
    path = tmp_path / "labels.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["uuid", "annotator", "label", "target_model", "note"])
        writer.writerows(_label_rows(demo, 1000))
    report = demo.labels.import_file(path, "demo")
    assert (report.rows, report.labels_new, report.labels_unchanged) == (1000, 1000, 0)
    again = demo.labels.import_file(path, "demo")
    assert (again.labels_new, again.labels_unchanged, again.changed) == (0, 1000, False)
    assert len(demo.labels.export("demo")) == 1000


@pytest.mark.parametrize(
    ("row", "where"),
    [
        (["nope", "zed", "direct", "", ""], r"labels.csv:3: field 'uuid': no item 'nope'"),
        (["{uuid}", "zed", "maybe", "", ""], r"labels.csv:3: field 'label': unknown label"),
        (["{uuid}", "", "direct", "", ""], r"labels.csv:3: field 'annotator': must not be empty"),
        (["{uuid}", "zed", "direct", "no-such-model", ""], r":3: field 'target_model'"),
        (["{uuid}", "zed", "direct", ""], r"labels.csv:3: 4 cells where the header has 5"),
    ],
)
def test_a_bad_label_row_writes_nothing(
    demo: Services, tmp_path: Path, row: list[str], where: str
) -> None:
    [first] = _label_rows(demo, 1)
    path = tmp_path / "labels.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["uuid", "annotator", "label", "target_model", "note"])
        writer.writerow(first)
        writer.writerow([cell.format(uuid=first[0]) for cell in row])
    with pytest.raises(InputError, match=where):
        demo.labels.import_file(path, "demo")
    assert demo.labels.export("demo") == []


def test_pace_is_not_given_on_too_little() -> None:
    """Two labels three seconds apart are no pace; ten a minute apart are 60 an hour (the
    first label starts the clock: 9 intervals)."""
    from datetime import UTC, datetime, timedelta

    from w2c_tui.services.team import active_pace

    start = datetime(2026, 11, 1, 9, tzinfo=UTC)
    assert active_pace([start, start + timedelta(seconds=3)])[0] is None
    ten = [start + timedelta(seconds=60 * i) for i in range(10)]
    pace, minutes = active_pace(ten)
    assert minutes == 9 and pace == 9 / (9 / 60)
    with_break = [*ten, ten[-1] + timedelta(hours=2)]  # a break counts 5 minutes at most
    assert active_pace(with_break)[1] == 9 + 5
