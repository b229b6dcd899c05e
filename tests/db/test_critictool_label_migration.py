"""Migration 0021 moves CriticTool labels into the one label store without losing anything: a
database as release 0020 wrote it (people's labels with edits, a withdrawal, a note and what
they had seen; a judge's readings with its replies, one reading that answered nothing) reads
back the same after the upgrade — every current label, every unit's history, every reply — and
the downgrade writes the same `critic_label` rows back. The verdicts are not touched."""

from __future__ import annotations

import json
from pathlib import Path

from alembic import command
from dbfixtures import query
from sqlalchemy import text
from sqlalchemy.engine import Engine

from w2c_tui.db.engine import make_engine
from w2c_tui.db.migrate import alembic_config, current_revision, upgrade
from w2c_tui.domain.critictool_labels import CriticToolLabel
from w2c_tui.domain.labels import Label
from w2c_tui.services import open_services

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool" / "predictions"

A = '{"category": "tool_select_error", "critique_right": "yes", "error": "yes"}'
ROWS = [  # (rater, unit index, answers_json, source, seen, raw, current), oldest first
    ("ann", 0, '{"category": "tool_select_error", "error": "yes"}', "tui", "blind", None, 0),
    ("ann", 0, '{"category": "none", "error": "no", "note": "looks fine"}', "tui", "open", None, 0),
    ("ann", 0, "{}", "tui", None, None, 0),
    ("ann", 0, '{"category": "parameters_value_error", "error": "yes"}', "undo", "gold", None, 1),
    ("ann", 1, '{"category": "none", "error": "no"}', "tui", "revealed", None, 1),
    ("judge", 0, A, "run 7", None, "reply A", 0),
    ("judge", 0, A, "run 8", None, "reply B", 1),
    ("judge", 1, "{}", "run 8", None, "garbled", 1),
]


def _release_0020(url: str) -> tuple[list[tuple[int, int | None]], dict[str, int]]:
    """A database at revision 0020 with the CriticTool fixture, a verdict and ROWS written as
    that release wrote them; the units and rater ids."""
    svc = open_services(url)
    svc.critictool.import_file(
        CT / "interal_base_data_wo_cot.json", dataset="ct", target_model="tiny"
    )
    svc.imports.import_demo()
    units = [(u.item_id, u.response_id) for u in svc.critictool_review.open("ct").units[:2]]
    raters = {"ann": svc.critictool_review.rater("ann")}
    [(item_id,)] = query(
        url,
        "SELECT min(item.id) FROM item JOIN dataset ON dataset.id = dataset_id "
        "WHERE dataset.name = 'demo'",
    )
    svc.review.label_item("ann", int(item_id), Label.DIRECT)  # type: ignore[call-overload]
    svc.close()
    engine = make_engine(url, migrate=False)
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0020")
    with engine.begin() as db:
        db.execute(
            text(
                "INSERT INTO rater (key, kind, name, config_json, created_at) VALUES "
                "('judge:critic:x', 'judge', 'critic', '{}', '2026-11-01 00:00:00')"
            )
        )
        raters["judge"] = db.execute(text("SELECT id FROM rater WHERE name = 'critic'")).scalar()
        last: dict[tuple[str, int], int] = {}
        for second, (who, index, answers, source, seen, raw, current) in enumerate(ROWS):
            item, response = units[index]
            db.execute(
                text(
                    "INSERT INTO critic_label (rater_id, item_id, response_id, answers_json, "
                    "source, seen, raw, supersedes_id, is_current, created_at) VALUES (:r, :i, "
                    ":p, :a, :s, :seen, :raw, :sup, :cur, :at)"
                ),
                {
                    "r": raters[who],
                    "i": item,
                    "p": response,
                    "a": answers,
                    "s": source,
                    "seen": seen,
                    "raw": raw,
                    "sup": last.get((who, index)),
                    "cur": bool(current),
                    "at": f"2026-11-20 10:00:{second:02d}",
                },
            )
            last[(who, index)] = db.execute(text("SELECT max(id) FROM critic_label")).scalar()
    engine.dispose()
    return units, raters


def _critic_rows(engine: Engine) -> list[tuple[object, ...]]:
    with engine.connect() as db:
        return [
            (r, i, p, json.loads(a), s, seen, raw, bool(c))
            for r, i, p, a, s, seen, raw, c in db.execute(
                text(
                    "SELECT rater_id, item_id, response_id, answers_json, source, seen, raw, "
                    "is_current FROM critic_label ORDER BY rater_id, item_id, created_at"
                )
            )
        ]


def test_critictool_labels_move_into_the_label_store_losslessly(empty_db_url: str) -> None:
    units, raters = _release_0020(empty_db_url)
    engine = make_engine(empty_db_url, migrate=False)
    before = _critic_rows(engine)
    verdicts = query(empty_db_url, "SELECT * FROM verdict ORDER BY id")
    assert len(before) == len(ROWS) and verdicts

    upgrade(engine, "0021")
    assert current_revision(engine) == "0021"
    assert query(empty_db_url, "SELECT * FROM verdict ORDER BY id") == verdicts
    svc = open_services(empty_db_url)
    store = svc.store.critictool_labels
    expected_current = {
        (raters[who], *units[index]): CriticToolLabel.from_json(answers)
        for who, index, answers, _, _, _, current in ROWS
        if current and answers != "{}"
    }
    assert {
        (r.rater.id, r.item_id, r.response_id): r.label for r in svc.critictool_review.ratings("ct")
    } == expected_current
    for who in raters:
        for index, (item, response) in enumerate(units):
            wrote = [CriticToolLabel.from_json(a) for w, i, a, *_ in ROWS if (w, i) == (who, index)]
            assert store.history(raters[who], item, response) == wrote, (who, index)
    replies = query(
        empty_db_url,
        "SELECT DISTINCT source, raw FROM label WHERE raw IS NOT NULL "
        "AND schema_name = 'critictool' ORDER BY source, raw",
    )
    assert replies == [("run 7", "reply A"), ("run 8", "garbled"), ("run 8", "reply B")]
    seen = query(
        empty_db_url,
        "SELECT DISTINCT seen FROM label WHERE seen IS NOT NULL "
        "AND schema_name = 'critictool' ORDER BY seen",
    )
    assert seen == [("blind",), ("gold",), ("open",), ("revealed",)]
    # the labels are the core's now: agreement and export read them by schema
    code = svc.schemas.export("critictool", "ct")
    assert "looks fine" not in code and "parameters_value_error" in code
    svc.close()

    with engine.begin() as connection:  # and back: the same rows in critic_label
        command.downgrade(alembic_config(connection), "0020")
    assert _critic_rows(engine) == before
    assert query(empty_db_url, "SELECT count(*) FROM label") == [(0,)]
    assert query(empty_db_url, "SELECT * FROM verdict ORDER BY id") == verdicts
    engine.dispose()
