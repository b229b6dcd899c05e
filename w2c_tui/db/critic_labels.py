"""CriticTool labels: raters' answers on units (an item, and the model whose reply was judged).

One current row per rater and unit, enforced by the partial unique index
`uq_critic_label_current`; an edit retires the current row with a conditional UPDATE and adds a
row that points to it (as `label_write` does for verdicts), so history is never lost and undo
is one more row. `register_samples` is a minimal way to put a CriticTool file's samples in the
item table (uuid = sample id) for labels to point at.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import Engine, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from w2c_tui.db.common import dataset_row, target_model_row
from w2c_tui.db.convert import to_rater
from w2c_tui.db.tables import DatasetRow, ItemRow, RaterRow, TargetModelRow
from w2c_tui.db.tables_team import CriticLabelRow
from w2c_tui.db.writes import Raced, retry_write, write_session
from w2c_tui.domain.critictool import CriticFile
from w2c_tui.domain.critictool_labels import CriticLabel
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.models import Rater
from w2c_tui.domain.team import Seen

DATASET_KIND = "critictool"


@dataclass(frozen=True)
class CriticRating:
    """One rater's current answers on one unit."""

    item_id: int
    sample_id: str
    target_model: str | None
    rater: Rater
    label: CriticLabel


class CriticLabelStore:
    """Writes and reads CriticTool labels."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def register_samples(self, dataset: str, critic_file: CriticFile) -> dict[str, int]:
        """Item ids by sample id, creating the dataset and items on first use (idempotent; a
        sample whose content changed under the same id is refused, nothing written)."""

        def write() -> dict[str, int]:
            with write_session(self.engine) as session, session.begin():
                found = session.exec(select(DatasetRow).where(DatasetRow.name == dataset)).first()
                if found is None:
                    found = DatasetRow(
                        name=dataset,
                        kind=DATASET_KIND,
                        source_path=critic_file.path,
                        sha256=critic_file.sha256,
                    )
                    session.add(found)
                    session.flush()
                elif found.kind != DATASET_KIND:
                    raise InputError(critic_file.path, f"dataset {dataset!r} is not CriticTool")
                assert found.id is not None
                have = {
                    uuid: (item_id, digest)
                    for item_id, uuid, digest in session.execute(
                        sa_select(
                            col(ItemRow.id), col(ItemRow.uuid), col(ItemRow.content_hash)
                        ).where(col(ItemRow.dataset_id) == found.id)
                    ).all()
                }
                ids: dict[str, int] = {}
                for position, sample in enumerate(critic_file.samples):
                    if sample.sample_id in have:
                        item_id, digest = have[sample.sample_id]
                        if digest != sample.item_sha256:
                            raise InputError(
                                critic_file.path,
                                f"sample {sample.sample_id!r}: differs from the one in "
                                f"dataset {dataset!r}",
                                line=sample.line,
                            )
                        ids[sample.sample_id] = item_id
                        continue
                    user = next((t.content for t in sample.turns if t.role == "user"), "")
                    row = ItemRow(
                        dataset_id=found.id,
                        uuid=sample.sample_id,
                        position=position,
                        question=user,
                        tools_json=json.dumps([t.name for t in sample.tools]),
                        answers_json="[]",
                        n_tools=len(sample.tools),
                        source=sample.source,
                        extra_json=json.dumps({"critictool_error_type": sample.error_type}),
                        content_hash=sample.item_sha256,
                    )
                    session.add(row)
                    session.flush()
                    assert row.id is not None
                    ids[sample.sample_id] = row.id
                return ids

        return retry_write(write, deadline_s=10.0)

    def source(self, dataset: str) -> tuple[str | None, str | None]:
        """The file a CriticTool dataset was registered from, and its sha256."""
        with Session(self.engine) as session:
            row = dataset_row(session, dataset)
            return row.source_path, row.sha256

    def model_id(self, name: str) -> int:
        """The target model's id (created when new)."""
        with write_session(self.engine) as session, session.begin():
            row = target_model_row(session, name)
            assert row.id is not None
            return row.id

    def _current(
        self, session: Session, rater_id: int, item_id: int, model_id: int | None
    ) -> CriticLabelRow | None:
        return session.exec(
            select(CriticLabelRow).where(
                col(CriticLabelRow.rater_id) == rater_id,
                col(CriticLabelRow.item_id) == item_id,
                col(CriticLabelRow.is_current).is_(True),
                col(CriticLabelRow.target_model_id).is_(None)
                if model_id is None
                else col(CriticLabelRow.target_model_id) == model_id,
            )
        ).first()

    def current(self, rater_id: int, item_id: int, model_id: int | None) -> CriticLabel | None:
        """The rater's current answers on the unit (None: never labelled, or withdrawn)."""
        with Session(self.engine) as session:
            row = self._current(session, rater_id, item_id, model_id)
            if row is None or row.answers_json == "{}":
                return None
            return CriticLabel.from_json(row.answers_json)

    def set_label(
        self,
        rater_id: int,
        item_id: int,
        model_id: int | None,
        label: CriticLabel,
        *,
        seen: Seen | None = None,
        source: str = "tui",
    ) -> bool:
        """Record `label` (an empty one withdraws); False when it is what the unit has."""

        def write() -> bool:
            with write_session(self.engine) as session, session.begin():
                if session.get(ItemRow, item_id) is None:
                    raise InputError("critic_label", f"no item with id {item_id}")
                current = self._current(session, rater_id, item_id, model_id)
                answers = label.to_json()
                if (current.answers_json if current else "{}") == answers:
                    return False
                if current is not None:
                    retired = session.execute(
                        update(CriticLabelRow)
                        .where(
                            col(CriticLabelRow.id) == current.id,
                            col(CriticLabelRow.is_current).is_(True),
                        )
                        .values(is_current=False)
                    )
                    if retired.rowcount != 1:  # type: ignore[attr-defined]
                        raise Raced
                session.add(
                    CriticLabelRow(
                        rater_id=rater_id,
                        item_id=item_id,
                        target_model_id=model_id,
                        answers_json=answers,
                        source=source,
                        seen=seen.value if seen else None,
                        supersedes_id=current.id if current else None,
                    )
                )
                session.flush()
                return True

        return retry_write(write, deadline_s=10.0)

    def history(self, rater_id: int, item_id: int, model_id: int | None) -> list[CriticLabel]:
        """Every answer set the rater recorded on the unit, oldest first."""
        with Session(self.engine) as session:
            rows = session.exec(
                select(CriticLabelRow.answers_json)
                .where(
                    col(CriticLabelRow.rater_id) == rater_id,
                    col(CriticLabelRow.item_id) == item_id,
                    col(CriticLabelRow.target_model_id).is_(None)
                    if model_id is None
                    else col(CriticLabelRow.target_model_id) == model_id,
                )
                .order_by(col(CriticLabelRow.id))
            ).all()
            return [CriticLabel.from_json(text) for text in rows]

    def undo(self, rater_id: int, item_id: int, model_id: int | None) -> CriticLabel | None:
        """Put back the answers the current row superseded (a new row); returns them."""
        with Session(self.engine) as session:
            row = self._current(session, rater_id, item_id, model_id)
            if row is None or row.supersedes_id is None:
                return None
            before = session.get(CriticLabelRow, row.supersedes_id)
            assert before is not None
            previous = CriticLabel.from_json(before.answers_json)
        self.set_label(rater_id, item_id, model_id, previous, source="undo")
        return previous

    def ratings(self, dataset: str) -> list[CriticRating]:
        """Every rater's current answers on the dataset's units, in item order."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            raters = {r.id: to_rater(r) for r in session.exec(select(RaterRow)).all()}
            models = {m.id: m.name for m in session.exec(select(TargetModelRow)).all()}
            rows = session.execute(
                sa_select(
                    col(CriticLabelRow.item_id),
                    col(ItemRow.uuid),
                    col(CriticLabelRow.target_model_id),
                    col(CriticLabelRow.rater_id),
                    col(CriticLabelRow.answers_json),
                )
                .join(ItemRow, col(ItemRow.id) == col(CriticLabelRow.item_id))
                .where(col(ItemRow.dataset_id) == ds.id, col(CriticLabelRow.is_current).is_(True))
                .order_by(col(ItemRow.position), col(CriticLabelRow.id))
            ).all()
            return [
                CriticRating(
                    item_id,
                    uuid,
                    models.get(model_id) if model_id else None,
                    raters[rater_id],
                    CriticLabel.from_json(answers),
                )
                for item_id, uuid, model_id, rater_id, answers in rows
                if answers != "{}"
            ]
