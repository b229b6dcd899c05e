"""The review screen: items list, item, responses or QA; labelling from the keyboard.

A thin composition: `ReviewController` (tui/review_views.py) holds the state and every
transition, `ReviewDialogs` (screens/review_dialogs.py) opens the dialogs and other screens,
`ReviewPaint` (screens/review_paint.py) pushes what the state holds down to the widgets; this
screen binds keys to them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer

from w2c_tui.domain.labels import LABELS
from w2c_tui.domain.review import ReviewMode
from w2c_tui.tui.bindings import REVIEW_BINDINGS
from w2c_tui.tui.review_state import Notice
from w2c_tui.tui.review_views import ReviewController
from w2c_tui.tui.screens.review_dialogs import ReviewDialogs
from w2c_tui.tui.screens.review_paint import ReviewPaint
from w2c_tui.tui.screens.review_prefetch import Prefetch
from w2c_tui.tui.screens.review_retry import RETRY_TICK_S, LabelRetry
from w2c_tui.tui.unsaved_answers import log_unsaved
from w2c_tui.tui.widgets.guidelines import GuidelinesPanel
from w2c_tui.tui.widgets.item_view import ItemView
from w2c_tui.tui.widgets.items_list import ItemsList
from w2c_tui.tui.widgets.qa_panel import QAPanel
from w2c_tui.tui.widgets.responses import ResponsesPanel
from w2c_tui.tui.widgets.reveal_line import RevealLine
from w2c_tui.tui.widgets.status import StatusBar

if TYPE_CHECKING:
    from w2c_tui.services import Services

PLACE_EVERY_S = 2.0
"""How often the annotator's place is saved (when it changed), for reopening there."""


