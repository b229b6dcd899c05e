"""The flag filter in the filter dialog and the QA summary renderer at small and large sizes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from rich.console import Console
from textual.widgets import Select

from w2c_tui.domain.labels import Label
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.dialogs import FilterDialog
from w2c_tui.tui.screens.review import ReviewScreen
from w2c_tui.tui.widgets.items_list import ItemsList
from w2c_tui.tui.widgets.qa_summary import render_qa_summary

Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


def _flag_two(demo: Services) -> list[int]:
    rows = demo.review.window("demo", ItemFilter(), ReviewMode.ITEM_QA, None, 0, 30)
    demo.review.set_flag("bob", rows[4].id, "qca_vague", True)
    demo.review.set_flag("bob", rows[9].id, "rfi_reason", True)
    demo.review.label_item("bob", rows[4].id, Label.CANNOT_ANSWER)
    return [rows[4].id, rows[9].id]


@pytest.mark.parametrize("size", [(100, 30), (160, 45)])
async def test_the_filter_dialog_offers_the_qa_flags(
    demo: Services, wait_review: Review, size: tuple[int, int]
) -> None:
    flagged = _flag_two(demo)
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=size) as pilot:
        screen = await wait_review(app, pilot)
        await pilot.press("m")  # item QA: the list is in file order
        await pilot.press("f")
        assert isinstance(app.screen, FilterDialog)
        app.screen.query_one("#flag", Select).value = "any"
        await pilot.pause()
        await pilot.click("#apply")  # reachable at this size
        await pilot.pause()
        assert screen.state.filter.flag == "any"
        assert screen.query_one(ItemsList).count == 2
        assert screen.state.detail is not None and screen.state.detail.item.id in flagged
        await pilot.press("f")
        app.screen.query_one("#flag", Select).value = "qca_vague"
        await pilot.pause()
        await pilot.click("#apply")
        await pilot.pause()
        assert screen.state.filter.flag == "qca_vague", (app.screen, screen.state.filter)
        assert screen.query_one(ItemsList).count == 1
        assert screen.state.detail is not None and screen.state.detail.item.id == flagged[0]


@pytest.mark.parametrize("width", [100, 160])
def test_the_qa_summary_renders_every_number_uncut(demo: Services, width: int) -> None:
    _flag_two(demo)
    doc = demo.qa.summary("demo")
    console = Console(width=width, record=True, color_system=None)
    console.print(render_qa_summary(doc))
    text = console.export_text()
    assert "…" not in text
    assert "2 of 30 items reviewed" in text
    assert "Generic / vague terms (no specific values)" in " ".join(text.split())
    assert "100.0%" in text  # every item bob reviewed has an issue
    for line in text.splitlines():
        assert len(line) <= width
