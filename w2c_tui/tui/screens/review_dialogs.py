"""The review screen's dialogs and the screens it opens (a mixin of ReviewScreen)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen

from w2c_tui.domain.labels import Label as Behaviour
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.domain.roles import LeadAction
from w2c_tui.tui.review_state import Notice
from w2c_tui.tui.screens.checklist import ChecklistDialog
from w2c_tui.tui.screens.dialogs import (
    AnnotatorSwitchDialog,
    FilterDialog,
    JumpDialog,
    NoteDialog,
)
from w2c_tui.tui.widgets.guidelines import GuidelinesPanel
from w2c_tui.tui.widgets.items_list import ItemsList

if TYPE_CHECKING:
    from w2c_tui.services import Services
    from w2c_tui.tui.review_views import ReviewController
    from w2c_tui.tui.screens.agreement import AgreementView


class ReviewDialogs(Screen[None]):
    """The review screen's actions that open a dialog or another screen (ReviewScreen's base)."""

    services: Services
    state: ReviewController
    spot_settings: object | None
    agreement_views: dict[str, AgreementView]
    """Where the dashboard was left, per dataset (coming back returns there)."""

    def act(self, notice: Notice | None) -> None:
        """Tell, then repaint (ReviewScreen)."""
        raise NotImplementedError

    def tell(self, notice: Notice | None) -> None:
        """Show a notice (ReviewScreen)."""
        raise NotImplementedError

    def render_all(self) -> None:
        """Push the state to the widgets (ReviewScreen)."""
        raise NotImplementedError

    def _ensure_qa(self) -> None:
        if self.state.mode is not ReviewMode.ITEM_QA:
            self.act(self.state.toggle_mode())

    def action_filter(self, focus_search: bool = False) -> None:
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

    def action_search(self) -> None:
        """Open the filter dialog with the cursor in the search box."""
        self.action_filter(focus_search=True)

    def action_goto(self) -> None:
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

    def action_checklist(self) -> None:
        """Toggle the QA flags of the current item (item QA); 1–4 label it meanwhile."""
        if self.state.detail is None:
            return
        self._ensure_qa()
        detail = self.state.detail
        assert detail is not None
        gold = None if self.state.gold_hidden else detail.item.gold  # blind: no gold, no order

        def commit(code: str, active: bool) -> None:
            notice = self.state.set_flag(code, active)
            if notice is not None:
                self.act(notice)

        def closed(_: None) -> None:
            self.state.load()
            self.render_all()

        self.app.push_screen(
            ChecklistDialog(detail.qa.flags, gold, commit, self._label_here, detail.qa.label),
            closed,
        )

    def action_note(self) -> None:
        """Edit the free-text note on the current item (item QA); F1–F4 label it meanwhile."""
        if self.state.detail is None:
            return
        self._ensure_qa()
        detail = self.state.detail
        assert detail is not None

        def save(text: str | None) -> None:
            if text is not None:
                self.act(self.state.set_note(text))

        self.app.push_screen(NoteDialog(detail.qa.note, self._label_here), save)

    def lead_refusal(self, action: LeadAction) -> bool:
        """Tell and return True when the person at the keyboard (the app's annotator, not
        whom they label as) may not do `action` (services/roles.py)."""
        person = getattr(self.app, "annotator", None) or self.state.annotator
        why = self.services.roles.refusal(
            person, action, invited=bool(getattr(self.app, "invited", False))
        )
        if why is not None:
            self.notify(why, title="A lead's work", severity="error", timeout=12, markup=False)
        return why is not None

    def action_switch_annotator(self) -> None:
        """Label as someone else: pick an annotator of this database or type a new name."""
        if self.lead_refusal(LeadAction.LABEL_FOR_OTHERS):
            return
        names = self.services.assignments.annotators()

        def switch(name: str | None) -> None:
            if name:
                self.act(self.state.switch_annotator(name))
                self.offer_guidelines()

        self.app.push_screen(AnnotatorSwitchDialog(names, self.state.annotator), switch)

    def action_datasets(self) -> None:
        """Open the datasets screen; choosing one switches to it."""
        from w2c_tui.tui.screens.datasets import DatasetsScreen

        def switch(name: str | None) -> None:
            if name and self.services.critic_review.is_critictool(name):
                self.app.open_critictool(name)  # type: ignore[attr-defined]
            elif name:
                self.act(self.state.switch_dataset(name))
                self.offer_guidelines()

        screen = DatasetsScreen(self.services, self.state.dataset, self.state.annotator)
        self.app.push_screen(screen, switch)

    def _back_to(self, item_id: int | None) -> None:
        """After another screen: recount (labels may have arrived), show `item_id` if given."""
        state = self.state
        response = state.card.response.id if state.card and state.card.response else None
        state.reload(load=False)
        if item_id is None or not state.go_to_item(item_id):
            if item_id is not None:
                state.filter = state.filter.cleared()
                state.reload(keep_item=item_id)
            else:
                state.load(response)
        self.render_all()

    def action_agreement(self) -> None:
        """Open the agreement and calibration dashboard for this dataset, where you left it."""
        from w2c_tui.tui.screens.agreement import AgreementScreen, AgreementView

        if (closed := self.state.closed_while_blind("The agreement dashboard")) is not None:
            self.tell(closed)
            return
        self.state.saw_everything = True  # no later label on this dataset records `blind`
        view = self.agreement_views.setdefault(self.state.dataset, AgreementView())
        self.app.push_screen(
            AgreementScreen(self.services, self.state.dataset, view=view), self._back_to
        )

    def action_team(self) -> None:
        """Team progress: each annotator's assigned / done / rate, complete units, human α."""
        from w2c_tui.tui.screens.team import TeamScreen

        self.app.push_screen(
            TeamScreen(self.services, self.state.dataset), lambda _: self._back_to(None)
        )

    def action_adjudicate(self) -> None:
        """The adjudication queue: units the humans disagree on, most split first."""
        from w2c_tui.tui.screens.adjudication import AdjudicationScreen

        if (closed := self.state.closed_while_blind("Adjudication")) is not None:
            self.tell(closed)
            return
        if self.lead_refusal(LeadAction.ADJUDICATE):
            return
        person = getattr(self.app, "annotator", None) or self.state.annotator
        self.state.saw_everything = True  # every human's label and gold of disputed units
        self.app.push_screen(
            AdjudicationScreen(self.services, self.state.dataset, person),
            self._back_to,
        )

    def action_runs(self) -> None:
        """Open the runs panel; results land in this screen as they arrive."""
        from w2c_tui.tui.screens.runs import RunsScreen

        self.app.push_screen(
            RunsScreen(self.services, self.state.dataset), lambda _: self._back_to(None)
        )

    def action_spot_check(self) -> None:
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

    def action_guidelines(self) -> None:
        """Show or hide the dataset's labelling guidelines beside the item."""
        panel = self.query_one(GuidelinesPanel)
        if panel.display:
            self._show_guidelines(False)
            return
        guideline = self.services.guidelines.latest(self.state.dataset)
        if guideline is None:
            self.notify(
                f"No guidelines for {self.state.dataset} yet: "
                f"`w2c guidelines set {self.state.dataset} FILE.md` adds them.",
                severity="warning",
                markup=False,
            )
            return
        panel.show(guideline)
        self._show_guidelines(True)
        self.services.guidelines.mark_seen(self.state.annotator, guideline.id)

    def offer_guidelines(self) -> None:
        """Open the guidelines once on an annotator's first visit (and once per new version)."""
        guideline = self.services.guidelines.unseen(self.state.dataset, self.state.annotator)
        if guideline is None:
            return
        self.query_one(GuidelinesPanel).show(guideline)
        self._show_guidelines(True)
        self.services.guidelines.mark_seen(self.state.annotator, guideline.id)
        self.notify(
            f"Labelling guidelines for {guideline.dataset}, version {guideline.version}. "
            "G hides them and shows them again.",
            title="Guidelines",
            timeout=6,
            markup=False,
        )

    def _show_guidelines(self, on: bool) -> None:
        self.query_one(GuidelinesPanel).display = on
        self.query_one(ItemsList).display = not on

    def action_help(self) -> None:
        """Show every key."""
        from w2c_tui.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(getattr(self.app, "keymap", {})))
