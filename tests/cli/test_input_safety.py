"""Input that cannot hurt: names with control characters refused at every entry (file:line:field),
stored text printed escaped, `labels import` saying what it did per row, a CSV export imported
back changing nothing, and oversized fields or numbers ending with exit 2, never a crash."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.config import load_settings
from w2c_tui.db.engine import make_engine
from w2c_tui.domain.labels import Label
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.domain.team import Selection
from w2c_tui.services import Services, open_services

runner = CliRunner()

ATTACKS = {
    "esc": "alice\x1b]0;pwned\x07",
    "bel": "bob\x07",
    "nul": "carol\x00",
    "c1": "dave\x9b31m",
    "bidi": "eve\u202egnp.exe",
}
CONTROL = [chr(c) for c in range(0x20) if chr(c) != "\n"] + ["\x7f"]
CONTROL += [chr(c) for c in range(0x80, 0xA0)]


def _units(svc: Services, n: int) -> list[tuple[str, int, int, str]]:
    """(uuid, item id, response id, model) of the first `n` demo responses."""
    out = []
    for row in svc.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 30):
        for response in svc.review.detail(row.id, None).responses:
            assert response.id is not None
            out.append((row.uuid, row.id, response.id, response.target_model))
    return out[:n]


def _write_csv(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _no_control(text: str) -> bool:
    return not any(c in text for c in CONTROL)


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_labels_import_refuses_control_characters_in_names(
    demo: Services, tmp_path: Path, attack: str
) -> None:
    uuid, *_ = _units(demo, 1)[0]
    path = _write_csv(
        tmp_path / "labels.csv",
        ["uuid", "annotator", "label"],
        [[uuid, "zed", "direct"], [uuid, ATTACKS[attack], "direct"]],
    )
    result = runner.invoke(app, ["--db", demo.url, "labels", "import", str(path)])
    assert result.exit_code == 2, result.output
    assert "labels.csv:3: field 'annotator': the name '" in result.stderr
    assert "holds control character(s)" in result.stderr
    assert _no_control(result.stderr)
    assert demo.labels.export("demo") == []  # nothing half-written


def test_labels_import_refuses_them_in_jsonl_models_and_notes(
    demo: Services, tmp_path: Path
) -> None:
    uuid, *_ = _units(demo, 1)[0]
    path = tmp_path / "labels.jsonl"
    lines = [
        {"uuid": uuid, "annotator": "zed", "label": "direct", "target_model": "m\x1b[2J"},
        {"uuid": uuid, "annotator": "zed", "label": "direct", "note": "ok\ttab\nnewline"},
        {"uuid": uuid, "annotator": "yan", "label": "direct", "note": "bell\x07"},
        {"uuid": uuid, "annotator": "x" * 201, "label": "direct"},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["--db", demo.url, "labels", "import", str(path)])
    assert result.exit_code == 2
    err = " ".join(result.stderr.split())
    assert "labels.jsonl:1: field 'target_model': the name 'm\\x1b[2J' holds" in err
    assert "3 rows refused, nothing imported" in err
    assert "line 3 field 'note': the note holds control character(s) \\x07" in err
    assert "line 4 field 'annotator': the name is 201 characters long, more than 200" in err
    assert _no_control(result.stderr)


def test_a_name_is_stored_in_nfc(demo: Services, tmp_path: Path) -> None:
    uuid, *_ = _units(demo, 1)[0]
    path = _write_csv(
        tmp_path / "labels.csv", ["uuid", "annotator", "label"], [[uuid, "Jose\u0301", "direct"]]
    )
    result = runner.invoke(app, ["--db", demo.url, "labels", "import", str(path)])
    assert result.exit_code == 0, result.output
    [record] = demo.labels.export("demo")
    assert record.annotator == "Jos\u00e9"


@pytest.mark.parametrize(
    "args",
    [
        ["--annotator", "al\x1bice", "datasets", "list"],
        ["import", "--dataset", "d\x07s", "FILE"],
        ["labels", "import", "--dataset", "d\x00", "FILE"],
        ["assign", "--annotators", "ann,b\x1bn", "--overlap", "2"],
    ],
)
def test_cli_options_refuse_control_characters_in_names(
    demo: Services, tmp_path: Path, args: list[str]
) -> None:
    file = tmp_path / "x.csv"
    file.write_text("uuid,annotator,label\n", encoding="utf-8")
    args = [str(file) if a == "FILE" else a for a in args]
    result = runner.invoke(app, ["--db", demo.url, *args])
    assert result.exit_code == 2, result.output
    assert "holds control character(s)" in result.output + result.stderr
    assert _no_control(result.stderr)


def test_team_status_escapes_a_legacy_name(demo: Services) -> None:
    demo.assignments.assign(
        "demo", ["evil", "ben"], overlap=2, seed=0, selection=Selection(sample=4)
    )
    for unit in demo.assignments.show("demo", "evil"):
        assert unit.response_id is not None
        demo.review.label_response("evil", unit.item_id, unit.response_id, Label.DIRECT)
    demo.close()
    sqlite = demo.url.startswith("sqlite")
    legacy = "\x1b]0;pwned\x07evil\x9b" + ("\x00" if sqlite else "")  # PostgreSQL has no NUL
    engine = make_engine(demo.url)
    with engine.begin() as db:  # an old database, from before names were checked
        db.execute(text("UPDATE rater SET name = :n WHERE name = 'evil'"), {"n": legacy})
    engine.dispose()
    result = runner.invoke(app, ["--db", demo.url, "team", "status", "--bootstrap", "10"])
    assert result.exit_code == 0, result.output
    assert _no_control(result.output)
    assert "\\x1b]0;pwned\\x07evil\\x9b" in result.output
    as_json = runner.invoke(app, ["--db", demo.url, "team", "status", "--json", "--bootstrap", "0"])
    assert as_json.exit_code == 0 and _no_control(as_json.stdout)  # \u001b, \u009b: same data
    assert legacy in {a["annotator"] for a in json.loads(as_json.stdout)["annotators"]}


def test_labels_import_reports_new_unchanged_replaced_and_kept(
    demo: Services, tmp_path: Path
) -> None:
    units = _units(demo, 3)
    (u0, i0, r0, m0), (u1, i1, r1, m1), (u2, *_rest, m2) = units
    demo.review.label_response("ann", i0, r0, Label.DIRECT)
    demo.review.label_response("ann", i1, r1, Label.TOOL_CALL)
    path = _write_csv(
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
    units = _units(demo, 4)
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
    uuid, *_ = _units(demo, 1)[0]
    path = _write_csv(
        tmp_path / "labels.csv",
        ["uuid", "annotator", "label", "note"],
        [[uuid, "ann", "direct", ""], [uuid, "ben", "", "x" * 140_000]],
    )
    result = runner.invoke(app, ["--db", demo.url, "labels", "import", str(path)])
    assert result.exit_code == 2
    assert "labels.csv:3: field 'note': the note is 140,000 characters long" in result.stderr
    path = _write_csv(
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
        assert _no_control(result.stderr)


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
    uuid, *_ = _units(demo, 1)[0]
    path = tmp_path / "labels.jsonl"
    path.write_text(
        json.dumps({"uuid": uuid, "annotator": "a", "label": "direct", "response_id": 2**70})
        + "\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["--db", demo.url, "labels", "import", str(path)])
    assert result.exit_code == 2
    assert "labels.jsonl:1: field 'response_id':" in result.stderr


@pytest.mark.parametrize("bad", ["ann\x00", "ann\x1b]0;x\x07", "ann\u202e"])
def test_merge_refuses_a_source_with_a_control_character_in_a_name(
    services: Services, tmp_path: Path, bad: str
) -> None:
    """A NUL in a name used to fail a merge into PostgreSQL for the whole file; now every
    target refuses the file up front, naming table and field, the name escaped."""
    source = tmp_path / "laptop.db"
    laptop = open_services(f"sqlite:///{source}")
    try:
        laptop.imports.import_demo()
        _uuid, item, response, _model = _units(laptop, 1)[0]
        laptop.review.label_response("ann", item, response, Label.DIRECT)
    finally:
        laptop.close()
    with sqlite3.connect(source) as db:  # an annotator's file from before names were checked
        db.execute("UPDATE rater SET name = ? WHERE name = 'ann'", (bad,))
    db.close()
    services.imports.import_demo()
    result = runner.invoke(app, ["--db", services.url, "merge", str(source)])
    assert result.exit_code == 2, result.output
    assert f"{source}: field 'rater.name': the name 'ann\\" in result.stderr
    assert "nothing merged" in result.stderr and _no_control(result.stderr)
    assert services.labels.export("demo") == []


def test_import_refuses_names_taken_from_a_file_name(services: Services, tmp_path: Path) -> None:
    demo_dir = Path(__file__).resolve().parents[2] / "w2c_tui" / "demo"
    items = tmp_path / "items\x1b]0;x\x07.jsonl"  # the dataset is named after the file's stem
    items.write_bytes((demo_dir / "when2call_demo.jsonl").read_bytes())
    result = runner.invoke(app, ["--db", services.url, "import", str(items)])
    assert result.exit_code == 2, result.output
    assert "field 'dataset': the name 'items\\x1b]0;x\\x07' holds" in result.stderr
    assert _no_control(result.stderr) and services.datasets.all() == []

    ok = runner.invoke(
        app, ["--db", services.url, "import", str(demo_dir / "when2call_demo.jsonl")]
    )
    assert ok.exit_code == 0, ok.output
    judged = tmp_path / "acme\x9b2J.jsonl"  # official judge files name their model by file name
    judged.write_bytes((demo_dir / "judge" / "acme-7b-instruct.jsonl").read_bytes())
    args = ["import", "--kind", "official_judge", "--judge", "demo-judge", str(judged)]
    result = runner.invoke(app, ["--db", services.url, *args])
    assert result.exit_code == 2, result.output
    assert ":1: field 'target_model': the name 'acme\\x9b2J' holds" in result.stderr
    assert _no_control(result.stderr)


def test_the_config_file_annotator_is_checked(demo: Services, tmp_path: Path) -> None:
    config = tmp_path / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('annotator = "ann\\u001b]0;x\\u0007"\n', encoding="utf-8")
    result = runner.invoke(app, ["--db", demo.url, "tui"])
    assert result.exit_code == 2
    assert f"{config}: field 'annotator': the name 'ann\\x1b]0;x\\x07' holds" in result.stderr
    assert _no_control(result.stderr)
    config.write_text('annotator = "  Jose\\u0301 "\n', encoding="utf-8")
    assert load_settings(config).annotator == "Jos\u00e9"


def test_model_and_judge_options_are_checked(demo: Services, tmp_path: Path) -> None:
    file = tmp_path / "results.jsonl"
    file.write_text("{}\n", encoding="utf-8")
    for option in ("--target-model", "--judge", "--scorer"):
        result = runner.invoke(app, ["--db", demo.url, "import", option, "m\x00", str(file)])
        assert result.exit_code == 2, (option, result.output)
        said = " ".join(result.stderr.replace("│", " ").split())
        assert f"'{option}'" in said and "holds control character(s) \\x00" in said
