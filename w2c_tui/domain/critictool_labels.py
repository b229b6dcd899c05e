"""Human labels on CriticTool trajectories: the questions, their answers and the label form.

The questions mirror the metrics: is there an error in the last step (detect), which one
(category), is the model's critique right, is its corrected call right (tool, args) and, for
external samples, which policy was expected and which the model followed. Every answer is one
key. The form is the schema core's (`SchemaForm` over the built-in `critictool` schema, with the
unit's facts from `unit_facts`): in blind mode the questions about the model come only after
the blind part is complete (and committed by the caller), so nothing about gold or the model is
needed before that.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from w2c_tui.domain.critictool import Source


class ErrorCategory(StrEnum):
    """What went wrong in the last step (a nominal label; internal values are ERROR_TYPES)."""

    TOOL_SELECT = "tool_select_error"
    TOOL_HALLUCINATION = "tool_hallucination_error"
    PARAMETERS_KEY = "parameters_key_error"
    PARAMETERS_VALUE = "parameters_value_error"
    ENVIRONMENT = "environment_error"
    NONE = "none"


CATEGORY_TITLES: dict[ErrorCategory, str] = {
    ErrorCategory.TOOL_SELECT: "tool selection",
    ErrorCategory.TOOL_HALLUCINATION: "tool hallucination",
    ErrorCategory.PARAMETERS_KEY: "parameter key",
    ErrorCategory.PARAMETERS_VALUE: "parameter value",
    ErrorCategory.ENVIRONMENT: "environment",
    ErrorCategory.NONE: "none",
}


class Policy(StrEnum):
    """What to do after an environment error: call again, skip to another step, or finish."""

    RETRY = "retry"
    SKIP = "skip"
    FINISH = "finish"


class Question(StrEnum):
    """The label's fields, in the order the form asks them."""

    ERROR = "error"
    CATEGORY = "category"
    EXPECTED_POLICY = "expected_policy"
    CRITIQUE = "critique_right"
    TOOL = "tool_right"
    ARGS = "args_right"
    OBSERVED_POLICY = "observed_policy"


YES_NO: tuple[tuple[str, str], ...] = (("yes", "yes"), ("no", "no"))

QUESTION_TITLES: dict[Question, str] = {
    Question.ERROR: "Error in the last step?",
    Question.CATEGORY: "Which error?",
    Question.EXPECTED_POLICY: "Expected policy after the failure?",
    Question.CRITIQUE: "Is the model's critique right?",
    Question.TOOL: "Is its corrected call's tool right?",
    Question.ARGS: "Are its corrected call's args right?",
    Question.OBSERVED_POLICY: "Which policy did the model follow?",
}

NOTE = "note"
"""The free-text field beside the questions (a question of the `critictool` schema)."""

BLIND_QUESTIONS = (Question.ERROR, Question.CATEGORY, Question.EXPECTED_POLICY)
"""Questions answered from the trajectory alone (no gold, no model)."""


def options(question: Question) -> tuple[tuple[str, str], ...]:
    """(value, title) of each choice of `question`, in key order (key 1, 2, …)."""
    if question is Question.CATEGORY:
        return tuple((c.value, CATEGORY_TITLES[c]) for c in ErrorCategory)
    if question in (Question.EXPECTED_POLICY, Question.OBSERVED_POLICY):
        return tuple((p.value, p.value) for p in Policy)
    return YES_NO


@dataclass(frozen=True)
class CriticToolLabel:
    """One rater's answers on one CriticTool unit (None: not answered)."""

    error: bool | None = None
    category: ErrorCategory | None = None
    expected_policy: Policy | None = None
    critique_right: bool | None = None
    tool_right: bool | None = None
    args_right: bool | None = None
    observed_policy: Policy | None = None
    note: str | None = None

    def get(self, question: Question) -> str | None:
        """The answer to `question` as its option value ('yes'/'no' for booleans)."""
        value = getattr(self, question.value)
        if value is None:
            return None
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    def answer(self, question: Question, value: str | None) -> CriticToolLabel:
        """A copy with `question` answered by an option value (None clears it)."""
        allowed = [v for v, _ in options(question)]
        if value is not None and value not in allowed:
            raise ValueError(f"{question.value}: {value!r} is not one of {', '.join(allowed)}")
        parsed: Any = value
        if value is not None and options(question) is YES_NO:
            parsed = value == "yes"
        elif value is not None and question is Question.CATEGORY:
            parsed = ErrorCategory(value)
        elif value is not None:
            parsed = Policy(value)
        changed = replace(self, **{question.value: parsed})
        if question is Question.ERROR and parsed is False:
            changed = replace(changed, category=ErrorCategory.NONE)
        if question is Question.ERROR and parsed is True and self.category is ErrorCategory.NONE:
            changed = replace(changed, category=None)
        return changed

    @property
    def empty(self) -> bool:
        """Nothing answered and no note."""
        return self == CriticToolLabel()

    def answers(self) -> dict[str, str]:
        """The answered fields (question → option value, and `note`), as the label store and
        `to_json` hold them."""
        data: dict[str, str] = {q.value: v for q in Question if (v := self.get(q)) is not None}
        if self.note:
            data[NOTE] = self.note
        return data

    def to_json(self) -> str:
        """The answers as a JSON object (only answered fields, sorted keys)."""
        return json.dumps(self.answers(), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> CriticToolLabel:
        """Read `to_json`'s output back; an unknown field or value is a ValueError."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("a CriticTool label must be a JSON object")
        return cls.from_answers(data)

    @classmethod
    def from_answers(cls, answers: dict[str, Any]) -> CriticToolLabel:
        """The label of `answers()`'s mapping; an unknown field or value is a ValueError."""
        data = dict(answers)
        label = cls(note=data.pop(NOTE, None))
        for key, value in data.items():
            try:
                question = Question(key)
            except ValueError:
                raise ValueError(f"unknown CriticTool label field {key!r}") from None
            label = label.answer(question, value)
        if label.note is not None and not isinstance(label.note, str):
            raise ValueError("note must be a string")
        return label


def unit_facts(source: Source, *, has_model: bool) -> dict[str, str]:
    """The unit's facts the `critictool` schema asks on (`when_unit`): external samples add
    the policies, a prediction the model's questions."""
    return {"source": source, "prediction": "yes" if has_model else "no"}
