"""Label schemas: what is labelled (the unit), which questions are asked, their options and keys.

A schema is data. The built-in schemas (`schema_builtins`) describe the labels the code already
records — When2Call behaviour on responses, the item-QA checklist, the seven CriticTool
questions — and users add their own from TOML (`schema_toml`). Every label of any schema is
one answer of one rater to one question on one unit; `agreement` is computed per question at
the question's level of measurement.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class UnitKind(StrEnum):
    """What one label is about."""

    ITEM = "item"
    RESPONSE = "response"
    CRITICTOOL_PREDICTION = "critictool-prediction"

    @property
    def has_response(self) -> bool:
        """A unit of this kind is an item *and* a response (a model's reply or prediction)."""
        return self is not UnitKind.ITEM


class QuestionKind(StrEnum):
    """How a question is answered: one option of an unordered set, of an ordered one, or text."""

    NOMINAL = "nominal"
    ORDINAL = "ordinal"
    TEXT = "text"


class Level(StrEnum):
    """Level of measurement for agreement (Krippendorff's α metric)."""

    NOMINAL = "nominal"
    ORDINAL = "ordinal"
    INTERVAL = "interval"


BLINDABLE_FIELDS = frozenset(
    {
        "gold",
        "held_out_param",
        "target_tool",
        "orig_question",
        "source_id",
        "source",
        "kind",
        "target_model",
        "prediction",
        "judge_verdicts",
        "other_labels",
    }
)
"""Item and unit fields a schema may keep hidden while its blind questions are open."""

MAX_OPTIONS = 9
"""Options are picked with the number keys 1–9 unless they name their own keys."""


@dataclass(frozen=True, slots=True)
class Option:
    """One answer a question offers: the stored value, how it is shown, the key that picks it."""

    value: str
    title: str
    key: str
    implies: tuple[tuple[str, str], ...] = ()
    """(later question, value) answers this option gives as well: CriticTool's "no error"
    answers the category `none` (a question closed by `when` keeps an implied answer)."""


UNIT_FACTS: dict[UnitKind, dict[str, tuple[str, ...]]] = {
    UnitKind.CRITICTOOL_PREDICTION: {
        "source": ("internal", "external"),
        "prediction": ("yes", "no"),
    },
}
"""What a question may be conditioned on besides earlier answers (`when_unit`), per unit kind,
with the values each fact takes: a CriticTool unit's sample source and whether a model's
prediction is there. Nothing about gold: a fact may decide what is asked while blind."""


@dataclass(frozen=True, slots=True)
class Condition:
    """A question is asked only when an earlier question's answer is one of `values`."""

    question: str
    values: tuple[str, ...]

    def holds(self, answers: dict[str, str]) -> bool:
        """Whether the earlier answer is one of the values (an open question: not yet)."""
        return answers.get(self.question) in self.values


@dataclass(frozen=True, slots=True)
class Question:
    """One question of a schema."""

    name: str
    title: str
    kind: QuestionKind
    level: Level | None
    """The level α is computed at; None for free text (no agreement)."""
    options: tuple[Option, ...] = ()
    when: Condition | None = None
    after_blind: bool = False
    """Asked only after every blind question is answered (and the hidden fields revealed)."""
    required: bool = True
    """A label is complete without an answer to an optional question (the form offers it and
    the annotator may skip it: a checklist item, a note)."""
    when_unit: tuple[Condition, ...] = ()
    """Asked only on units whose facts (`UNIT_FACTS`) have these values (all of them)."""

    def asked_on(self, answers: dict[str, str], facts: dict[str, str]) -> bool:
        """Whether the question is asked given the answers so far and the unit's facts."""
        return (self.when is None or self.when.holds(answers)) and all(
            c.holds(facts) for c in self.when_unit
        )

    def option(self, value: str) -> Option | None:
        """The option whose value is `value` (None when there is none)."""
        return next((o for o in self.options if o.value == value), None)

    def by_key(self, key: str) -> Option | None:
        """The option the key `key` picks (None when no option has that key)."""
        return next((o for o in self.options if o.key == key), None)

    def check(self, value: str) -> str:
        """`value` as stored for this question; ValueError naming the options when it is
        not one (free text: any text without surrounding whitespace, not empty)."""
        text = value.strip()
        if self.kind is QuestionKind.TEXT:
            if not text:
                raise ValueError("must not be empty")
            return text
        if self.option(text) is None:
            allowed = ", ".join(o.value for o in self.options)
            raise ValueError(f"{text!r} is not one of {allowed}")
        return text

    def numeric(self, value: str) -> float:
        """The number α uses for `value`: its position among the options (nominal, ordinal)
        or, at the interval level, the value itself when every option is a number."""
        if self.level is Level.INTERVAL and all(_is_number(o.value) for o in self.options):
            return float(value)
        return float([o.value for o in self.options].index(value))

    def domain(self) -> list[float]:
        """Every option's number in option order (what α's value domain is)."""
        return [self.numeric(o.value) for o in self.options]

    def as_json(self) -> dict[str, Any]:
        """The question as a JSON object (what `schemas show --json` prints)."""
        doc: dict[str, Any] = {
            "name": self.name,
            "title": self.title,
            "kind": self.kind.value,
            "level": self.level.value if self.level else None,
            "options": [_option_json(o) for o in self.options],
            "after_blind": self.after_blind,
        }
        if not self.required:  # said only when it is not the default
            doc["required"] = False
        if self.when_unit:
            doc["when_unit"] = {c.question: list(c.values) for c in self.when_unit}
        if self.when is not None:
            doc["when"] = {"question": self.when.question, "values": list(self.when.values)}
        return doc


def _option_json(option: Option) -> dict[str, Any]:
    doc: dict[str, Any] = {"value": option.value, "title": option.title, "key": option.key}
    if option.implies:
        doc["implies"] = dict(option.implies)
    return doc


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class LabelSchema:
    """A named set of questions about one kind of unit."""

    name: str
    title: str
    unit: UnitKind
    questions: tuple[Question, ...]
    blind_hidden: tuple[str, ...] = ()
    version: int = 1
    builtin: bool = False
    description: str = field(default="")

    def question(self, name: str) -> Question:
        """The question called `name` (KeyError when the schema has none)."""
        for question in self.questions:
            if question.name == name:
                return question
        raise KeyError(name)

    @property
    def names(self) -> tuple[str, ...]:
        """The question names in the order they are asked."""
        return tuple(q.name for q in self.questions)

    def implied(self, answers: dict[str, str]) -> dict[str, str]:
        """The answers the given ones imply (`Option.implies`), question → value."""
        out: dict[str, str] = {}
        for question in self.questions:
            value = answers.get(question.name)
            option = question.option(value) if value is not None else None
            if option is not None:
                out.update(option.implies)
        return out

    def asked(
        self,
        answers: dict[str, str],
        *,
        blind_done: bool = True,
        facts: dict[str, str] | None = None,
    ) -> list[Question]:
        """The questions asked given the answers so far and the unit's `facts`: those whose
        conditions hold, and the after-blind ones only once `blind_done`."""
        known = facts or {}
        return [
            q
            for q in self.questions
            if q.asked_on(answers, known) and (blind_done or not q.after_blind)
        ]

    def as_json(self) -> dict[str, Any]:
        """The schema as a JSON object (stored next to its TOML and printed by `--json`)."""
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "unit": self.unit.value,
            "version": self.version,
            "builtin": self.builtin,
            "blind_hidden": list(self.blind_hidden),
            "questions": [q.as_json() for q in self.questions],
        }

    def to_json(self) -> str:
        """`as_json` as text with sorted keys (what the store compares)."""
        return json.dumps(self.as_json(), sort_keys=True)

    def extends(self, older: LabelSchema) -> str | None:
        """Why this schema cannot replace `older` whose labels exist (None when it can): every
        question of `older` must still be here with the same kind and every option value."""
        if self.unit is not older.unit:
            return f"the unit changed from {older.unit.value} to {self.unit.value}"
        for question in older.questions:
            try:
                now = self.question(question.name)
            except KeyError:
                return f"question {question.name!r} was removed"
            if now.kind is not question.kind:
                return f"question {question.name!r} changed kind"
            gone = [o.value for o in question.options if now.option(o.value) is None]
            if gone:
                return f"question {question.name!r} lost option(s) {', '.join(gone)}"
        return None
