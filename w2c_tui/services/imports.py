"""Importing files: read and validate (io), then store all of a file or nothing (db)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from w2c_tui.db.store import Store
from w2c_tui.domain.critictool import CriticToolFile
from w2c_tui.domain.errors import InputError, NotFoundError
from w2c_tui.domain.manifest import Manifest
from w2c_tui.domain.names import name_problem
from w2c_tui.domain.records import ImportReport
from w2c_tui.io.importers import read_input
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
        bundle = read_input(path, kind, options, progress)
        if isinstance(bundle, CriticToolFile):
            return self._critictool(bundle, dataset, options, dry_run=dry_run)
        if bundle.items:
            name = dataset or bundle.default_dataset or path.stem
            problem = name_problem(name)
            if problem is not None:
                raise InputError(str(path), f"the dataset name {problem}", field="dataset")
            if name in self._store.critictool.datasets():
                raise InputError(
                    str(path),
                    f"dataset {name!r} holds CriticTool samples: name another with --dataset",
                )
        else:
            try:
                name = self._datasets.resolve(dataset)
            except NotFoundError as error:
                raise NotFoundError(
                    f"{path}: results attach to items by uuid, and {error}"
                ) from error
        return self._store.imports.apply(bundle, name, dry_run=dry_run, strict=strict)

    def _critictool(
        self,
        critic_file: CriticToolFile,
        dataset: str | None,
        options: ReadOptions,
        *,
        dry_run: bool,
    ) -> ImportReport:
        # late, as before: services.critictool loads runs.critictool, which the TUI's start-up
        # (and every served session's) must not wait for
        from w2c_tui.services.critictool import CriticToolService

        return CriticToolService(self._store).import_read(
            critic_file, dataset=dataset, target_model=options.target_model, dry_run=dry_run
        )

    def demo_manifest(self) -> Path:
        """The bundled demo's manifest (package data: w2c_tui/demo/manifest.json)."""
        return demo_dir() / "manifest.json"

    def import_demo(self, progress: ProgressCallback | None = None) -> list[ImportReport]:
        """Import the bundled demo dataset, with its model responses and verdicts."""
        manifest_path = self.demo_manifest()
        if not manifest_path.exists():
            raise InputError(str(manifest_path), "the demo dataset is missing from this install")
        return self.import_manifest(manifest_path, progress=progress)

    @staticmethod
    def folder_manifest(path: Path) -> Manifest | None:
        """The manifest of a folder whose manifest.json lists its files (`{"dataset", "files":
        [...]}`, as the bundled demo's does); None for anything else."""
        manifest = path / "manifest.json"
        if not (path.is_dir() and manifest.is_file()):
            return None
        try:
            data = json.loads(manifest.read_text(encoding="utf-8-sig"))
        except (OSError, ValueError):
            return None
        if not (isinstance(data, dict) and isinstance(data.get("files"), list)):
            return None
        return Manifest.parse(str(manifest), data)

    def import_manifest(
        self,
        manifest_path: Path,
        *,
        dataset: str | None = None,
        dry_run: bool = False,
        strict: bool = False,
        progress: ProgressCallback | None = None,
        manifest: Manifest | None = None,
    ) -> list[ImportReport]:
        """Import every file a manifest lists, in its order (items first), each whole or not at
        all; entries may name the file's kind, target model, judge and scorer. `manifest`: the
        file's content when already read (`folder_manifest`)."""
        if manifest is None:
            data = json.loads(manifest_path.read_text(encoding="utf-8-sig"))
            manifest = Manifest.parse(str(manifest_path), data)
        name = dataset or manifest.dataset or DEMO_DATASET
        reports: list[ImportReport] = []
        for entry in manifest.files:
            options = ReadOptions(
                target_model=entry.target_model, judge=entry.judge, scorer=entry.scorer
            )
            path = manifest_path.parent / entry.path
            if dry_run and reports and not self._dataset_exists(name):
                # the items are not stored on a dry run: results can only be read and checked
                bundle = read_input(path, entry.kind, options, progress)
                if isinstance(bundle, CriticToolFile):  # needs no items: checked as imported
                    reports.append(self._critictool(bundle, name, options, dry_run=True))
                    continue
                reports.append(
                    ImportReport(
                        path=str(path),
                        kind=bundle.kind,
                        dataset=name,
                        responses_new=len(bundle.responses),
                        verdicts_new=len(bundle.verdicts),
                        notes=(
                            "read and checked only: its results attach by uuid to the items above "
                            "once those are imported",
                        ),
                        dry_run=True,
                    )
                )
                continue
            reports.append(
                self.import_path(
                    path,
                    dataset=name,
                    kind=entry.kind,
                    dry_run=dry_run,
                    strict=strict,
                    options=options,
                    progress=progress,
                )
            )
        return reports

    def _dataset_exists(self, name: str) -> bool:
        try:
            self._datasets.resolve(name)
        except NotFoundError:
            return False
        return True

    def store_is_empty(self) -> bool:
        """True when no dataset has been imported yet."""
        return not self._datasets.all()
