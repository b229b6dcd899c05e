"""The items list paints a row it painted before without Textual styling it again (issue 21),
and what it paints is what Textual draws: after moves, labels, a focus change and a new theme."""

from __future__ import annotations

from paint_checks import Review, calls, opened
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from w2c_tui.services import Services
from w2c_tui.tui.widgets.items_list import ItemsList

SMALL = (160, 14)


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
    async with opened(demo, wait_review, SMALL) as (pilot, screen):
        items = screen.query_one(ItemsList)
        with calls(items._styles_cache, "render_line") as styled:
            for _ in range(items.size.height - 1):  # to the last row on screen
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
    async with opened(demo, wait_review, SMALL) as (pilot, screen):
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
        screen.app.theme = "textual-light"
        await pilot.pause()
        await pilot.pause()
        assert painted(items) == drawn_by_textual(items) != labelled


async def test_a_narrowed_crop_is_cut_from_the_painted_lines(
    demo: Services, wait_review: Review
) -> None:
    async with opened(demo, wait_review, SMALL) as (_, screen):
        items = screen.query_one(ItemsList)
        whole = drawn_by_textual(items)
        cut = items.render_lines(Region(3, 2, 10, 4))
        assert [line.text for line in cut] == [line.text[3:13] for line in whole[2:6]]
