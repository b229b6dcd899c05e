"""Labelling through the services: history, undo, filters, progress, export."""

from __future__ import annotations

import pytest
from dbfixtures import WHEN2CALL, query

from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.models import ItemDetail, Verdict
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services

RESP = ReviewMode.RESPONSES
QA = ReviewMode.ITEM_QA


def first_detail(services: Services, index: int = 0) -> ItemDetail:
    row = services.review.window("demo", ItemFilter(), RESP, None, index, 1)[0]
    return services.review.detail(row.id, "alice")


def verdict_rows(services: Services) -> list[tuple[object, ...]]:
    """(id, label, status, is_current, supersedes_id) of every human verdict, oldest first."""
    return [
        (*row[:3], bool(row[3]), row[4])
        for row in query(
            services.url,
            "SELECT v.id, v.value, v.status, v.is_current, v.supersedes_id FROM label v "
            f"JOIN rater r ON r.id = v.rater_id WHERE r.kind = 'human' AND {WHEN2CALL} "
            "ORDER BY v.id",
        )
    ]


def test_label_is_durable_and_edits_keep_history(demo: Services) -> None:
    detail = first_detail(demo)
    response = detail.responses[0]
    assert response.id is not None
    first = demo.review.label_response("alice", detail.item.id, response.id, Label.TOOL_CALL)
    assert first is not None and first.previous_label is None
    second = demo.review.label_response("alice", detail.item.id, response.id, Label.DIRECT)
    assert second is not None and second.previous_label is Label.TOOL_CALL
    rows = verdict_rows(demo)
    assert [(r[1], r[3]) for r in rows] == [("tool_call", False), ("direct", True)]
    assert rows[1][4] == rows[0][0]  # the edit points at what it replaced
    [record] = demo.labels.export()
    assert (
        record.annotator,
        record.item_uuid,
        record.target_model,
        record.label,
        record.n_edits,
    ) == ("alice", detail.item.uuid, response.target_model, Label.DIRECT, 1)
    # the same label again is not a change
    assert demo.review.label_response("alice", detail.item.id, response.id, Label.DIRECT) is None


def test_undo_restores_the_previous_state(demo: Services) -> None:
    detail = first_detail(demo)
    response_id = detail.responses[0].id
    assert response_id is not None
    change = demo.review.label_response(
        "alice", detail.item.id, response_id, Label.REQUEST_FOR_INFO
    )
    assert change is not None
    demo.review.undo("alice", change)
    again = demo.review.detail(detail.item.id, "alice")
    mine = [v for v in again.responses[0].verdicts if v.rater.kind is RaterKind.HUMAN]
    assert mine and mine[0].status is VerdictStatus.MISSING and mine[0].label is None
    assert len(verdict_rows(demo)) == 2  # undo is a new history entry, not a deletion
    assert demo.review.progress("demo", RESP, "alice").done == 0


def test_item_qa_flags_and_note(demo: Services) -> None:
    detail = first_detail(demo)
    item_id = detail.item.id
    demo.review.label_item("alice", item_id, Label.CANNOT_ANSWER)
    flag = demo.review.set_flag("alice", item_id, "qca_vague", True)
    demo.review.set_flag("alice", item_id, "qca_answerable", True)
    demo.review.undo("alice", flag)
    demo.review.set_note("alice", item_id, "", "tool removed, fine")
    qa = demo.review.detail(item_id, "alice").qa
    assert (qa.label, qa.flags, qa.note) == (
        Label.CANNOT_ANSWER,
        frozenset({"qca_answerable"}),
        "tool removed, fine",
    )
    [record] = demo.labels.export()
    assert (record.target_model, record.flags, record.note) == (
        None,
        ("qca_answerable",),
        "tool removed, fine",
    )
    assert demo.review.progress("demo", QA, "alice").done == 1
    assert demo.review.progress("demo", QA, "bob").done == 0


def test_flags_alone_are_exported(demo: Services) -> None:
    detail = first_detail(demo)
    demo.review.set_flag("alice", detail.item.id, "qca_vague", True)
    [record] = demo.labels.export()
    assert record.label is None and record.flags == ("qca_vague",)


