"""The CriticTool label form (the schema core's, over `critictool`): one key per choice, the
questions by kind and unit, undo, notes, JSON."""

from __future__ import annotations

from pathlib import Path

import pytest

from w2c_tui.domain.critictool_labels import (
    NOTE,
    CriticToolLabel,
    ErrorCategory,
    Policy,
    Question,
    options,
    unit_facts,
)
from w2c_tui.domain.schema_builtins import CRITICTOOL
from w2c_tui.domain.schema_form import SchemaForm
from w2c_tui.io.importers.critictool import read_critictool
from w2c_tui.runs.critictool.parse import parse_reply
from w2c_tui.runs.critictool.self_critique import self_critique

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool"


def _form(source: str, *, has_model: bool, blind: bool = False) -> SchemaForm:
    """The CriticTool screen's form: the core's, over the built-in schema, the note aside."""
    facts = unit_facts(source, has_model=has_model)  # type: ignore[arg-type]
    form = SchemaForm(CRITICTOOL, blind, facts=facts)
    form.skipped.add(NOTE)
    return form


def _label(form: SchemaForm) -> CriticToolLabel:
    return CriticToolLabel.from_answers(form.answers)


def _names(form: SchemaForm) -> list[str]:
    return [q.name for q in form.questions() if q.name != NOTE]


def test_internal_questions_and_keys() -> None:
    form = _form("internal", has_model=True)
    assert _names(form) == [Question.ERROR, Question.CRITIQUE, Question.TOOL, Question.ARGS]
    assert form.press("1")  # error: yes opens the category
    assert form.current is not None and form.current.name == Question.CATEGORY
    assert not form.press("7")  # six categories only
    assert not form.press("x")
    assert form.press("4")  # parameter value
    assert _label(form).category is ErrorCategory.PARAMETERS_VALUE
    for key in "122":
        assert form.press(key)
    assert form.complete and not form.press("1")
    assert _label(form) == CriticToolLabel(
        error=True,
        category=ErrorCategory.PARAMETERS_VALUE,
        critique_right=True,
        tool_right=False,
        args_right=False,
    )


def test_no_error_answers_the_category() -> None:
    form = _form("internal", has_model=False)
    assert form.press("2")
    assert _label(form).category is ErrorCategory.NONE
    assert form.complete
    form.undo()
    assert _label(form) == CriticToolLabel()
    assert form.press("2") and form.answers == {"error": "no", "category": "none"}  # implied
    form.reopen(Question.ERROR)  # "none" goes with the "no" that implied it
    assert form.answers == {}
    assert form.press("1") and form.current is not None
    assert form.current.name == Question.CATEGORY


def test_external_blind_mode_asks_the_model_last() -> None:
    form = _form("external", has_model=True, blind=True)
    assert _names(form) == [Question.ERROR, Question.EXPECTED_POLICY]
    for key in "151":  # yes, environment, retry
        form.press(key)
    assert form.blind_done
    assert _label(form).expected_policy is Policy.RETRY
    assert form.current is not None and form.current.name == Question.CRITIQUE
    assert _names(form)[-1] == Question.OBSERVED_POLICY
    for key in "1113":
        form.press(key)
    assert form.complete and _label(form).observed_policy is Policy.FINISH


def test_undo_steps_back_through_every_change() -> None:
    form = _form("internal", has_model=False)
    form.press("1")
    form.press("2")
    form.set_text(NOTE, "  hallucinated tool  ")
    assert _label(form).note == "hallucinated tool"
    form.reopen(Question.CATEGORY)
    assert form.current is not None and form.current.name == Question.CATEGORY
    assert form.undo() and _label(form).category is ErrorCategory.TOOL_HALLUCINATION
    assert form.undo() and _label(form).note is None
    assert form.undo() and form.undo()
    assert _label(form).empty and not form.undo()


def test_json_round_trip_and_refusals() -> None:
    label = CriticToolLabel(
        error=True, category=ErrorCategory.ENVIRONMENT, expected_policy=Policy.SKIP, note="n"
    )
    assert CriticToolLabel.from_json(label.to_json()) == label
    assert CriticToolLabel.from_json("{}") == CriticToolLabel()
    with pytest.raises(ValueError, match="unknown CriticTool label field 'colour'"):
        CriticToolLabel.from_json('{"colour": "red"}')
    with pytest.raises(ValueError, match="category"):
        CriticToolLabel.from_json('{"category": "typo"}')
    with pytest.raises(ValueError, match="JSON object"):
        CriticToolLabel.from_json("[]")
    assert [v for v, _ in options(Question.ERROR)] == ["yes", "no"]


def test_self_critique_reads_the_parsed_prediction() -> None:
    internal = read_critictool(CT / "predictions" / "interal_base_data_wo_cot.json")
    labels = {s.sample_id: (s, self_critique(s, s.predictions or ())) for s in internal.samples}
    for sample, label in labels.values():  # empty exactly when the reply did not parse
        assert label.empty == (parse_reply((sample.predictions or ("",))[0]).parsed_as is None)
    detected = [s for s, label in labels.values() if label.error]
    assert detected, "the fixture has replies that report an error"
    for _sample, label in labels.values():
        if label.error is False:
            assert label.category is ErrorCategory.NONE
        if label.category not in (None, ErrorCategory.NONE):
            assert label.error is True
    external = read_critictool(CT / "predictions" / "external_skip_base_data_wo_cot.json")
    policies = {self_critique(s, s.predictions or ()).observed_policy for s in external.samples}
    assert policies & {Policy.RETRY, Policy.SKIP, Policy.FINISH}
    dataset = next((CT / "dataset" / "internal_error").iterdir())
    assert all(self_critique(s, ()).empty for s in read_critictool(dataset).samples)
