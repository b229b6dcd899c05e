"""The outcome commands from the shell: qa summary, items export, export table, labels export."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.cli.outcome_options import FlagCode
from w2c_tui.domain.labels import Label
from w2c_tui.domain.qa import ANY_FLAG, QA_FLAG_CODES
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import open_services

runner = CliRunner()
DEMO = Path(__file__).resolve().parents[2] / "w2c_tui" / "demo" / "when2call_demo.jsonl"


def w2c(db_url: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", db_url, *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def flagged(db_url: str) -> list[str]:
    """The demo with ann's item-QA work: three labels, two flags, a formula-like note."""
    svc = open_services(db_url)
    try:
        svc.imports.import_demo()
        rows = svc.review.window("demo", ItemFilter(), ReviewMode.ITEM_QA, None, 0, 3)
        for row in rows:
            svc.review.label_item("ann", row.id, row.gold)
        svc.review.set_flag("ann", rows[0].id, "qca_vague", True)
        svc.review.set_flag("ann", rows[1].id, "rfi_reason", True)
        svc.review.set_note("ann", rows[1].id, "", "=HYPERLINK(1)")
        response = svc.review.detail(rows[2].id, None).responses[0]
        svc.review.label_response("ann", rows[2].id, response.id, Label.DIRECT)
        svc.review.label_response("ben", rows[2].id, response.id, Label.TOOL_CALL)
        [case] = [c for c in svc.adjudication.queue("demo") if c.response_id == response.id]
        svc.adjudication.decide(case, "carol", Label.TOOL_CALL)
        return [r.uuid for r in rows]
    finally:
        svc.close()


def test_flag_choices_are_the_checklist() -> None:
    assert {f.value for f in FlagCode} == QA_FLAG_CODES | {ANY_FLAG}


def test_qa_summary_text_and_json(db_url: str, flagged: list[str]) -> None:
    code, out, err = w2c(db_url, "qa", "summary")
    assert code == 0, err
    assert "3 of 30 items reviewed" in out
    assert "Generic / vague terms" in out and "33.3%" in out
    code, out, _ = w2c(db_url, "qa", "summary", "--json", "--annotator", "ann")
    doc = json.loads(out)
    assert doc["reviewed"] == 3 and doc["annotators"][0]["annotator"] == "ann"
    code, _, err = w2c(db_url, "qa", "summary", "--annotator", "zoe")
    assert code == 1 and "reviewed by: ann" in err


def test_items_list_filters_by_flag_and_refuses_unknown_codes(
    db_url: str, flagged: list[str]
) -> None:
    code, out, _ = w2c(db_url, "items", "list", "--flag", "any", "--json")
    assert code == 0 and [i["uuid"] for i in json.loads(out)["items"]] == flagged[:2]
    code, out, _ = w2c(db_url, "items", "list", "--flag", "rfi_reason", "--json")
    assert [i["uuid"] for i in json.loads(out)["items"]] == flagged[1:2]
    code, _, err = w2c(db_url, "items", "list", "--flag", "vague")
    assert code == 2 and "qca_vague" in err and "any" in err


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        (["--drop-flagged", "broken"], "qca_vague"),
        (["--gold", "majority"], "qa-consensus"),
        (["--format", "xlsx"], "parquet"),
    ],
)
def test_items_export_bad_choices_exit_2_with_the_allowed_values(
    db_url: str, args: list[str], allowed: str
) -> None:
    code, _, err = w2c(db_url, "items", "export", *args)
    assert code == 2 and allowed in err


def test_items_export_csv_drops_and_writes_the_changelog(
    db_url: str, flagged: list[str], tmp_path: Path
) -> None:
    out = tmp_path / "clean.csv"
    code, stdout, err = w2c(
        db_url, "items", "export", "--format", "csv", "--drop-flagged", "qca_vague",
        "--drop-flagged", "rfi_reason", "-o", str(out), "--json",
    )  # fmt: skip
    assert code == 0, err
    doc = json.loads(stdout)
    assert (doc["written"], doc["dropped"]) == (28, 2)
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == 28 and flagged[0] not in {r["uuid"] for r in rows}
    source = [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines()]
    by_uuid = {s["uuid"]: s for s in source}
    assert all(json.loads(r["tools"]) == by_uuid[r["uuid"]]["tools"] for r in rows)
    log = (tmp_path / "clean.changelog.md").read_text(encoding="utf-8")
    assert flagged[0] in log and flagged[1] in log and "by ann" in log


def test_export_table_joins_raters_and_defuses_formulas(
    db_url: str, flagged: list[str], tmp_path: Path
) -> None:
    out = tmp_path / "table.csv"
    code, _, err = w2c(db_url, "export", "table", "--format", "csv", "-o", str(out))
    assert code == 0, err
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    header = list(rows[0])
    assert {"human:ann", "gold", "response", "flags", "notes", "adjudicated"} <= set(header)
    assert any(h.startswith("judge:") for h in header)
    assert any(h.startswith("logprob:") and h.endswith(":norm") for h in header)
    items = [r for r in rows if r["unit_kind"] == "item"]
    units = [r for r in rows if r["unit_kind"] == "behaviour"]
    assert len(items) == 30 and len(units) == 60  # two models answered every demo item
    second = next(r for r in items if r["uuid"] == flagged[1])
    assert json.loads(second["notes"]) == ["ann: =HYPERLINK(1)"]
    assert second["flags"] == "rfi_reason"
    labelled = [r for r in units if r["uuid"] == flagged[2] and r["human:ann"]]
    assert len(labelled) == 1 and labelled[0]["human:ann"] == "direct"
    assert labelled[0]["human:ben"] == "tool_call"
    assert (labelled[0]["adjudicated"], labelled[0]["adjudicator"]) == ("tool_call", "carol")
    assert labelled[0]["response"]
    assert "adjudicator:carol" not in header  # a reference, not a rater column
    code, _, err = w2c(db_url, "export", "table", "--format", "parquet", "-o", str(out) + ".pq")
    assert code == 0, err
    import pyarrow.parquet as pq

    table = pq.read_table(str(out) + ".pq")
    assert table.num_rows == 90 and "human:ann" in table.column_names


def test_labels_export_has_gold_question_response_and_flag_names(
    db_url: str, flagged: list[str]
) -> None:
    code, out, _ = w2c(db_url, "labels", "export", "--format", "csv", "--dataset", "demo")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    first = next(r for r in rows if r["item_uuid"] == flagged[0])
    assert first["gold"] and first["question"] and first["response"] == ""
    assert first["flag_names"] == "Generic / vague terms (no specific values)"
    second = next(r for r in rows if r["item_uuid"] == flagged[1])
    assert second["note"] == "'=HYPERLINK(1)"  # a formula is shown as text
    response = next(r for r in rows if r["target_model"] and r["annotator"] == "ann")
    assert response["label"] == "direct" and response["response"]
    code, out, _ = w2c(db_url, "labels", "export", "--format", "jsonl")
    records = [json.loads(line) for line in out.splitlines()]
    assert all({"gold", "question", "response", "flag_names"} <= set(r) for r in records)
