"""Assignment plans decide blind mode: an overlap of 2 or more opens blind in both modes,
`required` cannot be switched off, `off` opens with everything shown. On the real judge file,
the blind item-QA view shows no held-out parameter, target tool, source id, uuid or file
position, item after item."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from test_blind_side_doors import screen_text

from w2c_tui.domain.blind import BlindPolicy, metadata
from w2c_tui.domain.labels import Label
from w2c_tui.domain.review import ReviewMode
from w2c_tui.domain.team import AssignUnits, Selection
from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.review import ReviewScreen

SIZE = (160, 45)
Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


def plan(services: Services, dataset: str, policy: BlindPolicy | None = None) -> None:
    services.assignments.assign(
        dataset,
        ["alice", "bob", "carol"],
        overlap=2,
        seed=1,
        selection=Selection(units=AssignUnits.ITEMS, per_label=5),
    )
    if policy is not None:
        services.assignments.set_blind(dataset, AssignUnits.ITEMS, policy)


async def test_item_qa_plan_with_overlap_2_opens_blind_on_the_real_file(
    services: Services, judge_file: Path, wait_review: Review
) -> None:
    services.imports.import_path(judge_file)
    dataset = services.datasets.resolve(None)
    plan(services, dataset)
    app = W2CApp(services, annotator="alice", dataset=dataset)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        state = screen.state
        assert state.mode is ReviewMode.ITEM_QA and state.filter.queue and state.is_blind
        for step in range(state.rows.count):
            assert state.detail is not None
            item = state.detail.item
            text = screen_text(app)
            assert f"#{step + 1}/{state.rows.count} · your queue" in text
            assert item.uuid not in text and f"item {item.position + 1}" not in text
            assert "◀ gold" not in text and "gold hidden (blind)" in text
            for fact in metadata(item):
                if fact.name in ("source", "kind"):
                    continue
                assert f"{fact.label} {fact.value}" not in text, fact
            assert "held-out parameter" not in text and "target tool" not in text
            await pilot.press("j")
            await pilot.pause()
        screen.act(state.record(Label.REQUEST_FOR_INFO, advance=False))  # the label is in:
        await pilot.pause()  # now the item's metadata and uuid may show
        assert state.detail is not None and not state.gold_hidden
        text = screen_text(app)
        assert state.detail.item.uuid in text and "source id" in text


async def test_required_blind_cannot_be_switched_off(demo: Services, wait_review: Review) -> None:
    plan(demo, "demo", BlindPolicy.REQUIRED)
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        state = screen.state
        assert state.mode is ReviewMode.ITEM_QA and state.is_blind
        await pilot.press("b")
        await pilot.pause()
        assert state.is_blind
        assert any(
            "Blind mode stays on" in n.message and "w2c assign --blind" in n.message
            for n in app._notifications
        )
        await pilot.press("Q", "b")  # leaving the queue does not lift it
        await pilot.pause()
        assert state.is_blind and not state.filter.queue
        await pilot.press("m")  # the response mode has no plan: blind as usual, may go off
        await pilot.pause()
        state = screen.state  # (a fresh look for the type checker: m changed the mode)
        assert state.mode is ReviewMode.RESPONSES and state.is_blind
        await pilot.press("b")
        await pilot.pause()
        assert not state.is_blind
    # someone outside the plan is not held by it
    app = W2CApp(demo, annotator="dora")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        assert screen.state.mode is ReviewMode.RESPONSES
        await pilot.press("m")
        await pilot.pause()
        assert not screen.state.is_blind


async def test_a_plan_set_off_opens_with_blind_off(demo: Services, wait_review: Review) -> None:
    plan(demo, "demo", BlindPolicy.OFF)
    app = W2CApp(demo, annotator="bob")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        assert screen.state.mode is ReviewMode.ITEM_QA and not screen.state.is_blind
        await pilot.press("b")
        await pilot.pause()
        assert screen.state.is_blind  # an annotator may still choose it
