"""The schema form: the next question follows `when`, blind questions first, keys pick options,
undo goes back one change, and a closed branch's answers are withdrawn."""

from __future__ import annotations

from w2c_tui.domain.schema_builtins import CRITICTOOL
from w2c_tui.domain.schema_form import SchemaForm
from w2c_tui.domain.schema_toml import parse_schema

BRANCHY = """\
name = "branchy"
unit = "item"

[[questions]]
name = "ok"
options = ["yes", "no"]

[[questions]]
name = "why"
options = ["a", "b", "c"]
when = {ok = "no"}

[[questions]]
name = "detail"
options = ["x", "y"]
when = {why = "c"}

[[questions]]
name = "after"
kind = "ordinal"
options = ["1", "2", "3"]
after_blind = true

[[questions]]
name = "comment"
kind = "text"
"""


def test_the_form_follows_conditions() -> None:
    form = SchemaForm(parse_schema(BRANCHY), blind=True)
    assert form.current is not None and form.current.name == "ok"
    assert not form.press("3")  # ok has two options
    assert form.press("2")  # no
    assert form.current is not None and form.current.name == "why"
    assert form.press("3")  # c
    assert form.current is not None and form.current.name == "detail"
    assert form.press("1")
    assert form.current is not None and form.current.name == "comment"  # before the blind end
    assert not form.blind_done
    assert not form.press("1")  # a text question takes no key
    assert form.write("  fine  ")
    assert form.blind_done and form.current is not None and form.current.name == "after"
    assert form.press("2") and form.complete
    assert form.answers == {"ok": "no", "why": "c", "detail": "x", "comment": "fine", "after": "2"}


def test_undo_and_closed_branches() -> None:
    form = SchemaForm(parse_schema(BRANCHY))
    for key in ("2", "3", "2"):
        form.press(key)
    assert form.answers == {"ok": "no", "why": "c", "detail": "y"}
    assert form.undo() and form.answers == {"ok": "no", "why": "c"}
    form.press("2")
    form.reopen("ok")
    assert form.answers == {}  # why and detail belonged to ok = no
    assert form.press("1") and form.answers == {"ok": "yes"}
    assert form.stored() == {
        "ok": "yes",
        "why": None,
        "detail": None,
        "after": None,
        "comment": None,
    }
    assert form.undo() and form.undo() and form.answers == {"ok": "no", "why": "c", "detail": "y"}
    while form.undo():
        pass
    assert form.answers == {} and not form.undo()


def test_critictool_blind_questions_come_first() -> None:
    external = {"source": "external", "prediction": "yes"}
    form = SchemaForm(CRITICTOOL, blind=True, facts=external)
    assert [q.name for q in form.questions()] == ["error", "expected_policy"]
    form.press("1")  # error: yes opens the category
    assert [q.name for q in form.questions()] == ["error", "category", "expected_policy"]
    form.press("4")
    form.press("1")
    assert form.blind_done and form.current is not None
    assert form.current.name == "critique_right"
    open_form = SchemaForm(CRITICTOOL, blind=False, facts=external)
    assert len(open_form.questions()) == 7  # no category until error is yes; the note last
    internal = SchemaForm(CRITICTOOL, facts={"source": "internal", "prediction": "no"})
    assert [q.name for q in internal.questions()] == ["error", "note"]  # the unit's facts


OPTIONAL = """\
name = "optional"
unit = "item"

[[questions]]
name = "ok"
options = ["yes", "no"]

[[questions]]
name = "flag"
options = ["yes", "no"]
required = false

[[questions]]
name = "note"
kind = "text"
required = false
"""


def test_optional_questions_are_offered_and_may_be_skipped() -> None:
    schema = parse_schema(OPTIONAL, "optional.toml")
    assert [q.required for q in schema.questions] == [True, False, False]
    assert schema.questions[1].as_json()["required"] is False
    assert "required" not in schema.questions[0].as_json()  # the default is not said
    form = SchemaForm(schema)
    assert not form.skip()  # a required question cannot be skipped
    form.press("1")
    assert form.complete and not form.done  # the label is complete; the flag is offered
    assert form.current is not None and form.current.name == "flag"
    assert form.skip() and form.current is not None and form.current.name == "note"
    assert form.skip() and form.done and form.stored() == {"ok": "yes", "flag": None, "note": None}
    form.reopen("flag")  # asked again
    assert form.current is not None and form.current.name == "flag"
    form.press("1")
    assert form.stored()["flag"] == "yes"


def test_the_item_qa_checklist_and_note_are_optional() -> None:
    from w2c_tui.domain.qa import QA_FLAGS
    from w2c_tui.domain.schema_builtins import WHEN2CALL_ITEM_QA

    form = SchemaForm(WHEN2CALL_ITEM_QA, blind=True)
    form.press("3")  # request for info: its checks are offered, none required
    assert form.complete and form.blind_done
    asked = [q.name for q in form.questions()]
    assert asked[0] == "behaviour" and asked[-1] == "note" and len(asked) > 2
    assert set(asked[1:-1]) <= {f.code for f in QA_FLAGS}
    while form.skip():
        pass
    assert form.done and form.stored()["behaviour"] == "request_for_info"
