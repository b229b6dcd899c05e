"""Reading the labels of every schema: an annotator's current answers on a unit, their history,
every rater's answers of a schema (export, agreement), and the units a schema labels."""

from __future__ import annotations

from sqlalchemy import Engine, or_
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from w2c_tui.db.common import dataset_row, equal
from w2c_tui.db.convert import loads
from w2c_tui.db.tables import (
    CriticToolSampleRow,
    DatasetRow,
    ItemRow,
    LabelRow,
    RaterRow,
    ResponseRow,
    TargetModelRow,
)
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.labels import RaterKind
from w2c_tui.domain.models import Tool
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.schema_labels import SchemaUnit, SchemaUnitRef, Unit, UnitAnswers
from w2c_tui.domain.schemas import LabelSchema, UnitKind

RATERS = tuple(k for k in RaterKind if k is not RaterKind.ADJUDICATOR)
"""Whose answers are ratings (agreement, export): everyone but adjudicators."""


class SchemaLabelReads:
    """Reads the answers of every schema."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def unit_refs(self, schema: LabelSchema, dataset: str) -> list[SchemaUnitRef]:
        """The units of `dataset` that `schema` labels, named only (`schema_unit_refs`)."""
        return schema_unit_refs(self.engine, schema, dataset)

    def unit(self, schema: LabelSchema, unit: Unit) -> SchemaUnit:
        """What the screen shows of one unit (`schema_unit`)."""
        return schema_unit(self.engine, schema, unit)

    def current(self, annotator: str, schema: str, unit: Unit) -> dict[str, str]:
        """The annotator's current answers on the unit (question → value)."""
        with Session(self.engine) as session:
            rows = session.exec(
                select(LabelRow.question, LabelRow.value)
                .join(RaterRow, col(RaterRow.id) == col(LabelRow.rater_id))
                .where(
                    col(RaterRow.key) == RaterSpec(RaterKind.HUMAN, annotator).key(),
                    col(LabelRow.item_id) == unit.item_id,
                    equal(LabelRow.response_id, unit.response_id),
                    col(LabelRow.schema_name) == schema,
                    col(LabelRow.is_current).is_(True),
                )
            ).all()
            return {q: v for q, v in rows if v is not None}

    def history(self, annotator: str, schema: str, unit: Unit, question: str) -> list[str | None]:
        """Every value the annotator gave the question on the unit, oldest first."""
        with Session(self.engine) as session:
            return list(
                session.exec(
                    select(LabelRow.value)
                    .join(RaterRow, col(RaterRow.id) == col(LabelRow.rater_id))
                    .where(
                        col(RaterRow.key) == RaterSpec(RaterKind.HUMAN, annotator).key(),
                        col(LabelRow.item_id) == unit.item_id,
                        equal(LabelRow.response_id, unit.response_id),
                        col(LabelRow.schema_name) == schema,
                        col(LabelRow.question) == question,
                    )
                    .order_by(col(LabelRow.id))
                ).all()
            )

    def answers(
        self, schema: str, dataset: str | None = None, kinds: tuple[RaterKind, ...] = RATERS
    ) -> list[UnitAnswers]:
        """Every rater's current answers of `schema` (raters of `kinds`: by default every
        rater but adjudicators, whose decisions are references, not ratings), one record per
        rater and unit, in item order (then response, then annotator)."""
        query = (
            sa_select(
                col(RaterRow.name),
                col(DatasetRow.name),
                col(ItemRow.uuid),
                col(LabelRow.item_id),
                col(LabelRow.response_id),
                col(LabelRow.question),
                col(LabelRow.value),
            )
            .join(RaterRow, col(RaterRow.id) == col(LabelRow.rater_id))
            .join(ItemRow, col(ItemRow.id) == col(LabelRow.item_id))
            .join(DatasetRow, col(DatasetRow.id) == col(ItemRow.dataset_id))
            .where(
                col(LabelRow.schema_name) == schema,
                col(RaterRow.kind).in_([k.value for k in kinds]),
                col(LabelRow.is_current).is_(True),
                col(LabelRow.value).is_not(None),
                # a model's log-prob reading of an item is no schema's unit
                or_(
                    col(LabelRow.target_model_id).is_(None), col(LabelRow.response_id).is_not(None)
                ),
            )
            .order_by(
                col(DatasetRow.name),
                col(ItemRow.position),
                col(LabelRow.response_id),
                col(RaterRow.name),
                col(LabelRow.id),
            )
        )
        if dataset is not None:
            query = query.where(col(DatasetRow.name) == dataset)
        grouped: dict[tuple[str, int, int | None], UnitAnswers] = {}
        with Session(self.engine) as session:
            for rater, ds, uuid, item_id, response_id, question, value in session.execute(query):
                key = (rater, item_id, response_id)
                if key not in grouped:
                    grouped[key] = UnitAnswers(rater, ds, uuid, Unit(item_id, response_id), {})
                grouped[key].answers[question] = value
        return list(grouped.values())

    def notes(self, schema: str, dataset: str, kind: RaterKind) -> dict[tuple[str, Unit, str], str]:
        """(rater, unit, question) → the note kept with the current answer, for raters of
        `kind` (an adjudicator's reasons)."""
        query = (
            sa_select(
                col(RaterRow.name),
                col(LabelRow.item_id),
                col(LabelRow.response_id),
                col(LabelRow.question),
                col(LabelRow.raw),
            )
            .join(RaterRow, col(RaterRow.id) == col(LabelRow.rater_id))
            .join(ItemRow, col(ItemRow.id) == col(LabelRow.item_id))
            .join(DatasetRow, col(DatasetRow.id) == col(ItemRow.dataset_id))
            .where(
                col(LabelRow.schema_name) == schema,
                col(DatasetRow.name) == dataset,
                col(RaterRow.kind) == kind.value,
                col(LabelRow.is_current).is_(True),
                col(LabelRow.raw).is_not(None),
            )
        )
        with Session(self.engine) as session:
            return {
                (name, Unit(item, response), question): raw
                for name, item, response, question, raw in session.execute(query)
            }


