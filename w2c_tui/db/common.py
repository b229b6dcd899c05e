"""Lookups shared by the query modules: datasets, raters and target models by name, and the
name → id maps of a table.

Get-or-create is an insert that tolerates the race (`INSERT … ON CONFLICT DO NOTHING`, then a
select): two processes creating the same rater at once both get the one row, neither fails.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col, select

from w2c_tui.db.convert import dumps
from w2c_tui.db.tables import DatasetRow, RaterRow, TargetModelRow, utcnow
from w2c_tui.domain.errors import NotFoundError, W2CError
from w2c_tui.domain.names import name_problem
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


def equal(column: Any, value: int | None) -> Any:
    """`column = value`, or `column IS NULL` for None (SQL's = is never true for NULL); a plain
    comparison either way, so an index on the column still serves it."""
    return col(column).is_(None) if value is None else col(column) == value


def ids_by(session: Session, key: Any, id_column: Any, *where: Any) -> dict[Any, int]:
    """`key` → row id over the rows of one table that match `where`: an item's uuid, a model's
    name or a rater's key to the id the other tables refer to it by."""
    rows = session.exec(select(key, id_column).where(*where)).all()
    return {name: int(row_id) for name, row_id in rows if row_id is not None}


def dataset_row(session: Session, name: str) -> DatasetRow:
    """The dataset called `name` (NotFoundError names the ones that exist)."""
    row = session.exec(select(DatasetRow).where(DatasetRow.name == name)).first()
    if row is None:
        names = session.exec(select(DatasetRow.name).order_by(DatasetRow.name)).all()
        known = ", ".join(names) if names else "none yet"
        raise NotFoundError(f"no dataset named {name!r} (datasets: {known})")
    return row


def insert_ignore(session: Session, table: Any, values: dict[str, Any]) -> None:
    """INSERT … ON CONFLICT DO NOTHING, in the session's dialect (SQLite or PostgreSQL)."""
    dialect = session.get_bind().dialect.name
    module: Any = postgresql if dialect == "postgresql" else sqlite
    session.execute(module.insert(table).values(**values).on_conflict_do_nothing())


def refuse_name(name: str, what: str) -> None:
    """The last guard before a new name is stored (the front ends check names first, naming
    the file, line and field): W2CError for a name `domain.names` does not accept."""
    problem = name_problem(name)
    if problem is not None:
        raise W2CError(f"refused {what} name: the name {problem}")


def rater_row(session: Session, spec: RaterSpec) -> RaterRow:
    """The rater for `spec`, created on first use (safe when another process races us)."""
    key = spec.key()
    query = select(RaterRow).where(RaterRow.key == key)
    row = session.exec(query).first()
    if row is None:
        refuse_name(spec.name, f"{spec.kind.value} rater")
        insert_ignore(
            session,
            RaterRow,
            {
                "key": key,
                "kind": spec.kind.value,
                "name": spec.name,
                "config_json": dumps(spec.config),
                "created_at": utcnow(),
            },
        )
        row = session.exec(query).one()
    return row


def target_model_row(session: Session, name: str, backend: str | None = None) -> TargetModelRow:
    """The target model called `name`, created on first use (race-safe like `rater_row`)."""
    query = select(TargetModelRow).where(TargetModelRow.name == name)
    row = session.exec(query).first()
    if row is None:
        refuse_name(name, "target model")
        insert_ignore(
            session, TargetModelRow, {"name": name, "backend": backend, "config_json": "{}"}
        )
        row = session.exec(query).one()
    return row


def target_model_names(session: Session) -> dict[int, str]:
    """Target model id → name."""
    rows = session.exec(select(TargetModelRow.id, TargetModelRow.name)).all()
    return {int(i): n for i, n in rows if i is not None}
