"""Human labels, QA flags and notes: one short transaction each, history never destroyed."""

from __future__ import annotations

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from w2c_tui.db.checklist import write_flag, write_note
from w2c_tui.db.common import rater_row, target_model_row
from w2c_tui.db.label_export import export_labels
from w2c_tui.db.label_write import LabelWrite, write_label
from w2c_tui.db.tables import ItemRow, RaterRow, ResponseRow
from w2c_tui.db.writes import retry_write, write_session
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.labels import Label, RaterKind
from w2c_tui.domain.models import LabelChange, LabelRecord
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.team import Seen


def human_spec(annotator: str) -> RaterSpec:
    """The rater identity of a human annotator."""
    return RaterSpec(kind=RaterKind.HUMAN, name=annotator)


class LabelStore:
    """Writes and reads human annotations."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def rater_id(
        self,
        annotator: str,
        *,
        create: bool = True,
        kind: RaterKind = RaterKind.HUMAN,
        deadline_s: float = 10.0,
    ) -> int | None:
        """The annotator's rater id (created on first use when `create`, waiting at most
        `deadline_s` for a busy database)."""
        spec = RaterSpec(kind=kind, name=annotator)
        if not create:
            with Session(self.engine) as session:
                found = session.exec(select(RaterRow.id).where(RaterRow.key == spec.key())).first()
                return int(found) if found is not None else None

        def create_it() -> int:
            with write_session(self.engine) as session, session.begin():
                row = rater_row(session, spec)
                assert row.id is not None
                return row.id

        return retry_write(create_it, deadline_s=deadline_s)

    def set_label(
        self,
        rater_id: int,
        item_id: int,
        response_id: int | None,
        label: Label | None,
        *,
        seen: Seen | None = None,
        source: str = "tui",
        deadline_s: float = 10.0,
        note: str | None = None,
    ) -> LabelChange | None:
        """Record `label` (None withdraws it) on a response, or on the item when no response.

        The earlier verdict stays in the table, marked not current; the new row points to it.
        Returns None when nothing changed. A busy database is retried until `deadline_s`;
        after that, or when the write cannot succeed, a WriteError says why.
        """
        return retry_write(
            lambda: self._set_label(rater_id, item_id, response_id, label, seen, source, note),
            deadline_s=deadline_s,
        )

    def _set_label(
        self,
        rater_id: int,
        item_id: int,
        response_id: int | None,
        label: Label | None,
        seen: Seen | None,
        source: str,
        note: str | None = None,
    ) -> LabelChange | None:
        with write_session(self.engine) as session, session.begin():
            # Only the columns needed (an item's row holds its whole text and tools).
            item = session.exec(
                select(ItemRow.dataset_id, ItemRow.uuid).where(col(ItemRow.id) == item_id)
            ).first()
            if item is None:
                raise NotFoundError(f"no item with id {item_id}")
            dataset_id, uuid = item
            model_id: int | None = None
            if response_id is not None:
                response = session.exec(
                    select(ResponseRow.item_id, ResponseRow.target_model_id).where(
                        col(ResponseRow.id) == response_id
                    )
                ).first()
                if response is None or response[0] != item_id:
                    raise NotFoundError(f"response {response_id} is not a response to item {uuid}")
                model_id = response[1]
            return write_label(
                session,
                LabelWrite(
                    rater_id=rater_id,
                    item_id=item_id,
                    dataset_id=dataset_id,
                    model_id=model_id,
                    response_id=response_id,
                    label=label,
                    seen=seen,
                    source=source,
                    raw=note,
                ),
            )

    def set_flag(self, rater_id: int, item_id: int, code: str, active: bool) -> None:
        """Switch a QA flag on or off (an answer of the item-QA schema; history kept)."""
        with write_session(self.engine) as session, session.begin():
            write_flag(session, rater_id, item_id, code, active)

    def set_note(self, rater_id: int, item_id: int, text: str) -> None:
        """Replace the annotator's note on an item (the earlier text stays in history)."""
        with write_session(self.engine) as session, session.begin():
            write_note(session, rater_id, item_id, text)

    def ensure_target_model(self, name: str, backend: str | None = None) -> int:
        """A target model id by name (created when new)."""
        with Session(self.engine) as session, session.begin():
            row = target_model_row(session, name, backend)
            assert row.id is not None
            return row.id

    def export(self, dataset: str | None = None) -> list[LabelRecord]:
        """Every human's current labels, with flags, notes and timestamps, in item order."""
        return export_labels(self.engine, dataset)
