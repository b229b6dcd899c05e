"""The line above the side panes that says what finishing the last item revealed."""

from __future__ import annotations

from textual.widgets import Static

from w2c_tui.tui.widgets.same_size import update_same_size


class RevealLine(Static):
    """`#3 done · gold … · you: …` (blind mode), hidden while there is nothing to say; a new
    text of as many rows as the one shown repaints the line alone (no layout pass)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.display = False
        self.text = ""
        """What the line says ("" while hidden)."""

    def show(self, text: str) -> None:
        """Say `text`; hide the line when it is empty."""
        if text == self.text:
            return
        self.text = text
        if not text:
            self.display = False
        elif not self.display:
            self.display = True  # appearing: laid out anyway
            self.update(text)
        else:
            update_same_size(self, text)
