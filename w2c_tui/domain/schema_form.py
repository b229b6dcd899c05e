"""The answers being made on one unit with any label schema: which question is next, one key per
option, free text, undo — the logic of the labelling screen, testable without Textual.

A question is asked when its `when` condition holds on the answers so far; in blind mode the
after-blind questions only once every blind question is answered. An answer that makes a
later question no longer asked withdraws that question's answer (it would describe a branch
the annotator left).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from w2c_tui.domain.schemas import LabelSchema, Question, QuestionKind


@dataclass
class SchemaForm:
    """One unit's answers under `schema`, with an undo stack."""

    schema: LabelSchema
    blind: bool = False
    answers: dict[str, str] = field(default_factory=dict)
    history: list[dict[str, str]] = field(default_factory=list)
    skipped: set[str] = field(default_factory=set)
    """Optional questions passed over on this visit (not recorded: nothing was answered)."""
    facts: dict[str, str] = field(default_factory=dict)
    """The unit's facts that `when_unit` conditions read (`schemas.UNIT_FACTS`)."""

    @property
    def blind_done(self) -> bool:
        """Every blind question asked is answered or, if optional, skipped (the hidden fields
        may now be shown)."""
        return all(
            self._settled(q)
            for q in self.schema.asked(self.answers, blind_done=False, facts=self.facts)
        )

    def _settled(self, question: Question) -> bool:
        return question.name in self.answers or (
            not question.required and question.name in self.skipped
        )

    def questions(self) -> list[Question]:
        """The questions asked now."""
        return self.schema.asked(
            self.answers, blind_done=self.blind_done or not self.blind, facts=self.facts
        )

    @property
    def current(self) -> Question | None:
        """The first question asked and neither answered nor skipped (None: nothing left)."""
        return next((q for q in self.questions() if not self._settled(q)), None)

    @property
    def complete(self) -> bool:
        """Every required question asked is answered (optional ones may be open)."""
        return all(q.name in self.answers for q in self.questions() if q.required)

    @property
    def done(self) -> bool:
        """Nothing is left to ask on this visit: the screen may move on."""
        return self.current is None

    def skip(self) -> bool:
        """Pass over the current question when it is optional; False when it is required."""
        question = self.current
        if question is None or question.required:
            return False
        self.skipped.add(question.name)
        return True

    def press(self, key: str) -> bool:
        """Answer the current question with the option whose key is `key`; False when the
        current question has no such option (or takes text)."""
        question = self.current
        if question is None or question.kind is QuestionKind.TEXT:
            return False
        option = question.by_key(key)
        if option is None:
            return False
        self._set(question.name, option.value)
        return True

    def write(self, text: str) -> bool:
        """Answer the current free-text question; False when it is not one or `text` is blank."""
        question = self.current
        if question is None or question.kind is not QuestionKind.TEXT or not text.strip():
            return False
        self._set(question.name, question.check(text))
        return True

    def set_text(self, name: str, text: str) -> None:
        """Answer the free-text question `name` whatever is current (an empty text withdraws
        it; undoable): a note written beside the keys."""
        value = text.strip()
        if value == self.answers.get(name, ""):
            return
        self.history.append(dict(self.answers))
        if value:
            self.answers[name] = value
        else:
            self.answers.pop(name, None)

    def reopen(self, name: str) -> None:
        """Clear one answer so that it is asked again (undoable)."""
        self.skipped.discard(name)
        if name in self.answers:
            self.history.append(dict(self.answers))
            del self.answers[name]
            self._prune()

    def undo(self) -> bool:
        """Back to the answers before the last change; False when there is nothing to undo."""
        if not self.history:
            return False
        self.answers = self.history.pop()
        return True

    def stored(self) -> dict[str, str | None]:
        """What to record: every question's answer, None for those not answered (withdrawn)."""
        return {name: self.answers.get(name) for name in self.schema.names}

    def _set(self, name: str, value: str) -> None:
        self.history.append(dict(self.answers))
        before = self.schema.implied(self.answers)
        self.answers[name] = value
        after = self.schema.implied(self.answers)
        for implied, given in before.items():  # what the old answer implied goes with it
            if after.get(implied) != given and self.answers.get(implied) == given:
                del self.answers[implied]
        self.answers.update(after)
        self._prune()

    def _prune(self) -> None:
        """Drop answers to questions whose condition no longer holds (until nothing changes:
        one dropped answer may close a question further on)."""
        while True:
            implied = self.schema.implied(self.answers)
            gone = [
                q.name
                for q in self.schema.questions
                if q.name in self.answers
                and q.when is not None
                and not q.when.holds(self.answers)
                and implied.get(q.name) != self.answers[q.name]
            ]
            if not gone:
                return
            for name in gone:
                del self.answers[name]
