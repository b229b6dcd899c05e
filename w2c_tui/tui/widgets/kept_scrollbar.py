"""A vertical scrollbar that keeps the lines it drew, by everything they are drawn from.

The item pane's scrollbar is drawn again for every new item (its thumb follows the item's
length), and each of its 43 lines costs Textual's per-line styling: 1.2–1.4 ms of a ~20 ms
step. Items repeat lengths, so the same bar comes back: `KeptScrollBar` keeps the lines of the
last `KEPT` bars, keyed by the renderable's own inputs (geometry, position and style), and
paints a bar it has drawn before without drawing it again. A bar not seen before is made of
lines seen before (a one-column bar has a handful: the track, the thumb, the thumb's ends), so
each line's content is styled by Textual once and found again after (`_styled`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

from textual.geometry import Region
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip
from textual.widget import Widget

from w2c_tui.tui.widgets.styled_lines import cropped, style_anew

KEPT = 64
"""How many bars' lines are kept (each is one short strip per line of the pane)."""


class KeptScrollBar(ScrollBar):
    """A `ScrollBar` whose lines are found again for a bar drawn before."""

    def __init__(self, vertical: bool = True, name: str | None = None, *, thickness: int = 1):
        super().__init__(vertical, name, thickness=thickness)
        self._kept: OrderedDict[Hashable, list[Strip]] = OrderedDict()
        self._styled: dict[Hashable, Strip] = {}
        """Each line as Textual styled it, by its content and width."""

    def _key(self) -> Hashable | None:
        """What this bar's lines are drawn from: its size and the renderable's inputs (None:
        a renderable other than Textual's bar, not kept)."""
        bar = self.render()
        if type(bar) is not ScrollBarRender:
            return None
        return (
            self.size,
            bar.virtual_size,
            bar.window_size,
            bar.position,
            bar.thickness,
            bar.vertical,
            bar.style,
            tuple(self.get_line_filters()),
        )

    def render_lines(self, crop: Region) -> list[Strip]:
        key = self._key()
        if key is None:
            return super().render_lines(crop)
        lines = self._kept.get(key)
        if lines is None:
            lines = self._draw()
            self._kept[key] = lines
            if len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return cropped(lines[crop.y : crop.bottom], crop, self.size.width)

    def _draw(self) -> list[Strip]:
        """Every line of this bar, each line's content styled by Textual the first time it is
        seen with this width, these backgrounds and these filters."""
        width = self.size.width
        around = (width, self.background_colors, tuple(self.get_line_filters()))
        lines = []
        for y in range(self.size.height):
            content = Widget.render_line(self, y)  # the bar's own line, before Textual's styles
            line_key = (tuple(content), around)
            line = self._styled.get(line_key)
            if line is None:
                line = style_anew(self, y, width)
                if len(self._styled) > 4 * KEPT:
                    self._styled.clear()
                self._styled[line_key] = line
            lines.append(line)
        return lines
