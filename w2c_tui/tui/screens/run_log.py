"""A run's log, followed live: what the worker appends shows up as it is written."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Log, Static

from w2c_tui.io.follow import LogTail

FOLLOW_EVERY_S = 0.5
SHOWN_BYTES = 256 * 1024
"""The end of a long log that the dialog opens with."""


class LogDialog(ModalScreen[None]):
    """The run's log, the newest lines at the bottom, appended live (Esc closes)."""

    BINDINGS = [Binding("escape,l,q", "close", "close")]

    def __init__(self, path: str | None) -> None:
        super().__init__()
        self.path = path
        self.tail = LogTail(Path(path), last_bytes=SHOWN_BYTES) if path else None
        self._partial = ""
        """The end of the last read when it stopped inside a line."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog--wide", id="run-log"):
            yield Static(
                f"{self.path or 'no log'} (followed live; Esc closes)", classes="dialog--title"
            )
            yield Log(id="run-log-lines", highlight=False, auto_scroll=True)

    def on_mount(self) -> None:
        log = self.query_one(Log)
        if self.tail is None or not Path(self.tail.path).exists():
            log.write_line("no log yet: it appears when the worker starts")
        self.follow()
        self.set_interval(FOLLOW_EVERY_S, self.follow)

    def follow(self) -> None:
        """Append what the worker wrote since the last look."""
        if self.tail is None:
            return
        text = self.tail.read()
        if not text:
            return
        lines = (self._partial + text).split("\n")
        self._partial = lines.pop()
        self.query_one(Log).write_lines(lines)

    def action_close(self) -> None:
        self.dismiss(None)
