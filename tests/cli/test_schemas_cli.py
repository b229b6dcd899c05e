"""`w2c schemas`, `w2c labels import|export --schema` and `w2c agreement --schema` on the
issue's custom schema: a yes/no, a three-way nominal and a 1–3 ordinal question, labelled by
two annotators; α per question equals the `krippendorff` package at the question's level."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import krippendorff
import numpy as np
import pytest
from dbfixtures import WHEN2CALL, query
from schema_data import BAR_TOML, write_schema
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.roles import Role
from w2c_tui.services import open_services
from w2c_tui.stats.levels import LevelName

runner = CliRunner()

QUESTIONS = {
    "ok": ["yes", "no"],
    "tone": ["friendly", "neutral", "rude"],
    "quality": ["1", "2", "3"],
}
LEVELS: dict[str, LevelName] = {"ok": "nominal", "tone": "nominal", "quality": "ordinal"}


def w2c(db_url: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", db_url, *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def bar_db(db_url: str, tmp_path: Path) -> str:
    """The demo dataset and the bar's schema added through the CLI."""
    services = open_services(db_url)
    services.imports.import_demo()
    services.close()
    code, out, err = w2c(db_url, "schemas", "add", str(write_schema(tmp_path)))
    assert code == 0, err
    assert out.startswith("bar: added (3 question(s))")
    return db_url


def _units(db_url: str) -> list[tuple[str, int]]:
    services = open_services(db_url)
    try:
        return [
            (u.item_uuid, u.unit.response_id or 0)
            for u in services.schemas.unit_refs("bar", "demo")
        ]
    finally:
        services.close()


def _labels_csv(db_url: str, path: Path, n: int = 24) -> dict[str, dict[str, dict[int, str]]]:
    """Two annotators' answers on `n` responses (agreeing most of the time, some cells empty);
    returns question → annotator → unit index → value."""
    rng = random.Random(7)
    given: dict[str, dict[str, dict[int, str]]] = {q: {"ann": {}, "bob": {}} for q in QUESTIONS}
    rows = []
    for index, (uuid, response) in enumerate(_units(db_url)[:n]):
        truth = {q: rng.choice(options) for q, options in QUESTIONS.items()}
        for annotator in ("ann", "bob"):
            row = {"annotator": annotator, "item": uuid, "response": str(response)}
            for question, options in QUESTIONS.items():
                if rng.random() < 0.1:
                    row[question] = ""  # no answer
                    continue
                value = truth[question] if rng.random() < 0.75 else rng.choice(options)
                row[question] = value
                given[question][annotator][index] = value
            rows.append(row)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["annotator", "item", "response", *QUESTIONS])
        writer.writeheader()
        writer.writerows(rows)
    return given


def test_add_list_show(bar_db: str, tmp_path: Path) -> None:
    code, out, _ = w2c(bar_db, "schemas", "add", str(write_schema(tmp_path)))
    assert code == 0 and out.startswith("bar: unchanged")
    code, out, _ = w2c(bar_db, "schemas", "list", "--json")
    listed = {s["name"]: s for s in json.loads(out)}
    assert set(listed) == {"when2call-behaviour", "when2call-item-qa", "critictool", "bar"}
    assert listed["bar"]["questions"] == ["ok", "tone", "quality"] and not listed["bar"]["builtin"]
    code, out, _ = w2c(bar_db, "schemas", "show", "bar", "--json")
    shown = json.loads(out)
    assert code == 0 and shown["unit"] == "response"
    assert [q["level"] for q in shown["questions"]] == ["nominal", "nominal", "ordinal"]
    assert [o["key"] for o in shown["questions"][1]["options"]] == ["1", "2", "3"]
    code, out, _ = w2c(bar_db, "schemas", "show", "critictool")
    assert code == 0 and "critique_right (nominal, nominal) [on prediction = yes; after" in out
    assert "note (text, no agreement) [after blind; optional]" in out
    code, _, err = w2c(bar_db, "schemas", "show", "nope")
    assert code == 1 and "no label schema named 'nope'" in err


