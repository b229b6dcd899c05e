"""The item-QA checklist: the checks of the item's gold class first (the paper's Table 6),
every check on demand, and the item's label from 1–4 without leaving the item."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label
from textual.widgets.option_list import Option

from w2c_tui.domain.labels import LABELS
from w2c_tui.domain.labels import Label as Behaviour
from w2c_tui.domain.qa import QAFlagSpec, checks_for
from w2c_tui.tui.widgets.select import OptionList

ON, OFF = "[x]", "[ ]"
"""Checked and unchecked look different without colour."""


class ChecklistDialog(ModalScreen[None]):
    """Toggles QA flags (each toggle committed as it happens); 1–4 label the item and stay."""

    BINDINGS = [
        Binding("escape,c", "close", "close"),
        Binding("space", "toggle_flag", "toggle", show=False),
        Binding("a", "all", "all checks"),
        *[Binding(str(n), f"label({n})", LABELS[n - 1].value) for n in range(1, 5)],
    ]

    def __init__(
        self,
        active: frozenset[str],
        gold: Behaviour | None,
        commit: Callable[[str, bool], None],
        label: Callable[[Behaviour], Behaviour | None],
        current: Behaviour | None = None,
    ) -> None:
        super().__init__()
        self._active = set(active)
        self._first, self._rest = checks_for(gold)
        self._gold = gold
        self._commit = commit
        self._label = label
        self._current = current
        self._all = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog--wide"):
            yield Label("", id="checklist-title", classes="dialog--title", markup=False)
            yield OptionList(id="flags")
            yield Label(
                "space / enter toggle · a: every check · 1–4: label the item (stays open) · "
                "Esc closes",
                classes="dialog--hint",
            )

    def on_mount(self) -> None:
        self._fill()
        self.query_one(OptionList).focus()

    def _title(self) -> str:
        label = self._current.display_name if self._current else "not labelled"
        gold = self._gold.value if self._gold else "none"
        return f"Quality checklist (Table 6) · gold {gold} · your label: {label}"

    def _specs(self) -> list[QAFlagSpec]:
        return self._first + (self._rest if self._all else [])

    def _fill(self, keep: int | None = None) -> None:
        self.query_one("#checklist-title", Label).update(self._title())
        options = self.query_one(OptionList)
        options.clear_options()
        group = None
        for spec in self._specs():
            if spec.group != group:
                group = spec.group
                options.add_option(Option(Text(group, style="bold"), disabled=True))
            mark = ON if spec.code in self._active else OFF
            options.add_option(Option(Text(f"{mark} {spec.text}"), id=spec.code))
        if not self._all and self._rest:
            options.add_option(
                Option(
                    Text(f"… {len(self._rest)} checks of other classes: a", style="dim"),
                    disabled=True,
                )
            )
        if keep is not None:
            options.highlighted = keep
        else:  # the first check, not its group's heading
            options.highlighted = next(
                i
                for i in range(options.option_count)
                if not options.get_option_at_index(i).disabled
            )

    def action_toggle_flag(self) -> None:
        """Toggle the highlighted check."""
        self.query_one(OptionList).action_select()

    @on(OptionList.OptionSelected)
    def toggled(self, event: OptionList.OptionSelected) -> None:
        code = event.option.id
        if code is None:
            return
        active = code not in self._active
        self._commit(code, active)
        if active:
            self._active.add(code)
        else:
            self._active.discard(code)
        self._fill(keep=event.option_index)

    def action_all(self) -> None:
        """Show every check, or only the item's class and the answer checks."""
        self._all = not self._all
        self._fill()

    def action_label(self, number: int) -> None:
        """Record the item's label; the checklist stays open on the same item."""
        self._current = self._label(LABELS[number - 1])
        self.query_one("#checklist-title", Label).update(self._title())

    def action_close(self) -> None:
        self.dismiss(None)
