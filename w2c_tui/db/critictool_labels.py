"""CriticTool labels: raters' answers on units (an item, and the model whose reply was judged),
kept as answers of the built-in schema `critictool` in the one label store (`label`).

The unit is a sample's item and, when a model's prediction is judged, the response row that
holds it (`critic_prediction.response_id`). Each answer set is written through the store's one
writer (`schema_labels.write_answer`): one current row per rater, unit and question, an edit
supersedes the question's row and never overwrites it. The rows of one write share their
timestamp, so a unit's history reads back as the answer sets the rater recorded, and undo puts
back the set before the last write (as one more write).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, insert, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from w2c_tui.db.common import chunked, dataset_row, equal
from w2c_tui.db.convert import to_rater
from w2c_tui.db.schema_labels import AnswerWrite, write_answer
from w2c_tui.db.tables import ItemRow, LabelRow, RaterRow, ResponseRow, TargetModelRow, utcnow
from w2c_tui.db.writes import retry_write, write_session
from w2c_tui.domain.critictool_labels import NOTE, CriticToolLabel, Question
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.models import Rater
from w2c_tui.domain.runs import TaskResult
from w2c_tui.domain.schema_builtins import CRITICTOOL
from w2c_tui.domain.schema_labels import Unit
from w2c_tui.domain.team import Seen

SCHEMA = CRITICTOOL.name
FIELDS = (*(q.value for q in Question), NOTE)
"""Every question of a CriticTool label, in the form's order, the note last."""


@dataclass(frozen=True)
class CriticToolRating:
    """One rater's current answers on one unit."""

    item_id: int
    sample_id: str
    response_id: int | None
    target_model: str | None
    rater: Rater
    label: CriticToolLabel


def _unit_rows(
    session: Session, rater_id: int, item_id: int, response_id: int | None
) -> list[LabelRow]:
    """Every CriticTool answer row of the rater on the unit, oldest first."""
    return list(
        session.exec(
            select(LabelRow)
            .where(
                col(LabelRow.schema_name) == SCHEMA,
                col(LabelRow.rater_id) == rater_id,
                col(LabelRow.item_id) == item_id,
                equal(LabelRow.response_id, response_id),
            )
            .order_by(col(LabelRow.created_at), col(LabelRow.id))
        ).all()
    )


def _writes(rows: Sequence[LabelRow]) -> list[list[LabelRow]]:
    """The rows grouped into writes (consecutive rows with one timestamp), oldest first."""
    out: list[list[LabelRow]] = []
    for row in rows:
        if out and out[-1][0].created_at == row.created_at:
            out[-1].append(row)
        else:
            out.append([row])
    return out


def _label(values: dict[str, str | None]) -> CriticToolLabel:
    return CriticToolLabel.from_answers({k: v for k, v in values.items() if v is not None})


def _replay(rows: Sequence[LabelRow]) -> list[CriticToolLabel]:
    """The answer set after each write, oldest first."""
    values: dict[str, str | None] = {}
    out = []
    for write in _writes(rows):
        values.update({row.question: row.value for row in write})
        out.append(_label(values))
    return out


def _record(
    session: Session,
    rater_id: int,
    unit: Unit,
    values: dict[str, str | None],
    *,
    source: str,
    seen: Seen | None = None,
) -> int:
    """Write `values` (question → value, None withdraws) as one write (one timestamp); how
    many answers changed."""
    moment = utcnow()
    return sum(
        write_answer(
            session,
            AnswerWrite(rater_id, unit, SCHEMA, question, value, source, seen, None, moment),
        )
        for question, value in values.items()
    )


