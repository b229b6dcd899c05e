"""Importing files: read and validate (io), then store all of a file or nothing (db)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from w2c_tui.db.store import Store
from w2c_tui.domain.errors import InputError, NotFoundError
from w2c_tui.domain.records import ImportReport
from w2c_tui.io.detect import read_bundle
from w2c_tui.io.options import ReadOptions
from w2c_tui.paths import demo_dir
from w2c_tui.services.datasets import DatasetService

ProgressCallback = Callable[[int, int], None]

DEMO_DATASET = "demo"


class ImportService:
    """Imports When2Call items and results that others produced."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._datasets = DatasetService(store)

    def import_path(
        self,
        path: Path,
        *,
        dataset: str | None = None,
        kind: str | None = None,
        dry_run: bool = False,
        strict: bool = False,
        options: ReadOptions = ReadOptions(),
        progress: ProgressCallback | None = None,
    ) -> ImportReport:
        """Import one file or run folder; InputError leaves the store untouched."""
        if not path.exists():
            raise InputError(str(path), "no such file or folder")
        bundle = read_bundle(path, kind, options, progress)
        if bundle.items:
            name = dataset or bundle.default_dataset or path.stem
        else:
            try:
                name = self._datasets.resolve(dataset)
            except NotFoundError as error:
                raise NotFoundError(
                    f"{path}: results attach to items by uuid, and {error}"
                ) from error
        return self._store.imports.apply(bundle, name, dry_run=dry_run, strict=strict)

    def demo_manifest(self) -> Path:
        """The bundled demo's manifest (datasets/demo/manifest.json)."""
        return demo_dir() / "manifest.json"

    def import_demo(self, progress: ProgressCallback | None = None) -> list[ImportReport]:
        """Import the bundled demo dataset, with its model responses and verdicts."""
        manifest_path = self.demo_manifest()
        if not manifest_path.exists():
            raise InputError(str(manifest_path), "the demo dataset is missing from this install")
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        name = manifest.get("dataset", DEMO_DATASET)
        reports = []
        for entry in manifest["files"]:
            options = ReadOptions(
                target_model=entry.get("target_model"),
                judge=entry.get("judge"),
                scorer=entry.get("scorer"),
            )
            reports.append(
                self.import_path(
                    manifest_path.parent / entry["path"],
                    dataset=name,
                    kind=entry.get("kind"),
                    options=options,
                    progress=progress,
                )
            )
        return reports

    def store_is_empty(self) -> bool:
        """True when no dataset has been imported yet."""
        return not self._datasets.all()