def test_bad_schemas_exit_2_with_file_line_field(bar_db: str, tmp_path: Path) -> None:
    clash = write_schema(tmp_path, BAR_TOML.replace('"bar"', '"critictool"'), "clash.toml")
    code, out, err = w2c(bar_db, "schemas", "add", str(clash))
    assert code == 2 and out == "" and "built-in schema's name" in err
    bad = write_schema(tmp_path, BAR_TOML.replace('level = "ordinal"', 'level = "ratio"'), "b.toml")
    code, _, err = w2c(bar_db, "schemas", "add", str(bad))
    assert code == 2 and f"{bad}:21: field 'questions[2].level'" in err


def test_import_and_agreement_per_question(bar_db: str, tmp_path: Path) -> None:
    path = tmp_path / "labels.csv"
    given = _labels_csv(bar_db, path)
    code, out, err = w2c(bar_db, "labels", "import", "--schema", "bar", str(path), "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["annotators"] == ["ann", "bob"] and report["answers_replaced"] == 0
    assert report["answers_new"] == sum(len(v) for q in given.values() for v in q.values())
    code, out, err = w2c(bar_db, "agreement", "--schema", "bar", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["raters"] == ["ann", "bob"]
    for question, options in QUESTIONS.items():
        data = np.full((2, 24), np.nan)
        for r, annotator in enumerate(("ann", "bob")):
            for unit, value in given[question][annotator].items():
                data[r, unit] = options.index(value)
        expected = krippendorff.alpha(
            reliability_data=data,
            level_of_measurement=LEVELS[question],
            value_domain=list(range(len(options))),
        )
        got = doc["questions"][question]
        assert got["level"] == LEVELS[question]
        assert got["alpha"] == pytest.approx(expected, abs=1e-12)
        both = ~np.isnan(data).any(axis=0)
        assert (got["n_units"], got["n_values"]) == (int(both.sum()), 2 * int(both.sum()))
    code, out, _ = w2c(bar_db, "agreement", "--schema", "bar")
    assert code == 0 and f"quality (ordinal): α = {doc['questions']['quality']['alpha']:.3f}" in out


def test_export_then_import_changes_nothing(bar_db: str, tmp_path: Path) -> None:
    path = tmp_path / "labels.csv"
    _labels_csv(bar_db, path, n=6)
    assert w2c(bar_db, "labels", "import", "--schema", "bar", str(path))[0] == 0
    code, exported, _ = w2c(bar_db, "labels", "export", "--schema", "bar")
    assert code == 0
    assert exported.splitlines()[0] == "annotator,dataset,item,response,ok,tone,quality"
    assert len(exported.splitlines()) == 1 + 2 * 6
    before = query(bar_db, "SELECT count(*) FROM label")
    back = tmp_path / "exported.csv"
    back.write_text(exported, encoding="utf-8")
    code, out, err = w2c(bar_db, "labels", "import", "--schema", "bar", str(back))
    assert code == 0, err
    assert "answers: 0 new, " in out and " unchanged, 0 replaced;" in out
    assert query(bar_db, "SELECT count(*) FROM label") == before
    assert w2c(bar_db, "labels", "export", "--schema", "bar")[1] == exported


def test_bad_values_are_refused_whole(bar_db: str, tmp_path: Path) -> None:
    uuid, response = _units(bar_db)[0]
    path = tmp_path / "bad.csv"
    path.write_text(
        "annotator,item,response,ok,tone,quality\n"
        f"ann,{uuid},{response},yes,friendly,3\n"
        f"bob,{uuid},{response},yes,polite,4\n",
        encoding="utf-8",
    )
    code, out, err = w2c(bar_db, "labels", "import", "--schema", "bar", str(path))
    assert code == 2 and out == ""
    assert f"{path}:3: field 'tone': 'polite' is not one of friendly, neutral, rude" in err
    assert query(bar_db, f"SELECT count(*) FROM label WHERE NOT ({WHEN2CALL})") == [(0,)]
    path.write_text(
        f"annotator,item,response,colour\nann,{uuid},{response},red\n", encoding="utf-8"
    )
    code, _, err = w2c(bar_db, "labels", "import", "--schema", "bar", str(path))
    assert code == 2 and f"{path}:1: field 'colour': unknown column" in err


def test_no_variation_says_why(bar_db: str, tmp_path: Path) -> None:
    units = _units(bar_db)[:3]
    path = tmp_path / "same.csv"
    lines = [f"{a},{u},{r},yes" for u, r in units for a in ("ann", "bob")]
    path.write_text("annotator,item,response,ok\n" + "\n".join(lines) + "\n", encoding="utf-8")
    assert w2c(bar_db, "labels", "import", "--schema", "bar", str(path))[0] == 0
    code, out, _ = w2c(bar_db, "agreement", "--schema", "bar", "--json")
    ok = json.loads(out)["questions"]["ok"]
    assert ok["alpha"] is None and ok["reason"].startswith("not defined, because")
    assert (ok["n_units"], ok["n_values"]) == (3, 6)
    assert json.loads(out)["questions"]["tone"]["reason"].startswith("not defined, because no")
    code, out, _ = w2c(bar_db, "agreement", "--schema", "bar")
    assert code == 0
    assert "ok (nominal): α not defined, because every pairable answer is the same" in out


def test_other_annotators_answers_are_a_leads_to_import(bar_db: str, tmp_path: Path) -> None:
    services = open_services(bar_db)
    try:
        services.roles.add(None, "alice", Role.LEAD)
    finally:
        services.close()
    uuid, response = _units(bar_db)[0]
    mine, theirs = tmp_path / "bob.csv", tmp_path / "carol.csv"
    mine.write_text(f"annotator,item,response,ok\nbob,{uuid},{response},yes\n", encoding="utf-8")
    theirs.write_text(f"annotator,item,response,ok\ncarol,{uuid},{response},no\n", encoding="utf-8")
    bob = ("--annotator", "bob", "labels", "import", "--schema", "bar")
    assert w2c(bar_db, *bob, str(mine))[0] == 0
    code, _, err = w2c(bar_db, *bob, str(theirs))
    assert code == 2 and "only a lead may record other annotators' labels" in err, err
    assert query(bar_db, f"SELECT count(*) FROM label WHERE NOT ({WHEN2CALL})") == [(1,)]
    alice = ("--annotator", "alice", "labels", "import", "--schema", "bar")
    assert w2c(bar_db, *alice, str(theirs))[0] == 0


def test_unknown_names_exit_1(bar_db: str) -> None:
    code, _, err = w2c(bar_db, "agreement", "--schema", "bar", "--dataset", "nope")
    assert code == 1 and "no dataset named 'nope'" in err
    code, _, err = w2c(bar_db, "labels", "export", "--schema", "nope")
    assert code == 1 and "no label schema named 'nope'" in err
    code, _, err = w2c(bar_db, "--annotator", "ann", "tui", "--schema", "nope")
    assert code == 1 and "no label schema named 'nope'" in err


def test_built_in_schemas_are_read_here_and_written_on_their_own_paths(
    bar_db: str, tmp_path: Path
) -> None:
    before = query(bar_db, "SELECT count(*) FROM label")
    uuid, _ = _units(bar_db)[0]
    path = tmp_path / "qa.csv"
    path.write_text(f"annotator,item,behaviour\nann,{uuid},direct\n", encoding="utf-8")
    code, _, err = w2c(bar_db, "--annotator", "ann", "tui", "--schema", "critictool")
    assert code == 2 and "'critictool' is labelled on the CriticTool screen" in err
    assert query(bar_db, "SELECT count(*) FROM label") == before
    code, _, err = w2c(bar_db, "labels", "import", "--schema", "when2call-item-qa", str(path))
    assert code == 0, err  # the review screen's item-QA label, through the core
    code, out, _ = w2c(bar_db, "labels", "export", "--format", "csv")
    assert f"ann,demo,{uuid},,direct,ok" in out
    for command in ("agreement", "labels export"):  # When2Call's labels are the store's
        code, out, err = w2c(bar_db, *command.split(), "--schema", "when2call-behaviour")
        assert code == 0 and "behaviour" in out, err
