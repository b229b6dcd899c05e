"""Reopening the review screen where the annotator left off (per annotator and dataset)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path

from w2c_tui.domain.review import ReviewMode
from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.review_views import ReviewController
from w2c_tui.tui.screens.review import ReviewScreen

SIZE = (160, 45)
ANSWER_KEYS = ("direct", "tool_call", "request_for_info", "cannot_answer")
Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


def test_the_controller_reopens_at_the_saved_place(demo: Services) -> None:
    first = ReviewController(demo, "alice", "demo")
    first.open()
    first.toggle_mode()
    first.move(6)
    assert first.save_place()
    item = first.detail.item.id if first.detail else None
    again = ReviewController(demo, "alice", "demo")
    notice = again.open()
    assert again.mode is ReviewMode.ITEM_QA and again.index == first.index
    assert again.detail is not None and again.detail.item.id == item
    assert notice is not None
    assert f"Back where you left off: item {first.index + 1} of 30" in notice.text
    other = ReviewController(demo, "bob", "demo")  # someone else starts at the top
    assert other.open() is None
    assert other.mode is ReviewMode.RESPONSES and other.index == 0


def test_a_place_is_written_only_when_it_changed(demo: Services) -> None:
    state = ReviewController(demo, "alice", "demo")
    state.open()
    assert state.place_to_save() is None  # just opened: nothing new
    state.move(1)
    place = state.place_to_save()
    assert place is not None and state.save_place()
    assert state.place_to_save() is None


def test_places_are_kept_per_dataset(demo: Services, tmp_path: Path) -> None:
    other = "second"
    lines = [
        json.dumps(
            {
                "uuid": f"second-{i}",
                "question": f"Question {i}?",
                "correct_answer": "cannot_answer",
                "answers": {
                    k: k for k in ("direct", "tool_call", "request_for_info", "cannot_answer")
                },
                "tools": [],
            }
        )
        for i in range(4)
    ]
    (tmp_path / "second.jsonl").write_text("\n".join(lines) + "\n")
    demo.imports.import_path(tmp_path / "second.jsonl", dataset=other)
    state = ReviewController(demo, "alice", "demo")
    state.open()
    state.move(3)
    state.switch_dataset(other)  # saves the place in demo first
    assert state.dataset == other and state.index == 0
    assert state.mode_label.endswith("(no responses in this dataset)")
    state.move(1)
    state.switch_dataset("demo")
    assert state.index == 3
    state.switch_dataset(other)
    assert state.index == 1


async def test_quitting_keeps_the_place_for_next_time(demo: Services, wait_review: Review) -> None:
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        await pilot.press("j", "j", "j", "j")
        await pilot.pause()
        assert screen.state.index == 4
        await pilot.press("q")
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        assert screen.state.index == 4
        assert any("left off" in n.message for n in app._notifications)
