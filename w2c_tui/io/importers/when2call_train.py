"""When2Call train files (SFT and preference), kept for browsing next to the test items."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from w2c_tui.domain.labels import ItemKind, Label
from w2c_tui.domain.records import ImportBundle, ItemRecord
from w2c_tui.io.importers.base import Importer, Source
from w2c_tui.io.jsonl import Progress, ProgressCallback, iter_objects, sha256_hex
from w2c_tui.io.options import ReadOptions
from w2c_tui.io.validate import (
    canonical_json,
    fail,
    json_object_text,
    optional_number,
    require,
    require_dict,
    require_list,
    require_str,
    wrong_type,
)

SFT_KIND = "when2call_sft"
PREF_KIND = "when2call_pref"

TOOL_CALL_MARK = "<TOOLCALL>"
SFT_FIELDS = frozenset({"uuid", "tools", "messages"})
PREF_FIELDS = frozenset(
    {
        "uuid",
        "tools",
        "messages",
        "chosen_response",
        "rejected_response",
        "chosen_reward",
        "rejected_reward",
    }
)


class _Counts:
    """What a train file held besides its items, for the bundle's notes."""

    def __init__(self) -> None:
        self.duplicates = 0
        self.non_text = 0


def _uuid(obj: dict[str, Any], prefix: str, path: Path, line: int) -> str:
    """The record's own `uuid`, else one derived from its content (train files carry none)."""
    if "uuid" in obj:
        return require_str(obj, "uuid", path, line, non_empty=True)
    digest = hashlib.sha256(canonical_json(obj).encode("utf-8")).hexdigest()
    return f"{prefix}-{digest[:20]}"


def _tools(obj: dict[str, Any], path: Path, line: int) -> tuple[str, ...]:
    tools = require_list(obj, "tools", path, line)
    return tuple(
        json_object_text(tool, path, line, f"tools[{index}]") for index, tool in enumerate(tools)
    )


def _content(message: dict[str, Any], path: Path, line: int, field: str, counts: _Counts) -> str:
    content = require(message, "content", path, line, f"{field}.content")
    if isinstance(content, str):
        return content
    # A shipped converter wrote the tool-call dict itself as the assistant content; keep such
    # records readable as JSON text rather than refuse the whole file.
    if isinstance(content, dict | list):
        counts.non_text += 1
        return json.dumps(content, ensure_ascii=False)
    raise wrong_type(path, line, f"{field}.content", "a string", content)


def _messages(obj: dict[str, Any], path: Path, line: int, counts: _Counts) -> list[tuple[str, str]]:
    messages = require_list(obj, "messages", path, line)
    result: list[tuple[str, str]] = []
    for index, message in enumerate(messages):
        field = f"messages[{index}]"
        if not isinstance(message, dict):
            raise wrong_type(path, line, field, "an object", message)
        role = require_str(message, "role", path, line, f"{field}.role")
        result.append((role, _content(message, path, line, field, counts)))
    return result


def _first(messages: list[tuple[str, str]], role: str, path: Path, line: int) -> str:
    for who, content in messages:
        if who == role:
            return content
    raise fail(path, line, "messages", f"no {role!r} message")


def _response(obj: dict[str, Any], key: str, path: Path, line: int, counts: _Counts) -> str:
    response = require_dict(obj, key, path, line)
    return _content(response, path, line, key, counts)


def parse_sft(obj: dict[str, Any], path: Path, line: int, counts: _Counts) -> ItemRecord:
    """One SFT line: the first user turn is the question, the first assistant turn the answer."""
    uuid = _uuid(obj, "sft", path, line)
    tools = _tools(obj, path, line)
    messages = _messages(obj, path, line, counts)
    answer = _first(messages, "assistant", path, line)
    extra = {k: v for k, v in obj.items() if k not in SFT_FIELDS}
    if len(messages) != 2:
        extra["messages"] = obj["messages"]
    return ItemRecord(
        uuid=uuid,
        question=_first(messages, "user", path, line),
        tools=tools,
        answers=(("assistant", answer),),
        gold=Label.TOOL_CALL if TOOL_CALL_MARK in answer else None,
        line=line,
        kind=ItemKind.SFT,
        extra=extra,
    )


