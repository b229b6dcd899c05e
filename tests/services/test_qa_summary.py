"""The QA summary (Table 6 per gold class) and the flag filter of the items list."""

from __future__ import annotations

import pytest

from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.labels import Label
from w2c_tui.domain.qa_summary import QATable
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services


def _items(svc: Services, gold: Label) -> list[int]:
    rows = svc.review.window("demo", ItemFilter(gold=gold), ReviewMode.ITEM_QA, None, 0, 100)
    return [r.id for r in rows]


def _row(table: QATable, code: str) -> dict[str, tuple[int, float | None]]:
    for group in table.groups:
        for row in group.rows:
            if row.code == code:
                return {
                    c: (cell.count, cell.pct)
                    for c, cell in zip(table.columns, row.cells, strict=True)
                }
    raise KeyError(code)


@pytest.fixture
def reviewed(demo: Services) -> Services:
    """ann reviews 4 cannot_answer and 2 tool_call items, ben 2 cannot_answer items."""
    ca = _items(demo, Label.CANNOT_ANSWER)
    tc = _items(demo, Label.TOOL_CALL)
    for item in ca[:3]:
        demo.review.label_item("ann", item, Label.CANNOT_ANSWER)
    demo.review.set_flag("ann", ca[0], "qca_vague", True)
    demo.review.set_flag("ann", ca[1], "qca_vague", True)
    demo.review.set_flag("ann", ca[1], "ca_mentions_unstated", True)
    demo.review.set_note("ann", ca[3], "", "odd wording")  # a note alone counts as reviewed
    demo.review.label_item("ann", tc[0], Label.TOOL_CALL)
    demo.review.label_item("ann", tc[1], Label.TOOL_CALL)
    demo.review.set_flag("ann", tc[1], "rfi_reason", True)
    demo.review.set_flag("ann", tc[1], "rfi_reason", False)  # switched off again
    demo.review.label_item("ben", ca[0], Label.CANNOT_ANSWER)
    demo.review.set_flag("ben", ca[2], "qca_vague", True)  # a flag alone counts as reviewed
    return demo


def test_counts_and_percent_of_reviewed_items_per_gold_class(reviewed: Services) -> None:
    doc = reviewed.qa.summary("demo")
    assert (doc.n_items, doc.n_reviewed) == (30, 6)
    overall = doc.overall
    assert overall.columns == ("tool_call", "request_for_info", "cannot_answer", "all")
    assert overall.items == (10, 10, 10, 30)
    assert overall.reviewed == (2, 0, 4, 6)
    assert _row(overall, "qca_vague") == {
        "tool_call": (0, 0.0),
        "request_for_info": (0, None),
        "cannot_answer": (3, 75.0),
        "all": (3, 50.0),
    }
    assert _row(overall, "rfi_reason")["all"] == (0, 0.0)
    [question_ca] = [g for g in overall.groups if g.name.startswith("Question: correct is 'un")]
    assert question_ca.total.cells[2].count == 3
    assert overall.any_issue.cells[3].count == 3  # ca[0], ca[1], ca[2]
    ann, ben = doc.annotators
    assert (ann.annotator, ann.reviewed) == ("ann", (2, 0, 4, 6))
    assert _row(ann, "qca_vague")["cannot_answer"] == (2, 50.0)
    assert _row(ann, "ca_mentions_unstated")["cannot_answer"] == (1, 25.0)
    assert (ben.annotator, ben.reviewed) == ("ben", (0, 0, 2, 2))
    assert _row(ben, "qca_vague")["cannot_answer"] == (1, 50.0)
    only = reviewed.qa.summary("demo", "ben")
    assert [t.annotator for t in only.annotators] == ["ben"]
    with pytest.raises(NotFoundError, match="ann, ben"):
        reviewed.qa.summary("demo", "zoe")


def test_the_json_document_has_counts_and_percent(reviewed: Services) -> None:
    doc = reviewed.qa.summary("demo").as_json()
    assert (doc["items"], doc["reviewed"]) == (30, 6)
    overall = doc["overall"]
    assert isinstance(overall, dict)
    groups = overall["groups"]
    assert isinstance(groups, list) and len(groups) == 5
    vague = next(i for g in groups for i in g["issues"] if i["code"] == "qca_vague")
    assert vague["counts"]["cannot_answer"] == 3 and vague["percent"]["cannot_answer"] == 75.0
    assert vague["percent"]["request_for_info"] is None


def test_the_flag_filter_takes_anyones_current_flags(reviewed: Services) -> None:
    ca = _items(reviewed, Label.CANNOT_ANSWER)
    tc = _items(reviewed, Label.TOOL_CALL)

    def ids(flag: str) -> set[int]:
        flt = ItemFilter(flag=flag)
        rows = reviewed.review.window("demo", flt, ReviewMode.ITEM_QA, "ben", 0, 100)
        assert reviewed.review.count("demo", flt, ReviewMode.ITEM_QA, "ben") == len(rows)
        return {r.id for r in rows}

    assert ids("qca_vague") == {ca[0], ca[1], ca[2]}  # ann's and ben's
    assert ids("ca_mentions_unstated") == {ca[1]}
    assert ids("rfi_reason") == set()  # switched off
    assert ids("any") == {ca[0], ca[1], ca[2]}
    assert tc[1] not in ids("any")
    assert ItemFilter(flag="any").describe() == "flag=any"
    assert ItemFilter(flag="any").active
