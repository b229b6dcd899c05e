"""The option lists and drop-downs every screen uses: Textual's, with one crash closed.

Textual 8.2's `OptionList` builds its line index on its first layout. PageUp or PageDown
pressed before that (a drop-down in the instant between opening and being drawn; a list in a
dialog just pushed, or one not displayed) looked up a line that was not there yet and raised
`KeyError`, which closes the app (the key fuzz test found it: a fast typist can do it, Enter
then PageDown). Until the lines exist a page key does nothing; the next one moves as usual.
"""

from __future__ import annotations

from typing import Any, TypeVar

from textual.app import ComposeResult
from textual.widgets import OptionList as TextualOptionList
from textual.widgets import Select as TextualSelect
from textual.widgets import SelectionList

# The overlay and the current-value box are not exported from textual.widgets; the drop-down
# needs both to compose itself with the guarded overlay.
from textual.widgets._select import SelectCurrent, SelectOverlay

T = TypeVar("T")


def laid_out(options: TextualOptionList) -> bool:
    """Whether the list has its lines (a page key may move), or has no options at all."""
    return not options.options or (options.highlighted or 0) in options._index_to_line


class OptionList(TextualOptionList):
    """A plain option list that survives page keys pressed before it is drawn."""

    def _move_page(self, direction: Any) -> None:
        if laid_out(self):
            super()._move_page(direction)


class PagedOverlay(SelectOverlay):
    """The drop-down's list; its page keys wait for the first layout (Textual names a
    widget's CSS types along its first base only, so this stays a SelectOverlay first)."""

    def _move_page(self, direction: Any) -> None:
        if laid_out(self):
            super()._move_page(direction)


class Select(TextualSelect[T]):
    """A `Select` whose list survives page keys pressed before it is drawn."""

    def compose(self) -> ComposeResult:
        yield SelectCurrent(self.prompt)
        yield PagedOverlay(type_to_search=self._type_to_search).data_bind(
            compact=TextualSelect.compact
        )


class RaterList(SelectionList[str]):
    """A selection list whose options are rebuilt with each result (the agreement screen's
    raters): a highlight posted just before a rebuild can name a row that is gone; it is
    dropped, not raised (Textual's list raises OptionDoesNotExist). Page keys wait for the
    lines, as in `OptionList` (a rebuild clears them until the next layout)."""

    def _move_page(self, direction: Any) -> None:
        if laid_out(self):
            super()._move_page(direction)

    def _on_option_list_option_highlighted(
        self, event: TextualOptionList.OptionHighlighted
    ) -> None:
        if event.option_index >= self.option_count:
            event.stop()
            return
        super()._on_option_list_option_highlighted(event)
