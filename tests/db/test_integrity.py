"""One current verdict per rater and unit, whatever the concurrency; race-safe get-or-create."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from dbfixtures import WHEN2CALL
from processes import run_together
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from w2c_tui.db.engine import make_engine
from w2c_tui.db.migrate import upgrade
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services, open_services

WORKER = Path(__file__).with_name("concurrent_labels.py")


def _units(svc: Services, n: int) -> list[tuple[int, int]]:
    out = []
    for row in svc.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 30):
        for response in svc.review.detail(row.id, None).responses:
            assert response.id is not None
            out.append((row.id, response.id))
    return out[:n]


def _current_counts(svc: Services) -> Counter[tuple[int, int, int | None, int | None]]:
    with svc.store.engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT rater_id, item_id, target_model_id, response_id FROM label "
                f"WHERE is_current AND {WHEN2CALL}"
            )
        ).all()
    return Counter((r[0], r[1], r[2], r[3]) for r in rows)


def test_eight_processes_labelling_the_same_units(demo: Services, db_url: str) -> None:
    units = _units(demo, 6)
    results = run_together(
        [[str(WORKER), db_url, "alice", str(seed), "25", json.dumps(units)] for seed in range(8)]
    )
    assert [r["errors"] for r in results] == [[]] * 8
    acked = [a for r in results for a in r["acks"]]
    assert acked, "no label changed anything"
    with demo.store.engine.connect() as connection:
        stored = {
            row[0]: row[1]
            for row in connection.execute(
                text(f"SELECT id, value FROM label WHERE {WHEN2CALL}")
            ).all()
        }
    for verdict_id, _item, _response, label in acked:
        assert stored.get(verdict_id) == label  # every acknowledged label is in the database
    counts = _current_counts(demo)
    assert max(counts.values()) == 1  # 0 duplicate current verdicts
    alice = demo.store.labels.rater_id("alice", create=False)
    mine = [key for key in counts if key[0] == alice]
    assert len(mine) == len({(i, r) for _, i, r, _ in acked})  # one per unit she labelled


def test_the_database_refuses_a_second_current_verdict(demo: Services) -> None:
    (item, response), *_ = _units(demo, 1)
    demo.review.label_response(
        "alice",
        item,
        response,
        __import__("w2c_tui.domain.labels", fromlist=["Label"]).Label.DIRECT,
    )
    with pytest.raises(IntegrityError), demo.store.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO label (rater_id, item_id, target_model_id, response_id, schema_name, "
                "question, value, status, scores_json, is_current, created_at) SELECT rater_id, "
                "item_id, target_model_id, response_id, schema_name, question, 'tool_call', 'ok', "
                "'{}', is_current, created_at FROM label WHERE is_current AND response_id = :r "
                "AND source = 'tui'"
            ),
            {"r": response},
        )


def test_migration_repairs_duplicate_current_verdicts(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url, migrate=False)
    upgrade(engine, "0004")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO dataset (id, name, kind, imported_at) "
                "VALUES (1, 'd', 'k', '2026-01-01')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO item (id, dataset_id, uuid, position, kind, question, tools_json, "
                "answers_json, n_tools, extra_json, content_hash) VALUES (1, 1, 'u', 0, 'test', "
                "'q', '[]', '[]', 0, '{}', 'h')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO rater (id, key, kind, name, config_json, created_at) VALUES "
                "(1, 'human:a:x', 'human', 'a', '{}', '2026-01-01')"
            )
        )
        for index, label in enumerate(("direct", "tool_call", "cannot_answer"), 1):
            connection.execute(
                text(
                    "INSERT INTO verdict (id, rater_id, item_id, label, status, scores_json, "
                    f"is_current, created_at) VALUES ({index}, 1, 1, '{label}', 'ok', '{{}}', 1, "
                    f"'2026-01-0{index}')"
                )
            )
    engine.dispose()
    services = open_services(url)
    try:
        with services.store.engine.connect() as connection:
            rows = connection.execute(
                text(f"SELECT id, is_current FROM label WHERE {WHEN2CALL} ORDER BY id")
            ).all()
        assert [tuple(r) for r in rows] == [(1, 0), (2, 0), (3, 1)]  # history kept, newest current
        [record] = services.labels.export()
        assert record.label is not None and record.label.value == "cannot_answer"
    finally:
        services.close()


def test_get_or_create_races(db_url: str) -> None:
    """Processes creating the same raters at once: none fails, one row per rater."""
    open_services(db_url).close()
    code = (
        "import sys\n"
        "from w2c_tui.services import open_services\n"
        "svc = open_services(sys.argv[1], migrate=False)\n"
        "print('ready', flush=True); sys.stdin.readline()\n"
        "for name in ('x', 'y', 'z'): svc.store.labels.rater_id(name)\n"
        "svc.close()\n"
    )
    run_together([["-c", code, db_url] for _ in range(12)])
    services = open_services(db_url, migrate=False)
    try:
        assert services.assignments.annotators() == ["x", "y", "z"]
    finally:
        services.close()