class ReviewScreen(Screen[None]):
    """Step through items and responses, label them, undo, filter."""

    BINDINGS = REVIEW_BINDINGS  # type: ignore[assignment]

    def __init__(self, services: Services, annotator: str, dataset: str) -> None:
        super().__init__()
        self.services = services
        self.state = ReviewController(services, annotator, dataset)
        self.dialogs = ReviewDialogs(
            self, self.state, act=self.act, tell=self.tell, render=self.render_all
        )
        self.paint = ReviewPaint(self, self.state)
        """What the widgets show of the state."""
        self.keeper = LabelRetry(self, self.state, act=self.act, repaint=self.paint.status)
        """Tries the unsaved label again, and is what the app asks before quitting."""

    # what tests and callers read
    @property
    def annotator(self) -> str:
        """Who is labelling."""
        return self.state.annotator

    @property
    def dataset(self) -> str:
        """The dataset on screen."""
        return self.state.dataset

    @property
    def mode(self) -> ReviewMode:
        """Response labelling or item QA."""
        return self.state.mode

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        with Horizontal(id="main"):
            yield ItemsList(self.state.rows.row, id="items", shown=self.state.cursor.exposed)
            yield ItemView(id="item")
            yield GuidelinesPanel(id="guidelines")
            with Vertical(id="side"):
                yield RevealLine(id="reveal-line")
                yield QAPanel(id="qa")
                yield ResponsesPanel(id="responses")
        yield Footer()

    def on_mount(self) -> None:
        self.prefetch = Prefetch(
            self, self.state.cursor, self.query_one(ItemView), self.query_one(ResponsesPanel)
        )
        """Reads the next items and renders their panes while the annotator reads this one."""
        settings = getattr(self.app, "settings", None)
        if settings is not None:
            self.query_one(ItemView).set_reactive(ItemView.tools_open, settings.tools_json)
        self.tell(self.state.open())
        self.render_all()
        self.query_one(ItemsList).focus()
        self.set_interval(RETRY_TICK_S, self.keeper.tick)
        self.set_interval(PLACE_EVERY_S, self._keep_place)
        self.call_after_refresh(self.dialogs.guidelines.offer)

    def tell(self, notice: Notice | None) -> None:
        """Show a notice; text from data is shown literally (never parsed as markup)."""
        if notice is not None:
            # 3 s and 8 s at Textual's default of 5 s (tests raise it to keep toasts on screen)
            timeout = self.app.NOTIFICATION_TIMEOUT * (1.6 if notice.severity == "error" else 0.6)
            self.notify(
                notice.text,
                title=notice.title,
                severity=notice.severity,  # type: ignore[arg-type]
                timeout=timeout,
                markup=False,
            )

    def act(self, notice: Notice | None) -> None:
        """After a transition: tell, then repaint."""
        self.tell(notice)
        self.render_all()

    def render_all(self) -> None:
        """Push the current state down to the widgets, then read ahead."""
        self.paint.everything()
        self.prefetch.schedule()

    def _keep_place(self) -> None:
        """Remember where the annotator is, off the UI thread (only when it changed)."""
        place = self.state.place_to_save()
        if place is not None:
            self.run_worker(
                lambda: self.state.save_place(place), thread=True, group="place", exclusive=True
            )

    def on_unmount(self) -> None:
        self.state.save_place()  # the last place, as the screen closes (quit included)
        log_unsaved(self.app, self.keeper, "it closed before the label was saved")

    # ---- keys ------------------------------------------------------------------------------

    def action_move(self, delta: int) -> None:
        """Move the cursor by `delta` items."""
        self.act(self.state.move(delta))

    @on(ItemsList.Clicked)
    def clicked(self, event: ItemsList.Clicked) -> None:
        self.act(self.state.go_index(event.index))

    def action_response(self, delta: int) -> None:
        """Select the next / previous response of this item."""
        self.state.cursor.select_response(delta)
        self.render_all()

    def action_next_unlabelled(self) -> None:
        """Jump to the next item this annotator has not finished."""
        self.act(self.state.next_unlabelled())

    def action_skip(self) -> None:
        """Leave this response (or item) unlabelled and move to the next unlabelled one."""
        self.act(self.state.labels.blocked() or self.state.cursor.advance())

    def action_label(self, number: int) -> None:
        """Record label `number` (1–4) on the current response or item, then move on."""
        self.act(self.state.record(LABELS[number - 1]))

    def action_clear_label(self) -> None:
        """Withdraw the current label (the earlier one stays in history)."""
        self.act(self.state.record(None, advance=False))

    def action_retry_save(self) -> None:
        """Try again to save a label the database did not take."""
        self.act(self.state.labels.retry_unsaved())

    def action_undo(self) -> None:
        """Undo the last change of this session (the history keeps both)."""
        self.act(self.state.labels.undo())

    def action_toggle_blind(self) -> None:
        """Blind mode on / off for the current labelling mode."""
        self.act(self.state.toggle_blind())

    def action_toggle_mode(self) -> None:
        """Switch between response labelling and item QA."""
        self.act(self.state.toggle_mode())

    def action_toggle_queue(self) -> None:
        """Your assigned queue on / off."""
        self.act(self.state.toggle_queue())

    def action_cycle_order(self) -> None:
        """The list's own order, or most informative first."""
        self.act(self.state.cycle_order())

    def action_queue(self) -> None:
        """Disagreement queue on / off (items the raters disagree on, most disputed first)."""
        self.act(self.state.toggle_ranked())

    def action_toggle_tools(self) -> None:
        """Tools as signatures or as full JSON (remembered for next time)."""
        settings = getattr(self.app, "settings", None)
        self.query_one(ItemView).toggle_tools(settings.path if settings is not None else None)

    # ---- keys that open a dialog or another screen (ReviewDialogs) -------------------------

    def action_whole_text(self) -> None:
        """Show the item's texts (and the selected response) whole."""
        self.dialogs.whole_text()

    def action_filter(self) -> None:
        """Open the filter dialog."""
        self.dialogs.filter()

    def action_search(self) -> None:
        """Open the filter dialog with the cursor in the search box."""
        self.dialogs.search()

    def action_goto(self) -> None:
        """Jump to an item by uuid; the filter is cleared when it hides the item."""
        self.dialogs.goto()

    def action_checklist(self) -> None:
        """Toggle the QA flags of the current item (item QA)."""
        self.dialogs.checklist()

    def action_note(self) -> None:
        """Edit the free-text note on the current item (item QA)."""
        self.dialogs.note()

    def action_switch_annotator(self) -> None:
        """Label as someone else."""
        self.dialogs.switch_annotator()

    def action_datasets(self) -> None:
        """Open the datasets screen."""
        self.dialogs.datasets()

    def action_agreement(self) -> None:
        """Open the agreement and calibration dashboard for this dataset."""
        self.dialogs.agreement()

    def action_team(self) -> None:
        """Team progress."""
        self.dialogs.team()

    def action_adjudicate(self) -> None:
        """The adjudication queue."""
        self.dialogs.adjudicate()

    def action_runs(self) -> None:
        """Open the runs panel."""
        self.dialogs.runs()

    def action_spot_check(self) -> None:
        """Ask a model about the current item now."""
        self.dialogs.spot_check()

    def action_guidelines(self) -> None:
        """Show or hide the dataset's labelling guidelines."""
        self.dialogs.guidelines.toggle()

    def action_help(self) -> None:
        """Show every key."""
        self.dialogs.help()
