"""Migration 0023 moves the item-QA checklist and notes into the one label store without losing
anything: a database as release 0022 wrote it (a flag switched on, off and on again, one
switched on and withdrawn, a note replaced, another person's flag and empty note) holds one
`when2call-item-qa` answer per event after the upgrade, chained in event order with the last
one current, reads back the same flags and notes through the export, the review screen and the
QA queries, and the downgrade writes the same `qa_flag` and `note` rows back. The release-0022
rows are written through the reflected tables, as that release stored them."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

import pytest
from alembic import command
from dbfixtures import query
from sqlalchemy import Connection, Engine, MetaData, Table, inspect, select, text

from w2c_tui.db.engine import make_engine
from w2c_tui.db.migrate import alembic_config, current_revision, head_revision, upgrade
from w2c_tui.domain.labels import Label, RaterKind
from w2c_tui.domain.records import RaterSpec
from w2c_tui.services import open_services

NOTE = "note"
EVENTS = [  # (rater, item index, flag code or NOTE, switched on / the note's text), in time order
    ("ann", 0, "rfi_output_format", True),
    ("ann", 0, "rfi_output_format", False),
    ("ann", 0, "direct_contains_rfi", True),
    ("ann", 0, NOTE, "first"),
    ("ann", 0, "rfi_output_format", True),
    ("ann", 0, "direct_contains_rfi", False),  # withdrawn: ends off
    ("ann", 0, NOTE, "second"),
    ("bob", 1, "rfi_hallucinates", True),
    ("bob", 1, NOTE, ""),  # an empty note is no note
]
AT = datetime(2026, 11, 1, tzinfo=UTC)
CHECKLIST = "schema_name = 'when2call-item-qa' AND question <> 'behaviour'"
pytestmark = pytest.mark.filterwarnings("ignore:Skipped unsupported reflection")


def _add(db: Connection, table: str, **values: Any) -> int:
    inserted = db.execute(Table(table, MetaData(), autoload_with=db).insert().values(**values))
    return int(inserted.inserted_primary_key[0])


def _rows(engine: Engine, name: str) -> list[dict[str, Any]]:
    with engine.connect() as db:
        table = Table(name, MetaData(), autoload_with=db)
        return [dict(r._mapping) for r in db.execute(select(table).order_by(table.c.id))]


def _content(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in row.items() if k != "id"} for row in rows]


def _release_0022(url: str) -> tuple[dict[str, int], list[int]]:
    """A database at 0022: the demo and ann's item-QA label written by today's services, then
    EVENTS as release 0022 wrote them; the rater ids by name and the item ids in order."""
    svc = open_services(url)
    svc.imports.import_demo()
    [(first,)] = query(url, "SELECT min(id) FROM item")
    svc.review.label_item("ann", int(first), Label.DIRECT)  # type: ignore[call-overload]
    svc.close()
    engine = make_engine(url, migrate=False)
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0022")
    with engine.begin() as db:
        ids = {"ann": db.execute(text("SELECT id FROM rater WHERE name = 'ann'")).scalar_one()}
        ids["bob"] = _add(db, "rater", key=RaterSpec(RaterKind.HUMAN, "bob").key(), kind="human",
                          name="bob", created_at=AT, config_json="{}")  # fmt: skip
        items = list(db.execute(text("SELECT id FROM item ORDER BY position")).scalars())
        for second, (who, index, code, value) in enumerate(EVENTS):
            at = datetime(2026, 11, 20, 10, 0, second, tzinfo=UTC)
            row = dict(rater_id=ids[who], item_id=items[index], created_at=at)
            if code == NOTE:
                _add(db, "note", **row, text=value)
            else:
                _add(db, "qa_flag", **row, code=code, active=value)
    engine.dispose()
    return ids, items


def _state_0022(flags: list[dict[str, Any]], notes: list[dict[str, Any]]) -> tuple[Any, Any]:
    """What release 0022's readers report: per (rater, item) the flags whose latest event is
    on, and the latest note where it is not empty."""
    latest: dict[tuple[int, int, str], bool] = {}
    for f in flags:
        latest[(f["rater_id"], f["item_id"], f["code"])] = bool(f["active"])
    on: dict[tuple[int, int], set[str]] = defaultdict(set)
    for (rater, item, code), active in latest.items():
        if active:
            on[(rater, item)].add(code)
    texts = {(n["rater_id"], n["item_id"]): n["text"] for n in notes}
    return dict(on), {key: t for key, t in texts.items() if t}


def _utc(moment: Any) -> datetime:
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def test_item_qa_flags_and_notes_move_into_the_label_store_losslessly(empty_db_url: str) -> None:
    url = empty_db_url
    ids, items = _release_0022(url)
    names = {i: name for name, i in ids.items()}
    engine = make_engine(url, migrate=False)
    flags, notes, labels = _rows(engine, "qa_flag"), _rows(engine, "note"), _rows(engine, "label")
    on, noted = _state_0022(flags, notes)
    assert len(flags) + len(notes) == len(EVENTS) and labels  # ann's behaviour label
    ann, bob = (ids["ann"], items[0]), (ids["bob"], items[1])
    assert on == {ann: {"rfi_output_format"}, bob: {"rfi_hallucinates"}}
    assert noted == {ann: "second"}

    upgrade(engine)
    assert current_revision(engine) == head_revision()
    assert not {"qa_flag", "note"} & set(inspect(engine).get_table_names())
    after = _rows(engine, "label")
    answers = [r for r in after if r["schema_name"] == "when2call-item-qa"]
    answers = [r for r in answers if r["question"] != "behaviour"]
    assert [r for r in after if r not in answers] == labels  # the labels already there stay
    # one answer per event; each (rater, item, question) a chain in event order, last current
    chains: dict[tuple[int, int, str], list[dict[str, Any]]] = defaultdict(list)
    for row in answers:
        chains[(row["rater_id"], row["item_id"], row["question"])].append(row)
    wrote: dict[tuple[int, int, str], list[tuple[Any, ...]]] = defaultdict(list)
    for second, (who, index, code, value) in enumerate(EVENTS):
        answer = (value or None) if code == NOTE else ("yes" if value else None)
        at = datetime(2026, 11, 20, 10, 0, second, tzinfo=UTC)
        wrote[(ids[who], items[index], code)].append((answer, at))
    assert len(answers) == len(EVENTS) and chains.keys() == wrote.keys()
    for key, chain in chains.items():
        assert [(r["value"], _utc(r["created_at"])) for r in chain] == wrote[key], key
        assert [r["supersedes_id"] for r in chain] == [None] + [r["id"] for r in chain[:-1]], key
        assert [bool(r["is_current"]) for r in chain] == [False] * (len(chain) - 1) + [True]
        assert {r["source"] for r in chain} == {"tui"}

    svc = open_services(url)
    uuids = dict(query(url, "SELECT id, uuid FROM item"))
    exported = {
        (r.annotator, r.item_uuid): (r.flags, r.note)
        for r in svc.labels.export()
        if r.target_model is None and (r.flags or r.note)
    }
    assert exported == {
        (names[r], uuids[i]): (tuple(sorted(on.get((r, i), ()))), noted.get((r, i), ""))
        for r, i in on.keys() | noted.keys()
    }
    [ann_record] = [r for r in svc.labels.export() if r.target_model is None and r.label]
    assert (ann_record.annotator, ann_record.label) == ("ann", Label.DIRECT)
    for rater, item in (ann, bob):
        qa = svc.review.detail(item, names[rater]).qa
        assert (qa.flags, qa.note) == (frozenset(on[(rater, item)]), noted.get((rater, item), ""))
    checklist = svc.store.item_qa
    assert {(f.annotator, f.item_id, f.code) for f in checklist.flags("demo")} == {
        (names[rater], item, code) for (rater, item), codes in on.items() for code in codes
    }
    assert {(n.annotator, n.item_id, n.text) for n in checklist.notes("demo")} == {
        (names[rater], item, t) for (rater, item), t in noted.items()
    }
    svc.close()

    with engine.begin() as connection:  # and back: the same qa_flag and note rows
        command.downgrade(alembic_config(connection), "0022")
    assert _content(_rows(engine, "qa_flag")) == _content(flags)
    assert _content(_rows(engine, "note")) == _content(notes)
    assert query(url, f"SELECT count(*) FROM label WHERE {CHECKLIST}") == [(0,)]
    assert _rows(engine, "label") == labels
    engine.dispose()
