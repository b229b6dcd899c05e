"""Human labels: export what the annotators recorded, import labels made elsewhere."""

from __future__ import annotations

from pathlib import Path

from w2c_tui.db.label_import import LabelImporter, LabelImportReport
from w2c_tui.db.store import Store
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.models import LabelRecord
from w2c_tui.io.label_file import read_label_file


class LabelService:
    """Reads human labels for export; imports them from CSV / JSONL files."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def export(self, dataset: str | None = None) -> list[LabelRecord]:
        """Every annotator's current labels (response and item-QA), flags, notes, timestamps."""
        return self._store.labels.export(dataset)

    def import_file(
        self, path: Path, dataset: str | None, *, dry_run: bool = False, replace: bool = True
    ) -> LabelImportReport:
        """Human labels from a CSV / JSONL file become verdicts of those annotators.

        Validated like every importer (file:line:field), the whole file or nothing. A row whose
        label differs from the annotator's current one replaces it (the old label stays as
        history and the report lists it), unless `replace` is False: then existing labels and
        notes are kept. Importing the same file twice changes nothing.
        `dataset` defaults to the file's `dataset` column, else the store's only dataset.
        """
        rows = read_label_file(path)
        named = {r.dataset for r in rows if r.dataset}
        if dataset is None and len(named) > 1:
            raise InputError(
                str(path), f"rows name several datasets ({', '.join(sorted(named))}): use --dataset"
            )
        if dataset is None and named:
            dataset = next(iter(named))
        if dataset is None:
            names = [d.name for d in self._store.datasets.all()]
            if len(names) != 1:
                raise InputError(
                    str(path), "no dataset column and not exactly one dataset: use --dataset"
                )
            dataset = names[0]
        importer = LabelImporter(self._store.engine)
        return importer.apply(str(path), rows, dataset, dry_run=dry_run, replace=replace)
