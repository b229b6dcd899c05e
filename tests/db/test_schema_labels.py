"""Schema labels in the store: schemas added once, one current answer per rater, unit and
question (the index says so), history kept, imports whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest
from dbfixtures import query
from schema_data import BAR_TOML, write_schema
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from w2c_tui.db.tables import LabelRow
from w2c_tui.domain.errors import InputError, NotFoundError
from w2c_tui.domain.labels import Label
from w2c_tui.domain.schema_labels import AnswerLine, Unit
from w2c_tui.services import Services


def _units(services: Services) -> tuple[str, list[Unit]]:
    dataset = services.datasets.all()[0].name
    return dataset, [u.unit for u in services.schemas.unit_refs("bar", dataset)]


def test_adding_a_schema(demo: Services, tmp_path: Path) -> None:
    path = write_schema(tmp_path)
    assert demo.schemas.add(path).status == "added"
    assert demo.schemas.add(path).status == "unchanged"
    assert [s.name for s in demo.schemas.all()][-1] == "bar"
    assert demo.schemas.get("bar").names == ("ok", "tone", "quality")
    builtin = write_schema(tmp_path, BAR_TOML.replace('"bar"', '"critictool"'), "c.toml")
    with pytest.raises(InputError, match="built-in"):
        demo.schemas.add(builtin)
    with pytest.raises(NotFoundError, match="schemas: when2call-behaviour"):
        demo.schemas.get("nope")
    stored = query(demo.url, "SELECT name, toml FROM label_schema")
    assert stored == [("bar", BAR_TOML)]


def test_a_schema_with_labels_changes_only_by_adding(demo: Services, tmp_path: Path) -> None:
    demo.schemas.add(write_schema(tmp_path))
    fewer = BAR_TOML.replace('"neutral", ', "")
    assert demo.schemas.add(write_schema(tmp_path, fewer, "fewer.toml")).status == "updated"
    demo.schemas.add(write_schema(tmp_path))  # back to three tones: no labels yet, so allowed
    _, units = _units(demo)
    demo.schemas.label("ann", "bar", units[0], {"tone": "neutral"})
    with pytest.raises(InputError, match="lost option"):
        demo.schemas.add(write_schema(tmp_path, fewer, "fewer.toml"))
    more = BAR_TOML.replace('"rude"]', '"rude", "curt"]')
    assert demo.schemas.add(write_schema(tmp_path, more, "more.toml")).status == "updated"
    assert demo.schemas.get("bar").question("tone").option("curt") is not None


def test_answers_supersede_and_keep_history(demo: Services, tmp_path: Path) -> None:
    demo.schemas.add(write_schema(tmp_path))
    dataset, units = _units(demo)
    unit = units[0]
    assert unit.response_id is not None
    assert demo.schemas.label("ann", "bar", unit, {"ok": "yes", "quality": "2"}) == 2
    assert demo.schemas.label("ann", "bar", unit, {"ok": "yes"}) == 0  # unchanged: no row
    assert demo.schemas.label("ann", "bar", unit, {"ok": "no", "tone": "rude"}) == 2
    assert demo.schemas.current("ann", "bar", unit) == {"ok": "no", "tone": "rude", "quality": "2"}
    assert demo.store.schema_reads.history("ann", "bar", unit, "ok") == ["yes", "no"]
    assert demo.schemas.label("ann", "bar", unit, {"ok": None}) == 1  # withdrawn
    assert demo.schemas.current("ann", "bar", unit) == {"tone": "rude", "quality": "2"}
    rows = query(demo.url, "SELECT count(*) FROM label WHERE question = 'ok' AND is_current")
    assert rows == [(1,)]
    with pytest.raises(ValueError, match="'4' is not one of 1, 2, 3"):
        demo.schemas.label("ann", "bar", unit, {"quality": "4"})
    with pytest.raises(InputError, match="labels response units"):
        demo.schemas.label("ann", "bar", Unit(unit.item_id), {"ok": "yes"})
    [record] = demo.schemas.answers("bar", dataset)
    assert (record.annotator, record.unit, record.answers) == (
        "ann",
        unit,
        {"tone": "rude", "quality": "2"},
    )


def test_the_database_keeps_one_current_answer(demo: Services, tmp_path: Path) -> None:
    demo.schemas.add(write_schema(tmp_path))
    _, units = _units(demo)
    demo.schemas.label("ann", "bar", units[0], {"ok": "yes"})
    [(rater_id,)] = query(demo.url, "SELECT rater_id FROM label WHERE schema_name = 'bar'")
    with Session(demo.store.engine) as session, pytest.raises(IntegrityError):
        session.add(
            LabelRow(
                rater_id=int(str(rater_id)),
                item_id=units[0].item_id,
                response_id=units[0].response_id,
                schema_name="bar",
                question="ok",
                value="no",
            )
        )
        session.commit()


ITEM_TOML = """\
name = "item-check"
unit = "item"

