"""Reading another w2c database for `w2c merge`: what people made there, keyed by identity
(When2Call verdicts, label schemas and the answers of every schema, CriticTool's included,
guidelines, assignments).

Nothing here uses the source's row ids as identities: items are known by uuid, raters by their
key, target models by name, responses by (item, model, text), datasets by name and content.
A source file is never written: an older one is copied to a temporary file and the copy is
upgraded; one that is not a w2c database, or that a newer w2c-tui wrote, is refused.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import Engine, create_engine
from sqlalchemy.pool import NullPool
from sqlmodel import select

from w2c_tui.db.merge.base import PEOPLE, ResponseKey, Source, item_fingerprint
from w2c_tui.db.merge.schema_labels import read_schema_labels
from w2c_tui.db.migrate import check_known, head_revision, upgrade
from w2c_tui.db.tables import (
    AssignmentPlanRow,
    AssignmentRow,
    DatasetRow,
    GuidelineRow,
    GuidelineSeenRow,
    ItemRow,
    RaterRow,
    ResponseRow,
    TargetModelRow,
)
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.names import name_problem


def read_only_uri(path: Path) -> str:
    """The SQLite URI that opens exactly `path`, read-only: every character that a URI gives a
    meaning to (`%`, `#`, `?`, spaces) is escaped, so `x%41.db` is not `xA.db` and `ann#1.db`
    is not `ann`."""
    return f"file:{quote(str(path.resolve()), safe='/')}?mode=ro"


def _connect(path: Path) -> sqlite3.Connection:
    """A read-only connection to exactly `path` (it sees what is still in its WAL)."""
    return sqlite3.connect(read_only_uri(path), uri=True, check_same_thread=False)


def _is_w2c(path: Path) -> None:
    """Refuse anything but an intact SQLite file with w2c's tables (read-only peek)."""
    if not path.is_file():
        raise InputError(str(path), "no such file")
    with path.open("rb") as handle:
        if handle.read(16) != b"SQLite format 3\x00":
            raise InputError(str(path), "not an SQLite database (w2c merge reads w2c .db files)")
    connection = _connect(path)
    try:
        names = {r[0] for r in connection.execute("SELECT name FROM sqlite_master")}
        problems = [r[0] for r in connection.execute("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as error:
        raise InputError(str(path), f"not a w2c database / corrupt: {error}") from error
    finally:
        connection.close()
    if problems != ["ok"]:
        raise InputError(str(path), f"not a w2c database / corrupt: {'; '.join(problems)}")
    if not {"alembic_version", "item", "rater"} <= names or not {"verdict", "label"} & names:
        raise InputError(str(path), "an SQLite database, but not one w2c-tui wrote")


def _backup(path: Path, copy: Path) -> None:
    """Copy `path` to `copy` with SQLite's backup API from a read-only connection: the copy
    holds what is still in the source's WAL (a file copy would lose those labels)."""
    source = _connect(path)
    try:
        target = sqlite3.connect(copy)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()


@contextmanager
def opened(path: Path) -> Iterator[Engine]:
    """A read engine on `path`, or on an upgraded temporary copy when it is older."""
    _is_w2c(path)
    engine = create_engine("sqlite://", creator=lambda: _connect(path), poolclass=NullPool)
    try:
        revision = check_known(engine)
    except Exception as error:
        engine.dispose()
        raise InputError(str(path), str(error)) from error
    if revision == head_revision():
        try:
            yield engine
        finally:
            engine.dispose()
        return
    engine.dispose()
    with tempfile.TemporaryDirectory(prefix="w2c-merge-") as folder:
        copy = Path(folder) / "source.db"  # a plain name: the source's may hold % or #
        _backup(path, copy)
        older = create_engine(f"sqlite:///{copy}", poolclass=NullPool)
        try:
            upgrade(older)
            yield older
        finally:
            older.dispose()


def read_source(path: Path) -> Source:
    """Everything people made in the database at `path`, by identity."""
    source = Source(path=path)
    with opened(path) as engine, engine.connect() as connection:

        def rows(query: Any) -> list[Any]:
            return list(connection.execute(query).all())

        datasets = {r.id: r.name for r in rows(select(DatasetRow.id, DatasetRow.name))}
        items: dict[int, tuple[str, str]] = {}
        for row in rows(select(ItemRow)):
            name = datasets[row.dataset_id]
            source.datasets.setdefault(name, {})[row.uuid] = item_fingerprint(row)
            items[row.id] = (name, row.uuid)
        models = {r.id: r.name for r in rows(select(TargetModelRow.id, TargetModelRow.name))}
        raters = {r.id: r for r in rows(select(RaterRow).where(RaterRow.kind.in_(PEOPLE)))}  # type: ignore[attr-defined]
        for rater in raters.values():
            source.raters[rater.key] = _rater_values(rater)
        responses: dict[int, ResponseKey] = {
            r.id: (items[r.item_id][1], models[r.target_model_id], r.text or "")
            for r in rows(select(ResponseRow))
        }
        guidelines = {r.id: r for r in rows(select(GuidelineRow))}
        read_schema_labels(source, rows, raters, items, models, responses, guidelines)
        for row in guidelines.values():
            source.guidelines.append(_guideline(row, datasets))
        for row in rows(select(GuidelineSeenRow)):
            if row.rater_id in raters:
                source.guideline_seen.append(
                    {
                        "rater": raters[row.rater_id].key,
                        "guideline": _guideline(guidelines[row.guideline_id], datasets),
                        "seen_at": row.seen_at,
                    }
                )
        _read_assignments(source, rows, datasets, raters, items, models, responses)
    _check_names(path, source, {model for _uuid, model, _text in responses.values()})
    return source


def _check_names(path: Path, source: Source, models: set[str]) -> None:
    """InputError naming the table and field of the first name in the source that
    `domain.names` refuses (a control character, NUL, too long): the file is not merged."""
    named = [("rater.name", str(r["name"])) for r in source.raters.values()]
    named += [("target_model.name", m) for m in sorted(models)]
    named += [("dataset.name", d) for d in sorted(source.datasets)]
    for where, name in named:
        problem = name_problem(name)
        if problem is not None:
            raise InputError(str(path), f"the name {problem}; nothing merged", field=where)


def _rater_values(rater: Any) -> dict[str, Any]:
    """A rater's columns, to create it in the target as it is in the source."""
    return {k: getattr(rater, k) for k in ("key", "kind", "name", "config_json", "created_at")}


def _guideline(row: Any, datasets: dict[int, str]) -> dict[str, Any]:
    return {
        "dataset": datasets[row.dataset_id],
        "version": row.version,
        "text": row.text,
        "sha256": row.sha256,
        "source_path": row.source_path,
        "created_at": row.created_at,
    }


def _read_assignments(
    source: Source,
    rows: Any,
    datasets: dict[int, str],
    raters: dict[int, Any],
    items: dict[int, tuple[str, str]],
    models: dict[int, str],
    responses: dict[int, ResponseKey],
) -> None:
    plans = {r.id: r for r in rows(select(AssignmentPlanRow))}
    for plan in plans.values():
        source.plans.append(
            {
                "dataset": datasets[plan.dataset_id],
                "unit_kind": plan.unit_kind,
                "overlap": plan.overlap,
                "seed": plan.seed,
                "config_json": plan.config_json,
                "created_at": plan.created_at,
                "updated_at": plan.updated_at,
            }
        )
    every_rater = {r.id: r.key for r in rows(select(RaterRow.id, RaterRow.key))}
    for row in rows(select(AssignmentRow)):
        plan = plans[row.plan_id]
        source.assignments.append(
            {
                "dataset": datasets[plan.dataset_id],
                "unit_kind": plan.unit_kind,
                "rater": every_rater[row.rater_id],
                "uuid": items[row.item_id][1],
                "model": models[row.target_model_id] if row.target_model_id else None,
                "response": responses[row.response_id] if row.response_id else None,
                "order_key": row.order_key,
                "created_at": row.created_at,
            }
        )
        if every_rater[row.rater_id] not in source.raters:
            rater = next(r for r in rows(select(RaterRow).where(RaterRow.id == row.rater_id)))
            source.raters[rater.key] = _rater_values(rater)
