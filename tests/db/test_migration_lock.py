"""Two processes opening an old database at the same moment upgrade it once (the lock)."""

from __future__ import annotations

import multiprocessing
import queue
import time
from typing import Any

import pytest
from alembic.script import ScriptDirectory

from w2c_tui.db.engine import make_engine
from w2c_tui.db.migrate import MIGRATIONS, current_revision, head_revision, upgrade

HOLD_S = 1.0
"""How long the process that gets the lock keeps it before migrating: the other one is then
certainly waiting for it."""


def previous_revision() -> str:
    """The revision before head: the database of the version before this one."""
    head = ScriptDirectory(str(MIGRATIONS)).get_revision(head_revision())
    assert head is not None and isinstance(head.down_revision, str)
    return head.down_revision


def open_it(url: str, start: Any, results: Any) -> None:
    """A process opening the database as `w2c` does (run in a forked child)."""
    import alembic.command

    migrate = alembic.command.upgrade

    def slowly(*args: Any, **kwargs: Any) -> None:
        time.sleep(HOLD_S)  # inside the lock
        migrate(*args, **kwargs)

    alembic.command.upgrade = slowly
    engine = make_engine(url, migrate=False)
    start.wait()
    try:
        results.put(("upgraded" if upgrade(engine) else "already at head", None))
    except Exception as error:
        results.put(("failed", repr(error)))
    finally:
        engine.dispose()


@pytest.mark.parametrize("old", ["previous", "empty"])
def test_two_processes_opening_an_old_database_upgrade_it_once(empty_db_url: str, old: str) -> None:
    if old == "previous":
        engine = make_engine(empty_db_url, migrate=False)
        upgrade(engine, previous_revision())
        engine.dispose()
    context = multiprocessing.get_context("fork")
    start = context.Barrier(2)
    results = context.Queue()
    processes = [
        context.Process(target=open_it, args=(empty_db_url, start, results)) for _ in range(2)
    ]
    for process in processes:
        process.start()
    try:
        outcomes = sorted(results.get(timeout=120) for _ in processes)
    except queue.Empty:
        outcomes = []
    for process in processes:
        process.join(timeout=30)
    assert outcomes == [("already at head", None), ("upgraded", None)]
    engine = make_engine(empty_db_url, migrate=False)
    assert current_revision(engine) == head_revision()
    engine.dispose()
