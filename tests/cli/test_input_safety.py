"""Names that cannot hurt: control characters refused at every entry (file:line:field), stored
text printed escaped, names normalised, in imports, merges, options and the config file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text
from unsafe_input import ATTACKS, demo_units, no_control, runner, write_csv

from w2c_tui.cli import app
from w2c_tui.config import load_settings
from w2c_tui.db.engine import make_engine
from w2c_tui.domain.labels import Label
from w2c_tui.domain.team import Selection
from w2c_tui.services import Services, open_services


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_labels_import_refuses_control_characters_in_names(
    demo: Services, tmp_path: Path, attack: str
) -> None:
    uuid, *_ = demo_units(demo, 1)[0]
    path = write_csv(
        tmp_path / "labels.csv",
        ["uuid", "annotator", "label"],
        [[uuid, "zed", "direct"], [uuid, ATTACKS[attack], "direct"]],
    )
    result = runner.invoke(app, ["--db", demo.url, "labels", "import", str(path)])
    assert result.exit_code == 2, result.output
    assert "labels.csv:3: field 'annotator': the name '" in result.stderr
    assert "holds control character(s)" in result.stderr
    assert no_control(result.stderr)
    assert demo.labels.export("demo") == []  # nothing half-written


def test_labels_import_refuses_them_in_jsonl_models_and_notes(
    demo: Services, tmp_path: Path
) -> None:
    uuid, *_ = demo_units(demo, 1)[0]
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
    assert no_control(result.stderr)


def test_a_name_is_stored_in_nfc(demo: Services, tmp_path: Path) -> None:
    uuid, *_ = demo_units(demo, 1)[0]
    path = write_csv(
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
    assert no_control(result.stderr)


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
    assert no_control(result.output)
    assert "\\x1b]0;pwned\\x07evil\\x9b" in result.output
    as_json = runner.invoke(app, ["--db", demo.url, "team", "status", "--json", "--bootstrap", "0"])
    assert as_json.exit_code == 0 and no_control(as_json.stdout)  # \u001b, \u009b: same data
    assert legacy in {a["annotator"] for a in json.loads(as_json.stdout)["annotators"]}


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
        _uuid, item, response, _model = demo_units(laptop, 1)[0]
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
    assert "nothing merged" in result.stderr and no_control(result.stderr)
    assert services.labels.export("demo") == []


def test_import_refuses_names_taken_from_a_file_name(services: Services, tmp_path: Path) -> None:
    demo_dir = Path(__file__).resolve().parents[2] / "w2c_tui" / "demo"
    items = tmp_path / "items\x1b]0;x\x07.jsonl"  # the dataset is named after the file's stem
    items.write_bytes((demo_dir / "when2call_demo.jsonl").read_bytes())
    result = runner.invoke(app, ["--db", services.url, "import", str(items)])
    assert result.exit_code == 2, result.output
    assert "field 'dataset': the name 'items\\x1b]0;x\\x07' holds" in result.stderr
    assert no_control(result.stderr) and services.datasets.all() == []

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
    assert no_control(result.stderr)


def test_the_config_file_annotator_is_checked(demo: Services, tmp_path: Path) -> None:
    config = tmp_path / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('annotator = "ann\\u001b]0;x\\u0007"\n', encoding="utf-8")
    result = runner.invoke(app, ["--db", demo.url, "tui"])
    assert result.exit_code == 2
    assert f"{config}: field 'annotator': the name 'ann\\x1b]0;x\\x07' holds" in result.stderr
    assert no_control(result.stderr)
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
