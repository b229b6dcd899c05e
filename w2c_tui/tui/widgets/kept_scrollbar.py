"""A vertical scrollbar that keeps the lines it drew, by everything they are drawn from.

The item pane's scrollbar is drawn again for every new item (its thumb follows the item's
length), and each of its 43 lines costs Textual's per-line styling: 1.2–1.4 ms of a ~20 ms
step. Items repeat lengths, so the same bar comes back: `KeptScrollBar` keeps the lines of the
last `KEPT` bars, keyed by the renderable's own inputs (geometry, position and style), and
paints a bar it has drawn before without drawing it again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

from textual.geometry import Region
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip

KEPT = 64
"""How many bars' lines are kept (each is one short strip per line of the pane)."""


class KeptScrollBar(ScrollBar):
    """A `ScrollBar` whose lines are found again for a bar drawn before."""

    def __init__(self, vertical: bool = True, name: str | None = None, *, thickness: int = 1):
        super().__init__(vertical, name, thickness=thickness)
        self._kept: OrderedDict[Hashable, list[Strip]] = OrderedDict()

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
            self._styles_cache.clear()  # draw every line anew for this bar
            lines = super().render_lines(self.size.region)
            self._kept[key] = lines
            if len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        lines = lines[crop.y : crop.bottom]
        if crop.column_span != (0, self.size.width):
            lines = [line.crop(crop.x, crop.right) for line in lines]
        return lines
