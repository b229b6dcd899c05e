"""Migration 0022 moves When2Call labels into the one label store without losing anything: a
database as release 0021 wrote it (a person's item-QA label edited twice, a withdrawal, every
`seen`, a guideline version, response labels, an adjudication with its note, a judge run's
readings with replies and scores, an invalid one and a second sample, a log-prob scorer's
reading of an item for a model) holds the same rows in `label` after the upgrade (each keeps
its id; the labels already there move past them), in the same order, with the same chains, run
results, export and one-current-answer rule; the downgrade writes the same `verdict` rows back.
The release-0021 rows are written through the reflected tables, as that release stored them."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

import pytest
from alembic import command
from dbfixtures import query
from sqlalchemy import Connection, Engine, MetaData, Table, inspect, select, text
from sqlalchemy.exc import IntegrityError

from w2c_tui.db.engine import make_engine
from w2c_tui.db.migrate import alembic_config, current_revision, head_revision, upgrade
from w2c_tui.domain.labels import Label, RaterKind
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.run_config import Backend, Method, RunConfig
from w2c_tui.services import open_services

SHARED = ["rater_id", "item_id", "target_model_id", "response_id", "status", "raw", "scores_json",
          "run_id", "source", "is_current", "created_at", "seen", "guideline_id"]  # fmt: skip
LL = [-3.5, -0.25, -2.0, -9.0]
REPLY = '{"classification": "tool_call"}'
SCORES = json.dumps({"loglikelihoods": LL, "pred_raw": "tool_call"})
ROWS = [  # rater, item, model, response?, label, status, seen, source, raw, scores, supersedes
    ("ann", 1, None, 0, "direct", "ok", "blind", "tui", None, "{}", None),
    ("ann", 1, None, 0, "tool_call", "ok", "revealed", "tui", None, "{}", 0),
    ("ann", 1, None, 0, "cannot_answer", "ok", "gold", "undo", None, "{}", 1),
    ("ann", 2, 0, 1, "tool_call", "ok", "open", "tui", None, "{}", None),
    ("ann", 2, 0, 1, None, "missing", "blind", "tui", None, "{}", 3),  # withdrawn
    ("bob", 1, None, 0, "direct", "ok", None, "import", None, "{}", None),
    ("bob", 2, 1, 1, "request_for_info", "ok", "revealed", "tui", None, "{}", None),
    ("adj", 1, None, 0, "direct", "ok", None, "adjudication", "bob is right", "{}", None),
    ("gpt", 3, 0, 1, "tool_call", "ok", None, "run", REPLY, '{"p": 0.9}', None),
    ("gpt", 3, 0, 1, "direct", "ok", None, "run", "direct", '{"sample_index": 1}', None),
    ("gpt", 4, 0, 1, None, "invalid", None, "run", "garbled", "{}", None),
    ("lp", 3, 1, 0, "tool_call", "ok", None, "run", None, SCORES, None),
]
KINDS = {"bob": "human", "adj": "adjudicator", "gpt": "judge", "lp": "mcq_logprob"}
AT = datetime(2026, 11, 1, tzinfo=UTC)
pytestmark = pytest.mark.filterwarnings("ignore:Skipped unsupported reflection")


def _add(db: Connection, table: str, **values: Any) -> int:
    inserted = db.execute(Table(table, MetaData(), autoload_with=db).insert().values(**values))
    return int(inserted.inserted_primary_key[0])


def _rows(engine: Engine, name: str) -> list[dict[str, Any]]:
    with engine.connect() as db:
        table = Table(name, MetaData(), autoload_with=db)
        return [dict(r._mapping) for r in db.execute(select(table).order_by(table.c.id))]


def _run(db: Connection, rater: int, model: int, method: Method) -> int:
    stored = json.dumps({"config": RunConfig(method, Backend.OPENAI, "m", "demo").as_json()})
    return _add(db, "run", kind=method.value, target_model_id=model, rater_id=rater,
                config_json=stored, status="done", n_total=0, n_done=0, n_error=0,
                created_at=AT)  # fmt: skip


def _release_0021(url: str) -> dict[str, int]:
    """A database at 0021: the demo and a label written by today's services, then a CriticTool
    answer with its history and ROWS (with a guideline, two runs and their results) as release
    0021 wrote them; the runs by rater name."""
    svc = open_services(url)
    svc.imports.import_demo()
    [(first,)] = query(url, "SELECT min(id) FROM item")
    svc.review.label_item("ann", int(first), Label.DIRECT)  # type: ignore[call-overload]
    svc.close()
    engine = make_engine(url, migrate=False)
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0021")
    with engine.begin() as db:
        ids = {"ann": db.execute(text("SELECT id FROM rater WHERE name = 'ann'")).scalar_one()}
        for name, kind in KINDS.items():
            key = RaterSpec(RaterKind(kind), name).key()
            ids[name] = _add(db, "rater", key=key, kind=kind, name=name, created_at=AT,
                             config_json="{}")  # fmt: skip
        items = db.execute(text("SELECT id FROM item ORDER BY position")).scalars().all()
        models = db.execute(text("SELECT id FROM target_model ORDER BY id")).scalars().all()
        sql = "SELECT item_id, target_model_id, id FROM response"
        responses = {(i, m): r for i, m, r in db.execute(text(sql))}
        answer = dict(rater_id=ids["ann"], item_id=items[1], schema_name="critictool",
                      question="error", created_at=AT)  # fmt: skip
        yes = _add(db, "label", **answer, value="yes", is_current=False)
        _add(db, "label", **answer, value="no", is_current=True, supersedes_id=yes)
        demo = db.execute(text("SELECT id FROM dataset")).scalar_one()
        guideline = _add(db, "guideline", dataset_id=demo, version=3, text="#", sha256="0",
                         created_at=AT)  # fmt: skip
        runs = {"gpt": _run(db, ids["gpt"], models[0], Method.JUDGE),
                "lp": _run(db, ids["lp"], models[1], Method.MCQ_LOGPROB)}  # fmt: skip
        made: list[int] = []
        for n, (who, i, m, resp, label, status, seen, source, raw, scores, sup) in enumerate(ROWS):
            model = None if m is None else models[m]
            response = responses[(items[i], model)] if resp else None
            run = runs.get(who)
            made.append(_add(
                db, "verdict", rater_id=ids[who], item_id=items[i], target_model_id=model,
                response_id=response, label=label, status=status, seen=seen, raw=raw,
                scores_json=scores, run_id=run, source=f"run {run}" if run else source,
                guideline_id=guideline if source in ("tui", "undo") else None,
                supersedes_id=None if sup is None else made[sup],
                is_current=n not in {r[-1] for r in ROWS} and "sample_index" not in scores,
                created_at=datetime(2026, 11, 20, 10, 0, n, 250, tzinfo=UTC),
            ))  # fmt: skip
            if run:
                _add(db, "run_result", run_id=run, item_id=items[i], response_id=response,
                     sample_index=int("sample_index" in scores), status="ok", retries=0,
                     verdict_id=made[-1], created_at=AT)  # fmt: skip
    engine.dispose()
    return runs


def _utc(moment: Any) -> datetime:
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def _people(url: str, verdicts: list[dict[str, Any]]) -> list[tuple[object, ...]]:
    """What the labels export says of each person's current labels, read off `verdict` rows."""
    raters = {i: (name, kind) for i, name, kind in query(url, "SELECT id, name, kind FROM rater")}
    uuids, models, versions = (
        dict(query(url, f"SELECT id, {c} FROM {t}"))
        for t, c in (("item", "uuid"), ("target_model", "name"), ("guideline", "version"))
    )
    history = defaultdict(list)
    for v in verdicts:
        history[tuple(v[k] for k in SHARED[:4])].append(v["created_at"])
    people = []
    for v in verdicts:
        name, kind = raters[v["rater_id"]]
        if v["is_current"] and kind == "human":
            unit = history[tuple(v[k] for k in SHARED[:4])]
            people.append((name, uuids[v["item_id"]], models.get(v["target_model_id"]),
                           v["label"], v["status"], v["seen"], versions.get(v["guideline_id"]),
                           len(unit) - 1, _utc(min(unit)), _utc(v["created_at"])))  # fmt: skip
    return sorted(people, key=repr)