def test_labelled_filter_and_next_unlabelled(demo: Services) -> None:
    detail = first_detail(demo)
    for response in detail.responses:
        assert response.id is not None
        demo.review.label_response("alice", detail.item.id, response.id, Label.CANNOT_ANSWER)
    done = ItemFilter(labelled=True)
    assert demo.review.count("demo", done, RESP, "alice") == 1
    assert demo.review.count("demo", ItemFilter(labelled=False), RESP, "alice") == 29
    assert demo.review.count("demo", done, RESP, "bob") == 0
    nxt = demo.review.next_unlabelled("demo", ItemFilter(), RESP, "alice", None)
    assert nxt is not None and nxt != detail.item.id
    last = demo.review.window("demo", ItemFilter(), RESP, None, 29, 1)[0]
    wrapped = demo.review.next_unlabelled("demo", ItemFilter(), RESP, "alice", last.id)
    assert wrapped == nxt  # wraps around to the first unfinished item
    assert demo.review.progress("demo", RESP, "alice").done == 2
    assert demo.review.progress("demo", RESP, "alice").total == 60


def test_disagreement_filter(demo: Services) -> None:
    flt = ItemFilter(disagree=True)
    assert demo.review.count("demo", flt, RESP, "alice") == 0
    detail = first_detail(demo)
    response = next(
        r
        for r in detail.responses
        if any(v.rater.kind is RaterKind.JUDGE and v.label for v in r.verdicts)
    )
    judge = next(v for v in response.verdicts if v.rater.kind is RaterKind.JUDGE)
    other = next(label for label in Label if label is not judge.label)
    assert response.id is not None
    demo.review.label_response("alice", detail.item.id, response.id, other)
    assert demo.review.count("demo", flt, RESP, "alice") == 1
    assert demo.review.label_response("alice", detail.item.id, response.id, judge.label)
    assert demo.review.count("demo", flt, RESP, "alice") == 0


def test_search_and_find(demo: Services) -> None:
    assert demo.review.count("demo", ItemFilter(search="zürich"), QA, None) >= 1
    assert demo.review.count("demo", ItemFilter(search="no such words here"), QA, None) == 0
    row = demo.review.window("demo", ItemFilter(), QA, None, 5, 1)[0]
    assert demo.review.find("demo", row.uuid[:13]).id == row.id
    assert demo.review.find("demo", row.uuid[:13].upper()).id == row.id  # any case, both dbs
    assert demo.review.index_of("demo", ItemFilter(), QA, None, row.id) == 5


def test_search_is_the_same_on_every_backend(demo: Services) -> None:
    every = demo.review.window("demo", ItemFilter(), QA, None, 0, 100)
    details = [demo.review.detail(r.id, None).item.question for r in every]
    zurich = sum("zürich" in q.lower() for q in details)
    assert zurich >= 1
    for text in ("zürich", "ZÜRICH", "Zürich"):  # case-insensitive beyond ASCII
        assert demo.review.count("demo", ItemFilter(search=text), QA, None) == zurich
    for literal in ("%", "_", "40%"):  # wildcards are searched for, not matched by
        expected = sum(literal in q for q in details)
        assert demo.review.count("demo", ItemFilter(search=literal), QA, None) == expected


def test_disagreement_queue_ranks_disputed_items(demo: Services) -> None:
    queue = ItemFilter(ranked=True)
    ranked = demo.review.queue("demo", queue, RESP, "alice")
    assert ranked and demo.review.count("demo", queue, RESP, "alice") == len(ranked)
    rows = demo.review.window("demo", queue, RESP, "alice", 0, len(ranked))
    assert [r.id for r in rows] == ranked
    # a human label that sides with nobody makes its item the most disputed one
    last = rows[-1]
    detail = demo.review.detail(last.id, "alice")
    for response in detail.responses:
        assert response.id is not None
        demo.review.label_response("alice", last.id, response.id, Label.DIRECT)
        demo.review.label_response("bob", last.id, response.id, Label.REQUEST_FOR_INFO)
    again = demo.review.queue("demo", queue, RESP, "alice")
    assert again != ranked and again.index(last.id) < ranked.index(last.id)
    assert demo.review.index_of("demo", queue, RESP, "alice", again[0]) == 0


def test_disagreement_queue_puts_human_splits_first_and_unanimous_units_last(
    demo: Services,
) -> None:
    queue = ItemFilter(ranked=True)
    rows = demo.review.window("demo", queue, RESP, None, 0, 30)
    assert all(r.dispute is not None and r.dispute > 0 for r in rows)
    agreed, split = rows[0], rows[-1]
    for row, labels in ((agreed, ("tool_call", "tool_call")), (split, ("direct", "cannot_answer"))):
        for response in demo.review.detail(row.id, None).responses:
            assert response.id is not None
            for name, label in zip(("ann", "ben"), labels, strict=True):
                demo.review.label_response(name, row.id, response.id, Label(label))
    again = demo.review.queue("demo", queue, RESP, None)
    assert again[0] == split.id  # the humans disagree: first
    ranks = {item: n for n, item in enumerate(again)}
    assert ranks[agreed.id] > len(again) // 2  # the humans agree: among the last