[[questions]]
name = "clear"
options = ["yes", "no"]
"""


def test_item_units_share_the_index_with_a_null_response(demo: Services, tmp_path: Path) -> None:
    demo.schemas.add(write_schema(tmp_path, ITEM_TOML, "item.toml"))
    dataset = demo.datasets.all()[0].name
    unit = demo.schemas.unit_refs("item-check", dataset)[0].unit
    assert unit.response_id is None
    demo.schemas.label("ann", "item-check", unit, {"clear": "yes"})
    [(rater_id,)] = query(demo.url, "SELECT rater_id FROM label WHERE schema_name = 'item-check'")
    with Session(demo.store.engine) as session, pytest.raises(IntegrityError):
        session.add(
            LabelRow(
                rater_id=int(str(rater_id)),
                item_id=unit.item_id,
                schema_name="item-check",
                question="clear",
                value="no",
            )
        )
        session.commit()


def test_item_qa_through_the_schema_is_the_review_screens_item_qa(demo: Services) -> None:
    """`when2call-item-qa` answers written like any schema's are the review screen's item-QA
    label, checklist flags and note; CriticTool's are written on its own screen only."""
    dataset = demo.datasets.all()[0].name
    unit = demo.schemas.unit_refs("when2call-item-qa", dataset)[0].unit
    answers = {"behaviour": "direct", "direct_contains_rfi": "yes", "note": "fine"}
    assert demo.schemas.label("ann", "when2call-item-qa", unit, answers) == 3
    qa = demo.review.detail(unit.item_id, "ann").qa
    assert (qa.label, qa.flags, qa.note) == (
        Label.DIRECT,
        frozenset({"direct_contains_rfi"}),
        "fine",
    )
    demo.review.set_flag(
        "ann", unit.item_id, "direct_contains_rfi", False
    )  # off on the review screen
    assert "direct_contains_rfi" not in demo.schemas.current("ann", "when2call-item-qa", unit)
    with pytest.raises(InputError, match="labelled on the CriticTool screen"):
        demo.schemas.on_screen("critictool")


def test_an_import_is_whole_or_nothing(demo: Services, tmp_path: Path) -> None:
    demo.schemas.add(write_schema(tmp_path))
    dataset, units = _units(demo)
    schema = demo.schemas.get("bar")
    uuid = demo.schemas.unit_refs("bar", dataset)[0].item_uuid
    good = AnswerLine(2, "ann", uuid, units[0].response_id, {"ok": "yes"})
    bad_item = AnswerLine(3, "bob", "no-such-uuid", units[0].response_id, {"ok": "no"})
    bad_response = AnswerLine(4, "bob", uuid, units[-1].response_id, {"ok": "no"})
    with pytest.raises(InputError) as caught:
        demo.store.schema_imports.import_lines(
            "f.csv", schema, dataset, [good, bad_item, bad_response]
        )
    assert str(caught.value).startswith("f.csv:3: field 'item': no item 'no-such-uuid'")
    assert "line 4 field 'response'" in str(caught.value)
    assert query(demo.url, "SELECT count(*) FROM label WHERE schema_name = 'bar'") == [(0,)]
    report = demo.store.schema_imports.import_lines("f.csv", schema, dataset, [good])
    assert (report.new, report.replaced, report.unchanged) == (1, 0, 0)
    again = demo.store.schema_imports.import_lines("f.csv", schema, dataset, [good])
    assert (again.new, again.replaced, again.unchanged) == (0, 0, 1)
