"""Labels of any schema as the front ends see them: one rater's answers on one unit."""

from __future__ import annotations

from dataclasses import dataclass, field

from w2c_tui.domain.schemas import LabelSchema


@dataclass(frozen=True, slots=True)
class Unit:
    """What a schema label is about: an item and, for response units, one response."""

    item_id: int
    response_id: int | None = None


@dataclass(frozen=True, slots=True)
class UnitAnswers:
    """One rater's current answers (question → value) on one unit of one schema."""

    annotator: str
    dataset: str
    item_uuid: str
    unit: Unit
    answers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AnswerLine:
    """One row of a schema label file: an annotator's answers on a unit (`line` for errors)."""

    line: int
    annotator: str
    item_uuid: str
    response_id: int | None
    answers: dict[str, str]
    dataset: str | None = None


@dataclass(frozen=True, slots=True)
class AnswerChange:
    """A file's answer that differs from the annotator's current one: replaced, or kept
    (`--no-replace`)."""

    line: int
    annotator: str
    item_uuid: str
    response_id: int | None
    question: str
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class SchemaImportReport:
    """What `w2c labels import --schema` did (or would do, `dry_run`), answer by answer: new
    (no current answer), unchanged, replaced (the old one stays as history) or kept (the
    existing answer, with `--no-replace`: the file's was refused)."""

    path: str
    schema: str
    dataset: str
    rows: int
    new: int = 0
    replaced: int = 0
    unchanged: int = 0
    kept: int = 0
    annotators: tuple[str, ...] = ()
    changes: tuple[AnswerChange, ...] = ()
    """The replaced answers, or with `replace=False` the kept ones."""
    replace: bool = True
    dry_run: bool = False


@dataclass(frozen=True, slots=True)
class SchemaAdded:
    """What `w2c schemas add` did: `added`, `unchanged` (the same schema) or `updated`."""

    schema: LabelSchema
    status: str


@dataclass(frozen=True, slots=True)
class SchemaUnit:
    """A unit to label with a schema, and what the screen shows of it."""

    unit: Unit
    item_uuid: str
    question: str
    """The item's question (the task)."""
    response: str | None = None
    """The response's text (response units)."""
    target_model: str | None = None
    """The response's model (the screen keeps it back while blind when the schema hides
    `target_model`)."""
    hidden: dict[str, str] = field(default_factory=dict)
    """Fields the schema keeps back while blind (name → value), shown after the reveal."""
    tools: tuple[str, ...] = ()
    """The item's tools, one signature line each (what the model was offered)."""
    shuffle_key: int = 0
    """The item's random key: the blind order sorts by it XOR the annotator's key, so
    the file's order (which carries gold in the real When2Call file) never shows."""
    facts: dict[str, str] = field(default_factory=dict)
    """What `when_unit` conditions read (`schemas.UNIT_FACTS`): a CriticTool unit's sample
    source and whether a prediction is there."""

    def blind_key(self, salt: int) -> tuple[int, int, int]:
        """This unit's place in an annotator's blind order (`SchemaUnitRef.blind_key`)."""
        return SchemaUnitRef(self.unit, self.item_uuid, self.shuffle_key).blind_key(salt)


@dataclass(frozen=True, slots=True)
class SchemaUnitRef:
    """A unit to label, named: enough to place it in the file's or an annotator's blind order
    (the labelling screen reads what it shows of a unit, `SchemaUnit`, when it gets there)."""

    unit: Unit
    item_uuid: str
    shuffle_key: int = 0
    """The item's random key (`SchemaUnit.shuffle_key`)."""

    def blind_key(self, salt: int) -> tuple[int, int, int]:
        """This unit's place in an annotator's blind order (`salt`: `annotator_key`): items
        shuffled per annotator, and an item's responses shuffled too, so that neither the
        file's order nor the order models were imported in shows while blind."""
        response = self.unit.response_id or 0
        return (self.shuffle_key ^ salt, hash_pair(salt, response), response)


def hash_pair(salt: int, value: int) -> int:
    """A stable 64-bit mix of two integers (the order of an item's responses while blind)."""
    mixed = (salt ^ (value * 0x9E3779B97F4A7C15)) & 0xFFFFFFFFFFFFFFFF
    mixed ^= mixed >> 31
    mixed = (mixed * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    return mixed ^ (mixed >> 29)


@dataclass(frozen=True, slots=True)
class QuestionAgreement:
    """Krippendorff's α of one question at its level, or why there is none."""

    question: str
    level: str | None
    alpha: float | None
    reason: str | None
    n_units: int
    """Units with answers from at least two raters."""
    n_values: int
    """Answers in those units."""


@dataclass(frozen=True, slots=True)
class SchemaAgreement:
    """Agreement of a schema's labels, question by question."""

    schema: str
    dataset: str | None
    raters: tuple[str, ...]
    questions: tuple[QuestionAgreement, ...]

    def as_json(self) -> dict[str, object]:
        """The document `w2c agreement --schema NAME --json` prints."""
        return {
            "schema": self.schema,
            "dataset": self.dataset,
            "raters": list(self.raters),
            "questions": {
                q.question: {
                    "level": q.level,
                    "alpha": q.alpha,
                    "reason": q.reason,
                    "n_units": q.n_units,
                    "n_values": q.n_values,
                }
                for q in self.questions
            },
        }
