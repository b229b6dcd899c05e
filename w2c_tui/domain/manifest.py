"""A dataset folder's manifest.json (`{"dataset", "files": [{"path", "kind", "target_model",
"judge", "scorer"}]}`, as the bundled demo's): the files to import, in order, typed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from w2c_tui.domain.errors import InputError

ENTRY_TEXT = ("kind", "target_model", "judge", "scorer")
"""An entry's optional fields (text, or absent)."""


@dataclass(frozen=True, slots=True)
class ManifestEntry:
    """One file to import, with what the manifest says of it."""

    path: str
    kind: str | None = None
    target_model: str | None = None
    judge: str | None = None
    scorer: str | None = None


@dataclass(frozen=True, slots=True)
class Manifest:
    """The dataset's name (None: not given) and its files in import order."""

    dataset: str | None
    files: tuple[ManifestEntry, ...]

    @classmethod
    def parse(cls, where: str, data: object) -> Manifest:
        """The manifest of `data` (read from `where`); InputError naming the entry if bad."""
        if not isinstance(data, Mapping) or not isinstance(data.get("files"), list):
            raise InputError(where, "expected an object with a 'files' list")
        dataset = data.get("dataset")
        if dataset is not None and not isinstance(dataset, str):
            raise InputError(where, "expected text", field="dataset")
        entries = []
        for number, entry in enumerate(data["files"], start=1):
            if not isinstance(entry, Mapping) or not isinstance(entry.get("path"), str):
                raise InputError(where, f"files[{number}]: expected an object with a 'path'")
            values: dict[str, str | None] = {}
            for key in ENTRY_TEXT:
                value = entry.get(key)
                if value is not None and not isinstance(value, str):
                    raise InputError(where, f"files[{number}]: expected text", field=key)
                values[key] = value
            entries.append(ManifestEntry(path=entry["path"], **values))
        return cls(dataset=dataset, files=tuple(entries))
