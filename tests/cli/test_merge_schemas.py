"""`w2c merge` carries label schemas and their answers: history kept, twice the same, a later
different answer reported as a conflict, a schema that differs other than by additions refused
naming both files, the larger of two that differ by additions kept."""

from __future__ import annotations

import json
from pathlib import Path

from dbfixtures import WHEN2CALL, query
from schema_data import BAR_TOML, write_schema
from test_merge import w2c

from w2c_tui.domain.schema_labels import Unit
from w2c_tui.services import Services, open_services

MORE = BAR_TOML.replace('"rude"]', '"rude", "curt"]')
Answers = list[tuple[int, dict[str, str | None]]]
"""Unit index → answers, in order."""
OTHER = BAR_TOML.replace('"rude"]', '"hostile"]')


def schema_laptop(path: Path, folder: Path, who: str, answers: Answers, toml: str) -> Path:
    """A per-annotator database: the demo, the `bar` schema as `toml` says, and `who`'s answers
    (unit index → answers, in order: a later one on the same unit edits it)."""
    folder.mkdir(exist_ok=True)
    svc = open_services(f"sqlite:///{path}")
    try:
        svc.imports.import_demo()
        svc.schemas.add(write_schema(folder, toml))
        units = [u.unit for u in svc.schemas.unit_refs("bar", "demo")]
        for index, values in answers:
            svc.schemas.label(who, "bar", units[index], values)
    finally:
        svc.close()
    return path


def _units(services: Services) -> list[Unit]:
    return [u.unit for u in services.schemas.unit_refs("bar", "demo")]


def test_schema_answers_merge_with_history_once_and_conflicts_reported(
    services: Services, tmp_path: Path
) -> None:
    ann = schema_laptop(
        tmp_path / "ann.db",
        tmp_path / "a",
        "ann",
        [(0, {"ok": "yes", "quality": "2"}), (0, {"ok": "no"})],
        BAR_TOML,
    )
    ben_answers: Answers = [(0, {"ok": "yes"}), (1, {"tone": "rude"})]
    ben = schema_laptop(tmp_path / "ben.db", tmp_path / "b", "ben", ben_answers, MORE)
    services.imports.import_demo()

    code, out, err = w2c(services.url, "merge", str(ann), str(ben), "--dry-run", "--json")
    assert code == 0, err
    dry = json.loads(out)["sources"]
    assert [(s["schema_labels"], s["schemas"]) for s in dry] == [(3, 1), (2, 1)]
    assert query(services.url, f"SELECT count(*) FROM label WHERE NOT ({WHEN2CALL})") == [(0,)]
    assert query(services.url, "SELECT count(*) FROM label_schema") == [(0,)]

    code, out, err = w2c(services.url, "merge", str(ann), str(ben))
    assert code == 0, err
    assert "3 schema answer(s) (0 already there), 1 label schema(s)" in out, out
    # ben's schema adds an option to ann's: the larger one is kept
    assert services.schemas.get("bar").question("tone").option("curt") is not None
    units = _units(services)
    assert services.schemas.current("ann", "bar", units[0]) == {"ok": "no", "quality": "2"}
    assert services.schemas.current("ben", "bar", units[1]) == {"tone": "rude"}
    assert services.store.schema_reads.history("ann", "bar", units[0], "ok") == ["yes", "no"]
    old = query(services.url, "SELECT value FROM label WHERE question = 'ok' AND NOT is_current")
    assert sorted(old) == [("yes",)]  # ann's first answer, kept as history

    code, out, err = w2c(services.url, "merge", str(ann), str(ben), "--json")  # again
    assert code == 0, err
    again = json.loads(out)["sources"]
    assert [(s["schema_labels"], s["schema_labels_known"], s["schemas"]) for s in again] == [
        (0, 3, 0),
        (0, 2, 0),
    ]
    assert query(services.url, f"SELECT count(*) FROM label WHERE NOT ({WHEN2CALL})") == [(5,)]

    # ann answers `ok` on the first unit again elsewhere, differently, later: a conflict
    later = schema_laptop(tmp_path / "ann2.db", tmp_path / "c", "ann", [(0, {"ok": "yes"})], MORE)
    code, out, err = w2c(services.url, "merge", str(later))
    assert code == 0, err
    assert "conflict: ann on" in out and "kept bar.ok=yes" in out and "over bar.ok=no" in out, out
    assert services.schemas.current("ann", "bar", units[0]) == {"ok": "yes", "quality": "2"}
    assert services.store.schema_reads.history("ann", "bar", units[0], "ok") == [
        "yes",
        "no",
        "yes",
    ]
    current = query(
        services.url, f"SELECT count(*) FROM label WHERE is_current AND NOT ({WHEN2CALL})"
    )
    assert current == [(4,)]  # ann: ok, quality; ben: ok, tone


def test_a_schema_that_differs_otherwise_is_refused_naming_both_files(
    services: Services, tmp_path: Path
) -> None:
    ann = schema_laptop(tmp_path / "ann.db", tmp_path / "a", "ann", [(0, {"ok": "yes"})], BAR_TOML)
    ben = schema_laptop(tmp_path / "ben.db", tmp_path / "b", "ben", [(0, {"ok": "no"})], OTHER)
    services.imports.import_demo()
    code, _, err = w2c(services.url, "merge", str(ann), str(ben))
    assert code == 2, err
    assert "label schema 'bar'" in err and str(ann) in err and str(ben) in err, err
    assert "nothing was merged" in err
    assert query(services.url, f"SELECT count(*) FROM label WHERE NOT ({WHEN2CALL})") == [(0,)]
    assert query(services.url, "SELECT count(*) FROM label_schema") == [(0,)]

    services.schemas.add(write_schema(tmp_path, MORE))  # the target's is larger: kept
    code, out, err = w2c(services.url, "merge", str(ann), "--json")
    assert code == 0, err
    assert json.loads(out)["sources"][0]["schemas"] == 0
    assert services.schemas.get("bar").question("tone").option("curt") is not None
    code, _, err = w2c(services.url, "merge", str(ben))
    assert code == 2 and "the target" in err and str(ben) in err, err
