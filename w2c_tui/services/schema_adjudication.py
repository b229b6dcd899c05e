"""Adjudication for every label schema: the units where people answered a question
differently, each with its answers, how split they are and the majority, and a lead's
decision recorded as the answer of an adjudicator (with a note), in the one label store.

Decisions are references, not ratings: the schema's agreement and export leave adjudicators
out (`db.schema_label_reads.RATERS`); `w2c adjudications export --schema` lists them with the
answers they resolved.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from w2c_tui.db.store import Store
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import RaterKind
from w2c_tui.domain.schema_labels import Unit, UnitAnswers
from w2c_tui.domain.schemas import LabelSchema, QuestionKind


@dataclass(frozen=True, slots=True)
class SchemaCase:
    """One question on one unit that people answered differently."""

    schema: str
    question: str
    dataset: str
    item_uuid: str
    unit: Unit
    answers: tuple[tuple[str, str], ...]
    """(annotator, value) of every person who answered, by name."""
    split: float
    """1 − the share of the most common answer (0 = unanimous)."""
    majority: str | None
    """The most common answer; None on a tie."""
    decision: str | None = None
    adjudicator: str | None = None
    note: str = ""

    def as_record(self) -> dict[str, object]:
        """The case as an export row."""
        return {
            "schema": self.schema,
            "dataset": self.dataset,
            "item": self.item_uuid,
            "response": self.unit.response_id,
            "question": self.question,
            "answers": [f"{name}:{value}" for name, value in self.answers],
            "split": round(self.split, 4),
            "majority": self.majority,
            "decision": self.decision,
            "adjudicator": self.adjudicator,
            "note": self.note,
            "overrides_majority": self.decision is not None and self.decision != self.majority,
        }


def _key(record: UnitAnswers) -> tuple[str, Unit]:
    return (record.dataset, record.unit)


class SchemaAdjudicationService:
    """Builds a schema's adjudication cases and records decisions."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def cases(
        self, schema: LabelSchema, dataset: str, question: str | None = None
    ) -> list[SchemaCase]:
        """Every (unit, question) people answered differently, most split first (then in
        item order); each with the current decision, if any. Free-text questions have none."""
        asked = [
            q.name
            for q in schema.questions
            if q.kind is not QuestionKind.TEXT and (question is None or q.name == question)
        ]
        if question is not None and not asked:
            raise InputError(
                "--question", f"{schema.name!r} has no question {question!r} with options"
            )
        reads = self._store.schema_reads
        people = reads.answers(schema.name, dataset, (RaterKind.HUMAN,))
        decided = {
            (*_key(r), q): (r.annotator, value)
            for r in reads.answers(schema.name, dataset, (RaterKind.ADJUDICATOR,))
            for q, value in r.answers.items()
        }
        notes = reads.notes(schema.name, dataset, RaterKind.ADJUDICATOR)
        units: dict[tuple[str, Unit], list[UnitAnswers]] = {}
        for record in people:
            units.setdefault(_key(record), []).append(record)
        cases: list[tuple[int, SchemaCase]] = []
        for order, (key, records) in enumerate(units.items()):
            for name in asked:
                given = sorted((r.annotator, r.answers[name]) for r in records if name in r.answers)
                counts = Counter(value for _, value in given).most_common()
                if len(counts) < 2:
                    continue
                tied = counts[0][1] == counts[1][1]
                decision = decided.get((*key, name))
                case = SchemaCase(
                    schema=schema.name,
                    question=name,
                    dataset=key[0],
                    item_uuid=records[0].item_uuid,
                    unit=key[1],
                    answers=tuple(given),
                    split=1 - counts[0][1] / len(given),
                    majority=None if tied else counts[0][0],
                    decision=decision[1] if decision else None,
                    adjudicator=decision[0] if decision else None,
                    note=notes.get((decision[0], key[1], name), "") if decision else "",
                )
                cases.append((order, case))
        cases.sort(key=lambda pair: (-pair[1].split, pair[0]))
        return [case for _, case in cases]

    def decide(
        self,
        adjudicator: str,
        schema: LabelSchema,
        unit: Unit,
        question: str,
        value: str,
        note: str = "",
    ) -> bool:
        """Record the adjudicator's decision on the question (history kept like any answer);
        False when it is what they had already decided, with the same note."""
        if question not in schema.names:
            raise InputError(
                "--question",
                f"{schema.name!r} has no question {question!r}: {', '.join(schema.names)}",
            )
        found = schema.question(question)
        if found.kind is QuestionKind.TEXT:
            raise InputError("--question", f"{question!r} is free text: nothing to adjudicate")
        try:
            found.check(value)
        except ValueError as error:
            raise InputError("decision", f"{question}: {error}") from error
        changed = self._store.schema_labels.set_answers(
            adjudicator,
            schema,
            unit,
            {question: value},
            source="adjudication",
            kind=RaterKind.ADJUDICATOR,
            note=note,
        )
        return changed > 0