def schema_unit_refs(engine: Engine, schema: LabelSchema, dataset: str) -> list[SchemaUnitRef]:
    """The units of `dataset` a schema labels, in item order, named only (ids, uuid and the
    item's random key): one light query, whatever the dataset's size."""
    with Session(engine) as session:
        ds = dataset_row(session, dataset)
        if not schema.unit.has_response:
            items = session.execute(
                sa_select(col(ItemRow.id), col(ItemRow.uuid), col(ItemRow.shuffle_key))
                .where(col(ItemRow.dataset_id) == ds.id)
                .order_by(col(ItemRow.position))
            ).all()
            return [SchemaUnitRef(Unit(i), uuid, key) for i, uuid, key in items]
        rows = session.execute(
            sa_select(
                col(ItemRow.id), col(ItemRow.uuid), col(ItemRow.shuffle_key), col(ResponseRow.id)
            )
            .join(ResponseRow, col(ResponseRow.item_id) == col(ItemRow.id))
            .where(col(ItemRow.dataset_id) == ds.id)
            .order_by(col(ItemRow.position), col(ResponseRow.id))
        ).all()
        return [SchemaUnitRef(Unit(i, r), uuid, key) for i, uuid, key, r in rows]


def schema_unit(engine: Engine, schema: LabelSchema, unit: Unit) -> SchemaUnit:
    """What the labelling screen shows of one unit (NotFoundError when it is not there)."""
    with Session(engine) as session:
        item = session.get(ItemRow, unit.item_id)
        if item is None:
            raise NotFoundError(f"no item with id {unit.item_id}")
        facts: dict[str, str] = {}
        if schema.unit is UnitKind.CRITICTOOL_PREDICTION:
            sample = session.exec(
                select(CriticToolSampleRow.source).where(
                    col(CriticToolSampleRow.item_id) == item.id
                )
            ).first()
            facts = {"source": sample or "", "prediction": "yes" if unit.response_id else "no"}
        if unit.response_id is None:
            return _unit(schema, item, None, None, facts)
        response = session.get(ResponseRow, unit.response_id)
        if response is None:
            raise NotFoundError(f"no response with id {unit.response_id}")
        model = session.get(TargetModelRow, response.target_model_id)
        return _unit(schema, item, response, model.name if model else None, facts)


def _unit(
    schema: LabelSchema,
    item: ItemRow,
    response: ResponseRow | None,
    model: str | None,
    unit_facts: dict[str, str],
) -> SchemaUnit:
    assert item.id is not None
    facts = {"gold": item.gold or ""}
    hidden = {name: facts[name] for name in schema.blind_hidden if facts.get(name)}
    return SchemaUnit(
        unit=Unit(item.id, response.id if response is not None else None),
        item_uuid=item.uuid,
        question=item.question,
        response=response.text if response is not None else None,
        target_model=model,
        hidden=hidden,
        tools=tuple(Tool(t).signature for t in loads(item.tools_json) or ()),
        shuffle_key=item.shuffle_key,
        facts=unit_facts,
    )
