"""The agreement screen: can this judge (or log-prob scorer) stand in for a person?

Where the annotator was (tab, rater, cell, options) lives in an `AgreementView`
(screens/agreement_view.py, with the dashboard's keys) that the review screen keeps, so opening
a unit and coming back with `a` returns to the same place."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, SelectionList, Static, TabbedContent, TabPane, Tabs
from textual.widgets.selection_list import Selection
from textual.worker import Worker, WorkerState

from w2c_tui.domain.dashboard import DashboardDoc, SliceBy
from w2c_tui.domain.qa_summary import QASummary
from w2c_tui.domain.review import UnitKind
from w2c_tui.tui.dashboard import corrected, judges, metrics, overview, slices
from w2c_tui.tui.dashboard.common import middle, natural_width
from w2c_tui.tui.dashboard.critictool import critictool, critictool_entry
from w2c_tui.tui.screens.agreement_view import (
    AGREEMENT_BINDINGS,
    KEYS,
    NARROW,
    SLICINGS,
    AgreementView,
)
from w2c_tui.tui.screens.base import OnceScreen
from w2c_tui.tui.screens.help import KeysDialog
from w2c_tui.tui.screens.judge_lab import JudgeLabScreen
from w2c_tui.tui.widgets.drill import DrillDown
from w2c_tui.tui.widgets.qa_summary import render_qa_summary
from w2c_tui.tui.widgets.select import RaterList

if TYPE_CHECKING:
    from w2c_tui.services import Services


def _scroll(child_id: str) -> ComposeResult:
    with VerticalScroll(classes="panel-scroll"):
        yield Static(id=child_id, classes="panel")


class AgreementScreen(OnceScreen[int | None]):
    """The calibration dashboard; returns an item id to open on the review screen."""

    BINDINGS = AGREEMENT_BINDINGS
    AUTO_FOCUS = None  # on_mount focuses the raters list when it shows, the tabs otherwise

    def __init__(
        self,
        services: Services,
        dataset: str,
        *,
        bootstrap: int = 1000,
        seed: int = 0,
        view: AgreementView | None = None,
    ) -> None:
        super().__init__()
        self.services = services
        self.dataset = dataset
        self.bootstrap = bootstrap
        self.seed = seed
        self.view = view or AgreementView()
        self.document: DashboardDoc | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="agreement-status", markup=False)
        with Horizontal():
            with Vertical(id="agreement-side"):
                yield Static("Raters (space toggles, then r)", classes="side-title")
                yield RaterList(id="agreement-raters")
            with TabbedContent(id="agreement-tabs", initial=self.view.tab):
                with TabPane("1 Overview", id="tab-overview"):
                    yield from _scroll("panel-overview")
                with TabPane("2 Judges", id="tab-judges"):
                    yield from _scroll("panel-judges")
                with TabPane("3 Drill-down", id="tab-drill"), VerticalScroll():
                    yield DrillDown()
                with TabPane("4 Calibration", id="tab-calibration"):
                    yield from _scroll("panel-calibration")
                with TabPane("5 Metrics", id="tab-metrics"):
                    yield from _scroll("panel-metrics")
                with TabPane("6 Slices", id="tab-slices"):
                    yield from _scroll("panel-slices")
                with TabPane("7 QA", id="tab-qa"):
                    yield from _scroll("panel-qa")
                with TabPane("8 Corrected", id="tab-corrected"):
                    yield from _scroll("panel-corrected")
        yield Footer()

    def on_mount(self) -> None:
        # narrow terminals: the panels need the room; f brings the raters list back
        self._side(self.app.size.width >= NARROW)
        self.action_recompute()

    def _side(self, shown: bool) -> None:
        """Show or hide the raters list; the keyboard goes with it. A hidden list must not keep
        the focus: its keys would act unseen, and OptionList's page keys fail on a list never
        laid out (KeyError in `_move_page`, found by tests/tui/test_fuzz_keys.py)."""
        side = self.query_one("#agreement-side")
        side.display = shown
        if shown:
            self.query_one("#agreement-raters", SelectionList).focus()
        elif self.focused is None or side in self.focused.ancestors_with_self:
            self.query_one(TabbedContent).query_one(Tabs).focus()

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
            self.view.raters = list(chosen.selected)
        self.query_one(TabbedContent).loading = True
        self._status(f"computing agreement on {self.dataset} (bootstrap B={self.bootstrap})…")
        self.compute()

    @work(thread=True, exclusive=True, name="agreement", exit_on_error=False)  # said on screen
    def compute(self) -> tuple[DashboardDoc, QASummary]:
        """Build the dashboard document (and the QA summary) in a worker thread."""
        service = self.services.agreement
        kind = UnitKind(self.view.unit_kind)
        readings = service.readings(self.dataset, kind)
        every = [r.key for r in readings.raters]
        default = service.default_raters(readings)
        chosen = [r for r in (self.view.raters or default) if r in every] or default
        document = service.dashboard(
            self.dataset,
            kind=kind,
            raters=chosen,
            bootstrap=self.bootstrap,
            seed=self.seed,
            invalid_mode=self.view.invalid_mode,
            by=SliceBy(self.view.by) if self.view.by else None,
        )
        critic = (  # the metrics tab shows these
            critictool_entry(self.services, self.dataset)
            if self.dataset in self.services.critictool.datasets()
            else None
        )
        document = replace(document, all_raters=tuple(every), critictool=critic)
        return document, self.services.qa.summary(self.dataset)

    @on(Worker.StateChanged)
    def worker_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.name != "agreement":
            return
        if event.state is WorkerState.SUCCESS and isinstance(event.worker.result, tuple):
            document, qa = event.worker.result
            self.show(document, qa)
        elif event.state is WorkerState.ERROR:
            self.query_one(TabbedContent).loading = False
            self._status(f"could not compute agreement: {event.worker.error}")
            self.notify(str(event.worker.error), severity="error", title="Agreement", markup=False)

    def show(self, document: DashboardDoc, qa: QASummary | None = None) -> None:
        """Render every panel from a dashboard document (and the QA summary)."""
        self.document = document
        meta = document.meta
        self.query_one(TabbedContent).loading = False
        self._status(
            f"Agreement · {meta.dataset} · units: {meta.unit_kind} · invalid as "
            f"{meta.invalid_mode} · reference on {meta.consensus.n} units "
            f"({meta.consensus.adjudicated} adjudicated) · B={meta.bootstrap.B} · "
            f"slices: {self.view.by or 'off'} · ? keys"
        )
        chosen = set(meta.raters)
        raters = self.query_one("#agreement-raters", SelectionList)
        raters.clear_options()
        raters.add_options(
            [Selection(middle(k), k, k in chosen) for k in document.all_raters or ()]
        )
        for panel, renderable in (
            ("#panel-overview", overview.overview(document)),
            ("#panel-judges", judges.judges(document)),
            ("#panel-calibration", metrics.calibration(document)),
            ("#panel-metrics", critictool(document) or metrics.metrics(document)),
            ("#panel-slices", slices.slices(document)),
            ("#panel-qa", render_qa_summary(qa) if qa else Text("No QA summary.")),
            ("#panel-corrected", corrected.corrected(document)),
        ):
            static = self.query_one(panel, Static)
            static.update(renderable)
            width = natural_width(self.app.console, renderable)
            static.styles.width = width if width else None
        self.query_one(DrillDown).show(document.drilldown, self.view.rater, self.view.cell)

    # ---- where the user is --------------------------------------------------------------------

    @on(TabbedContent.TabActivated)
    def tab_changed(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id:
            self.view.tab = event.pane.id

    @on(DrillDown.RaterChanged)
    def rater_changed(self, event: DrillDown.RaterChanged) -> None:
        self.view.rater, self.view.cell = event.rater, None

    @on(DrillDown.CellChanged)
    def cell_changed(self, event: DrillDown.CellChanged) -> None:
        self.view.cell = event.cell

    @on(DrillDown.UnitOpened)
    def unit_opened(self, event: DrillDown.UnitOpened) -> None:
        uuid = event.unit.split("@")[0]
        try:
            item = self.services.review.find(self.dataset, uuid)
        except Exception as error:  # a stale row: say so rather than crash
            self.notify(str(error), severity="error", markup=False)
            return
        self.dismiss(item.id)

    # ---- options ----------------------------------------------------------------------------

    def action_unit_kind(self) -> None:
        """Switch units: responses (item × model) or items (item QA)."""
        self.view.unit_kind = "item" if self.view.unit_kind == "behaviour" else "behaviour"
        self.view.raters, self.view.rater, self.view.cell = None, None, None
        self.action_recompute()  # the raters list is rebuilt when the new document arrives

    def action_judge_lab(self) -> None:
        """Prompt versions of a judge compared on the frozen split; a flipped unit opens on
        the review screen."""

        def opened(item_id: int | None) -> None:
            if item_id is not None:
                self.dismiss(item_id)

        self.app.push_screen(JudgeLabScreen(self.services, self.dataset), opened)

    def action_invalid_mode(self) -> None:
        """Count invalid outputs as missing, or as always wrong (their own category)."""
        self.view.invalid_mode = "wrong" if self.view.invalid_mode == "missing" else "missing"
        self.action_recompute()

    def action_slices(self) -> None:
        """Cut the units by gold class, tool count, source, model (or not at all)."""
        self.view.by = SLICINGS[(SLICINGS.index(self.view.by) + 1) % len(SLICINGS)]
        self.view.tab = "tab-slices"
        self.query_one(TabbedContent).active = "tab-slices"
        self.action_recompute()

    def action_next_rater(self) -> None:
        """Drill-down: the next rater."""
        self.query_one(TabbedContent).active = "tab-drill"
        self.query_one(DrillDown).next_rater()

    def action_matrix(self) -> None:
        """Drill-down: move into the confusion matrix."""
        self.query_one(TabbedContent).active = "tab-drill"
        self.query_one(DrillDown).focus_matrix()

    def action_raters_panel(self) -> None:
        """Show or hide the raters list."""
        self._side(not self.query_one("#agreement-side").display)

    def action_tab(self, tab: str) -> None:
        """Show one of the panels."""
        self.query_one(TabbedContent).active = tab

    def action_help(self) -> None:
        """List the dashboard's keys."""
        self.app.push_screen(KeysDialog("Agreement dashboard", KEYS))

    def action_close(self) -> None:
        """Back to the review screen."""
        self.dismiss(None)
