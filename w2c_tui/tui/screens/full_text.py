"""Every text of the current item whole (question, answers, the selected response), however
long: a read-only TextArea draws only the lines in view."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, TextArea

from w2c_tui.domain.models import Item


def whole_text(item: Item, response: str | None) -> str:
    """The item's question, its candidate answers and the selected response, in full."""
    parts = [f"# question ({len(item.question):,} characters)", item.question, ""]
    for name, answer in item.answers:
        parts += [f"# answer: {name}", answer, ""]
    if response is not None:
        parts += [f"# the selected response ({len(response):,} characters)", response]
    return "\n".join(parts)


class FullTextDialog(ModalScreen[None]):
    """Read-only, scrollable, searchable with the terminal's own selection; Esc or v closes."""

    BINDINGS = [Binding("escape,v", "close", "close", id="full-text-close")]

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self._title = title
        self._text = text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog--full"):
            yield Label(self._title, classes="dialog--title", markup=False)
            yield TextArea(self._text, read_only=True, soft_wrap=False, id="full-text")
            yield Label("arrows / page keys scroll · Esc closes", classes="dialog--hint")

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def action_close(self) -> None:
        self.dismiss(None)