def parse_pref(obj: dict[str, Any], path: Path, line: int, counts: _Counts) -> ItemRecord:
    """One preference line: the user turn, then the chosen and the rejected reply."""
    uuid = _uuid(obj, "pref", path, line)
    tools = _tools(obj, path, line)
    messages = _messages(obj, path, line, counts)
    chosen = _response(obj, "chosen_response", path, line, counts)
    rejected = _response(obj, "rejected_response", path, line, counts)
    extra = {k: v for k, v in obj.items() if k not in PREF_FIELDS}
    for key in ("chosen_reward", "rejected_reward"):
        reward = optional_number(obj, key, path, line)
        if key in obj:
            extra[key] = reward
    if len(messages) != 1:
        extra["messages"] = obj["messages"]
    return ItemRecord(
        uuid=uuid,
        question=_first(messages, "user", path, line),
        tools=tools,
        answers=(("chosen", chosen), ("rejected", rejected)),
        gold=None,
        line=line,
        kind=ItemKind.PREF,
        extra=extra,
    )


Parser = Callable[[dict[str, Any], Path, int, _Counts], ItemRecord]


def _read(
    source: Source, kind: str, parse: Parser, progress: ProgressCallback | None
) -> ImportBundle:
    path, data = source.path, source.data
    tracker = Progress(progress, len(data))
    counts = _Counts()
    items: list[ItemRecord] = []
    first_line: dict[str, int] = {}
    first_hash: dict[str, str] = {}
    for line, obj in iter_objects(path, data, tracker):
        item = parse(obj, path, line, counts)
        digest = canonical_json(obj)
        if item.uuid in first_line:
            if first_hash[item.uuid] == digest:
                counts.duplicates += 1
                continue
            raise fail(
                path,
                line,
                "uuid",
                f"duplicate uuid {item.uuid!r} (first on line {first_line[item.uuid]})",
            )
        first_line[item.uuid] = line
        first_hash[item.uuid] = digest
        items.append(item)
    tracker.finish()
    notes: list[str] = []
    if counts.duplicates:
        notes.append(f"skipped {counts.duplicates} exact duplicate record(s)")
    if counts.non_text:
        notes.append(
            f"{counts.non_text} message content(s) were JSON values, not text: stored as JSON text"
        )
    if not items:
        notes.append("the file holds no records")
    return ImportBundle(
        path=str(path),
        kind=kind,
        sha256=sha256_hex(data),
        items=tuple(items),
        notes=tuple(notes),
        default_dataset=path.stem,
    )


def read_sft(
    source: Source, _options: ReadOptions, progress: ProgressCallback | None = None
) -> ImportBundle:
    """Every record of a When2Call SFT train file."""
    return _read(source, SFT_KIND, parse_sft, progress)


def read_pref(
    source: Source, _options: ReadOptions, progress: ProgressCallback | None = None
) -> ImportBundle:
    """Every record of a When2Call preference train file."""
    return _read(source, PREF_KIND, parse_pref, progress)


def sniff_sft(source: Source) -> bool:
    """The first line has messages and tools."""
    return {"messages", "tools"} <= source.first_keys


def sniff_pref(source: Source) -> bool:
    """The first line has chosen_response or rejected_response."""
    return bool(source.first_keys & {"chosen_response", "rejected_response"})


SFT = Importer(SFT_KIND, sniff_sft, read_sft, "when2call_sft: messages and tools")
PREF = Importer(
    PREF_KIND, sniff_pref, read_pref, "when2call_pref: chosen_response or rejected_response"
)
