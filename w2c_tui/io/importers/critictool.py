"""Read CriticTool files: one JSON object mapping sample id to record, with or without predictions.

The whole file is validated before anything is returned; the first problem raises an
InputError (a SampleError inside a record) naming the file, the line, the sample and the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from w2c_tui.domain.critictool import CriticToolFile, Sample, SampleError, Turn
from w2c_tui.domain.errors import InputError
from w2c_tui.io.importers import critictool_records as records
from w2c_tui.io.importers.base import HEAD_BYTES, Importer, Source, head_text
from w2c_tui.io.importers.critictool_kind import file_kind, source_from_name
from w2c_tui.io.jsonl import BOM, ProgressCallback, check_regular, read_bytes, sha256_hex
from w2c_tui.io.options import ReadOptions
from w2c_tui.io.validate import type_name

KIND = "critictool"
_WHITESPACE = " \t\n\r"
_DECODER = json.JSONDecoder()


class _Scanner:
    """Walks the top-level object, yielding each key and its value's exact text."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text

    def line_at(self, pos: int) -> int:
        return self.text.count("\n", 0, pos) + 1

    def fail(self, pos: int, message: str) -> InputError:
        return InputError(self.path, message, line=self.line_at(pos))

    def skip(self, pos: int) -> int:
        while pos < len(self.text) and self.text[pos] in _WHITESPACE:
            pos += 1
        return pos

    def expect(self, pos: int, char: str, what: str) -> int:
        pos = self.skip(pos)
        if not self.text.startswith(char, pos):
            found = self.text[pos : pos + 1] or "the end of the file"
            raise self.fail(pos, f"not valid JSON: expected {what}, found {found!r}")
        return pos + 1

    def items(self) -> Iterator[tuple[str, int, Any, str]]:
        """(key, line, value, value text) for each member of the top-level object."""
        pos = self.skip(0)
        if not self.text.startswith("{", pos):
            raise self.fail(pos, "not a CriticTool file: expected one JSON object (id → record)")
        pos = self.skip(pos + 1)
        if self.text.startswith("}", pos):
            pos += 1
        else:
            while True:
                pos = self.skip(pos)
                if not self.text.startswith('"', pos):
                    self.expect(pos, '"', "a sample id (a string)")
                try:
                    key, pos = _DECODER.raw_decode(self.text, pos)
                except ValueError as error:
                    raise self.fail(pos, f"not valid JSON: {error}") from error
                pos = self.skip(self.expect(pos, ":", "':'"))
                try:
                    value, end = _DECODER.raw_decode(self.text, pos)
                except json.JSONDecodeError as error:
                    raise InputError(
                        self.path, f"sample {key!r}: not valid JSON: {error.msg}", line=error.lineno
                    ) from error
                except (ValueError, RecursionError) as error:
                    raise self.fail(pos, f"sample {key!r}: not valid JSON: {error}") from error
                yield key, self.line_at(pos), value, self.text[pos:end]
                pos = self.skip(end)
                if self.text.startswith("}", pos):
                    pos += 1
                    break
                pos = self.expect(pos, ",", "',' or '}'")
        if self.skip(pos) != len(self.text):
            raise self.fail(pos, "not valid JSON: extra data after the top-level object")


def _decode(path: Path, data: bytes) -> str:
    try:
        return data.removeprefix(BOM).decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(
            str(path), f"not valid UTF-8: {error.reason} at byte {error.start}"
        ) from error


_RECORD_START = re.compile(r'\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*\{')
_RECORD_KEY = re.compile(r'"(?:query_prompt|ground_truth)"\s*:')