def _positions(rows: list[dict[str, Any]], keys: list[str]) -> list[dict[str, Any]]:
    """The rows' `keys`, ids (and the superseded row's id) as positions in the list."""
    at = {row["id"]: n for n, row in enumerate(rows)}
    return [
        {**{k: row[k] for k in keys}, "id": n, "supersedes_id": at.get(row["supersedes_id"])}
        for n, row in enumerate(rows)
    ]


def _result_positions(url: str, column: str, rows: list[dict[str, Any]]) -> list[object]:
    at = {row["id"]: n for n, row in enumerate(rows)}
    sql = f"SELECT id, {column} FROM run_result ORDER BY id"
    return [(i, at.get(v)) for i, v in query(url, sql)]  # type: ignore[call-overload]


def test_verdicts_move_into_the_label_store_losslessly(empty_db_url: str) -> None:
    url = empty_db_url
    runs = _release_0021(url)
    engine = make_engine(url, migrate=False)
    before, answers = _rows(engine, "verdict"), _rows(engine, "label")
    results = _result_positions(url, "verdict_id", before)
    people = _people(url, before)
    assert len(before) > len(ROWS) and len(answers) == 2 and len(results) == 4 and len(people) == 5

    upgrade(engine)
    assert current_revision(engine) == head_revision()
    assert "verdict" not in inspect(engine).get_table_names()
    labels = _rows(engine, "label")
    moved = [r for r in labels if r["schema_name"].startswith("when2call")]
    kept = [*answers[0]]  # the answers already there stay, chain and all
    assert _positions([r for r in labels if r not in moved], kept) == _positions(answers, kept)
    # each verdict is one label (its id kept), in the same order, with the same chains
    assert [r["id"] for r in moved] == [v["id"] for v in before]
    assert _positions([{**r, "label": r["value"]} for r in moved], [*SHARED, "label"]) == (
        _positions(before, [*SHARED, "label"])
    )
    for row in moved:
        item_only = row["target_model_id"] is None and row["response_id"] is None
        schema = "when2call-item-qa" if item_only else "when2call-behaviour"
        assert (row["schema_name"], row["question"]) == (schema, "behaviour"), row
    assert _result_positions(url, "label_id", moved) == results

    svc = open_services(url)
    exported = [
        (r.annotator, r.item_uuid, r.target_model, r.label, r.status, r.seen,
         r.guideline_version, r.n_edits, _utc(r.first_labelled_at), _utc(r.created_at))
        for r in svc.labels.export()
    ]  # fmt: skip
    assert sorted(exported, key=repr) == people
    judged = [(r.sample_index, r.status, r.label, r.raw) for r in svc.runs.results(runs["gpt"])]
    assert judged == [
        (int("sample_index" in r[9]), r[5], r[4], r[8]) for r in ROWS if r[0] == "gpt"
    ]
    decided = [(d["adjudicator"], d["label"], d["note"]) for d in svc.adjudication.export("demo")]
    assert decided == [("adj", "direct", "bob is right")]
    [scored] = svc.runs.results(runs["lp"])
    assert (scored.label, scored.status, scored.loglikelihoods) == ("tool_call", "ok", tuple(LL))
    svc.close()
    reading = next(row for row in moved if row["run_id"] == runs["lp"])
    copy = {k: v for k, v in reading.items() if k not in ("id", "is_current")}
    with engine.connect() as db:  # a retired copy of a reading is welcome, a current one is not
        _add(db, "label", **copy, is_current=False)
        with pytest.raises(IntegrityError):
            _add(db, "label", **copy, is_current=True)
        db.rollback()

    with engine.begin() as connection:  # and back: the same verdicts, chains and results
        command.downgrade(alembic_config(connection), "0021")
    again = _rows(engine, "verdict")
    assert _positions(again, [*before[0]]) == _positions(before, [*before[0]])
    assert _result_positions(url, "verdict_id", again) == results
    assert _positions(_rows(engine, "label"), kept) == _positions(answers, kept)
    engine.dispose()
