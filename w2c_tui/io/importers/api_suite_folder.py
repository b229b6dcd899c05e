"""An API-suite run on disk: its folder (manifest.json, checkpoints/**/*.jsonl) or one of its
checkpoint files, read into records (last write per uuid wins), and the folder's hash."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from w2c_tui.domain.errors import InputError
from w2c_tui.io.importers import api_suite_records as rec
from w2c_tui.io.jsonl import Progress, iter_objects

MANIFEST = "manifest.json"
CHECKPOINTS = "checkpoints"


@dataclass(frozen=True, slots=True)
class CheckpointFile:
    """One checkpoint file: its name in the run, its records (last write per uuid wins)."""

    path: Path
    name: str
    type: str | None
    records: list[tuple[int, dict[str, Any]]]
    superseded: int


def manifest_config(path: Path, data: bytes) -> dict[str, Any]:
    try:
        manifest = json.loads(data.decode("utf-8-sig"))
    except (ValueError, RecursionError) as error:
        raise InputError(str(path), f"not valid JSON: {error}") from error
    if not isinstance(manifest, dict):
        raise InputError(str(path), "expected a JSON object")
    config = manifest.get("config", {})
    if not isinstance(config, dict):
        raise InputError(str(path), "expected an object", field="config")
    return config


def load_checkpoint(path: Path, name: str, data: bytes, progress: Progress) -> CheckpointFile:
    latest: dict[str, tuple[int, dict[str, Any]]] = {}
    others: list[tuple[int, dict[str, Any]]] = []
    count = 0
    kind: str | None = None
    for line, obj in iter_objects(path, data, progress):
        count += 1
        kind = kind or rec.checkpoint_type(obj) or "unknown"
        uuid = obj.get("uuid")
        # Checkpoints are append-only and the suite reads them last-write-wins per uuid.
        if kind in rec.IMPORTED_TYPES and isinstance(uuid, str):
            latest.pop(uuid, None)
            latest[uuid] = (line, obj)
        else:
            others.append((line, obj))
    records = sorted([*latest.values(), *others], key=lambda pair: pair[0])
    file_type = None if kind == "unknown" else kind
    return CheckpointFile(path, name, file_type, records, count - len(records))


def run_files(path: Path) -> tuple[list[tuple[Path, str]], Path | None]:
    """(checkpoint files with their names in the run, manifest) for a folder or one file."""
    if not path.is_dir():
        # A checkpoint file inside its run (<run>/checkpoints/<exp>/<file>) still has the run's
        # manifest next to it, which names the models its records may leave out.
        folder = path.resolve().parent.parent
        beside = folder.parent / MANIFEST if folder.name == CHECKPOINTS else None
        return [(path, path.name)], beside if beside and beside.is_file() else None
    manifest = path / MANIFEST
    checkpoints = path / CHECKPOINTS
    files = sorted(checkpoints.rglob("*.jsonl")) if checkpoints.is_dir() else []
    named = [(f, f.relative_to(path).as_posix()) for f in files if f.is_file()]
    if not named:
        raise InputError(str(path), f"no {CHECKPOINTS}/**/*.jsonl files in this run folder")
    return named, manifest if manifest.is_file() else None


def folder_sha256(parts: list[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256()
    for name, data in sorted(parts, key=lambda part: part[0]):
        digest.update(name.encode("utf-8"))
        digest.update(data)
    return digest.hexdigest()


def is_run_folder(path: Path) -> bool:
    if (path / CHECKPOINTS).is_dir():
        return True
    manifest = path / MANIFEST
    if manifest.is_file():
        try:
            data = json.loads(manifest.read_text(encoding="utf-8-sig"))
        except (OSError, ValueError) as error:
            raise InputError(str(manifest), f"cannot read the run manifest: {error}") from error
        if isinstance(data, dict) and data.keys() & {"fingerprint", "config", "schema_version"}:
            return True
        raise InputError(
            str(path),
            "this folder's manifest.json is not an API-suite run "
            "manifest (no fingerprint/config): import its files one by one",
        )
    raise InputError(
        str(path),
        "a folder is read only as an API-suite run: expected "
        "manifest.json and/or checkpoints/ in it",
    )
