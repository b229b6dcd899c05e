"""A checkbox whose box says its state in the glyph (X or blank), not only in its colour:
Textual's Checkbox draws X either way, which reads as ticked on a monochrome or colour-blind
screen."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Checkbox


class Tick(Checkbox):
    """A Checkbox drawn `▐X▌` when on and `▐ ▌` when off."""

    @property
    def _button(self) -> Content:
        self.BUTTON_INNER = "X" if self.value else " "
        return super()._button
