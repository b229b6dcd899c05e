"""The help screen: every key of the review screen, grouped, and the datasets screen's, as
currently bound."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from w2c_tui.tui.bindings import DESCRIPTIONS, HELP_GROUPS, REVIEW_BINDINGS
from w2c_tui.tui.screens.datasets import DatasetsScreen

KEY_NAMES = {
    "question_mark": "?",
    "slash": "/",
    "space": "space",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "down": "↓",
    "up": "↑",
}


def key_text(keys: str) -> str:
    """'j,n,down' → 'j n ↓'."""
    return " ".join(KEY_NAMES.get(k.strip(), k.strip()) for k in keys.split(","))


class HelpScreen(ModalScreen[None]):
    """All keys; Esc or ? closes."""

    BINDINGS = [Binding("escape,question_mark,q", "close", "close", id="help-close")]

    def __init__(self, keymap: dict[str, str] | None = None) -> None:
        super().__init__()
        self.keymap = keymap or {}

    def compose(self) -> ComposeResult:
        by_id = {b.id: b for b in REVIEW_BINDINGS}
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", min_width=12)
        table.add_column()
        for group, ids in HELP_GROUPS:
            table.add_row(Text(group, style="underline"), "")
            for binding_id in ids:
                binding = by_id[binding_id]
                keys = self.keymap.get(binding_id, binding.key)
                table.add_row(key_text(keys), DESCRIPTIONS[binding_id])
            table.add_row("", "")
        table.add_row(Text("On the datasets screen (d)", style="underline"), "")
        for own in DatasetsScreen.BINDINGS:
            assert isinstance(own, Binding) and own.id is not None
            table.add_row(key_text(self.keymap.get(own.id, own.key)), own.description)
        table.add_row("", "")
        table.add_row(Text("Anywhere", style="underline"), "")
        table.add_row("q", "quit (a label not saved yet: asks first)")
        table.add_row("ctrl+p", "command palette")
        with VerticalScroll(classes="dialog dialog--wide", id="help"):
            yield Static(
                Text(
                    "Keys — remap any of them in the [keys] table of your "
                    'config file, e.g. undo = "z"',
                    style="bold",
                )
            )
            yield Static(table)

    def action_close(self) -> None:
        self.dismiss(None)


class KeysDialog(ModalScreen[None]):
    """The keys of another screen (a list of (keys, what they do)); Esc or ? closes."""

    BINDINGS = [Binding("escape,question_mark", "close", "close", id="keys-close")]

    def __init__(self, title: str, keys: list[tuple[str, str]]) -> None:
        super().__init__()
        self._title = title
        self._keys = keys

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", min_width=12)
        table.add_column()
        for keys, what in self._keys:
            table.add_row(keys, what)
        with VerticalScroll(classes="dialog dialog--wide"):
            yield Static(Text(f"{self._title} — keys (Esc closes)", style="bold"))
            yield Static(table)

    def action_close(self) -> None:
        self.dismiss(None)
