"""The dashboard's corrected-scores tab: key 8 shows each model's metrics as the judge sees
them, raw, by the humans alone and corrected, each with its interval and n."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable

from rich.console import Console
from textual.widgets import Static, TabbedContent

from w2c_tui.domain.labels import Label
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.agreement import AgreementScreen
from w2c_tui.tui.screens.review import ReviewScreen

Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


def label_half(services: Services) -> None:
    """bob labels the responses of every other item: gold, but direct on every third."""
    rows = services.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 30)
    for index, row in enumerate(rows[::2]):
        detail = services.review.detail(row.id, None)
        for response in detail.responses:
            assert response.id is not None and detail.item.gold is not None
            label = Label.DIRECT if index % 3 == 0 else detail.item.gold
            services.review.label_response("bob", row.id, response.id, label)


def shown(screen: AgreementScreen, panel: str) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(screen.query_one(panel, Static).content)
    return console.export_text()


async def test_key_8_shows_the_corrected_scores(demo: Services, wait_review: Review) -> None:
    label_half(demo)
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_review(app, pilot)
        await app.push_screen(AgreementScreen(demo, "demo", bootstrap=200))
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AgreementScreen) and screen.document is not None
        rows = screen.document.corrected
        assert rows is not None
        assert {(r.target_model, r.judge) for r in rows} == {
            ("acme-7b-instruct", "judge:demo-judge"),
            ("tiny-tools-1b", "judge:demo-judge"),
        }
        await pilot.press("8")
        assert screen.query_one(TabbedContent).active == "tab-corrected"
        text = shown(screen, "#panel-corrected")
        assert "tiny-tools-1b as judge:demo-judge sees it" in text
        accuracy = next(
            r for r in rows if r.metric.value == "accuracy" and r.target_model == "tiny-tools-1b"
        )
        assert accuracy.corrected.value is not None
        assert f"{100 * accuracy.corrected.value:.1f} [" in text
        assert "left out of both" in text


async def test_without_human_labels_the_tab_says_why(demo: Services, wait_review: Review) -> None:
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_review(app, pilot)
        await app.push_screen(AgreementScreen(demo, "demo", bootstrap=50))
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AgreementScreen) and screen.document is not None
        assert screen.document.corrected is None
        await pilot.press("8")
        assert "No corrected scores" in shown(screen, "#panel-corrected")
