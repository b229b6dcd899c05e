"""Items imported before their lines were kept: rebuilt exactly, and filled in on re-import."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import text

from w2c_tui.domain.labels import Label
from w2c_tui.domain.outcomes import CleanOptions, ItemFormat
from w2c_tui.io.exporters.when2call import LineSource, official_line
from w2c_tui.services import Services

NAME = "when2call_test_llm_judge"


def _forget_lines(svc: Services) -> None:
    """What a database upgraded from revision 0005 holds: items without raw lines."""
    with svc.store.engine.begin() as connection:
        connection.execute(text("UPDATE item SET raw_line = NULL"))


def test_rebuilt_lines_reproduce_the_real_file_and_reimport_fills_them(
    services: Services, judge_file: Path, tmp_path: Path
) -> None:
    services.imports.import_path(judge_file)
    _forget_lines(services)
    out = tmp_path / "rebuilt.jsonl"
    report = services.exports.items(NAME, ItemFormat.WHEN2CALL, CleanOptions(), out)
    assert (report.lines_raw, report.lines_rebuilt) == (0, 300)
    assert out.read_bytes() == judge_file.read_bytes()  # all 300 rebuilt lines exact

    again = services.imports.import_path(judge_file)
    assert (again.items_new, again.items_unchanged, again.items_changed) == (0, 300, ())
    report = services.exports.items(NAME, ItemFormat.WHEN2CALL, CleanOptions(), out)
    assert (report.lines_raw, report.lines_rebuilt) == (300, 0)


def test_a_line_in_another_layout_is_kept_as_it_was(services: Services, tmp_path: Path) -> None:
    obj = {
        "uuid": "u-1",
        "question": "Weather in Zürich?",
        "correct_answer": "cannot_answer",
        "answers": {
            "direct_answer": "Sunny.",
            "tool_call": '{"name": "w", "arguments": {}}',
            "request_for_info": "Which day?",
            "cannot_answer": "I cannot check.",
        },
        "target_tool": None,
        "tools": [],
        "note": "kept",
    }
    line = json.dumps(obj, ensure_ascii=False, indent=None, separators=(",", ":"))
    source = tmp_path / "odd.jsonl"
    source.write_bytes(b"\xef\xbb\xbf" + line.encode("utf-8") + b"\r\n")
    services.imports.import_path(source)
    [item] = services.store.item_qa.items("odd")
    assert official_line(item, item.gold) == (line, LineSource.RAW)
    relabelled, how = official_line(item, Label.REQUEST_FOR_INFO)
    assert how is LineSource.RELABELLED
    assert json.loads(relabelled) == {**obj, "correct_answer": "request_for_info"}
    assert list(json.loads(relabelled)) == list(obj)  # keys in their order
