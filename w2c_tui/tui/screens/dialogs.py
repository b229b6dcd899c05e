"""Small modal dialogs that return values: annotator, jump, filter, note, checklist."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Select
from textual.widgets.option_list import Option

from w2c_tui.domain.labels import LABELS
from w2c_tui.domain.labels import Label as Behaviour
from w2c_tui.domain.review import ItemFilter, ToolCount


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
        self.dismiss(event.value)

    def action_cancel(self) -> None:
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
            yield Checkbox(
                "my queue: only the units assigned to me, in my queue's order",
                value=flt.queue,
                id="queue",
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
            queue=self.query_one("#queue", Checkbox).value,
            search=self.query_one("#search", Input).value.strip(),
            order=self._current.order,
        )

    @on(Input.Submitted)
    @on(Button.Pressed, "#apply")
    def apply(self) -> None:
        self.dismiss(self._result())

    @on(Button.Pressed, "#clear")
    def clear(self) -> None:
        self.dismiss(self._current.cleared())

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
