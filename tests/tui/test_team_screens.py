"""The team workflow in the TUI: queues, switching annotator, T, G, A, unsaved labels, names."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from dbfixtures import read_only_url, write_lock_held
from team_data import load_secret

from w2c_tui.domain.labels import Label
from w2c_tui.domain.records import ImportBundle, ResponseRecord
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.domain.team import AssignUnits, Selection
from w2c_tui.services import Services, open_services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.adjudication import AdjudicationScreen
from w2c_tui.tui.screens.dialogs import AnnotatorSwitchDialog
from w2c_tui.tui.screens.review import ReviewScreen
from w2c_tui.tui.screens.team import TeamScreen
from w2c_tui.tui.widgets.guidelines import GuidelinesPanel

SIZE = (160, 45)
Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


async def test_an_annotator_with_assignments_opens_on_their_queue(
    demo: Services, wait_review: Review
) -> None:
    demo.assignments.assign("demo", ["ann", "ben"], overlap=1, seed=4, selection=Selection())
    app = W2CApp(demo, annotator="ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        state = screen.state
        assert state.filter.queue and state.mode is ReviewMode.RESPONSES
        _, queue = state.progress()
        assert queue is not None and (queue.done, queue.total) == (0, 30)
        assigned = {(u.item_id, u.response_id) for u in demo.assignments.show("demo", "ann")}
        card = state.card
        assert card is not None and card.response is not None and card.queued
        assert (card.response.item_id, card.response.id) in assigned
        await pilot.press("2")
        _, queue = state.progress()
        assert queue is not None and queue.done == 1
        await pilot.press("Q")  # leave the queue
        assert not state.filter.queue and state.rows.count == 30


async def test_switching_annotator_and_team_progress(demo: Services, wait_review: Review) -> None:
    demo.assignments.assign(
        "demo", ["ann", "ben"], overlap=2, seed=0, selection=Selection(sample=4)
    )
    app = W2CApp(demo, annotator="ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        await pilot.press("U")
        assert isinstance(app.screen, AnnotatorSwitchDialog)
        await pilot.press(*"newcomer", "enter")
        await pilot.pause()
        assert screen.state.annotator == "newcomer" and not screen.state.filter.queue
        await pilot.press("U")
        await pilot.press("down", "enter")  # the first known annotator
        await pilot.pause()
        assert screen.state.annotator in {"ann", "ben"}
        await pilot.press("T")
        assert isinstance(app.screen, TeamScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        team = app.screen
        assert team.status is not None and team.status.units is AssignUnits.RESPONSES
        assert {a.annotator for a in team.status.annotators} >= {"ann", "ben"}
        await pilot.press("escape")
        assert app.screen is screen


async def test_guidelines_open_once_then_on_demand(
    demo: Services, tmp_path: Path, wait_review: Review
) -> None:
    guide = tmp_path / "g.md"
    guide.write_text("# How to label\n\n* **tool call**: the reply calls a tool.\n")
    demo.guidelines.set("demo", guide)
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        await wait_review(app, pilot)
        await pilot.pause()
        panel = app.screen.query_one(GuidelinesPanel)
        assert panel.display  # first visit
        await pilot.press("G")
        assert not panel.display
        await pilot.press("G")
        assert panel.display
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        await wait_review(app, pilot)
        await pilot.pause()
        assert not app.screen.query_one(GuidelinesPanel).display  # seen already


async def test_adjudication_from_the_keyboard(demo: Services, wait_review: Review) -> None:
    row = demo.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 1)[0]
    response = demo.review.detail(row.id, None).responses[0]
    assert response.id is not None
    for name, label in (("ann", Label.TOOL_CALL), ("ben", Label.TOOL_CALL), ("cat", Label.DIRECT)):
        demo.review.label_response(name, row.id, response.id, label)
    app = W2CApp(demo, annotator="dora")
    async with app.run_test(size=SIZE) as pilot:
        await wait_review(app, pilot)
        await pilot.press("b", "A")  # blind off: adjudication shows every human's label
        screen = app.screen
        assert isinstance(screen, AdjudicationScreen) and len(screen.cases) == 1
        await pilot.press("e", *"context says so", "enter")
        await pilot.press("1")
        await pilot.pause()
        [case] = screen.cases
        assert (case.decision, case.adjudicator, case.note) == (
            Label.DIRECT,
            "dora",
            "context says so",
        )
    dash = demo.agreement.dashboard("demo", bootstrap=0)
    assert dash.meta.consensus.adjudicated == 1


async def test_a_label_the_database_will_not_take_stays_on_screen(
    demo: Services, db_url: str, wait_review: Review
) -> None:
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        state = screen.state
        card = state.card
        assert card is not None and card.response is not None
        with write_lock_held(db_url):  # another process holds the write lock
            await pilot.press("2")
            await pilot.pause()
            assert state.unsaved is not None and state.unsaved.label is Label.TOOL_CALL
            assert "busy" in state.unsaved.reason
            assert state.card is not None and state.card.response is not None
            assert state.card.response.id == card.response.id  # did not move on
            await pilot.press("j")  # moving is refused while the label is not saved
            assert state.card.response.id == card.response.id
            assert any("not saved" in n.message.lower() for n in app._notifications)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert state.unsaved is None
        [record] = demo.labels.export()
        assert record.label is Label.TOOL_CALL
        assert app.is_running


async def test_names_from_data_are_shown_literally(services: Services, wait_review: Review) -> None:
    dataset = load_secret(services, dataset="[/oops]")
    services.store.imports.apply(
        ImportBundle(
            path="odd.jsonl",
            kind="test",
            sha256="1" * 64,
            responses=(
                ResponseRecord(uuid="item-000", target_model="model[/bold]", text="hi", line=1),
            ),
        ),
        dataset,
    )
    app = W2CApp(services, annotator="[b]x", dataset=dataset)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        screen.act(screen.state.jump("item-000"))
        assert "model[/bold]" in [c.target_model for c in screen.state.cards]
        for _ in screen.state.cards:
            await pilot.press("1")  # every reveal, names included
        await pilot.pause()
        await pilot.press("k", "b")  # back to it, blind mode off: everything on screen
        for key in ("d", "a", "T", "A", "U", "question_mark"):
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.screen is not screen, key
            await pilot.press("escape")
            await pilot.pause()
        assert app.is_running and app.screen is screen


async def test_a_read_only_database_keeps_the_label_on_screen(
    demo: Services, db_url: str, wait_review: Review
) -> None:
    readonly = open_services(read_only_url(db_url), migrate=False)
    try:
        app = W2CApp(readonly, annotator="alice")
        async with app.run_test(size=SIZE) as pilot:
            screen = await wait_review(app, pilot)
            await pilot.press("3")
            await pilot.pause()
            pending = screen.state.unsaved
            assert pending is not None and pending.retryable  # it may become writable
            assert "read-only" in pending.reason
            assert app.is_running
            await pilot.press("u")  # discards it
            assert screen.state.unsaved is None
    finally:
        readonly.close()
    assert demo.labels.export() == []
