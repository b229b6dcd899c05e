"""A scrolling pane that paints lines made ahead of time, without a layout pass per change.

The review panes used to be a scrolling container around a `Static` (the item) or around one
bordered `Static` per response. Every new item then changed those widgets' heights, and Textual
laid the whole screen out again (twice: once for the new heights, once more for the container's
new virtual size), repainting every widget after each pass. A `LinesPane` has a fixed size of
its own: showing new lines sets its virtual size without asking for a layout, and repaints the
pane alone. Its vertical scrollbar is always shown, so the lines' width does not depend on their
number (a scrollbar appearing or going would need a layout, and lines made for the other width),
and it keeps the lines of the bars it drew (kept_scrollbar.py): an item of a length seen before
repaints the bar without drawing it again.
"""

from __future__ import annotations

from rich.console import RenderableType
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.strip import Strip

from w2c_tui.tui.widgets.kept_scrollbar import KeptScrollBar
from w2c_tui.tui.widgets.prerendered import RenderTarget


class LinesPane(ScrollView):
    """Shows `lines` (made by `make_lines` for the pane's width); a subclass says what they are."""

    DEFAULT_CSS = """
    LinesPane { overflow-x: hidden; overflow-y: scroll; scrollbar-size-vertical: 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Strip] = []
        """What the pane shows, one `Strip` per line, made for `line_width`."""
        self._painted: list[Strip] = []
        """`lines` cut or padded to the pane's width, as painted."""
        self._blank = Strip.blank(0)
        """A line below the last one."""

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        """The pane's scrollbar: a `KeptScrollBar`, made as Textual makes its own (8.2.8)."""
        if self._vertical_scrollbar is None:
            bar = KeptScrollBar(
                vertical=True, name="vertical", thickness=self.scrollbar_size_vertical
            )
            bar.display = False
            self._vertical_scrollbar = bar
            self.app._start_widget(self, bar)
        return self._vertical_scrollbar

    @property
    def line_width(self) -> int:
        """The width the lines are made for: the pane's content, less its scrollbar (0 before
        the first layout)."""
        return max(self.scrollable_content_region.width, 0)

    def make_lines(self) -> list[Strip]:
        """The lines to show, made for `line_width` (a subclass's content)."""
        return []

    def render_target(self, inset: int = 0) -> RenderTarget | None:
        """Where lines `inset` cells narrower than the pane's will be painted (None before the
        first layout). Call on the UI thread; rendering against it is safe on any thread."""
        width = self.line_width - inset
        if width <= 0:
            return None
        console = self.app.console
        options = self.app.console_options.update(highlight=False, width=width)
        return RenderTarget(width, self.visual_style.rich_style, console, options)

    def update_lines(self) -> None:
        """Make the lines again for the pane's width and show them: a repaint of this pane,
        no layout (its size does not depend on its lines)."""
        lines = self.make_lines()
        if lines is self.lines:
            return  # the same lines (the same item again after a label): nothing to repaint
        self.lines = lines
        width, style = self.line_width, self.visual_style.rich_style
        self._painted = [line.adjust_cell_length(width, style) for line in lines]
        self._blank = Strip.blank(width, style)
        size = Size(width, len(lines))
        if size != self.virtual_size:
            # Textual's own path for a virtual size that needs no layout (Widget._size_updated
            # with layout=False): the reactive set quietly, the scrollbar told (textual 8.2.8)
            self.set_reactive(ScrollView.virtual_size, size)
            self._scroll_update(size)
        self.refresh()

    def on_resize(self) -> None:
        """A new width (or the first layout): the lines are made again for it."""
        self.update_lines()

    def notify_style_update(self) -> None:
        """A new theme or style: the lines are made again in it (each is made with the pane's
        base style; lines already made for that style are found again, not re-rendered)."""
        super().notify_style_update()
        if self.is_mounted:
            self.update_lines()

    def render_line(self, y: int) -> Strip:
        index = y + round(self.scroll_offset.y)
        if 0 <= index < len(self._painted):
            return self._painted[index]
        return self._blank

    def text(self) -> str:
        """Every line's text, scrolled out of view too (what the pane holds, for tests)."""
        return "\n".join(line.text for line in self.lines)

    def sources(self) -> list[RenderableType]:
        """What the lines were made from, whole (a title cut to the pane's width included):
        tests render it wide to look for what must not show."""
        return []
