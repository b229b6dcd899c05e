"""Human labels: export them (what the annotators recorded, with who and when)."""

from __future__ import annotations

from w2c_tui.db.store import Store
from w2c_tui.domain.models import LabelRecord


class LabelService:
    """Reads human labels for export."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def export(self, dataset: str | None = None) -> list[LabelRecord]:
        """Every annotator's current labels (response and item-QA), flags, notes, timestamps."""
        return self._store.labels.export(dataset)