def looks_like(head: str, whole: bool) -> bool:
    """True when `head`, a file's first bytes (all of it when `whole`), is one JSON object whose
    first value is a CriticTool record: `query_prompt` (a list) and `ground_truth` (an object or
    a list). Nothing is validated beyond that (`read_critictool` does it). A first record longer
    than the head is told by how it starts: `{"id": {` and one of the two keys."""
    try:
        for _key, _line, value, _text in _Scanner("", head).items():
            return (
                isinstance(value, dict)
                and isinstance(value.get("query_prompt"), list)
                and isinstance(value.get("ground_truth"), dict | list)
            )
    except InputError:
        return not whole and bool(_RECORD_START.match(head) and _RECORD_KEY.search(head))
    return False


def sniff(source: Source) -> bool:
    """The file's first bytes are a CriticTool record's (`looks_like`)."""
    return looks_like(source.head, len(source.data) <= HEAD_BYTES)


def looks_like_critictool(path: Path) -> bool:
    """True when `path` is a file whose first bytes are a CriticTool record's (it reads no
    more than those)."""
    if not path.is_file():
        return False
    try:
        check_regular(path)
        with path.open("rb") as handle:
            raw = handle.read(HEAD_BYTES + 1)
    except (InputError, OSError):
        return False
    return looks_like(head_text(raw[:HEAD_BYTES]), len(raw) <= HEAD_BYTES)


def read_critictool(path: Path) -> CriticToolFile:
    """Read and validate a whole CriticTool file (dataset or inference output)."""
    return parse_critictool(path, read_bytes(path))


def read(
    source: Source, _options: ReadOptions, _progress: ProgressCallback | None = None
) -> CriticToolFile:
    """The registry's reader: `parse_critictool` of the bytes read once."""
    return parse_critictool(source.path, source.data)


def parse_critictool(path: Path, data: bytes) -> CriticToolFile:
    """Validate a whole CriticTool file (dataset or inference output) from its bytes."""
    text = _decode(path, data)
    where_name = str(path)
    samples: list[Sample] = []
    seen: set[str] = set()
    name_source = source_from_name(path)
    # The whole file's JSON first: a syntax error anywhere comes before any record's problem.
    for key, line, value, raw in list(_Scanner(where_name, text).items()):
        if key in seen:
            raise SampleError(where_name, key, "(sample id)", "the same id twice", line=line)
        seen.add(key)
        sample = _sample(records.Where(where_name, key, line), value, raw)
        expected = name_source or (samples[0].source if samples else sample.source)
        if sample.source != expected:
            by = " (by its name)" if name_source else ""
            message = f"a {sample.source} sample in a file of {expected} samples{by}"
            raise SampleError(where_name, key, "ground_truth", message, line=line)
        samples.append(sample)
    if not samples:
        raise InputError(where_name, "the file holds no samples")
    kind = file_kind(path, samples)
    return CriticToolFile(where_name, kind, tuple(samples), sha256_hex(data))


def _sample(where: records.Where, record: Any, raw: str) -> Sample:
    if not isinstance(record, dict):
        raise SampleError(
            where.path,
            where.sample_id,
            "(record)",
            f"expected an object, got {type_name(record)}",
            line=where.line,
        )
    for key in ("query_prompt", "ground_truth"):
        if key not in record:
            where.fail(key, "missing required field")
    turns = records.read_turns(where, record["query_prompt"])
    source, gold = records.read_gold(where, record["ground_truth"])
    system_prompt, instruction = records.split_instruction(turns[0].content)
    tools = records.parse_tool_list(where, system_prompt)
    error_type = records.read_error_type(where, record, source)
    predictions = records.read_predictions(where, record, source)
    count = records.dataset_turn_count(turns, predictions) if source == "external" else len(turns)
    original = (Turn(turns[0].role, system_prompt), *turns[1:count])
    return Sample(
        sample_id=where.sample_id,
        source=source,
        turns=turns,
        dataset_turns=count,
        system_prompt=system_prompt,
        instruction=instruction,
        tools=tools,
        error_type=error_type,
        gold=gold,
        predictions=predictions,
        raw_json=raw,
        sha256=sha256_hex(raw.encode("utf-8")),
        item_sha256=records.item_sha256(original, record),
        line=where.line,
    )


IMPORTER = Importer(KIND, sniff, read)
