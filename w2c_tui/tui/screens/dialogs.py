"""Small modal dialogs that return values: annotator, jump, filter, note, checklist."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Input, Label
from textual.widgets.option_list import Option

from w2c_tui.domain.labels import LABELS
from w2c_tui.domain.labels import Label as Behaviour
from w2c_tui.domain.names import clean_name, clean_note, name_problem, printable
from w2c_tui.tui.screens.base import OnceModalScreen
from w2c_tui.tui.screens.filter_dialog import FilterDialog
from w2c_tui.tui.widgets.select import OptionList

__all__ = [
    "AnnotatorDialog",
    "AnnotatorSwitchDialog",
    "FilterDialog",
    "JumpDialog",
    "NoteDialog",
]


def typed_name(screen: ModalScreen[str] | ModalScreen[str | None], value: str) -> str | None:
    """The name typed (NFC, trimmed), or None after telling why it cannot be a name (blank,
    a control character, too long: `domain.names`)."""
    problem = name_problem(value)
    if problem is None:
        return clean_name(value)
    if not value.strip():
        screen.notify("A name is needed to record labels.", severity="warning")
    else:
        screen.notify(f"Not a name: the name {problem}.", severity="warning", markup=False)
    return None


class AnnotatorDialog(OnceModalScreen[str]):
    """Asks for the annotator's name at first start (in a browser: at every session)."""

    def __init__(self, *, remembered: bool = True) -> None:
        super().__init__()
        self.remembered = remembered

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(
                "Who is labelling? Every label you record carries this name.",
                classes="dialog--title",
            )
            yield Input(placeholder="your name, e.g. alice", id="name")
            yield Label(
                "Saved for next time; override with --annotator or W2C_ANNOTATOR."
                if self.remembered
                else "For this session only: the labels you record here carry this name.",
                classes="dialog--hint",
            )

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        name = typed_name(self, event.value)
        if name:
            self.dismiss(name)


class AnnotatorSwitchDialog(OnceModalScreen[str | None]):
    """Switch who is labelling: type a name (new or known), or ↓ to pick a known one."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, annotators: list[str], current: str) -> None:
        super().__init__()
        self._annotators = annotators
        self._current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(
                f"Label as someone else (now: {printable(self._current)})",
                classes="dialog--title",
                markup=False,
            )
            yield Input(placeholder="type a name, or ↓ ↑ to pick one; Enter", id="name")
            if self._annotators:
                yield OptionList(
                    *[Option(Text(printable(name)), id=name) for name in self._annotators],
                    id="annotators",
                )
            yield Label(
                "Each annotator has their own labels, queue and undo history.",
                classes="dialog--hint",
            )

    def on_mount(self) -> None:
        if self._annotators:
            self.query_one(OptionList).highlighted = None  # ↓ starts at the first name
        self.query_one(Input).focus()

    def on_key(self, event: Key) -> None:
        # ↑ / ↓ move through the known names while the cursor stays in the name field
        if event.key not in ("down", "up") or not self._annotators:
            return
        options = self.query_one(OptionList)
        current = options.highlighted
        step = 1 if event.key == "down" else -1
        start = -1 if current is None else current
        options.highlighted = max(0, min(start + step, len(self._annotators) - 1))
        event.stop()

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    @on(Input.Submitted)
    def typed(self, event: Input.Submitted) -> None:
        if event.value.strip():
            name = typed_name(self, event.value)
            if name:
                self.dismiss(name)
        elif self._annotators and self.query_one(OptionList).highlighted is not None:
            highlighted = self.query_one(OptionList).highlighted
            assert highlighted is not None
            self.dismiss(self._annotators[highlighted])

    def action_cancel(self) -> None:
        self.dismiss(None)


class JumpDialog(OnceModalScreen[str | None]):
    """Asks for a uuid (or a unique prefix) to jump to."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Jump to item uuid (a unique prefix is enough)", classes="dialog--title")
            yield Input(placeholder="uuid", id="uuid")

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class NoteDialog(OnceModalScreen[str | None]):
    """Edits the free-text note on an item; F1–F4 label the item meanwhile (digits are text)."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        *[Binding(f"f{n}", f"label({n})", LABELS[n - 1].value) for n in range(1, 5)],
    ]

    def __init__(
        self, note: str, label: Callable[[Behaviour], Behaviour | None] | None = None
    ) -> None:
        super().__init__()
        self._note = note
        self._label = label

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Note on this item (Enter saves, Esc cancels)", classes="dialog--title")
            yield Input(value=self._note, id="note")
            if self._label is not None:
                yield Label(
                    "F1 direct · F2 tool call · F3 request for info · F4 cannot answer: label "
                    "the item and keep writing",
                    id="note-label",
                    classes="dialog--hint",
                )

    def action_label(self, number: int) -> None:
        """Record the item's label without leaving the note."""
        if self._label is not None:
            current = self._label(LABELS[number - 1])
            shown = current.display_name if current else "not saved"
            self.query_one("#note-label", Label).update(f"your label: {shown} (F1–F4 changes it)")

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        self.dismiss(clean_note(event.value))  # a pasted control character is dropped

    def action_cancel(self) -> None:
        self.dismiss(None)
