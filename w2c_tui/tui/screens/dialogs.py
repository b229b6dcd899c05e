"""Small modal dialogs that return values: annotator, jump, note, checklist (and the filter,
from filter_dialog)."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, SelectionList
from textual.widgets.option_list import Option
from textual.widgets.selection_list import Selection

from w2c_tui.domain.qa import QA_FLAGS
from w2c_tui.tui.screens.filter_dialog import FilterDialog

__all__ = [
    "AnnotatorDialog",
    "AnnotatorSwitchDialog",
    "ChecklistDialog",
    "FilterDialog",
    "JumpDialog",
    "NoteDialog",
]


class AnnotatorDialog(ModalScreen[str]):
    """Asks for the annotator's name at first start."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(
                "Who is labelling? Every label you record carries this name.",
                classes="dialog--title",
            )
            yield Input(placeholder="your name, e.g. alice", id="name")
            yield Label(
                "Saved for next time; override with --annotator or W2C_ANNOTATOR.",
                classes="dialog--hint",
            )

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        name = event.value.strip()
        if name:
            self.dismiss(name)
        else:
            self.notify("A name is needed to record labels.", severity="warning")


class AnnotatorSwitchDialog(ModalScreen[str | None]):
    """Switch who is labelling: type a name (new or known), or ↓ to pick a known one."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, annotators: list[str], current: str) -> None:
        super().__init__()
        self._annotators = annotators
        self._current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(
                f"Label as someone else (now: {self._current})",
                classes="dialog--title",
                markup=False,
            )
            yield Input(placeholder="type a name, or ↓ ↑ to pick one; Enter", id="name")
            if self._annotators:
                yield OptionList(
                    *[Option(Text(name), id=name) for name in self._annotators], id="annotators"
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
        name = event.value.strip()
        if name:
            self.dismiss(name)
        elif self._annotators and self.query_one(OptionList).highlighted is not None:
            highlighted = self.query_one(OptionList).highlighted
            assert highlighted is not None
            self.dismiss(self._annotators[highlighted])

    def action_cancel(self) -> None:
        self.dismiss(None)


class JumpDialog(ModalScreen[str | None]):
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


class NoteDialog(ModalScreen[str | None]):
    """Edits the free-text note on an item."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, note: str) -> None:
        super().__init__()
        self._note = note

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Note on this item (Enter saves, Esc cancels)", classes="dialog--title")
            yield Input(value=self._note, id="note")

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChecklistDialog(ModalScreen[None]):
    """Toggles the QA checklist flags; every toggle is committed as it happens."""

    BINDINGS = [Binding("escape,c,enter", "close", "Close")]

    def __init__(self, active: frozenset[str], commit: Callable[[str, bool], None]) -> None:
        super().__init__()
        self._active = active
        self._commit = commit

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog--wide"):
            yield Label(
                "Quality checklist (When2Call paper, Table 6): space toggles, Esc closes",
                classes="dialog--title",
            )
            yield SelectionList[str](
                *[
                    Selection(
                        Text(f"{spec.group} › {spec.text}"), spec.code, spec.code in self._active
                    )
                    for spec in QA_FLAGS
                ],
                id="flags",
            )

    @on(SelectionList.SelectionToggled)
    def toggled(self, event: SelectionList.SelectionToggled[str]) -> None:
        code = event.selection.value
        self._commit(code, code in event.selection_list.selected)

    def action_close(self) -> None:
        self.dismiss(None)
