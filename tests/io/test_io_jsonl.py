"""The shared JSON-lines reader: encodings, blank lines, bad lines, progress reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from w2c_tui.domain.errors import InputError
from w2c_tui.io.jsonl import Progress, first_object, iter_objects, read_bytes


def _objects(path: Path) -> list[tuple[int, dict[str, object]]]:
    return list(iter_objects(path, read_bytes(path)))


def test_bom_blank_lines_and_crlf(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"a": 1}\r\n\r\n   \n{"b": 2}')
    assert _objects(path) == [(1, {"a": 1}), (4, {"b": 2})]
    assert first_object(path, read_bytes(path)) == (1, {"a": 1})


def test_line_separator_inside_a_string_is_not_a_line_break(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    text = json.dumps({"text": "one\u2028two\x85three"}, ensure_ascii=False)
    path.write_text(text + "\n" + json.dumps({"n": 2}) + "\n", encoding="utf-8")
    assert [line for line, _ in _objects(path)] == [1, 2]


@pytest.mark.parametrize(
    ("content", "line", "message"),
    [
        (b'{"a": 1}\n{"a": 2}\n{"a": \n', 3, "not valid JSON"),
        (b'{"a": 1}\n[1, 2]\n', 2, "expected a JSON object"),
        (b'\n"text"\n', 2, "expected a JSON object"),
        (b'{"a": 1}\n{"a": "\xff"}\n', 2, "not valid UTF-8"),
    ],
)
def test_bad_lines_name_their_line(tmp_path: Path, content: bytes, line: int, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    with pytest.raises(InputError) as caught:
        _objects(path)
    assert caught.value.line == line
    assert message in caught.value.message
    assert f"{path}:{line}" in str(caught.value)


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_bytes(tmp_path / "absent.jsonl")


def test_progress_reports_every_thousand_lines_and_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "many.jsonl"
    path.write_text("".join(json.dumps({"n": n}) + "\n" for n in range(2500)), encoding="utf-8")
    data = read_bytes(path)
    calls: list[tuple[int, int]] = []
    tracker = Progress(lambda done, total: calls.append((done, total)), len(data))
    assert len(list(iter_objects(path, data, tracker))) == 2500
    tracker.finish()
    assert len(calls) == 3
    assert calls[-1] == (len(data), len(data))
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
