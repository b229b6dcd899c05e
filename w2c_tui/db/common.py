"""Lookups shared by the query modules: datasets, raters and target models by name."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from sqlmodel import Session, select

from w2c_tui.db.convert import dumps
from w2c_tui.db.tables import DatasetRow, RaterRow, TargetModelRow
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.records import RaterSpec

ID_CHUNK = 5_000
"""Ids per `IN (...)` list. A statement may bind at most 32,766 parameters on SQLite and 65,535
on PostgreSQL, so a long list of ids is queried a chunk at a time."""


def chunked(ids: Iterable[int], size: int = ID_CHUNK) -> Iterator[list[int]]:
    """`ids` in lists of at most `size`, in their order."""
    chunk: list[int] = []
    for value in ids:
        chunk.append(value)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def dataset_row(session: Session, name: str) -> DatasetRow:
    """The dataset called `name` (NotFoundError names the ones that exist)."""
    row = session.exec(select(DatasetRow).where(DatasetRow.name == name)).first()
    if row is None:
        names = session.exec(select(DatasetRow.name).order_by(DatasetRow.name)).all()
        known = ", ".join(names) if names else "none yet"
        raise NotFoundError(f"no dataset named {name!r} (datasets: {known})")
    return row


def rater_row(session: Session, spec: RaterSpec) -> RaterRow:
    """The rater for `spec`, created on first use."""
    key = spec.key()
    row = session.exec(select(RaterRow).where(RaterRow.key == key)).first()
    if row is None:
        row = RaterRow(
            key=key, kind=spec.kind.value, name=spec.name, config_json=dumps(spec.config)
        )
        session.add(row)
        session.flush()
    return row


def target_model_row(session: Session, name: str, backend: str | None = None) -> TargetModelRow:
    """The target model called `name`, created on first use."""
    row = session.exec(select(TargetModelRow).where(TargetModelRow.name == name)).first()
    if row is None:
        row = TargetModelRow(name=name, backend=backend)
        session.add(row)
        session.flush()
    return row


def target_model_names(session: Session) -> dict[int, str]:
    """Target model id → name."""
    rows = session.exec(select(TargetModelRow.id, TargetModelRow.name)).all()
    return {int(i): n for i, n in rows if i is not None}
