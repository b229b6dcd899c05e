"""`w2c labels export --schema --format jsonl|csv` and `labels import --schema` with
`--no-replace` and `--dry-run`: each answer reported as new, unchanged, replaced or kept."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from dbfixtures import WHEN2CALL, query
from schema_data import write_schema
from test_schemas_cli import w2c

from w2c_tui.services import open_services


@pytest.fixture
def bar_units(db_url: str, tmp_path: Path) -> list[tuple[str, int]]:
    """The demo dataset and the bar's schema; the first units as (item uuid, response id)."""
    services = open_services(db_url)
    try:
        services.imports.import_demo()
        services.schemas.add(write_schema(tmp_path))
        units = services.schemas.unit_refs("bar", "demo")
        return [(u.item_uuid, u.unit.response_id or 0) for u in units]
    finally:
        services.close()


def _csv(path: Path, rows: list[str]) -> Path:
    path.write_text("annotator,item,response,ok,tone\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_export_as_jsonl_or_csv(
    db_url: str, bar_units: list[tuple[str, int]], tmp_path: Path
) -> None:
    (u0, r0), (u1, r1) = bar_units[:2]
    path = _csv(tmp_path / "a.csv", [f"ann,{u0},{r0},yes,rude", f"bob,{u1},{r1},no,"])
    assert w2c(db_url, "labels", "import", "--schema", "bar", str(path))[0] == 0
    code, out, err = w2c(db_url, "labels", "export", "--schema", "bar", "--format", "jsonl")
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert sorted(records, key=lambda r: r["annotator"]) == [
        {"annotator": "ann", "dataset": "demo", "item": u0, "response": r0, "ok": "yes",
         "tone": "rude", "quality": None},
        {"annotator": "bob", "dataset": "demo", "item": u1, "response": r1, "ok": "no",
         "tone": None, "quality": None},
    ]  # fmt: skip
    code, out, err = w2c(db_url, "labels", "export", "--schema", "bar", "--format", "csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {(r["annotator"], r["item"], r["response"], r["ok"], r["tone"]) for r in rows} == {
        ("ann", u0, str(r0), "yes", "rude"),
        ("bob", u1, str(r1), "no", ""),
    }
    target = tmp_path / "out.jsonl"
    code, _, err = w2c(
        db_url, "labels", "export", "--schema", "bar", "--format", "jsonl", "-o", str(target)
    )
    assert code == 0 and "wrote 2 row(s)" in err, err
    assert len(target.read_text(encoding="utf-8").splitlines()) == 2
    code, out, err = w2c(db_url, "labels", "import", "--schema", "bar", str(target), "--json")
    assert code == 0, err  # the JSON lines export reads back and changes nothing
    report = json.loads(out)
    assert (report["answers_new"], report["answers_replaced"]) == (0, 0)
    assert report["answers_unchanged"] == 3  # ann: ok, tone; bob: ok


def test_a_jsonl_label_file_is_checked_like_a_csv(
    db_url: str, bar_units: list[tuple[str, int]], tmp_path: Path
) -> None:
    (u0, r0), (u1, r1) = bar_units[:2]
    path = tmp_path / "labels.jsonl"
    lines = [
        {"annotator": "ann", "item": u0, "response": r0, "ok": "yes", "quality": 3},
        {"annotator": "ann", "item": u1, "response": r1, "ok": "maybe"},
        {"annotator": "bob", "item": u1, "response": r1, "colour": "red"},
        {"annotator": "bob", "item": u0, "response": r0, "ok": True},
    ]
    path.write_text(
        "\n".join(json.dumps(line) for line in lines) + "\n[1]\nnot json\n", encoding="utf-8"
    )
    code, _, err = w2c(db_url, "labels", "import", "--schema", "bar", str(path))
    assert code == 2
    for where in ("labels.jsonl:2: field 'ok'", "5 rows refused", "line 3 field 'colour'",
                  "line 4 field 'ok'", "line 5: each line must be a JSON object",
                  "line 6: not JSON"):  # fmt: skip
        assert where in err, (where, err)
    assert "labels.jsonl:1:" not in err  # the good line (its ordinal answer a number)
    assert query(db_url, f"SELECT count(*) FROM label WHERE NOT ({WHEN2CALL})") == [
        (0,)
    ]  # nothing half-written
    path.write_text(json.dumps(lines[0]) + "\n", encoding="utf-8")
    code, out, err = w2c(db_url, "labels", "import", "--schema", "bar", str(path), "--json")
    assert code == 0, err
    assert json.loads(out)["answers_new"] == 2


def test_no_replace_keeps_answers_and_dry_run_writes_nothing(
    db_url: str, bar_units: list[tuple[str, int]], tmp_path: Path
) -> None:
    (u0, r0), (u1, r1) = bar_units[:2]
    first = _csv(tmp_path / "first.csv", [f"ann,{u0},{r0},yes,rude"])
    assert w2c(db_url, "labels", "import", "--schema", "bar", str(first))[0] == 0
    second = _csv(tmp_path / "second.csv", [f"ann,{u0},{r0},no,rude", f"ann,{u1},{r1},yes,"])
    base = ("labels", "import", "--schema", "bar", str(second))

    code, out, err = w2c(db_url, *base, "--dry-run", "--json")
    assert code == 0, err
    dry = json.loads(out)
    assert dry["dry_run"] and (
        dry["answers_new"],
        dry["answers_unchanged"],
        dry["answers_replaced"],
        dry["answers_kept"],
    ) == (1, 1, 1, 0)
    assert [(c["line"], c["question"], c["old"], c["new"]) for c in dry["replaced"]] == [
        (2, "ok", "yes", "no")
    ]
    assert query(db_url, f"SELECT count(*) FROM label WHERE NOT ({WHEN2CALL})") == [
        (2,)
    ]  # nothing written

    code, out, err = w2c(db_url, *base, "--no-replace")
    assert code == 0, err
    assert "recorded answers: 1 new, 1 unchanged, 0 replaced, 1 kept" in out, out
    kept = f"kept (--no-replace): line 2: ann on {u0} (response {r0}): ok kept yes, file has no"
    assert kept in out, out
    current = query(
        db_url,
        f"SELECT question, value FROM label WHERE is_current AND NOT ({WHEN2CALL}) ORDER BY id",
    )
    assert current == [("ok", "yes"), ("tone", "rude"), ("ok", "yes")]

    code, out, err = w2c(db_url, *base, "--dry-run")
    assert code == 0, err
    assert "would record answers: 0 new, 2 unchanged, 1 replaced" in out, out
    assert "would replace: line 2: ann on" in out and "ok yes → no" in out
    assert "dry run: nothing was written" in out

    code, out, err = w2c(db_url, *base, "--json")
    assert code == 0, err
    done = json.loads(out)
    assert (done["answers_replaced"], done["answers_kept"], done["dry_run"]) == (1, 0, False)
    assert query(db_url, "SELECT value FROM label WHERE question = 'ok' ORDER BY id") == [
        ("yes",),
        ("yes",),
        ("no",),
    ]
