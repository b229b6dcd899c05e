"""Agreement of a schema's labels: Krippendorff's α per question at the question's level."""

from __future__ import annotations

import numpy as np

from w2c_tui.db.store import Store
from w2c_tui.domain.schema_labels import QuestionAgreement, SchemaAgreement, Unit
from w2c_tui.domain.schemas import LabelSchema, Question
from w2c_tui.stats.levels import alpha_at_level


def question_agreement(
    question: Question, answers: dict[tuple[Unit, str], str], raters: list[str]
) -> QuestionAgreement:
    """α of one question over the (unit, rater) → value answers."""
    if question.level is None:
        why = "not computed, because free text has no level of measurement"
        return QuestionAgreement(question.name, None, None, why, 0, 0)
    units = sorted({unit for unit, _ in answers}, key=lambda u: (u.item_id, u.response_id or 0))
    table = np.full((len(units), len(raters)), np.nan)
    row = {unit: i for i, unit in enumerate(units)}
    column = {rater: j for j, rater in enumerate(raters)}
    for (unit, rater), value in answers.items():
        table[row[unit], column[rater]] = question.numeric(value)
    got = alpha_at_level(
        table.reshape(len(units), len(raters)), question.level.value, question.domain()
    )
    return QuestionAgreement(
        question.name, got.level, got.alpha, got.reason, got.n_units, got.n_values
    )


class SchemaAgreementService:
    """Agreement per question of a schema (numpy and the `krippendorff` package)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def compute(self, schema: LabelSchema, dataset: str | None = None) -> SchemaAgreement:
        """Every rater's current answers, question by question."""
        labels = self._store.schema_reads.answers(schema.name, dataset)
        raters = sorted({label.annotator for label in labels})
        per_question: dict[str, dict[tuple[Unit, str], str]] = {n: {} for n in schema.names}
        for label in labels:
            for name, value in label.answers.items():
                if name in per_question:
                    per_question[name][(label.unit, label.annotator)] = value
        return SchemaAgreement(
            schema=schema.name,
            dataset=dataset,
            raters=tuple(raters),
            questions=tuple(
                question_agreement(q, per_question[q.name], raters) for q in schema.questions
            ),
        )
