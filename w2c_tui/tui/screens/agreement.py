"""The agreement screen: is this judge (or log-prob scorer) good enough to stand in for a person?"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import (
    DataTable,
    Footer,
    Select,
    SelectionList,
    Static,
    TabbedContent,
    TabPane,
)
from textual.widgets.selection_list import Selection
from textual.worker import Worker, WorkerState

from w2c_tui.io.numbers import num as fmt
from w2c_tui.tui.plain import cells
from w2c_tui.tui.screens import agreement_panels as panels
from w2c_tui.tui.widgets.charts import shade

if TYPE_CHECKING:
    from w2c_tui.services import Services

LABELS = panels.LABELS
SHORT = {
    "direct": "direct",
    "tool_call": "tool call",
    "request_for_info": "req. info",
    "cannot_answer": "cannot",
}


class AgreementScreen(Screen[int | None]):
    """The calibration dashboard; returns an item id to open on the review screen."""

    BINDINGS = [
        Binding("escape,a", "close", "back to review", id="agreement-close"),
        Binding("r", "recompute", "recompute", id="agreement-recompute"),
        Binding("u", "unit_kind", "units: responses / items", id="agreement-units"),
        Binding("i", "invalid_mode", "invalid: missing / wrong", id="agreement-invalid"),
        Binding("1", "tab('tab-overview')", "overview", id="agreement-tab-1"),
        Binding("2", "tab('tab-raters')", "raters", id="agreement-tab-2"),
        Binding("3", "tab('tab-drill')", "drill-down", id="agreement-tab-3"),
        Binding("4", "tab('tab-calibration')", "calibration", id="agreement-tab-4"),
        Binding("5", "tab('tab-metrics')", "metrics", id="agreement-tab-5"),
    ]

    @dataclass
    class Computed(Message):
        """A dashboard document is ready."""

        document: dict[str, Any]

    def __init__(
        self, services: Services, dataset: str, *, bootstrap: int = 1000, seed: int = 0
    ) -> None:
        super().__init__()
        self.services = services
        self.dataset = dataset
        self.bootstrap = bootstrap
        self.seed = seed
        self.unit_kind = "behaviour"
        self.invalid_mode = "missing"
        self.raters: list[str] | None = None
        self.document: dict[str, Any] | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="agreement-status", markup=False)
        with Horizontal():
            with Vertical(id="agreement-side"):
                yield Static("Raters (space toggles, then r)", classes="side-title")
                yield SelectionList[str](id="agreement-raters")
            with TabbedContent(id="agreement-tabs"):
                with TabPane("Overview", id="tab-overview"), VerticalScroll():
                    yield Static(id="panel-overview")
                with TabPane("Raters vs humans", id="tab-raters"), VerticalScroll():
                    yield Static(id="panel-raters")
                with TabPane("Drill-down", id="tab-drill"), VerticalScroll():
                    yield Select[str]([], prompt="rater", id="drill-rater", allow_blank=True)
                    yield Static(
                        "confusion: rows = human consensus, columns = rater; select a "
                        "cell to list its units, Enter on a unit opens it",
                        classes="hint",
                    )
                    yield DataTable(id="drill-confusion", cursor_type="cell")
                    yield Static(id="drill-classes")
                    yield DataTable(id="drill-units", cursor_type="row")
                with TabPane("Calibration", id="tab-calibration"), VerticalScroll():
                    yield Static(id="panel-calibration")
                with TabPane("Metrics", id="tab-metrics"), VerticalScroll():
                    yield Static(id="panel-metrics")
        yield Footer()

    def on_mount(self) -> None:
        self.action_recompute()

    def on_screen_resume(self) -> None:
        if self.document is not None:
            self.action_recompute()  # labels may have arrived since

    def _status(self, text: str) -> None:
        self.query_one("#agreement-status", Static).update(text)

    # ---- computing --------------------------------------------------------------------------

    def action_recompute(self) -> None:
        """Recompute every panel (bootstrap in a thread)."""
        chosen = self.query_one("#agreement-raters", SelectionList)
        if chosen.option_count:
            self.raters = list(chosen.selected)
        self.query_one(TabbedContent).loading = True
        self._status(f"computing agreement on {self.dataset} (bootstrap B={self.bootstrap})…")
        self.compute(self.raters)

    @work(thread=True, exclusive=True, name="agreement")
    def compute(self, raters: list[str] | None) -> dict[str, Any]:
        """Build the dashboard document in a worker thread."""
        from w2c_tui.services.readings import UnitKind

        service = self.services.agreement
        kind = UnitKind(self.unit_kind)
        readings = service.readings(self.dataset, kind)
        every = [r.key for r in readings.raters]
        default = service.default_raters(readings)
        chosen = [r for r in (raters or default) if r in every] or default
        document = service.dashboard(
            self.dataset,
            kind=kind,
            raters=chosen,
            bootstrap=self.bootstrap,
            seed=self.seed,
            invalid_mode=self.invalid_mode,
        )
        document["_all_raters"] = every
        return document

    @on(Worker.StateChanged)
    def worker_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.name != "agreement":
            return
        if event.state is WorkerState.SUCCESS and isinstance(event.worker.result, dict):
            self.show(event.worker.result)
        elif event.state is WorkerState.ERROR:
            self.query_one(TabbedContent).loading = False
            self._status(f"could not compute agreement: {event.worker.error}")
            self.notify(str(event.worker.error), severity="error", title="Agreement")

    def show(self, document: dict[str, Any]) -> None:
        """Render every panel from a dashboard document."""
        self.document = document
        meta = document["meta"]
        self.query_one(TabbedContent).loading = False
        self._status(
            f"Agreement · {meta['dataset']} · units: {meta['unit_kind']} · invalid "
            f"outputs as {meta['invalid_mode']} · consensus on "
            f"{meta['consensus']['n']} units · B={meta['bootstrap']['B']} "
            f"seed={meta['bootstrap']['seed']} · computed {meta['generated_at']}"
        )
        chosen = set(meta["raters"])
        raters = self.query_one("#agreement-raters", SelectionList)
        raters.clear_options()
        raters.add_options([Selection(k, k, k in chosen) for k in document["_all_raters"]])
        self.query_one("#panel-overview", Static).update(panels.overview(document))
        self.query_one("#panel-raters", Static).update(panels.raters(document))
        self.query_one("#panel-calibration", Static).update(panels.calibration(document))
        self.query_one("#panel-metrics", Static).update(panels.metrics(document))
        select = self.query_one("#drill-rater", Select)
        options = [(k, k) for k in document["drilldown"]]
        previous = select.value
        select.set_options(options)
        if options:
            keys = [k for k, _ in options]
            select.value = previous if previous in keys else keys[0]
        self._show_drill()

    # ---- drill-down -------------------------------------------------------------------------

    def _drill(self) -> dict[str, Any] | None:
        select = self.query_one("#drill-rater", Select)
        if self.document is None or not isinstance(select.value, str):
            return None
        drill: dict[str, Any] | None = self.document["drilldown"].get(select.value)
        return drill

    @on(Select.Changed, "#drill-rater")
    def rater_changed(self) -> None:
        self._show_drill()

    def _show_drill(self) -> None:
        table = self.query_one("#drill-confusion", DataTable)
        table.clear(columns=True)
        self.query_one("#drill-units", DataTable).clear(columns=True)
        drill = self._drill()
        classes = self.query_one("#drill-classes", Static)
        if drill is None or drill.get("reason"):
            classes.update(drill["reason"] if drill else "No automated rater selected.")
            return
        table.add_columns("consensus ↓ / rater →", *[SHORT[c] for c in LABELS])
        for label, counts, shares in zip(
            LABELS, drill["confusion"], drill["row_normalised"], strict=True
        ):
            table.add_row(
                *cells(
                    SHORT[label],
                    *[
                        f"{shade(s) * 2} {c:>3} ({100 * s:.0f}%)"
                        for c, s in zip(counts, shares, strict=True)
                    ],
                )
            )
        classes.update(panels.per_class(drill))
        self._show_units(drill, None)

    @on(DataTable.CellHighlighted, "#drill-confusion")
    def cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        drill = self._drill()
        if drill is None or event.coordinate.column == 0:
            return
        self._show_units(drill, (event.coordinate.row, event.coordinate.column - 1))

    def _show_units(self, drill: dict[str, Any], cell: tuple[int, int] | None) -> None:
        units = self.query_one("#drill-units", DataTable)
        units.clear(columns=True)
        units.add_columns("item", "target model", "consensus", "rater", "humans", "unanimity")
        if cell is None:
            rows = drill["disagreements"]
            units.border_title = "disagreements, unanimous humans first"
        else:
            keys = set(drill["cells"].get(f"{cell[0]},{cell[1]}", []))
            rows = [d for d in drill["disagreements"] if d["unit"] in keys]
            if cell[0] == cell[1]:
                rows = [
                    {
                        "unit": k,
                        "item_id": None,
                        "uuid": k.split("@")[0],
                        "target_model": k.split("@")[1] if "@" in k else None,
                        "consensus": LABELS[cell[0]],
                        "rater": LABELS[cell[1]],
                        "humans": [],
                        "unanimity": None,
                    }
                    for k in sorted(keys)
                ]
            units.border_title = f"units in cell {LABELS[cell[0]]} → {LABELS[cell[1]]}"
        for row in rows:
            units.add_row(
                *cells(
                    row["uuid"][:13],
                    row["target_model"] or "—",
                    row["consensus"],
                    row["rater"],
                    " ".join(row["humans"]) or "—",
                    fmt(row["unanimity"], 2),
                ),
                key=row["unit"],
            )

    @on(DataTable.RowSelected, "#drill-units")
    def unit_chosen(self, event: DataTable.RowSelected) -> None:
        uuid = str(event.row_key.value).split("@")[0]
        try:
            item = self.services.review.find(self.dataset, uuid)
        except Exception as error:  # a stale row: say so rather than crash
            self.notify(str(error), severity="error")
            return
        self.dismiss(item.id)

    # ---- options ----------------------------------------------------------------------------

    def action_unit_kind(self) -> None:
        """Switch units: responses (item × model) or items (item QA)."""
        self.unit_kind = "item" if self.unit_kind == "behaviour" else "behaviour"
        self.raters = None
        self.query_one("#agreement-raters", SelectionList).clear_options()
        self.action_recompute()

    def action_invalid_mode(self) -> None:
        """Count invalid outputs as missing, or as always wrong (their own category)."""
        self.invalid_mode = "wrong" if self.invalid_mode == "missing" else "missing"
        self.action_recompute()

    def action_tab(self, tab: str) -> None:
        """Show one of the panels."""
        self.query_one(TabbedContent).active = tab

    def action_close(self) -> None:
        """Back to the review screen."""
        self.dismiss(None)
