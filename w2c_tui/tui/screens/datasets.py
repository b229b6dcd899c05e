"""The datasets screen: item, response and label counts; Enter switches dataset."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Footer, Static

from w2c_tui.tui.screens.base import OnceScreen

if TYPE_CHECKING:
    from w2c_tui.services import Services


class DatasetsScreen(OnceScreen[str | None]):
    """Lists datasets; returns the chosen name (None: stay)."""

    BINDINGS = [
        Binding("escape,d", "close", "back", id="datasets-close"),
        Binding("enter", "choose", "open dataset", id="datasets-choose"),
    ]

    def __init__(self, services: Services, current: str) -> None:
        super().__init__()
        self.services = services
        self.current = current

    def compose(self) -> ComposeResult:
        yield Static(
            "Datasets — Enter opens one, Esc goes back. Import more with `w2c import FILE`.",
            id="datasets-title",
        )
        yield DataTable(cursor_type="row", zebra_stripes=True, id="datasets-table")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(
            "", "dataset", "kind", "items", "responses", "human labels", "imported (UTC)"
        )
        for index, ds in enumerate(self.services.datasets.all()):
            table.add_row(
                "▶" if ds.name == self.current else "",
                Text(ds.name),  # shown literally: a name from data is never markup
                Text(ds.kind),
                str(ds.n_items),
                str(ds.n_responses),
                str(ds.n_human_labels),
                ds.imported_at.strftime("%Y-%m-%d %H:%M"),
                key=ds.name,
            )
            if ds.name == self.current:
                table.move_cursor(row=index)
        table.focus()

    @on(DataTable.RowSelected)
    def selected(self, event: DataTable.RowSelected) -> None:
        self.dismiss(str(event.row_key.value))

    def action_choose(self) -> None:
        table = self.query_one(DataTable)
        if table.row_count:
            row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
            self.dismiss(str(row_key.value))

    def action_close(self) -> None:
        self.dismiss(None)
