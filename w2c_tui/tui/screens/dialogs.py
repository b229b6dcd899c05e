"""Small modal dialogs that return values: annotator, jump, filter, note, checklist."""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, SelectionList
from textual.widgets.selection_list import Selection

from w2c_tui.domain.labels import LABELS
from w2c_tui.domain.labels import Label as Behaviour
from w2c_tui.domain.qa import QA_FLAGS
from w2c_tui.domain.review import ItemFilter, ToolCount


class AnnotatorDialog(ModalScreen[str]):
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
        name = event.value.strip()
        if name:
            self.dismiss(name)
        else:
            self.notify("A name is needed to record labels.", severity="warning")


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
                    Selection(f"{spec.group} › {spec.text}", spec.code, spec.code in self._active)
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


ANY = "any"


class FilterDialog(ModalScreen[ItemFilter | None]):
    """Chooses which items the list shows."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self, current: ItemFilter, sources: list[str], *, focus_search: bool = False
    ) -> None:
        super().__init__()
        self._current = current
        self._sources = sources
        self._focus_search = focus_search

    def compose(self) -> ComposeResult:
        flt = self._current
        with Vertical(classes="dialog dialog--wide"):
            yield Label("Filter items (Enter in the search box applies)", classes="dialog--title")
            yield Input(value=flt.search, placeholder="search question text or uuid", id="search")
            with Horizontal(classes="dialog--row"):
                yield Select(
                    [(label.value, label.value) for label in LABELS],
                    value=flt.gold.value if flt.gold else Select.NULL,
                    prompt="gold: any",
                    id="gold",
                )
                yield Select(
                    [("0 tools", "0"), ("1 tool", "1"), ("2+ tools", "2+")],
                    value=flt.tools.value if flt.tools else Select.NULL,
                    prompt="tools: any",
                    id="tools",
                )
            with Horizontal(classes="dialog--row"):
                yield Select(
                    [(s, s) for s in self._sources],
                    value=flt.source if flt.source in self._sources else Select.NULL,
                    prompt="source: any",
                    id="source",
                )
                yield Select(
                    [("labelled", "yes"), ("unlabelled", "no")],
                    value=Select.NULL
                    if flt.labelled is None
                    else ("yes" if flt.labelled else "no"),
                    prompt="labelled: any",
                    id="labelled",
                )
            yield Checkbox(
                "only items where a human and the judge disagree", value=flt.disagree, id="disagree"
            )
            yield Checkbox(
                "disagreement queue: only items the raters disagree on, most disputed first",
                value=flt.ranked,
                id="ranked",
            )
            with Horizontal(classes="dialog--buttons"):
                yield Button("Apply", variant="primary", id="apply")
                yield Button("Clear all", id="clear")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        if self._focus_search:
            self.query_one("#search", Input).focus()

    def _value(self, selector: str) -> str | None:
        value = self.query_one(selector, Select).value
        return value if isinstance(value, str) else None

    def _result(self) -> ItemFilter:
        gold = self._value("#gold")
        tools = self._value("#tools")
        labelled = self._value("#labelled")
        return ItemFilter(
            gold=Behaviour(gold) if gold else None,
            tools=ToolCount(tools) if tools else None,
            source=self._value("#source"),
            labelled=None if labelled is None else labelled == "yes",
            disagree=self.query_one("#disagree", Checkbox).value,
            ranked=self.query_one("#ranked", Checkbox).value,
            search=self.query_one("#search", Input).value.strip(),
        )

    @on(Input.Submitted)
    @on(Button.Pressed, "#apply")
    def apply(self) -> None:
        self.dismiss(self._result())

    @on(Button.Pressed, "#clear")
    def clear(self) -> None:
        self.dismiss(ItemFilter())

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
