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


@pytest.fixture(autouse=True)
def lasting_toasts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Toasts stay up: on a loaded machine a 5 s toast may be gone before the screenshot."""
    monkeypatch.setattr(W2CApp, "NOTIFICATION_TIMEOUT", 3600)


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


def _split(svc: Services) -> None:
    """Three annotators on the demo's first response: a 2–1 split."""
    from w2c_tui.domain.labels import Label
    from w2c_tui.domain.review import ItemFilter, ReviewMode
    from w2c_tui.domain.team import Selection

    svc.assignments.assign("demo", ["ann", "ben", "cat"], overlap=2, seed=1, selection=Selection())
    row = svc.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 1)[0]
    response = svc.review.detail(row.id, None).responses[0]
    assert response.id is not None
    for name, label in (("ann", Label.TOOL_CALL), ("ben", Label.TOOL_CALL), ("cat", Label.DIRECT)):
        svc.review.label_response(name, row.id, response.id, label)


def test_adjudication(demo: Services, snap_compare: Any) -> None:
    _split(demo)
    app = W2CApp(demo, annotator="dora")
    assert snap_compare(app, terminal_size=SIZE, press=["b", "A"], run_before=settle)


def test_review_queue_after_first_label(demo: Services, snap_compare: Any) -> None:
    _split(demo)
    app = W2CApp(demo, annotator="ann")
    assert snap_compare(app, terminal_size=SIZE, press=["2"], run_before=settle)


def test_critictool_revealed(services: Services, snap_compare: Any) -> None:
    from pathlib import Path

    ct = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool" / "predictions"
    services.critictool.import_file(
        ct / "external_skip_base_data_wo_cot.json", dataset="ct-external", target_model="tiny"
    )
    app = W2CApp(services, annotator="alice", dataset="ct-external")
    assert snap_compare(app, terminal_size=SIZE, press=["j", "1", "5", "2"], run_before=settle)
