"""The review screen: items list, item, responses or QA; labelling from the keyboard."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer

from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.labels import LABELS, Label
from w2c_tui.domain.models import Change, ItemDetail, ItemRow, LabelChange, Progress
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.tui.bindings import REVIEW_BINDINGS
from w2c_tui.tui.cards import Card, build_cards
from w2c_tui.tui.screens.dialogs import ChecklistDialog, FilterDialog, JumpDialog, NoteDialog
from w2c_tui.tui.widgets.item_view import ItemView
from w2c_tui.tui.widgets.items_list import ItemsList
from w2c_tui.tui.widgets.qa_panel import QAPanel
from w2c_tui.tui.widgets.responses import ResponsesPanel
from w2c_tui.tui.widgets.status import Pace, StatusBar

if TYPE_CHECKING:
    from w2c_tui.services import Services


class ReviewScreen(Screen[None]):
    """Step through items and responses, label them, undo, filter."""

    BINDINGS = REVIEW_BINDINGS  # type: ignore[assignment]

    mode: reactive[ReviewMode] = reactive(ReviewMode.RESPONSES, init=False)
    """What the annotator labels: responses, or the items themselves."""

    def __init__(self, services: Services, annotator: str, dataset: str) -> None:
        super().__init__()
        self.services = services
        self.annotator = annotator
        self.dataset = dataset
        self.filter = ItemFilter()
        self.blind = {ReviewMode.RESPONSES: True, ReviewMode.ITEM_QA: False}
        self.index = 0
        self.detail: ItemDetail | None = None
        self.cards: list[Card] = []
        self.card_index = 0
        self.undo_stack: list[Change] = []
        self.pace = Pace()
        self._progress: tuple[tuple[object, ...], Progress] | None = None
        self.spot_settings: object | None = None
        """The last spot check's settings (a SpotSettings), offered again next time."""

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        with Horizontal(id="main"):
            yield ItemsList(self._fetch, id="items")
            yield ItemView(id="item")
            with Vertical(id="side"):
                yield QAPanel(id="qa")
                yield ResponsesPanel(id="responses")
        yield Footer()

    def on_mount(self) -> None:
        self.reload_list()
        self.query_one(ItemsList).focus()

    # ---- data --------------------------------------------------------------------------

    def _fetch(self, offset: int, limit: int) -> list[ItemRow]:
        return self.services.review.window(
            self.dataset, self.filter, self.mode, self.annotator, offset, limit
        )

    def reload_list(self, keep_item: int | None = None, *, load: bool = True) -> None:
        """Recount the filtered list and show the item `keep_item` (or the same row)."""
        self._progress = None  # responses may have arrived (a run, an import)
        review = self.services.review
        count = review.count(self.dataset, self.filter, self.mode, self.annotator)
        items = self.query_one(ItemsList)
        items.reset(self._fetch, count)
        if keep_item is not None:
            found = review.index_of(self.dataset, self.filter, self.mode, self.annotator, keep_item)
            if found is not None:
                self.index = found
        self.index = max(0, min(self.index, count - 1))
        if load:
            self.load_current()

    def load_current(self, response_id: int | None = None) -> None:
        """Fetch the item under the cursor and show it (selecting `response_id` if given)."""
        row = self.query_one(ItemsList).row(self.index)
        if row is None:
            self.detail = None
            self.cards = []
        else:
            self.detail = self.services.review.detail(row.id, self.annotator)
            self._build_cards(response_id)
        self.render_all()

    def _build_cards(self, response_id: int | None) -> None:
        assert self.detail is not None
        self.cards = build_cards(self.detail, self.annotator, self.is_blind)
        ids = [c.response.id if c.response else None for c in self.cards]
        if response_id is not None and response_id in ids:
            self.card_index = ids.index(response_id)
        else:
            pending = [i for i, c in enumerate(self.cards) if c.labelable and c.mine is None]
            labelable = [i for i, c in enumerate(self.cards) if c.labelable]
            self.card_index = (pending or labelable or [0])[0]

    @property
    def is_blind(self) -> bool:
        """Blind mode in the current labelling mode."""
        return self.blind[self.mode]

    @property
    def card(self) -> Card | None:
        """The selected response card."""
        return self.cards[self.card_index] if 0 <= self.card_index < len(self.cards) else None

    def _gold_hidden(self) -> bool:
        if not self.is_blind or self.detail is None:
            return False
        if self.mode is ReviewMode.ITEM_QA:
            return self.detail.qa.label is None
        card = self.card
        return card is None or card.mine is None

    def render_all(self) -> None:
        """Push the current state down to the widgets."""
        items = self.query_one(ItemsList)
        items.cursor = self.index
        items.hide_gold = self.is_blind
        self.query_one(ItemView).show(
            self.detail.item if self.detail else None, blind=self._gold_hidden()
        )
        qa = self.query_one(QAPanel)
        qa.display = self.mode is ReviewMode.ITEM_QA
        if self.detail is not None and self.mode is ReviewMode.ITEM_QA:
            qa.show(self.detail.qa)
        selected = self.card_index if self.mode is ReviewMode.RESPONSES and self.cards else None
        self.query_one(ResponsesPanel).show(self.cards, selected, self.annotator)
        self.update_status()

    def update_status(self) -> None:
        """Refresh the header line (progress is counted again only after a change)."""
        key = (self.dataset, self.mode, self.pace.count, len(self.undo_stack))
        if self._progress is None or self._progress[0] != key:
            progress = self.services.review.progress(self.dataset, self.mode, self.annotator)
            self._progress = (key, progress)
        progress = self._progress[1]
        count = self.query_one(ItemsList).count
        position = f"item {self.index + 1}/{count}" if count else "no items"
        self.query_one(StatusBar).show(
            dataset=self.dataset,
            annotator=self.annotator,
            mode=self.mode.display_name,
            progress=progress,
            pace=self.pace,
            blind=self.is_blind,
            filter_text=self.filter.describe(),
            position=position,
        )

    # ---- moving ------------------------------------------------------------------------

    def action_move(self, delta: int) -> None:
        """Move the cursor by `delta` items."""
        count = self.query_one(ItemsList).count
        if not count:
            return
        target = max(0, min(self.index + delta, count - 1))
        if target != self.index:
            self.index = target
            self.load_current()

    @on(ItemsList.Clicked)
    def clicked(self, event: ItemsList.Clicked) -> None:
        self.index = event.index
        self.load_current()

    def action_response(self, delta: int) -> None:
        """Select the next / previous response of this item."""
        if self.cards:
            self.card_index = (self.card_index + delta) % len(self.cards)
            self.render_all()

    def go_to_item(self, item_id: int, response_id: int | None = None) -> bool:
        """Show `item_id`; False when the current filter hides it."""
        found = self.services.review.index_of(
            self.dataset, self.filter, self.mode, self.annotator, item_id
        )
        if found is None:
            return False
        self.index = found
        self.load_current(response_id)
        return True

    def action_next_unlabelled(self) -> None:
        """Jump to the next item this annotator has not finished."""
        position = self.detail.item.position if self.detail else -1
        target = self.services.review.next_unlabelled(
            self.dataset, self.filter, self.mode, self.annotator, position
        )
        if target is None:
            self.notify("Nothing left to label under this filter.", title="All done")
            return
        self.go_to_item(target)

    def action_skip(self) -> None:
        """Leave this response (or item) unlabelled and move to the next unlabelled one."""
        self._advance()

    def _advance(self) -> None:
        if self.mode is ReviewMode.RESPONSES:
            later = [
                i
                for i in range(self.card_index + 1, len(self.cards))
                if self.cards[i].labelable and self.cards[i].mine is None
            ]
            if later:
                self.card_index = later[0]
                self.render_all()
                return
        self.action_next_unlabelled()

    # ---- labelling ---------------------------------------------------------------------

    def action_label(self, number: int) -> None:
        """Record label `number` (1–4) on the current response or item, then move on."""
        self._record(LABELS[number - 1])

    def action_clear_label(self) -> None:
        """Withdraw the current label (the earlier one stays in history)."""
        self._record(None, advance=False)

    def _record(self, label: Label | None, *, advance: bool = True) -> None:
        if self.detail is None:
            self.notify("No item selected.", severity="warning")
            return
        item = self.detail.item
        review = self.services.review
        if self.mode is ReviewMode.RESPONSES:
            card = self.card
            if (
                card is None
                or not card.labelable
                or card.response is None
                or card.response.id is None
            ):
                self.notify(
                    "This item has no response to label: press m for item QA.", severity="warning"
                )
                return
            change = review.label_response(self.annotator, item.id, card.response.id, label)
            reveal = self.is_blind and card.mine is None and label is not None
            card_before = card
        else:
            change = review.label_item(self.annotator, item.id, label)
            reveal = False
            card_before = None
        # The label is committed: from here on nothing can lose it.
        if change is None:
            if advance:
                self._advance()
            return
        self.undo_stack.append(change)
        if label is not None:
            self.pace.record()
        if reveal and card_before is not None:
            self._announce_reveal(card_before, label)
        if self.filter.labelled is None and not self.filter.disagree and not self.filter.ranked:
            # the filtered list is the same; only this row's labelled mark may have changed
            self.query_one(ItemsList).invalidate_row(self.index)
        else:
            self.reload_list(keep_item=item.id, load=False)
        self.detail = review.detail(item.id, self.annotator)
        self._build_cards(change.response_id)
        if advance and label is not None:
            self._advance()
        else:
            self.render_all()

    def _announce_reveal(self, card: Card, label: Label | None) -> None:
        assert self.detail is not None
        parts = [f"you: {label.value if label else '—'}", f"model: {card.target_model}"]
        verdicts = list(card.response.verdicts if card.response else ()) + list(card.model_verdicts)
        for verdict in verdicts:
            if verdict.rater.kind.value == "human":
                continue
            shown = verdict.label.value if verdict.label else verdict.status.value.upper()
            parts.append(f"{verdict.rater.kind.value} {verdict.rater.name}: {shown}")
        gold = self.detail.item.gold
        parts.append(f"gold: {gold.value if gold else '—'}")
        self.notify("\n".join(parts), title="Revealed", timeout=6)

    def action_undo(self) -> None:
        """Undo the last change of this session (the history keeps both)."""
        if not self.undo_stack:
            self.notify("Nothing to undo.")
            return
        change = self.undo_stack.pop()
        self.services.review.undo(self.annotator, change)
        response_id = change.response_id if isinstance(change, LabelChange) else None
        self.reload_list(load=False)
        if not self.go_to_item(change.item_id, response_id):
            self.load_current()
            self.notify("Undone; that item is outside the current filter.")
            return
        self.notify("Undone.", timeout=2)

    # ---- views and dialogs ---------------------------------------------------------------

    def action_toggle_blind(self) -> None:
        """Blind mode on / off for the current labelling mode."""
        self.blind[self.mode] = not self.blind[self.mode]
        self.load_current(self.card.response.id if self.card and self.card.response else None)

    def action_toggle_mode(self) -> None:
        """Switch between response labelling and item QA."""
        self.mode = (
            ReviewMode.ITEM_QA if self.mode is ReviewMode.RESPONSES else ReviewMode.RESPONSES
        )

    def watch_mode(self) -> None:
        keep = self.detail.item.id if self.detail else None
        self.reload_list(keep_item=keep)
        self.notify(f"Mode: {self.mode.display_name}", timeout=2)

    def action_toggle_tools(self) -> None:
        """Expand or collapse the tool specifications."""
        self.query_one(ItemView).toggle_tools()

    def action_filter(self, focus_search: bool = False) -> None:
        """Open the filter dialog."""
        sources = self.services.review.sources(self.dataset)

        def apply(result: ItemFilter | None) -> None:
            if result is not None and result != self.filter:
                self.filter = result
                keep = self.detail.item.id if self.detail else None
                self.index = 0
                self.reload_list(keep_item=keep)

        self.app.push_screen(FilterDialog(self.filter, sources, focus_search=focus_search), apply)

    def action_search(self) -> None:
        """Open the filter dialog with the cursor in the search box."""
        self.action_filter(focus_search=True)

    def action_queue(self) -> None:
        """Disagreement queue on / off (items the raters disagree on, most disputed first)."""
        self.filter = self.filter.with_(ranked=not self.filter.ranked)
        keep = self.detail.item.id if self.detail else None
        self.index = 0
        self.reload_list(keep_item=keep)
        count = self.query_one(ItemsList).count
        if self.filter.ranked:
            self.notify(f"Disagreement queue: {count} item(s), most disputed first.", timeout=3)

    def action_goto(self) -> None:
        """Jump to an item by uuid; the filter is cleared when it hides the item."""

        def jump(uuid: str | None) -> None:
            if not uuid:
                return
            try:
                item = self.services.review.find(self.dataset, uuid)
            except NotFoundError as error:
                self.notify(str(error), severity="error")
                return
            if not self.go_to_item(item.id):
                self.filter = ItemFilter()
                self.reload_list(keep_item=item.id)
                self.notify("Filter cleared to show that item.")

        self.app.push_screen(JumpDialog(), jump)

    def action_checklist(self) -> None:
        """Toggle the QA flags of the current item (item QA)."""
        if self.detail is None:
            return
        item_id = self.detail.item.id

        def commit(code: str, active: bool) -> None:
            self.undo_stack.append(
                self.services.review.set_flag(self.annotator, item_id, code, active)
            )

        def closed(_: None) -> None:
            self.load_current()

        if self.mode is not ReviewMode.ITEM_QA:
            self.mode = ReviewMode.ITEM_QA
        self.app.push_screen(ChecklistDialog(self.detail.qa.flags, commit), closed)

    def action_note(self) -> None:
        """Edit the free-text note on the current item (item QA)."""
        if self.detail is None:
            return
        item_id = self.detail.item.id
        previous = self.detail.qa.note

        def save(text: str | None) -> None:
            if text is None or text == previous:
                return
            self.undo_stack.append(
                self.services.review.set_note(self.annotator, item_id, previous, text)
            )
            self.load_current()

        if self.mode is not ReviewMode.ITEM_QA:
            self.mode = ReviewMode.ITEM_QA
        self.app.push_screen(NoteDialog(previous), save)

    def action_datasets(self) -> None:
        """Open the datasets screen; choosing one switches to it."""
        from w2c_tui.tui.screens.datasets import DatasetsScreen

        def switch(name: str | None) -> None:
            if name and name != self.dataset:
                self.dataset = name
                self.filter = ItemFilter()
                self.index = 0
                self.undo_stack.clear()
                self.reload_list()

        self.app.push_screen(DatasetsScreen(self.services, self.dataset), switch)

    def action_agreement(self) -> None:
        """Open the agreement and calibration dashboard for this dataset."""
        from w2c_tui.tui.screens.agreement import AgreementScreen

        def opened(item_id: int | None) -> None:
            self.reload_list(load=False)
            if item_id is None:
                self.load_current(
                    self.card.response.id if self.card and self.card.response else None
                )
                return
            if not self.go_to_item(item_id):
                self.filter = ItemFilter()
                self.reload_list(keep_item=item_id)

        self.app.push_screen(AgreementScreen(self.services, self.dataset), opened)

    def action_runs(self) -> None:
        """Open the runs panel; results land in this screen as they arrive."""
        from w2c_tui.tui.screens.runs import RunsScreen

        def back(_: None) -> None:
            self.reload_list(load=False)
            self.load_current(self.card.response.id if self.card and self.card.response else None)

        self.app.push_screen(RunsScreen(self.services, self.dataset), back)

    def action_spot_check(self) -> None:
        """Ask a model about the current item now and see it beside your own label."""
        from w2c_tui.tui.screens.spot_check import SpotCheckDialog, SpotSettings

        if self.detail is None:
            return
        own = (
            self.detail.qa.label
            if self.mode is ReviewMode.ITEM_QA
            else (self.card.mine.label if self.card and self.card.mine else None)
        )
        settings = self.spot_settings
        if not isinstance(settings, SpotSettings):
            settings = SpotSettings()

        def keep(result: SpotSettings | None) -> None:
            if result is not None:
                self.spot_settings = result

        self.app.push_screen(
            SpotCheckDialog(self.services, self.dataset, self.detail.item.id, settings, own), keep
        )

    def action_help(self) -> None:
        """Show every key."""
        from w2c_tui.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(getattr(self.app, "keymap", {})))
