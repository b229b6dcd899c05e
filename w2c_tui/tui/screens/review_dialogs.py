"""The review screen's dialogs and the screens it opens: an object the screen owns.

The screens it opens (datasets, agreement, team, adjudication, runs, spot check, help, the
whole text) are imported when they are opened, not at the top: together they add about 0.2 s
(of 0.8 s, measured on the shared VM) to importing the review screen, which every start of
`w2c tui` pays before the first item shows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.screen import Screen

from w2c_tui.domain.labels import Label as Behaviour
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.domain.roles import LeadAction
from w2c_tui.tui.review_state import Notice
from w2c_tui.tui.review_views import ReviewController
from w2c_tui.tui.screens.agreement_view import AgreementView
from w2c_tui.tui.screens.checklist import ChecklistDialog
from w2c_tui.tui.screens.dialogs import (
    AnnotatorSwitchDialog,
    FilterDialog,
    JumpDialog,
    NoteDialog,
)
from w2c_tui.tui.screens.review_guidelines import ReviewGuidelines


class ReviewDialogs:
    """The review screen's actions that open a dialog or another screen.

    The screen owns one and binds its keys to these methods; a dialog's outcome goes back
    through `act` (tell, then repaint), `tell` (a notice only) and `render` (repaint only)."""

    def __init__(
        self,
        screen: Screen[None],
        state: ReviewController,
        *,
        act: Callable[[Notice | None], None],
        tell: Callable[[Notice | None], None],
        render: Callable[[], None],
    ) -> None:
        self.screen = screen
        self.state = state
        self.services = state.services
        self.act = act
        self.tell = tell
        self.render_all = render
        self.spot_settings: object | None = None
        """The last spot check's settings (a SpotSettings), offered again next time."""
        self.agreement_views: dict[str, AgreementView] = {}
        """Where the dashboard was left, per dataset (coming back returns there)."""
        self.guidelines = ReviewGuidelines(screen, state)

    @property
    def app(self) -> App[Any]:
        """The running app (the screen's)."""
        return self.screen.app

    def _ensure_qa(self) -> None:
        if self.state.mode is not ReviewMode.ITEM_QA:
            self.act(self.state.toggle_mode())

    def filter(self, focus_search: bool = False) -> None:
        """Open the filter dialog."""
        sources = self.services.review.sources(self.state.dataset)
        blind = self.state.is_blind
        if blind and "source" not in self.services.review.pre_label(self.state.dataset):
            sources = []  # this dataset's source predicts its gold: no source filter while blind

        def apply(result: ItemFilter | None) -> None:
            if result is not None:
                self.act(self.state.set_filter(result))

        self.app.push_screen(
            FilterDialog(self.state.filter, sources, focus_search=focus_search, blind=blind), apply
        )

    def search(self) -> None:
        """Open the filter dialog with the cursor in the search box."""
        self.filter(focus_search=True)

    def goto(self) -> None:
        """Jump to an item by uuid; the filter is cleared when it hides the item."""

        def jump(uuid: str | None) -> None:
            if uuid:
                self.act(self.state.jump(uuid))

        self.app.push_screen(JumpDialog(), jump)

    def _label_here(self, label: Behaviour) -> Behaviour | None:
        """Record the item's label from a dialog without leaving the item."""
        notice = self.state.record(label, advance=False)
        if notice is not None:
            self.tell(notice)
        self.render_all()
        detail = self.state.detail
        return detail.qa.label if detail else None

    def checklist(self) -> None:
        """Toggle the QA flags of the current item (item QA); 1–4 label it meanwhile."""
        if self.state.detail is None:
            return
        self._ensure_qa()
        detail = self.state.detail
        assert detail is not None
        gold = None if self.state.gold_hidden else detail.item.gold  # blind: no gold, no order

        def commit(code: str, active: bool) -> None:
            notice = self.state.labels.set_flag(code, active)
            if notice is not None:
                self.act(notice)

        def closed(_: None) -> None:
            self.state.cursor.load()
            self.render_all()

        self.app.push_screen(
            ChecklistDialog(detail.qa.flags, gold, commit, self._label_here, detail.qa.label),
            closed,
        )

    def note(self) -> None:
        """Edit the free-text note on the current item (item QA); F1–F4 label it meanwhile."""
        if self.state.detail is None:
            return
        self._ensure_qa()
        detail = self.state.detail
        assert detail is not None

        def save(text: str | None) -> None:
            if text is not None:
                self.act(self.state.labels.set_note(text))

        self.app.push_screen(NoteDialog(detail.qa.note, self._label_here), save)

    def lead_refusal(self, action: LeadAction) -> bool:
        """Tell and return True when the person at the keyboard (the app's annotator, not
        whom they label as) may not do `action` (services/roles.py)."""
        person = getattr(self.app, "annotator", None) or self.state.annotator
        why = self.services.roles.refusal(
            person, action, invited=bool(getattr(self.app, "invited", False))
        )
        if why is not None:
            self.screen.notify(
                why, title="A lead's work", severity="error", timeout=12, markup=False
            )
        return why is not None

    def switch_annotator(self) -> None:
        """Label as someone else: pick an annotator of this database or type a new name."""
        if self.lead_refusal(LeadAction.LABEL_FOR_OTHERS):
            return
        names = self.services.assignments.annotators()

        def switch(name: str | None) -> None:
            if name:
                self.act(self.state.switch_annotator(name))
                self.guidelines.offer()

        self.app.push_screen(AnnotatorSwitchDialog(names, self.state.annotator), switch)

    def datasets(self) -> None:
        """Open the datasets screen; choosing one switches to it."""
        from w2c_tui.tui.screens.datasets import DatasetsScreen

        def switch(name: str | None) -> None:
            if name and self.services.critictool_review.is_critictool(name):
                self.app.open_critictool(name)  # type: ignore[attr-defined]
            elif name:
                self.act(self.state.switch_dataset(name))
                self.guidelines.offer()

        screen = DatasetsScreen(self.services, self.state.dataset, self.state.annotator)
        self.app.push_screen(screen, switch)

    def _back_to(self, item_id: int | None) -> None:
        """After another screen: recount (labels may have arrived), show `item_id` if given."""
        state = self.state
        response = state.card.response.id if state.card and state.card.response else None
        state.reload(load=False)
        if item_id is None or not state.cursor.go_to_item(item_id):
            if item_id is not None:
                state.lens.filter = state.filter.cleared()
                state.reload(keep_item=item_id)
            else:
                state.load(response)
        self.render_all()

    def agreement(self) -> None:
        """Open the agreement and calibration dashboard for this dataset, where you left it."""
        from w2c_tui.tui.screens.agreement import AgreementScreen

        if (closed := self.state.closed_while_blind("The agreement dashboard")) is not None:
            self.tell(closed)
            return
        self.state.labels.saw_everything = True  # no later label on this dataset records `blind`
        view = self.agreement_views.setdefault(self.state.dataset, AgreementView())
        self.app.push_screen(
            AgreementScreen(self.services, self.state.dataset, view=view), self._back_to
        )

    def team(self) -> None:
        """Team progress: each annotator's assigned / done / rate, complete units, human α."""
        from w2c_tui.tui.screens.team import TeamScreen

        self.app.push_screen(
            TeamScreen(self.services, self.state.dataset), lambda _: self._back_to(None)
        )

    def adjudicate(self) -> None:
        """The adjudication queue: units the humans disagree on, most split first."""
        from w2c_tui.tui.screens.adjudication import AdjudicationScreen

        if (closed := self.state.closed_while_blind("Adjudication")) is not None:
            self.tell(closed)
            return
        if self.lead_refusal(LeadAction.ADJUDICATE):
            return
        person = getattr(self.app, "annotator", None) or self.state.annotator
        self.state.labels.saw_everything = True  # every human's label and gold of disputed units
        self.app.push_screen(
            AdjudicationScreen(self.services, self.state.dataset, person),
            self._back_to,
        )

    def runs(self) -> None:
        """Open the runs panel; results land in this screen as they arrive."""
        from w2c_tui.tui.screens.runs import RunsScreen

        self.app.push_screen(
            RunsScreen(self.services, self.state.dataset), lambda _: self._back_to(None)
        )

    def spot_check(self) -> None:
        """Ask a model about the current item now and see it beside your own label."""
        from w2c_tui.tui.cards import own_verdict
        from w2c_tui.tui.screens.spot_check import OwnLabels, SpotCheckDialog, SpotSettings

        state = self.state
        if state.detail is None:
            return
        if state.gold_hidden:
            self.tell(
                Notice(
                    "A spot check shows a model's answer and its judge's reading of this item: "
                    "it opens once your label on the item is in (blind).",
                    severity="warning",
                    title="Closed while blind",
                )
            )
            return
        own = OwnLabels(
            qa=state.detail.qa.label,
            by_model={
                panel.target_model: verdict.label
                for panel in state.detail.models
                for response in panel.responses
                if (verdict := own_verdict(response, state.annotator)) is not None
                and verdict.label is not None
            },
        )
        settings = self.spot_settings
        if not isinstance(settings, SpotSettings):
            settings = SpotSettings()

        def keep(result: SpotSettings | None) -> None:
            if result is not None:
                self.spot_settings = result

        self.app.push_screen(
            SpotCheckDialog(self.services, state.dataset, state.detail.item.id, settings, own),
            keep,
        )

    def help(self) -> None:
        """Show every key."""
        from w2c_tui.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(getattr(self.app, "keymap", {})))

    def whole_text(self) -> None:
        """Show the item's texts (and the selected response) whole."""
        from w2c_tui.tui.screens.full_text import FullTextDialog, whole_text

        detail = self.state.detail
        if detail is None:
            return
        card = self.state.card
        response = card.response.text if card and card.response and card.revealed else None
        if card and card.response and not card.revealed:
            response = card.response.text  # the response itself is never hidden, only its model
        title = f"{self.state.cursor.title()} (Esc closes)"
        self.app.push_screen(FullTextDialog(title, whole_text(detail.item, response)))
