"""SVG snapshots of the key screens (update with `pytest --snapshot-update`)."""

from __future__ import annotations

from typing import Any

import pytest

from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp

SIZE = (160, 45)
# Snapshots are named after the test, so they render from SQLite alone;
# test_same_screens.py shows PostgreSQL renders the same screens.
pytestmark = pytest.mark.sqlite_only


async def settle(pilot: Any) -> None:
    await pilot.app.workers.wait_for_complete()
    for _ in range(5):
        await pilot.pause()


def test_review_blind(demo: Services, snap_compare: Any) -> None:
    app = W2CApp(demo, annotator="alice")
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


def test_review_revealed_with_scores(demo: Services, snap_compare: Any) -> None:
    app = W2CApp(demo, annotator="alice")
    assert snap_compare(app, terminal_size=SIZE, press=["j", "j", "b"], run_before=settle)


def test_item_qa(demo: Services, snap_compare: Any) -> None:
    app = W2CApp(demo, annotator="alice")
    item = demo.review.window("demo", *_qa_args(), 0, 1)[0]
    demo.review.set_flag("alice", item.id, "qca_vague", True)
    demo.review.set_note("alice", item.id, "", "question names no city")
    assert snap_compare(app, terminal_size=SIZE, press=["m"], run_before=settle)


def test_help(demo: Services, snap_compare: Any) -> None:
    app = W2CApp(demo, annotator="alice")
    assert snap_compare(app, terminal_size=SIZE, press=["question_mark"], run_before=settle)


def _qa_args() -> tuple[Any, ...]:
    from w2c_tui.domain.review import ItemFilter, ReviewMode

    return ItemFilter(), ReviewMode.ITEM_QA, None
