"""Label files that cannot hurt: `labels import` saying what it did per row, a CSV export
imported back changing nothing, and oversized fields, binary files or numbers out of range
ending with exit 2 (naming the line, the file or the option), never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from unsafe_input import demo_units, no_control, runner, write_csv

from w2c_tui.cli import app
from w2c_tui.domain.labels import Label
from w2c_tui.services import Services


def test_labels_import_reports_new_unchanged_replaced_and_kept(
    demo: Services, tmp_path: Path
) -> None:
    units = demo_units(demo, 3)
    (u0, i0, r0, m0), (u1, i1, r1, m1), (u2, *_rest, m2) = units
    demo.review.label_response("ann", i0, r0, Label.DIRECT)
    demo.review.label_response("ann", i1, r1, Label.TOOL_CALL)
    path = write_csv(
        tmp_path / "labels.csv",
        ["uuid", "annotator", "label", "target_model"],
        [[u0, "ann", "direct", m0], [u1, "ann", "cannot_answer", m1], [u2, "ann", "direct", m2]],
    )
    kept = runner.invoke(app, ["--db", demo.url, "labels", "import", "--no-replace", str(path)])
    assert kept.exit_code == 0, kept.output
    assert "labels: 1 new, 1 unchanged, 0 replaced, 1 kept" in kept.output
    assert f"kept (--no-replace): line 3: ann on {u1} ({m1}): kept tool_call" in kept.output
    labels = {(r.item_uuid, r.target_model): r.label for r in demo.labels.export("demo")}
    assert labels[(u1, m1)] is Label.TOOL_CALL

    dry = runner.invoke(app, ["--db", demo.url, "labels", "import", "--dry-run", str(path)])
    assert "would record labels: 0 new, 2 unchanged, 1 replaced;" in dry.output
    assert f"would replace: line 3: ann on {u1} ({m1}): tool_call → cannot_answer" in dry.output
    replaced = runner.invoke(app, ["--db", demo.url, "labels", "import", str(path)])
    assert replaced.exit_code == 0, replaced.output
    assert "labels: 0 new, 2 unchanged, 1 replaced;" in replaced.output
    assert f"replaced: line 3: ann on {u1} ({m1}): tool_call → cannot_answer" in replaced.output
    labels = {(r.item_uuid, r.target_model): r.label for r in demo.labels.export("demo")}
    assert labels[(u1, m1)] is Label.CANNOT_ANSWER

    again = runner.invoke(app, ["--db", demo.url, "labels", "import", "--json", str(path)])
    report = json.loads(again.stdout)
    assert (report["labels_new"], report["labels_unchanged"], report["labels_replaced"]) == (
        0,
        3,
        0,
    )
    assert report["changed"] is False


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_an_export_imported_back_changes_nothing(demo: Services, tmp_path: Path, fmt: str) -> None:
    units = demo_units(demo, 4)
    hyperlink = '=HYPERLINK("http://evil.example","x")'
    names = [hyperlink, "+plus", "-minus", "@at"]
    for (_uuid, item, response, _model), name in zip(units, names, strict=True):
        demo.review.label_response(name, item, response, Label.TOOL_CALL)
    _uuid, item, response, _model = units[0]
    demo.review.label_response("ann", item, response, Label.DIRECT)
    demo.review.label_response("ann", item, response, None)  # withdrawn: status missing
    demo.review.label_item("ann", item, Label.REQUEST_FOR_INFO)
    demo.review.set_note("ann", item, "", "-3 dB?\tsee\n'=quoted")
    demo.review.set_flag("ann", units[2][1], "qca_vague", True)
    demo.review.set_note("'=already", units[2][1], "", "''+twice")
    before = demo.labels.export("demo")
    out = tmp_path / f"labels.{fmt}"
    exported = runner.invoke(
        app, ["--db", demo.url, "labels", "export", "--format", fmt, "-o", str(out)]
    )
    assert exported.exit_code == 0, exported.output
    text = out.read_text("utf-8")
    if fmt == "csv":
        assert "'=HYPERLINK" in text and "\n=HYPERLINK" not in text  # defused for spreadsheets
    result = runner.invoke(app, ["--db", demo.url, "labels", "import", str(out)])
    assert result.exit_code == 0, result.output
    n = sum(1 for r in before if r.label is not None or r.status.value == "missing")
    assert f"labels: 0 new, {n} unchanged, 0 replaced; notes: 0 new, 0 replaced;" in result.output
    assert "0 flag(s) switched on" in result.output
    after = demo.labels.export("demo")
    assert after == before
    assert not any(r.annotator.startswith("'") and r.annotator != "'=already" for r in after)


def test_an_oversized_csv_field_is_refused_by_line(demo: Services, tmp_path: Path) -> None:
    uuid, *_ = demo_units(demo, 1)[0]
    path = write_csv(
        tmp_path / "labels.csv",
        ["uuid", "annotator", "label", "note"],
        [[uuid, "ann", "direct", ""], [uuid, "ben", "", "x" * 140_000]],
    )
    result = runner.invoke(app, ["--db", demo.url, "labels", "import", str(path)])
    assert result.exit_code == 2
    assert "labels.csv:3: field 'note': the note is 140,000 characters long" in result.stderr
    path = write_csv(
        tmp_path / "huge.csv", ["uuid", "annotator", "label"], [[uuid, "ann", "y" * 1_100_000]]
    )
    result = runner.invoke(app, ["--db", demo.url, "labels", "import", str(path)])
    assert result.exit_code == 2
    assert "huge.csv:2: a field longer than 1,048,576 characters" in result.stderr


@pytest.mark.parametrize(
    "content", [b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", b"SQLite format 3\x00\x10\x00"]
)
@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_a_binary_file_is_refused_by_name(
    demo: Services, tmp_path: Path, content: bytes, suffix: str
) -> None:
    path = tmp_path / f"labels{suffix}"
    path.write_bytes(content)
    for command in (["labels", "import"], ["import"]):
        result = runner.invoke(app, ["--db", demo.url, *command, str(path)])
        assert result.exit_code == 2, (command, result.output)
        assert str(path) in result.stderr and "unexpected error" not in result.stderr
        assert no_control(result.stderr)


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["assign", "--annotators", "a,b", "--seed", "99999999999999999999999"], "--seed"),
        (["assign", "--annotators", "a,b", "--seed", "-1"], "--seed"),
        (["assign", "--annotators", "a,b", "--sample", str(2**40)], "--sample"),
        (["assign", "--annotators", "a,b", "--per-label", str(2**63)], "--per-label"),
        (["assign", "--annotators", "a,b", "--overlap", str(2**31)], "--overlap"),
        (["items", "list", "--limit", str(2**64)], "--limit"),
        (["team", "status", "--seed", str(2**70)], "--seed"),
        (["run", "show", str(2**64)], "run_id"),
        (["verdicts", "export", "--run", str(2**64)], "--run"),
    ],
)
def test_numbers_out_of_range_name_the_option(demo: Services, args: list[str], option: str) -> None:
    result = runner.invoke(app, ["--db", demo.url, *args])
    assert result.exit_code == 2, result.output
    assert f"'{option}'" in result.output + result.stderr
    assert "unexpected error" not in result.output + result.stderr


def test_a_huge_response_id_in_a_label_file_is_refused(demo: Services, tmp_path: Path) -> None:
    uuid, *_ = demo_units(demo, 1)[0]
    path = tmp_path / "labels.jsonl"
    path.write_text(
        json.dumps({"uuid": uuid, "annotator": "a", "label": "direct", "response_id": 2**70})
        + "\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["--db", demo.url, "labels", "import", str(path)])
    assert result.exit_code == 2
    assert "labels.jsonl:1: field 'response_id':" in result.stderr
