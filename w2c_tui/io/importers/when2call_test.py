"""When2Call test items (the MCQ file and the LLM-judge subset share one format)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from w2c_tui.domain.labels import LABELS, ItemKind
from w2c_tui.domain.records import ImportBundle, ItemRecord
from w2c_tui.io.importers.base import Importer, Source
from w2c_tui.io.jsonl import Progress, ProgressCallback, iter_lines, sha256_hex
from w2c_tui.io.options import ReadOptions
from w2c_tui.io.validate import (
    LABEL_NAMES,
    fail,
    json_object_text,
    optional_str,
    parse_label,
    require_dict,
    require_list,
    require_str,
    wrong_type,
)

KIND = "when2call_test"

KNOWN_FIELDS = frozenset(
    {
        "uuid",
        "source",
        "source_id",
        "question",
        "orig_question",
        "correct_answer",
        "answers",
        "target_tool",
        "tools",
        "orig_tools",
        "held_out_param",
    }
)

# The official judge prompt calls the first option `direct_answer`; files written with that
# name still mean the `direct` option.
ANSWER_SYNONYMS = {"direct_answer": "direct"}
OPTION_NAMES = tuple(label.value for label in LABELS)
"""The four options' names, in label order (looked up once, not per line)."""
OPTION_SET = frozenset(OPTION_NAMES)


def parse_answers(
    obj: dict[str, Any], path: Path, line: int, field: str = "answers"
) -> tuple[tuple[str, str], ...]:
    """The four candidate answers as (canonical name, text), in the file's key order."""
    answers = require_dict(obj, "answers", path, line, field)
    if answers.keys() == OPTION_SET and all(isinstance(t, str) for t in answers.values()):
        return tuple(answers.items())  # the usual line: the four names, strings (as below)
    pairs: list[tuple[str, str]] = []
    seen: set[str] = set()
    for key, text in answers.items():
        name = ANSWER_SYNONYMS.get(key, key)
        if name not in OPTION_NAMES:
            raise fail(
                path, line, field, f"unexpected key {key!r} (expected exactly {LABEL_NAMES})"
            )
        if name in seen:
            raise fail(path, line, field, f"key {key!r} repeats the option {name!r}")
        if not isinstance(text, str):
            raise wrong_type(path, line, f"{field}.{key}", "a string", text)
        seen.add(name)
        pairs.append((name, text))
    missing = [name for name in OPTION_NAMES if name not in seen]
    if missing:
        raise fail(
            path,
            line,
            field,
            "missing key(s) "
            + ", ".join(repr(m) for m in missing)
            + f" (expected exactly {LABEL_NAMES})",
        )
    return tuple(pairs)


def parse_tools(
    obj: dict[str, Any], path: Path, line: int, checked: set[str] | None = None
) -> tuple[str, ...]:
    """Tool specs as JSON strings (strings kept as written, objects dumped). `checked`: strings
    already found to hold a JSON object (a file repeats its tools; each is parsed once)."""
    tools = require_list(obj, "tools", path, line)
    return tuple(_spec_text(tool, path, line, index, checked) for index, tool in enumerate(tools))


def _spec_text(
    value: Any, path: Path, line: int, index: int | None, checked: set[str] | None
) -> str:
    """json_object_text, skipped for a string already checked (`index`: the tool's place in
    `tools`; None for target_tool)."""
    if checked is not None and isinstance(value, str) and value in checked:
        return value
    field = "target_tool" if index is None else f"tools[{index}]"
    text = json_object_text(value, path, line, field)
    if checked is not None and text is value:
        checked.add(text)
    return text


def _target_tool(
    obj: dict[str, Any], path: Path, line: int, checked: set[str] | None
) -> str | None:
    value = obj.get("target_tool")
    if value is None:
        return None
    return _spec_text(value, path, line, None, checked)


def parse_item(
    obj: dict[str, Any],
    path: Path,
    line: int,
    raw: str | None = None,
    checked: set[str] | None = None,
) -> ItemRecord:
    """One test-item line as an ItemRecord (`raw`: the line as read, kept for exports;
    `checked`: as for parse_tools)."""
    uuid = require_str(obj, "uuid", path, line, non_empty=True)
    question = require_str(obj, "question", path, line)
    gold = parse_label(require_str(obj, "correct_answer", path, line), path, line, "correct_answer")
    answers = parse_answers(obj, path, line)
    tools = parse_tools(obj, path, line, checked)
    extra: dict[str, Any] = {k: v for k, v in obj.items() if k not in KNOWN_FIELDS}
    if "orig_tools" in obj:
        orig_tools = obj["orig_tools"]
        if orig_tools is not None and not isinstance(orig_tools, list):
            raise wrong_type(path, line, "orig_tools", "an array or null", orig_tools)
        extra["orig_tools"] = orig_tools
    return ItemRecord(
        uuid=uuid,
        question=question,
        tools=tools,
        answers=answers,
        gold=gold,
        line=line,
        kind=ItemKind.TEST,
        source=optional_str(obj, "source", path, line),
        source_id=optional_str(obj, "source_id", path, line),
        held_out_param=optional_str(obj, "held_out_param", path, line),
        target_tool=_target_tool(obj, path, line, checked),
        orig_question=optional_str(obj, "orig_question", path, line),
        extra=extra,
        raw=raw,
    )


def read(
    source: Source, _options: ReadOptions, progress: ProgressCallback | None = None
) -> ImportBundle:
    """Every item of a When2Call test file; an InputError on the first bad line."""
    path, data = source.path, source.data
    tracker = Progress(progress, len(data))
    items: list[ItemRecord] = []
    first_line: dict[str, int] = {}
    checked: set[str] = set()
    for line, obj, raw in iter_lines(path, data, tracker):
        item = parse_item(obj, path, line, raw, checked)
        if item.uuid in first_line:
            raise fail(
                path,
                line,
                "uuid",
                f"duplicate uuid {item.uuid!r} (first on line {first_line[item.uuid]})",
            )
        first_line[item.uuid] = line
        items.append(item)
    tracker.finish()
    notes = () if items else ("the file holds no items",)
    return ImportBundle(
        path=str(path),
        kind=KIND,
        sha256=sha256_hex(data),
        items=tuple(items),
        notes=notes,
        default_dataset=path.stem,
    )


def sniff(source: Source) -> bool:
    """The first line has uuid, question and answers."""
    return {"uuid", "question", "answers"} <= source.first_keys


IMPORTER = Importer(
    KIND, sniff, read, "when2call_test: uuid, question, answers (and correct_answer)"
)
