"""The drop-down every screen uses: Textual's `Select` with one crash closed.

Textual 8.2's overlay builds its line index on its first layout. PageUp or PageDown pressed
in the instant between opening the list and that layout looked up a line that was not there
yet and raised `KeyError`, which closes the app (the key fuzz test found it; a fast typist
can do it: Enter, PageDown). Until the lines exist a page key does nothing; the next one
moves as usual.
"""

from __future__ import annotations

from typing import Any, TypeVar

from textual.app import ComposeResult
from textual.widgets import Select as TextualSelect

# The overlay and the current-value box are not exported from textual.widgets; the drop-down
# needs both to compose itself with the guarded overlay.
from textual.widgets._select import SelectCurrent, SelectOverlay


class PagedOverlay(SelectOverlay):
    """The drop-down list; its page keys wait for the first layout."""

    def _move_page(self, direction: Any) -> None:
        highlighted = self.highlighted or 0
        if self.options and highlighted not in self._index_to_line:
            return
        super()._move_page(direction)


T = TypeVar("T")


class Select(TextualSelect[T]):
    """A `Select` whose list survives page keys pressed before it is drawn."""

    def compose(self) -> ComposeResult:
        yield SelectCurrent(self.prompt)
        yield PagedOverlay(type_to_search=self._type_to_search).data_bind(
            compact=TextualSelect.compact
        )
