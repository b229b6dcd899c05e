"""The agreement screen: panels computed in a worker, drill-down to a unit, back to review."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual.widgets import DataTable, TabbedContent

from w2c_tui.domain.labels import Label
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.agreement import AgreementScreen
from w2c_tui.tui.screens.review import ReviewScreen

Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


def annotate(services: Services) -> None:
    """Three annotators: alice says direct everywhere, bob and carol copy the gold label."""
    for row in services.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 30):
        detail = services.review.detail(row.id, None)
        for response in detail.responses:
            assert response.id is not None and detail.item.gold is not None
            services.review.label_response("alice", row.id, response.id, Label.DIRECT)
            services.review.label_response("bob", row.id, response.id, detail.item.gold)
            services.review.label_response("carol", row.id, response.id, detail.item.gold)


async def test_agreement_screen_drills_down_to_a_unit(demo: Services, wait_review: Review) -> None:
    annotate(demo)
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=(160, 45)) as pilot:
        review = await wait_review(app, pilot)
        await pilot.press("a")
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AgreementScreen) and screen.document is not None
        assert screen.document["humans"]["raters"] == ["human:alice", "human:bob", "human:carol"]
        await pilot.press("3")
        assert screen.query_one(TabbedContent).active == "tab-drill"
        units = screen.query_one("#drill-units", DataTable)
        assert units.row_count > 0  # disagreements with the consensus are listed
        confusion = screen.query_one("#drill-confusion", DataTable)
        confusion.focus()
        confusion.move_cursor(row=1, column=2)  # consensus tool_call × rater tool_call
        await pilot.pause()
        assert units.row_count > 0
        units.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is review
        assert review.state.detail is not None


async def test_agreement_recomputes_and_switches_units(demo: Services, wait_review: Review) -> None:
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_review(app, pilot)
        await pilot.press("a")
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AgreementScreen) and screen.document is not None
        assert "reason" in screen.document["humans"]  # no humans yet: said, not crashed
        await pilot.press("u")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.document["meta"]["unit_kind"] == "item"
        await pilot.press("escape")
        assert isinstance(app.screen, ReviewScreen)
