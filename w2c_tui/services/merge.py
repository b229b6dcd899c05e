"""Bringing per-annotator databases together (`w2c merge`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from w2c_tui.db.merge import Conflict, Counts, merge_files
from w2c_tui.db.store import Store

__all__ = ["Conflict", "Counts", "MergeService"]


class MergeService:
    """Merges other w2c databases' human work into this one."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def merge(self, paths: Sequence[Path], *, dry_run: bool = False) -> list[Counts]:
        """Labels, adjudications, flags, notes, assignments and guidelines of every file,
        in one transaction (see db/merge.py); `dry_run` counts and writes nothing."""
        target = self._store.database_file()
        for path in paths:
            if target is not None and Path(path).resolve() == Path(target).resolve():
                from w2c_tui.domain.errors import InputError

                raise InputError(str(path), "this is the database merged into; name other files")
        return merge_files(self._store.engine, paths, dry_run=dry_run)
