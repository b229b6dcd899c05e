"""`w2c merge`: other w2c databases' human work (labels, CriticTool labels, adjudications,
flags, notes, assignments, guidelines) brought into this one, all sources in one transaction."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sqlalchemy import Engine

from w2c_tui.db.merge_read import read_source
from w2c_tui.db.merge_write import Counts, Merger
from w2c_tui.db.writes import write_session

MERGE_WAIT_MS = 30_000
"""How long the merge waits for the database's write lock (annotators may be labelling)."""


def merge_files(engine: Engine, paths: Sequence[Path], *, dry_run: bool = False) -> list[Counts]:
    """Merge every file at `paths` into the database behind `engine`; with `dry_run`, count
    what would change and roll it all back. Any refused source (not a w2c database, newer,
    a dataset that differs, a response the target lacks) leaves the target untouched."""
    sources = [read_source(Path(p)) for p in paths]  # every file is read before any write
    counts: list[Counts] = []
    with write_session(engine, busy_ms=MERGE_WAIT_MS) as session:
        for source in sources:
            merger = Merger(session, source)
            merger.check_datasets()
            merger.map_responses()
            merger.map_raters()
            merger.guidelines()
            merger.verdicts()
            merger.critic_labels()
            merger.flags_and_notes()
            merger.assignments()
            session.flush()
            counts.append(merger.out)
        if dry_run:
            session.rollback()
        else:
            session.commit()
    return counts
