"""The datasets screen: item, response and label counts; Enter switches dataset, `s` labels
the selected dataset with a label schema (`SchemaPickDialog`, then `SchemaLabelScreen` on top
of this screen: leaving it comes back here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Footer, Static

from w2c_tui.domain.errors import InputError, NotFoundError
from w2c_tui.tui.screens.base import OnceScreen
from w2c_tui.tui.screens.schema_label import SchemaLabelScreen
from w2c_tui.tui.screens.schema_pick import SchemaPickDialog

if TYPE_CHECKING:
    from w2c_tui.services import Services


class DatasetsScreen(OnceScreen[str | None]):
    """Lists datasets; returns the chosen name (None: stay)."""

    BINDINGS = [
        Binding("escape,d", "close", "back", id="datasets-close"),
        Binding("enter", "choose", "open dataset", id="datasets-choose"),
        Binding("s", "schema", "label with a schema", id="datasets-schema"),
    ]

    def __init__(self, services: Services, current: str, annotator: str | None = None) -> None:
        super().__init__()
        self.services = services
        self.current = current
        self.annotator = annotator
        """Who labels when a schema is opened from here (None: no one yet, `s` says so)."""

    def compose(self) -> ComposeResult:
        yield Static(
            "Datasets — Enter opens one, s labels it with a label schema, Esc goes back. "
            "Import more with `w2c import FILE`.",
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
        dataset = self._selected()
        if dataset is not None:
            self.dismiss(dataset)

    def _selected(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return str(row_key.value)

    def action_schema(self) -> None:
        """Choose a label schema and label the selected dataset with it."""
        dataset = self._selected()
        if dataset is None:
            return
        annotator = self.annotator
        if annotator is None:
            self.notify("No annotator: start with `w2c tui --annotator NAME`.", severity="error")
            return

        def open_schema(name: str | None) -> None:
            if name is None or not self.is_active:
                return
            try:
                screen = SchemaLabelScreen(self.services, annotator, name, dataset)
            except (InputError, NotFoundError, ValueError) as error:  # e.g. no units of its kind
                message = getattr(error, "message", str(error))
                self.notify(f"Cannot label {dataset!r} with {name!r}: {message}", severity="error")
                return
            self.app.push_screen(screen)

        self.app.push_screen(SchemaPickDialog(self.services, dataset), open_schema)

    def action_close(self) -> None:
        self.dismiss(None)
