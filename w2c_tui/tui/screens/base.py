"""Screens that close once: a dismiss that comes after the screen has left the top is ignored.

Textual's `Screen.dismiss` pops whatever screen is on top. A screen that dismisses itself from a
widget's message (Input.Submitted, DataTable.RowSelected, OptionList.OptionSelected,
Button.Pressed, a drill-down's UnitOpened) can receive two such messages before the first
dismiss is handled: keys typed faster than the screen closes (a double Enter on the datasets
list) queue both. The second dismiss then popped the screen underneath, the review screen,
and left a blank app (found by tests/tui/test_fuzz_keys.py). Screens and dialogs that dismiss
from a message derive from these classes.
"""

from __future__ import annotations

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen, Screen, ScreenResultType


class OnceScreen(Screen[ScreenResultType]):
    """A screen whose dismiss does nothing once it is no longer the screen on top."""

    def dismiss(self, result: ScreenResultType | None = None) -> AwaitComplete:
        """Dismiss with `result` (as Textual does) if this screen is on top; else nothing."""
        if not self.is_active:  # dismissed already, or covered: never pop another screen
            return AwaitComplete()
        return super().dismiss(result)


class OnceModalScreen(OnceScreen[ScreenResultType], ModalScreen[ScreenResultType]):
    """A modal dialog whose dismiss does nothing once it is no longer on top."""
