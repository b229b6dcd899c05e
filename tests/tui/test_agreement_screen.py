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
        assert screen.document.humans.raters == ("human:alice", "human:bob", "human:carol")
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
        await pilot.press("b", "a")  # blind mode off: alice has labelled nothing yet
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AgreementScreen) and screen.document is not None
        assert screen.document.humans.reason  # no humans yet: said, not crashed
        await pilot.press("u")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.document.meta.unit_kind == "item"
        await pilot.press("escape")
        assert isinstance(app.screen, ReviewScreen)


async def test_coming_back_returns_to_where_you_were(demo: Services, wait_review: Review) -> None:
    annotate(demo)
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=(100, 30)) as pilot:
        review = await wait_review(app, pilot)
        await pilot.press("a")
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AgreementScreen)
        await pilot.press("question_mark")
        assert type(app.screen).__name__ == "KeysDialog"
        await pilot.press("escape", "d", "m")  # next rater, into the matrix
        await pilot.pause()
        rater = screen.view.rater
        confusion = screen.query_one("#drill-confusion", DataTable)
        confusion.move_cursor(row=3, column=4)
        await pilot.pause()
        assert screen.view.cell == (3, 3)
        units = screen.query_one("#drill-units", DataTable)
        units.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is review
        await pilot.press("a")
        await app.workers.wait_for_complete()
        await pilot.pause()
        again = app.screen
        assert isinstance(again, AgreementScreen) and again is not screen
        assert again.query_one(TabbedContent).active == "tab-drill"
        assert again.view.rater == rater and again.view.cell == (3, 3)
        await pilot.press("s")  # slices by gold class
        await app.workers.wait_for_complete()
        await pilot.pause()
        doc = again.document
        assert doc is not None and doc.slices is not None and doc.slices.by == "gold"


def test_no_number_is_cut_at_100_columns(demo: Services) -> None:
    """Each panel is shown at its natural width in a scrolling container: nothing is cut."""
    from rich.console import Console
    from rich.measure import Measurement

    from w2c_tui.domain.dashboard import SliceBy
    from w2c_tui.tui.dashboard import judges, metrics, overview, slices

    annotate(demo)
    dash = demo.agreement.dashboard("demo", bootstrap=100, by=SliceBy.TOOLS)
    screen = Console(width=100, color_system=None)
    for render in (
        overview.overview,
        judges.judges,
        metrics.metrics,
        metrics.calibration,
        slices.slices,
    ):
        renderable = render(dash)
        wide = screen.options.update(max_width=100_000)
        width = max(100, Measurement.get(screen, wide, renderable).maximum)
        console = Console(width=width, color_system=None)
        with console.capture() as capture:
            console.print(renderable)
        assert "…" not in capture.get(), render.__name__
    raters = dash.meta.raters
    assert any(k.endswith(":norm") for k in raters)
    console = Console(width=400, color_system=None)
    with console.capture() as capture:
        console.print(overview.overview(dash))
    legend = capture.get()
    for key in raters:  # raw and :norm readings are told apart by name in the legend
        assert key in legend
