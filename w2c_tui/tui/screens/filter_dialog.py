"""The filter dialog: which items the review list shows."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Label

from w2c_tui.domain.labels import LABELS
from w2c_tui.domain.labels import Label as Behaviour
from w2c_tui.domain.qa import ANY_FLAG, QA_FLAGS
from w2c_tui.domain.review import ItemFilter, ToolCount
from w2c_tui.tui.screens.base import OnceModalScreen
from w2c_tui.tui.widgets.select import Select
from w2c_tui.tui.widgets.tick import Tick


class FilterDialog(OnceModalScreen[ItemFilter | None]):
    """Chooses which items the list shows (fits a 100×30 terminal)."""

    DEFAULT_CSS = """
    FilterDialog .filter--wide { width: 2fr; }
    FilterDialog #disagree { margin-top: 1; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        current: ItemFilter,
        sources: list[str],
        *,
        focus_search: bool = False,
        blind: bool = False,
    ) -> None:
        super().__init__()
        self._blind = blind
        self._current = current
        self._sources = sources
        self._focus_search = focus_search

    def compose(self) -> ComposeResult:
        flt = self._current
        with Vertical(classes="dialog dialog--wide"):
            yield Label("Filter items (Enter in the search box applies)", classes="dialog--title")
            if self._blind:
                yield Label(
                    "Blind: gold, human ≠ judge, flags and disputes keep only items you finished.",
                    id="blind-note",
                    classes="dialog--hint",
                )
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
                yield Select(
                    [("labelled", "yes"), ("unlabelled", "no")],
                    value=Select.NULL
                    if flt.labelled is None
                    else ("yes" if flt.labelled else "no"),
                    prompt="labelled: any",
                    id="labelled",
                )
            with Horizontal(classes="dialog--row"):
                yield Select(
                    [(s, s) for s in self._sources],
                    value=flt.source if flt.source in self._sources else Select.NULL,
                    prompt="source: any",
                    id="source",
                )
                yield Select(
                    [("any flag", ANY_FLAG)]
                    + [(f"{spec.code}: {spec.text}", spec.code) for spec in QA_FLAGS],
                    value=flt.flag if flt.flag else Select.NULL,
                    prompt="QA flag (anyone's): any item",
                    id="flag",
                    classes="filter--wide",
                )
            yield Tick(
                "only items where a human and the judge disagree",
                value=flt.disagree,
                id="disagree",
                compact=True,
            )
            yield Tick(
                "disagreement queue: only items the raters disagree on, most disputed first",
                value=flt.ranked,
                id="ranked",
                compact=True,
            )
            yield Tick(
                "my queue: only the units assigned to me, in my queue's order",
                value=flt.queue,
                id="queue",
                compact=True,
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
            flag=self._value("#flag"),
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
