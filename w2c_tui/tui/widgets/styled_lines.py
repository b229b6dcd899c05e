"""Lines as Textual paints them, for widgets that keep their painted lines themselves
(`ItemsList` by row, `KeptScrollBar` by bar and by line content).

Textual's own line cache is by screen row and is emptied by every refresh; these widgets find
a line painted before by what it shows, and ask Textual to style only the lines they have not
painted yet, one at a time.
"""

from __future__ import annotations

from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget


def style_anew(widget: Widget, y: int, width: int) -> Strip:
    """Row `y` of `widget` (`width` cells: its region's) styled by Textual now: its line for
    that row is marked stale first, so what an earlier row showed there is not returned."""
    row = Region(0, y, width, 1)
    widget._styles_cache.set_dirty(row)
    return Widget.render_lines(widget, row)[0]


def cropped(lines: list[Strip], crop: Region, width: int) -> list[Strip]:
    """The columns of `crop` from whole lines `width` cells wide (the rows are already
    `crop`'s)."""
    if crop.column_span == (0, width):
        return lines
    return [line.crop(crop.x, crop.right) for line in lines]