def test_when2call_labels_are_answers_of_the_core_schema(demo: Services) -> None:
    """People's and the judge's When2Call labels are answers of `when2call-behaviour` in the one
    store: the core's agreement gives α equal to the krippendorff package on the labels the
    review screen reads, and its export has one row per rater and unit."""
    import krippendorff
    import numpy as np

    picks = {"ann": "dtcd", "ben": "dtrd"}
    codes = {"d": Label.DIRECT, "t": Label.TOOL_CALL, "r": Label.REQUEST_FOR_INFO}
    details = [first_detail(demo, index) for index in range(4)]
    units = [(d.item.id, d.responses[0].id) for d in details]
    for who, marks in picks.items():
        for (item, response), mark in zip(units, marks, strict=True):
            assert response is not None
            demo.review.label_response(who, item, response, codes.get(mark, Label.CANNOT_ANSWER))
    rows: dict[str, list[float]] = {}
    for index, (item, response) in enumerate(units):  # read back as the review screen does
        [shown] = [r for r in demo.review.detail(item, None).responses if r.id == response]
        for verdict in shown.verdicts:
            if verdict.label is not None:
                values = rows.setdefault(verdict.rater.name, [np.nan] * len(units))
                values[index] = float(list(Label).index(verdict.label))
    assert {"ann", "ben"} < set(rows)  # and the demo's judge
    expected = krippendorff.alpha(
        reliability_data=np.array(list(rows.values())), level_of_measurement="nominal"
    )
    schema = demo.schemas.get("when2call-behaviour")
    [behaviour] = demo.schema_agreement.compute(schema, "demo").questions
    assert behaviour.alpha == pytest.approx(expected, abs=1e-12)
    text = demo.schemas.export("when2call-behaviour", "demo")
    assert sum(line.startswith(("ann,", "ben,")) for line in text.splitlines()) == 8


def test_the_schema_path_and_the_review_screen_share_when2call_labels(demo: Services) -> None:
    """A response labelled through `when2call-behaviour` (as `w2c tui --schema` does) is the
    review screen's label, and the other way round: one current row for the unit."""
    from w2c_tui.domain.schema_labels import Unit

    detail = first_detail(demo)
    item, response = detail.item.id, detail.responses[0].id
    assert response is not None
    demo.schemas.label("ann", "when2call-behaviour", Unit(item, response), {"behaviour": "direct"})
    mine = [v for v in _response_verdicts(demo, item, response) if v.rater.name == "ann"]
    assert [(v.label, v.status) for v in mine] == [(Label.DIRECT, VerdictStatus.OK)]
    demo.review.label_response("ann", item, response, Label.TOOL_CALL)
    assert demo.schemas.current("ann", "when2call-behaviour", Unit(item, response)) == {
        "behaviour": "tool_call"
    }
    rows = query(
        demo.url,
        "SELECT value, is_current FROM label JOIN rater ON rater.id = rater_id "
        f"WHERE rater.name = 'ann' AND {WHEN2CALL} ORDER BY label.id",
    )
    assert [(v, bool(c)) for v, c in rows] == [("direct", False), ("tool_call", True)]


def _response_verdicts(svc: Services, item: int, response: int) -> list[Verdict]:
    [shown] = [r for r in svc.review.detail(item, None).responses if r.id == response]
    return list(shown.verdicts)


def test_verdicts_read_again_are_the_item_read_again(demo: Services) -> None:
    """After label writes (hers and another annotator's), the item with only its verdicts
    read again equals the item read whole: what the screen shows on a key that stays."""
    detail = first_detail(demo)
    item = detail.item.id
    demo.review.set_flag("alice", item, "qca_vague", True)
    demo.review.set_note("alice", item, "", "a note")
    before = demo.review.detail(item, "alice")
    assert len(before.responses) >= 2 and any(r.verdicts for r in before.responses)
    first, last = before.responses[0], before.responses[-1]
    demo.review.label_response("alice", item, first.id, Label.TOOL_CALL)
    demo.review.label_response("bob", item, last.id, Label.DIRECT)
    demo.review.label_item("alice", item, Label.REQUEST_FOR_INFO)
    again = demo.review.verdicts_again(before, "alice")
    assert again == demo.review.detail(item, "alice")
    assert again.qa.label is Label.REQUEST_FOR_INFO and again.qa.flags == {"qca_vague"}
    assert again != before
    demo.review.label_response("alice", item, first.id, None)  # withdrawn: shown as missing
    assert demo.review.verdicts_again(before, "alice") == demo.review.detail(item, "alice")
