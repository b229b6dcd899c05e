"""Choosing a label schema to label a dataset with (the datasets screen's `s`).

Every schema is listed: users' schemas open the labelling screen; a built-in one is listed
too, and choosing it says why it cannot be labelled here (the reason `w2c tui --schema` and
`w2c labels import --schema` give: its labels are recorded by the review and CriticTool
screens for now).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label
from textual.widgets.option_list import Option

from w2c_tui.domain.errors import InputError
from w2c_tui.tui.screens.base import OnceModalScreen
from w2c_tui.tui.widgets.select import OptionList

if TYPE_CHECKING:
    from w2c_tui.services import Services


class SchemaPickDialog(OnceModalScreen[str | None]):
    """Lists the label schemas; returns the name of a users' schema chosen (None: cancel)."""

    BINDINGS = [Binding("escape", "cancel", "cancel", id="schema-pick-cancel")]

    def __init__(self, services: Services, dataset: str) -> None:
        super().__init__()
        self.services = services
        self.dataset = dataset

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog--wide"):
            yield Label(
                f"Label {self.dataset} with a schema", classes="dialog--title", markup=False
            )
            yield OptionList(id="schema-pick")
            yield Label("", id="schema-pick-why", markup=False)
            yield Label(
                "Enter opens one · Esc goes back · add more with `w2c schemas add FILE.toml`",
                classes="dialog--hint",
            )

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        for schema in self.services.schemas.all():
            what = "built-in, labelled on its own screens" if schema.builtin else "yours"
            text = Text(f"{schema.name}  ", style="bold" if not schema.builtin else "dim")
            text.append(f"{schema.title} · {schema.unit.value} units · {what}")
            options.add_option(Option(text, id=schema.name))
        options.focus()

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        name = event.option.id
        if name is None:
            return
        try:
            self.services.schemas.on_screen(name)
        except InputError as error:  # labelled on its own screen: say why, stay
            self.query_one("#schema-pick-why", Label).update(error.message)
            self.notify(error.message, severity="warning", timeout=10)
            return
        self.dismiss(name)

    def action_cancel(self) -> None:
        self.dismiss(None)
