"""Labelling guidelines: versioned Markdown per dataset, shown once per version per annotator."""

from __future__ import annotations

from pathlib import Path

from w2c_tui.db.store import Store
from w2c_tui.domain.errors import InputError, NotFoundError, WriteError
from w2c_tui.domain.team import Guideline

MAX_BYTES = 2_000_000


class GuidelineService:
    """Sets and reads guideline versions."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def set(self, dataset: str, path: Path) -> tuple[Guideline, bool]:
        """Store the file's text as the dataset's next version (unchanged text: no new one)."""
        try:
            raw = path.read_bytes()
        except OSError as error:
            raise InputError(str(path), f"cannot read the file: {error.strerror}") from error
        if len(raw) > MAX_BYTES:
            raise InputError(str(path), f"{len(raw):,} bytes; guidelines are limited to 2 MB")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            line = raw[: error.start].count(b"\n") + 1
            raise InputError(str(path), "not UTF-8 text", line=line) from error
        if not text.strip():
            raise InputError(str(path), "the file is empty")
        return self._store.guidelines.add(dataset, text, str(path))

    def latest(self, dataset: str) -> Guideline | None:
        """The newest version (None: no guidelines yet)."""
        return self._store.guidelines.latest(dataset)

    def versions(self, dataset: str) -> list[Guideline]:
        """Every version, oldest first."""
        return self._store.guidelines.versions(dataset)

    def get(self, dataset: str, version: int | None = None) -> Guideline:
        """One version (default: the newest)."""
        versions = self.versions(dataset)
        if not versions:
            raise NotFoundError(f"dataset {dataset!r} has no guidelines yet")
        if version is None:
            return versions[-1]
        for guideline in versions:
            if guideline.version == version:
                return guideline
        known = ", ".join(str(g.version) for g in versions)
        raise NotFoundError(f"no guideline version {version} for {dataset!r} (versions: {known})")

    def unseen(self, dataset: str, annotator: str) -> Guideline | None:
        """The newest version if this annotator has not been shown it yet."""
        latest = self.latest(dataset)
        if latest is None or self._store.guidelines.seen(annotator, latest.id):
            return None
        return latest

    def mark_seen(self, annotator: str, guideline_id: int) -> bool:
        """Remember that the annotator saw this version (False if the database refused)."""
        try:
            self._store.guidelines.mark_seen(annotator, guideline_id)
        except WriteError:
            return False  # not worth interrupting anyone: it simply opens again next time
        return True
