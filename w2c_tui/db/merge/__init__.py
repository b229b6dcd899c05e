"""`w2c merge`: other w2c databases' human work (labels, CriticTool labels, label schemas and
their answers, adjudications, flags, notes, assignments, guidelines) brought into this one, all
sources in one transaction.

The package: `base.py` (the source as read, the target's identities in `Merger`, `Counts`,
`Conflict`, `moment`), `read.py` (opening and reading a source file), `history.py` (the merge of
rows with a history, one current per unit), `schema_labels.py` (label schemas and every
schema's answers: When2Call's and CriticTool's labels included) and `team.py` (guidelines,
assignments).
Every module imports `base` at its top, none imports this `__init__`, and nothing imports inside
a function.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from w2c_tui.db.merge.base import Conflict, Counts, Merger, Source
from w2c_tui.db.merge.read import read_source
from w2c_tui.db.merge.schema_labels import merge_label_schemas, merge_schema_labels
from w2c_tui.db.merge.team import merge_assignments, merge_guidelines
from w2c_tui.db.writes import write_session
from w2c_tui.domain.errors import InputError

MERGE_WAIT_MS = 30_000
"""How long the merge waits for the database's write lock (annotators may be labelling)."""

__all__ = ["MERGE_WAIT_MS", "Conflict", "Counts", "merge_files"]


def merge_files(engine: Engine, paths: Sequence[Path], *, dry_run: bool = False) -> list[Counts]:
    """Merge every file at `paths` into the database behind `engine`; with `dry_run`, count
    what would change and roll it all back. Any refused source (not a w2c database, newer,
    a dataset that differs, a response the target lacks) leaves the target untouched."""
    sources = [_read(Path(p)) for p in paths]  # every file is read before any write
    counts: list[Counts] = []
    origins: dict[object, str] = {}  # which source of this command added a row (conflicts)
    with write_session(engine, busy_ms=MERGE_WAIT_MS) as session:
        for source in sources:
            merger = Merger(session, source, origins)
            merger.check_datasets()
            merger.map_responses()
            merger.map_raters()
            merge_guidelines(merger)
            merge_label_schemas(merger)
            merge_schema_labels(merger)
            merge_assignments(merger)
            session.flush()
            counts.append(merger.out)
        if dry_run:
            session.rollback()
        else:
            session.commit()
    return counts


def _read(path: Path) -> Source:
    """The source at `path`; a file that breaks while it is read (truncated, corrupt pages)
    is refused by name, never a crash."""
    try:
        return read_source(path)
    except (sqlite3.DatabaseError, DBAPIError) as error:
        reason = " ".join(str(getattr(error, "orig", None) or error).split())
        raise InputError(str(path), f"not a w2c database / corrupt: {reason}") from error
