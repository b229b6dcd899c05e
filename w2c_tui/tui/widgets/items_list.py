"""A virtual items list: renders only the visible lines; rows come from the screen's cache."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.segment import Segment
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from w2c_tui.domain.labels import Label
from w2c_tui.domain.models import ItemRow
from w2c_tui.tui.widgets.styled_lines import cropped, style_anew

Rows = Callable[[int], ItemRow | None]
GOLD_ABBREV = {
    Label.DIRECT: "DA",
    Label.TOOL_CALL: "TC",
    Label.REQUEST_FOR_INFO: "RI",
    Label.CANNOT_ANSWER: "CA",
}


class ItemsList(ScrollView, can_focus=True):
    """One line per item; the screen owns the cursor and the data source."""

    DEFAULT_CSS = """
    ItemsList { background: $surface; }
    ItemsList > .items-list--cursor { background: $accent 40%; text-style: bold; }
    ItemsList > .items-list--labelled { color: $success; }
    ItemsList > .items-list--notools { color: $warning; text-style: bold; }
    ItemsList > .items-list--gold { color: $secondary; }
    ItemsList > .items-list--dim { color: $text-muted; }
    """
    COMPONENT_CLASSES = {
        "items-list--cursor",
        "items-list--labelled",
        "items-list--notools",
        "items-list--gold",
        "items-list--dim",
    }

    cursor: reactive[int] = reactive(0, repaint=False)
    """Row number of the highlighted item in the filtered list (its watcher repaints the two
    lines that changed, not the whole list)."""
    hide_gold: reactive[bool] = reactive(False, repaint=False)
    """Blind mode: the gold column hidden, rows numbered by their place in the list (the file
    position of the real judge file names its gold)."""

    @dataclass
    class Clicked(Message):
        """The user clicked a row."""

        index: int

    def __init__(
        self, rows: Rows, count: int = 0, *, id: str | None = None, shown: set[int] | None = None
    ) -> None:
        super().__init__(id=id)
        self._rows = rows
        self.gold_shown: set[int] = shown if shown is not None else set()
        """Ids of the items whose gold this list has drawn (their labels are not blind)."""
        self._count = count
        self.virtual_size = Size(0, count)
        self.generation = -1
        """The list generation shown (the screen resets the view when its list is new)."""
        self._painted: dict[tuple[int, bool, int], Strip] = {}
        """Lines as painted, after Textual's styles (the border), by (row, is the cursor,
        width): scrolling by one line styles one (`render_lines`)."""

    @property
    def count(self) -> int:
        """How many rows the list holds."""
        return self._count

    def reset(self, count: int, generation: int = -1) -> None:
        """New data (a filter or the dataset changed): repaint everything."""
        self.generation = generation
        self._painted.clear()
        self._count = count
        self.virtual_size = Size(self.size.width, count)
        self.cursor = min(self.cursor, max(count - 1, 0))
        self.refresh()

    def row(self, index: int) -> ItemRow | None:
        """The row at `index` (from the screen's cache)."""
        return self._rows(index)

    def watch_cursor(self, old: int, new: int) -> None:
        top = self.scroll_offset.y
        self.scroll_to_cursor()
        if self.scroll_offset.y != top:
            self.refresh()
            return
        width = self.size.width
        for index in (old, new):  # only the two lines that changed
            self.refresh(Region(0, index - top, width, 1))

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        if self.styles.scrollbar_visibility != "hidden":
            super().watch_scroll_y(old_value, new_value)
            return
        # The review screen hides this list's scrollbar (app.tcss). Textual would still tell
        # it the new position: a refresh of a widget that is not on screen, after which the
        # compositor rebuilds its map of the whole screen on the next frame (~1 ms a step).
        if round(old_value) != round(new_value):
            self.refresh(self.size.region)

    def repaint_row(self, index: int) -> None:
        """One row changed (its labelled mark): repaint its line, if it is on screen."""
        for cursor in (False, True):
            self._painted.pop((index, cursor, self.region.width), None)
        y = index - self.scroll_offset.y
        if 0 <= y < self.size.height:
            self.refresh(Region(0, y, self.size.width, 1))

    def notify_style_update(self) -> None:
        self._painted.clear()  # a theme or style change (focus: the border): every line is stale
        super().notify_style_update()

    def watch_hide_gold(self) -> None:
        self._painted.clear()
        self.refresh()

    def scroll_to_cursor(self) -> None:
        """Keep the cursor row in view."""
        height = self.scrollable_content_region.height or 1
        top = self.scroll_offset.y
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False)

    def on_click(self, event: events.Click) -> None:
        index = self.scroll_offset.y + event.y
        if 0 <= index < self._count:
            self.post_message(self.Clicked(index))

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines as painted, found again by row: scrolling by one line styles one line.

        Textual styles every line of a refreshed widget anew (its line cache is by screen
        row, and a scroll refreshes them all): 43 lines through its per-line pipeline on each
        step down a long list, ~2 ms. A row painted before is painted again from
        `_painted` (lines depend on their row, the cursor and the width alone: the list has a
        right border only, no top or bottom one, no padding)."""
        gutter = self.styles.gutter
        width = self.region.width  # the border's column included, as the compositor asks
        if gutter.top or gutter.bottom or self.scroll_offset.x or width <= 0:
            return super().render_lines(crop)
        top = self.scroll_offset.y
        lines: list[Strip] = []
        for y in crop.line_range:
            index = top + y
            key = (index, index == self.cursor, width)
            line = self._painted.get(key)
            if line is None:
                line = style_anew(self, y, width)
                if len(self._painted) > 1_000:
                    self._painted.clear()
                self._painted[key] = line
            lines.append(line)
        return cropped(lines, crop, width)

    def render_line(self, y: int) -> Strip:
        """The row's content (Textual styles it once; `render_lines` keeps the result)."""
        return self._render_row(self.scroll_offset.y + y, self.scrollable_content_region.width)

    def _render_row(self, index: int, width: int) -> Strip:
        row = self.row(index)
        if row is None:
            return Strip.blank(width, self.rich_style)
        base = self.rich_style
        cursor = index == self.cursor
        style_of = self.get_component_rich_style
        line_style = base + style_of("items-list--cursor") if cursor else base
        mark = Segment(
            "● " if row.labelled else "○ ",
            line_style + style_of("items-list--labelled")
            if row.labelled
            else line_style + style_of("items-list--dim"),
        )
        shown = index + 1 if self.hide_gold else row.position + 1
        number = Segment(f"{shown:>5} ", line_style + style_of("items-list--dim"))
        if row.dispute is not None:  # the disagreement queue shows the dispute instead
            gold = Segment(f"{row.dispute:.2f} ", line_style + style_of("items-list--gold"))
        else:
            gold_text = "··" if self.hide_gold or row.gold is None else GOLD_ABBREV[row.gold]
            if gold_text != "··":
                self.gold_shown.add(row.id)
            gold = Segment(f"{gold_text} ", line_style + style_of("items-list--gold"))
        tools_style = (
            line_style + style_of("items-list--notools")
            if row.n_tools == 0
            else line_style + style_of("items-list--dim")
        )
        tools = Segment(f"{row.n_tools:>2}⚒ ", tools_style)
        question = " ".join(row.question.split())
        text = Segment(question, line_style)
        segments = [mark, number, gold, tools, text]
        strip = Strip(segments).crop(0, width)
        if strip.cell_length < width:
            strip = strip.extend_cell_length(width, line_style)
        return strip
