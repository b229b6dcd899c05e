"""What importers produce: validated records ready to be stored, plus their report."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from json.encoder import encode_basestring
from typing import Any

from w2c_tui.domain.labels import ItemKind, Label, RaterKind, VerdictStatus

_CANONICAL = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))
"""Key-sorted compact JSON with non-ASCII kept: what content hashes are taken of."""


def _encode_scalar(value: str | None) -> str:
    """_CANONICAL.encode of a string or None (which the encoder takes its slow path for)."""
    # what _CANONICAL.encode does with a string (ensure_ascii off), without its Python frame
    return "null" if value is None else encode_basestring(value)


@dataclass(frozen=True, slots=True)
class ItemRecord:
    """A validated item from a file, keyed by its `uuid`."""

    uuid: str
    question: str
    tools: tuple[str, ...]
    answers: tuple[tuple[str, str], ...]
    gold: Label | None
    line: int
    kind: ItemKind = ItemKind.TEST
    source: str | None = None
    source_id: str | None = None
    held_out_param: str | None = None
    target_tool: str | None = None
    orig_question: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    raw: str | None = None
    """The file's line exactly as read (without its line ending): an unchanged item is
    exported byte for byte. Not part of the content hash."""

    def content_hash(self) -> str:
        """A hash of everything that defines the item (not the line number)."""
        return self.content_hash_from(
            _CANONICAL.encode(list(self.tools)), _CANONICAL.encode([list(a) for a in self.answers])
        )

    def content_hash_from(self, tools_json: str, answers_json: str) -> str:
        """content_hash(), given the compact JSON (non-ASCII kept) of `list(tools)` and of
        `[list(a) for a in answers]`, as the item table stores them: the longest parts of an
        item are then not encoded twice.

        The hash is the sha256 of the item as one key-sorted compact JSON object, written out
        here key by key in sorted order so that the two lists can be spliced in. Stored hashes
        depend on this text staying byte for byte the same (tests/db/test_item_import.py pins
        it against the json.dumps of the whole object that it replaced).
        """
        encode = _encode_scalar
        text = "".join(
            (
                '{"answers":',
                answers_json,
                ',"extra":',
                _CANONICAL.encode(self.extra) if self.extra else "{}",
                ',"gold":',
                encode(self.gold.value if self.gold else None),
                ',"held_out_param":',
                encode(self.held_out_param),
                ',"kind":',
                encode(self.kind.value),
                ',"orig_question":',
                encode(self.orig_question),
                ',"question":',
                encode(self.question),
                ',"source":',
                encode(self.source),
                ',"source_id":',
                encode(self.source_id),
                ',"target_tool":',
                encode(self.target_tool),
                ',"tools":',
                tools_json,
                ',"uuid":',
                encode(self.uuid),
                "}",
            )
        )
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class RaterSpec:
    """How a rater is identified before it has a database id."""

    kind: RaterKind
    name: str
    config: dict[str, Any] = field(default_factory=dict)

    def key(self) -> str:
        """A stable identity: kind, name and a hash of the configuration."""
        text = json.dumps(self.config, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
        return f"{self.kind.value}:{self.name}:{digest}"


@dataclass(frozen=True, slots=True)
class ResponseRecord:
    """A target model's response to the item `uuid`."""

    uuid: str
    target_model: str
    text: str | None
    line: int
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class VerdictRecord:
    """A rater's verdict on item `uuid` for `target_model` (and on one of its responses)."""

    uuid: str
    rater: RaterSpec
    target_model: str | None
    label: Label | None
    status: VerdictStatus
    line: int
    raw: str | None = None
    scores: dict[str, Any] = field(default_factory=dict)
    response_index: int | None = None
    """Index into the bundle's responses when the verdict reads a response."""


@dataclass(frozen=True, slots=True)
class ImportBundle:
    """Everything read from one file (or one run folder), all or nothing."""

    path: str
    kind: str
    sha256: str
    items: tuple[ItemRecord, ...] = ()
    responses: tuple[ResponseRecord, ...] = ()
    verdicts: tuple[VerdictRecord, ...] = ()
    notes: tuple[str, ...] = ()
    default_dataset: str | None = None


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import did, or would do with --dry-run."""

    path: str
    kind: str
    dataset: str
    items_new: int = 0
    items_unchanged: int = 0
    items_changed: tuple[str, ...] = ()
    responses_new: int = 0
    responses_unchanged: int = 0
    verdicts_new: int = 0
    verdicts_unchanged: int = 0
    verdicts_invalid: int = 0
    unknown_uuids: tuple[str, ...] = ()
    unknown_records: int = 0
    notes: tuple[str, ...] = ()
    dry_run: bool = False

    @property
    def changed_nothing(self) -> bool:
        """True when the store was already up to date with this file."""
        return not (self.items_new or self.responses_new or self.verdicts_new)
