"""The last guard between stored text and the terminal: a line filter that drops control
characters (ESC, BEL, NUL, C1, bidi overrides, line separators) from every rendered line.

Names and other stored text are shown through `domain.names.printable` (visible escapes)
wherever the TUI puts them on screen; this filter catches any path that was missed, so that no
byte from the database can retitle the terminal, move its cursor or ring its bell. Control
characters take no cells, so dropping them changes no layout.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from w2c_tui.domain.names import BIDI_CONTROLS

_DROP = {c: None for c in range(0x20)} | {0x7F: None} | {c: None for c in range(0x80, 0xA0)}
_DROP |= {ord(c): None for c in BIDI_CONTROLS} | {0x2028: None, 0x2029: None}


class ControlFilter(LineFilter):
    """Removes control characters from the text of rendered segments."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        """`segments` without control characters in their text (control segments kept)."""
        out: list[Segment] = []
        changed = False
        for segment in segments:
            text = segment.text
            if segment.control is None and not text.isprintable():
                clean = text.translate(_DROP)
                if clean != text:
                    changed = True
                    if clean:
                        out.append(Segment(clean, segment.style, segment.control))
                    continue
            out.append(segment)
        return out if changed else segments


CONTROL_FILTER = ControlFilter()
"""The one instance the app adds to its line filters."""
