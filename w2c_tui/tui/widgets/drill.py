"""The drill-down pane: a rater's confusion matrix against the consensus, its per-class
agreement, and the units of a chosen cell (Enter opens one on the review screen)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from w2c_tui.domain.dashboard import DisagreementDoc, DrilldownDoc
from w2c_tui.present.numbers import num as fmt
from w2c_tui.tui.dashboard.common import ABBREV, LABELS
from w2c_tui.tui.dashboard.drill import per_class
from w2c_tui.tui.plain import cells
from w2c_tui.tui.widgets.charts import shade
from w2c_tui.tui.widgets.select import Select

HINT = (
    "rows: human consensus, columns: the rater · d: next rater · m: into the matrix, arrows "
    "pick a cell, its units appear below · tab to the units, Enter opens one in review"
)


class DrillDown(Vertical):
    """Shows one rater's drill-down; tells the screen which rater, cell and unit were chosen."""

    @dataclass
    class RaterChanged(Message):
        """Another rater was chosen."""

        rater: str | None

    @dataclass
    class CellChanged(Message):
        """A matrix cell was highlighted (None: the disagreements list)."""

        cell: tuple[int, int] | None

    @dataclass
    class UnitOpened(Message):
        """A unit was chosen: open its item on the review screen."""

        unit: str

    def compose(self) -> ComposeResult:
        yield Select[str]([], prompt="rater", id="drill-rater", allow_blank=True)
        yield Static(HINT, classes="hint", markup=False)
        yield DataTable(id="drill-confusion", cursor_type="cell")
        yield Static(id="drill-classes")
        yield DataTable(id="drill-units", cursor_type="row")

    def show(
        self, drills: Mapping[str, DrilldownDoc], rater: str | None, cell: tuple[int, int] | None
    ) -> None:
        """Fill the pane for `rater` (the first one when None) and select `cell`."""
        self._drills = drills
        select = self.query_one("#drill-rater", Select)
        keys = list(drills)
        with self.prevent(Select.Changed):
            select.set_options([(k, k) for k in keys])
            if keys:
                select.value = rater if rater in keys else keys[0]
        self._fill(cell)

    @property
    def rater(self) -> str | None:
        """The rater shown."""
        value = self.query_one("#drill-rater", Select).value
        return value if isinstance(value, str) else None

    def next_rater(self) -> None:
        """Show the next rater's drill-down."""
        keys = list(getattr(self, "_drills", {}))
        if keys:
            current = self.rater
            index = (keys.index(current) + 1) % len(keys) if current in keys else 0
            self.query_one("#drill-rater", Select).value = keys[index]

    def focus_matrix(self) -> None:
        """Move the keyboard into the matrix."""
        self.query_one("#drill-confusion", DataTable).focus()

    @on(Select.Changed, "#drill-rater")
    def _rater_changed(self) -> None:
        self._fill(None)
        self.post_message(self.RaterChanged(self.rater))

    def _fill(self, cell: tuple[int, int] | None) -> None:
        table = self.query_one("#drill-confusion", DataTable)
        table.clear(columns=True)
        classes = self.query_one("#drill-classes", Static)
        drill = getattr(self, "_drills", {}).get(self.rater) if self.rater else None
        if drill is None or drill.matrix is None:
            classes.update((drill.reason or "—") if drill else "No automated rater chosen.")
            self.query_one("#drill-units", DataTable).clear(columns=True)
            return
        table.add_columns("consensus ↓ / rater →", *[ABBREV[c] for c in LABELS])
        for label, counts, shares in zip(
            LABELS, drill.matrix.confusion, drill.matrix.row_normalised, strict=True
        ):
            table.add_row(
                *cells(
                    ABBREV[label],
                    *[
                        f"{shade(s) * 2} {c:>3} ({100 * s:.0f}%)"
                        for c, s in zip(counts, shares, strict=True)
                    ],
                )
            )
        classes.update(per_class(drill))
        if cell is not None:
            table.move_cursor(row=cell[0], column=cell[1] + 1)
        self._units(drill, cell)

    @on(DataTable.CellHighlighted, "#drill-confusion")
    def _cell(self, event: DataTable.CellHighlighted) -> None:
        drill = self._drills.get(self.rater) if self.rater else None
        if drill is None or event.coordinate.column == 0:
            return
        cell = (event.coordinate.row, event.coordinate.column - 1)
        self._units(drill, cell)
        self.post_message(self.CellChanged(cell))

    def _units(self, drill: DrilldownDoc, cell: tuple[int, int] | None) -> None:
        units = self.query_one("#drill-units", DataTable)
        units.clear(columns=True)
        units.add_columns("item", "target model", "consensus", "rater", "humans", "unanimity")
        listed = drill.matrix.disagreements if drill.matrix else ()
        if cell is None:
            rows: list[DisagreementDoc] = list(listed)
            units.border_title = "disagreements, unanimous humans first"
        else:
            found = drill.matrix.cells.get(f"{cell[0]},{cell[1]}", ()) if drill.matrix else ()
            keys = set(found)
            rows = [d for d in listed if d.unit in keys]
            if cell[0] == cell[1]:
                rows = [_agreed(k, LABELS[cell[0]]) for k in sorted(keys)]
            units.border_title = f"units in cell {LABELS[cell[0]]} → {LABELS[cell[1]]}"
        for row in rows:
            units.add_row(
                *cells(
                    row.uuid[:13],
                    row.target_model or "—",
                    row.consensus,
                    row.rater,
                    " ".join(row.humans) or "—",
                    fmt(row.unanimity, 2),
                ),
                key=row.unit,
            )

    @on(DataTable.RowSelected, "#drill-units")
    def _chosen(self, event: DataTable.RowSelected) -> None:
        self.post_message(self.UnitOpened(str(event.row_key.value)))


def _agreed(unit: str, label: str) -> DisagreementDoc:
    uuid, _, model = unit.partition("@")
    return DisagreementDoc(
        unit=unit,
        item_id=None,
        uuid=uuid,
        target_model=model or None,
        consensus=label,
        rater=label,
        humans=(),
        unanimity=None,
    )