class CriticToolLabelStore:
    """Writes and reads CriticTool labels."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def current(
        self, rater_id: int, item_id: int, response_id: int | None
    ) -> CriticToolLabel | None:
        """The rater's current answers on the unit (None: never labelled, or withdrawn)."""
        with Session(self.engine) as session:
            rows = _unit_rows(session, rater_id, item_id, response_id)
        label = _label({row.question: row.value for row in rows if row.is_current})
        return None if label.empty else label

    def set_label(
        self,
        rater_id: int,
        item_id: int,
        response_id: int | None,
        label: CriticToolLabel,
        *,
        seen: Seen | None = None,
        source: str = "tui",
        deadline_s: float = 10.0,
    ) -> bool:
        """Record `label` (an empty one withdraws); False when it is what the unit has. A busy
        database is retried until `deadline_s` (then WriteError)."""
        wanted = label.answers()

        def write() -> bool:
            with write_session(self.engine) as session, session.begin():
                if session.get(ItemRow, item_id) is None:
                    raise InputError("label", f"no item with id {item_id}")
                rows = _unit_rows(session, rater_id, item_id, response_id)
                had = {row.question for row in rows if row.is_current and row.value is not None}
                values = {q: wanted.get(q) for q in FIELDS if q in wanted or q in had}
                unit = Unit(item_id, response_id)
                return _record(session, rater_id, unit, values, source=source, seen=seen) > 0

        return retry_write(write, deadline_s=deadline_s)

    def history(
        self, rater_id: int, item_id: int, response_id: int | None
    ) -> list[CriticToolLabel]:
        """Every answer set the rater recorded on the unit, oldest first."""
        with Session(self.engine) as session:
            return _replay(_unit_rows(session, rater_id, item_id, response_id))

    def undo(self, rater_id: int, item_id: int, response_id: int | None) -> CriticToolLabel | None:
        """Put back the answers the last write replaced (a new write); returns them (None: the
        unit has no earlier answers)."""
        history = self.history(rater_id, item_id, response_id)
        if len(history) < 2:
            return None
        previous = history[-2]
        self.set_label(rater_id, item_id, response_id, previous, source="undo")
        return previous

    def ratings(self, dataset: str) -> list[CriticToolRating]:
        """Every rater's current answers on the dataset's units, in item order."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            raters = {r.id: to_rater(r) for r in session.exec(select(RaterRow)).all()}
            rows = session.execute(
                sa_select(
                    col(LabelRow.item_id),
                    col(ItemRow.uuid),
                    col(LabelRow.response_id),
                    col(TargetModelRow.name),
                    col(LabelRow.rater_id),
                    col(LabelRow.question),
                    col(LabelRow.value),
                )
                .join(ItemRow, col(ItemRow.id) == col(LabelRow.item_id))
                .outerjoin(ResponseRow, col(ResponseRow.id) == col(LabelRow.response_id))
                .outerjoin(
                    TargetModelRow, col(TargetModelRow.id) == col(ResponseRow.target_model_id)
                )
                .where(
                    col(ItemRow.dataset_id) == ds.id,
                    col(LabelRow.schema_name) == SCHEMA,
                    col(LabelRow.is_current).is_(True),
                )
                .order_by(col(ItemRow.position), col(LabelRow.id))
            ).all()
        units: dict[tuple[int, int | None, int], dict[str, Any]] = {}
        answers: dict[tuple[int, int | None, int], dict[str, str | None]] = defaultdict(dict)
        for item_id, uuid, response_id, model, rater_id, question, value in rows:
            key = (item_id, response_id, rater_id)
            units.setdefault(key, {"uuid": uuid, "model": model})
            answers[key][question] = value
        out = []
        for key, about in units.items():
            label = _label(answers[key])
            if not label.empty:
                item_id, response_id, rater_id = key
                out.append(
                    CriticToolRating(
                        item_id, about["uuid"], response_id, about["model"], raters[rater_id], label
                    )
                )
        return out


def critictool_judge_records(
    session: Session, run_id: int, results: Sequence[TaskResult], rater_id: int
) -> None:
    """A CriticTool judge run's answers as label rows of its rater (in the run's write
    transaction, in bulk): each reading is recorded whole, superseding the unit's current
    answers as an annotator's edit does (a question the reading left open is withdrawn);
    `source` names the run and every row of the reading keeps the judge's reply. A reading
    that answered nothing is kept as a withdrawn `error` answer, so the run still shows its
    reply. The rows of one call share one timestamp (one write per unit)."""
    units = {(r.task.item_id, r.task.response_id) for r in results}
    current: dict[tuple[int, int | None], dict[str, int]] = defaultdict(dict)
    for chunk in chunked(sorted({item for item, _ in units})):
        for row_id, item_id, response_id, question in session.execute(
            sa_select(
                col(LabelRow.id), col(LabelRow.item_id), col(LabelRow.response_id),
                col(LabelRow.question),
            ).where(
                col(LabelRow.schema_name) == SCHEMA,
                col(LabelRow.rater_id) == rater_id,
                col(LabelRow.is_current).is_(True),
                col(LabelRow.item_id).in_(chunk),
            )
        ).all():  # fmt: skip
            if (item_id, response_id) in units:
                current[(item_id, response_id)][question] = row_id
    moment = utcnow()
    rows: list[dict[str, Any]] = []
    for result in results:
        unit = (result.task.item_id, result.task.response_id)
        wanted = CriticToolLabel.from_json(result.meta["critic_label"]).answers()
        had = current.get(unit, {})
        asked = [q for q in FIELDS if q in wanted or q in had] or [Question.ERROR.value]
        rows += [
            {
                "rater_id": rater_id,
                "item_id": unit[0],
                "response_id": unit[1],
                "schema_name": SCHEMA,
                "question": question,
                "value": wanted.get(question),
                "source": f"run {run_id}",
                "seen": None,
                "guideline_id": None,
                "raw": result.raw,
                "supersedes_id": had.get(question),
                "is_current": True,
                "created_at": moment,
            }
            for question in asked
        ]
    retired = sorted(i for questions in current.values() for i in questions.values())
    for chunk in chunked(retired):
        session.execute(
            update(LabelRow).where(col(LabelRow.id).in_(chunk)).values(is_current=False)
        )
    if rows:
        session.execute(insert(LabelRow), rows)
