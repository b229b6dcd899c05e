"""The items list paints a row it painted before without Textual styling it again (issue 21),
and what it paints is what Textual draws: after moves, labels, a focus change and a new theme."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.review import ReviewScreen
from w2c_tui.tui.widgets.items_list import ItemsList

Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


def drawn_by_textual(items: ItemsList) -> list[Strip]:
    """Every line of the list as Textual draws it afresh (its own line cache emptied)."""
    items._styles_cache.clear()
    return Widget.render_lines(items, items.region.reset_offset)


def painted(items: ItemsList) -> list[Strip]:
    """Every line of the list as the compositor asks for them (the border's column too)."""
    lines = items.render_lines(items.region.reset_offset)
    assert all(line.cell_length == items.region.width for line in lines)
    return lines


async def test_scrolling_styles_only_the_rows_new_on_screen(
    demo: Services, wait_review: Review
) -> None:
    app = W2CApp(demo, annotator="alice", remember_annotator=False)
    async with app.run_test(size=(160, 14)) as pilot:
        screen = await wait_review(app, pilot)
        items = screen.query_one(ItemsList)
        height = items.size.height
        styled = [0]
        real = items._styles_cache.render_line

        def counted(*args: Any, **kwargs: Any) -> Strip:
            styled[0] += 1
            return real(*args, **kwargs)

        items._styles_cache.render_line = counted  # type: ignore[method-assign]
        for _ in range(height - 1):  # to the last row on screen
            await pilot.press("j")
            await pilot.pause()
        assert items.scroll_offset.y == 0
        for _ in range(4):  # each step scrolls the list by one row
            styled[0] = 0
            top = items.scroll_offset.y
            await pilot.press("j")
            await pilot.pause()
            assert items.scroll_offset.y == top + 1
            # the row come into view (with the cursor) and the row the cursor left (first
            # seen with the cursor on it); the other 11 were painted before as they are now
            assert styled[0] <= 2
            assert painted(items) == drawn_by_textual(items)


async def test_what_is_painted_is_what_textual_draws(demo: Services, wait_review: Review) -> None:
    app = W2CApp(demo, annotator="alice", remember_annotator=False)
    async with app.run_test(size=(160, 14)) as pilot:
        screen = await wait_review(app, pilot)
        items = screen.query_one(ItemsList)
        for key in ("j", "j", "1", "1", "k", "m", "1", "j"):  # moves, labels, item QA
            await pilot.press(key)
            await pilot.pause()
            assert painted(items) == drawn_by_textual(items), key
        labelled = painted(items)
        assert any(line.text.startswith("● ") for line in labelled)  # the done marks drawn
        items.focus()
        await pilot.pause()
        focused = painted(items)
        assert focused == drawn_by_textual(items)
        screen.set_focus(None)
        await pilot.pause()
        assert painted(items) == drawn_by_textual(items) != focused  # the border's colour
        app.theme = "textual-light"
        await pilot.pause()
        await pilot.pause()
        assert painted(items) == drawn_by_textual(items) != labelled


async def test_a_narrowed_crop_is_cut_from_the_painted_lines(
    demo: Services, wait_review: Review
) -> None:
    app = W2CApp(demo, annotator="alice", remember_annotator=False)
    async with app.run_test(size=(160, 14)) as pilot:
        screen = await wait_review(app, pilot)
        items = screen.query_one(ItemsList)
        whole = drawn_by_textual(items)
        crop = Region(3, 2, 10, 4)
        cut = items.render_lines(crop)
        assert [line.text for line in cut] == [line.text[3:13] for line in whole[2:6]]
