"""The review state as one class: its parts (lens, cursor, labels, places) and the view
transitions that change more than one of them (blind, mode, queue, filters, jumps, who, what)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.models import Change, ItemDetail
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.tui.cards import Card
from w2c_tui.tui.pace import Pace
from w2c_tui.tui.review_cursor import ReviewCursor
from w2c_tui.tui.review_labelling import LabelDesk
from w2c_tui.tui.review_lens import ReviewLens
from w2c_tui.tui.review_orders import ListOrders
from w2c_tui.tui.review_place import ReviewPlaces
from w2c_tui.tui.review_state import Notice, PendingLabel, ReviewScope
from w2c_tui.tui.row_cache import RowCache

if TYPE_CHECKING:
    from w2c_tui.services import Services


class ReviewController:
    """What the review screen shows and how keys change it, composed of parts that each own
    their data: `lens` (filter, mode, blind), `cursor` (list, item, cards), `labels` (writes,
    undo, the unsaved label) and `places` (where to open, the place saved for next time)."""

    def __init__(self, services: Services, annotator: str, dataset: str) -> None:
        self.scope = ReviewScope(services, annotator, dataset)
        self.lens = ReviewLens()
        self.cursor = ReviewCursor(self.scope, self.lens)
        self.labels = LabelDesk(self.scope, self.lens, self.cursor)
        self.places = ReviewPlaces(self.scope, self.lens, self.cursor)
        # the parts' own transitions, called on the state as a whole
        self.open = self.places.open
        self.place_to_save = self.places.place_to_save
        self.save_place = self.places.save_place
        self.reload = self.cursor.reload
        self.load = self.cursor.load
        self.orders = ListOrders(self.lens, self.cursor, self.labels)
        self.cycle_order = self.orders.cycle_order
        self.toggle_ranked = self.orders.toggle_ranked
        self.progress = self.cursor.progress
        self.record = self.labels.record

    # ---- what the parts hold, read on the state as a whole ---------------------------------

    @property
    def services(self) -> Services:
        """The application's services."""
        return self.scope.services

    @property
    def annotator(self) -> str:
        """Who is labelling."""
        return self.scope.annotator

    @property
    def dataset(self) -> str:
        """The dataset on screen."""
        return self.scope.dataset

    @property
    def filter(self) -> ItemFilter:
        """The item filter."""
        return self.lens.filter

    @property
    def mode(self) -> ReviewMode:
        """Response labelling or item QA."""
        return self.lens.mode

    @property
    def is_blind(self) -> bool:
        """Blind mode in the current labelling mode."""
        return self.lens.is_blind

    @property
    def view(self) -> ItemFilter:
        """The filter with the list's order."""
        return self.lens.view

    @property
    def mode_label(self) -> str:
        """The mode as the header shows it."""
        return self.lens.mode_label

    @property
    def rows(self) -> RowCache:
        """The filtered list."""
        return self.cursor.rows

    @property
    def index(self) -> int:
        """The cursor's row in the list."""
        return self.cursor.index

    @property
    def detail(self) -> ItemDetail | None:
        """The item under the cursor."""
        return self.cursor.detail

    @property
    def cards(self) -> list[Card]:
        """Its response cards."""
        return self.cursor.cards

    @property
    def card(self) -> Card | None:
        """The selected response card."""
        return self.cursor.card

    @property
    def gold_hidden(self) -> bool:
        """The gold label (and item-level scores) must not be shown yet."""
        return self.cursor.gold_hidden

    @property
    def unsaved(self) -> PendingLabel | None:
        """The label the database has not taken yet."""
        return self.labels.unsaved

    @property
    def undo_stack(self) -> list[Change]:
        """This session's changes, last on top."""
        return self.labels.undo_stack

    @property
    def previous(self) -> str | None:
        """One line about the item just finished."""
        return self.labels.previous

    # ---- moves: refused while a label is not saved -----------------------------------------

    def move(self, delta: int) -> Notice | None:
        """Move the cursor by `delta` items."""
        if (refused := self.labels.blocked()) is not None:
            return refused
        self.cursor.move(delta)
        return None

    def go_index(self, index: int) -> Notice | None:
        """Show the item at row `index` (a click)."""
        if (refused := self.labels.blocked()) is not None:
            return refused
        self.cursor.go_index(index)
        return None

    def next_unlabelled(self) -> Notice | None:
        """Jump to the next item this annotator has not finished."""
        return self.labels.blocked() or self.cursor.next_unlabelled()

    def closed_while_blind(self, what: str) -> Notice | None:
        """Why `what` (a screen that shows other raters and gold of any unit) stays closed
        while blind (ReviewLens.closed_while_blind); None when it may open."""
        return self.lens.closed_while_blind(self.scope, what)

    # ---- view switches ---------------------------------------------------------------------

    def _keep(self) -> int | None:
        return self.detail.item.id if self.detail else None

    def _relist(self, **changes: bool) -> None:
        """The filter with `changes`, from the top of the list (staying on the current item
        when it is still in it)."""
        self.lens.filter = self.filter.with_(**changes)
        self.cursor.index = 0
        self.reload(keep_item=self._keep())

    def toggle_blind(self) -> Notice:
        """Blind mode on / off for the current labelling mode (the order follows it)."""
        if (refused := self.lens.flip_blind()) is not None:
            return refused
        card = self.card
        response = card.response.id if card and card.response else None
        self.reload(keep_item=self._keep(), load=False)
        self.load(response)
        if self.is_blind:
            return Notice("Blind mode on: the list is shuffled for you; reveals follow labels.")
        return Notice("Blind mode off: gold, raters, scores and models are shown.")

    def _queue_exists(self) -> bool:
        assignments = self.services.assignments
        return assignments.queue(self.dataset, self.annotator, self.lens.units) is not None

    def toggle_mode(self) -> Notice | None:
        """Switch between response labelling and item QA."""
        if (refused := self.labels.blocked()) is not None:
            return refused
        self.lens.mode = (
            ReviewMode.ITEM_QA if self.mode is ReviewMode.RESPONSES else ReviewMode.RESPONSES
        )
        note = f"Mode: {self.mode.display_name}"
        if self.filter.queue and not self._queue_exists():
            self.lens.filter = self.filter.with_(queue=False)
            note += " (you have no assignments in this mode: showing every item)"
        self.reload(keep_item=self._keep())
        return Notice(note)

    def toggle_queue(self) -> Notice | None:
        """Your assigned units only, in your queue's order; or every item again."""
        if (refused := self.labels.blocked()) is not None:
            return refused
        if not self.filter.queue and not self._queue_exists():
            what = "items" if self.mode is ReviewMode.ITEM_QA else "responses"
            return Notice(
                f"No {what} of {self.dataset} are assigned to {self.annotator} "
                "(`w2c assign` makes a plan).",
                severity="warning",
            )
        self._relist(queue=not self.filter.queue)
        return Notice("Your queue." if self.filter.queue else "Every item (queue left).")

    def set_filter(self, flt: ItemFilter) -> Notice | None:
        """Apply a new filter, staying on the current item when it still matches."""
        if (refused := self.labels.blocked()) is not None:
            return refused
        if flt == self.filter:
            return None
        self.lens.filter = flt
        self.cursor.index = 0
        self.reload(keep_item=self._keep())
        return None

    def jump(self, uuid: str) -> Notice | None:
        """Show the item with this uuid (or unique prefix); the filter is cleared if it hides it."""
        if (refused := self.labels.blocked()) is not None:
            return refused
        try:
            item = self.services.review.find(self.dataset, uuid)
        except NotFoundError as error:
            return Notice(str(error), severity="error")
        if self.cursor.go_to_item(item.id):
            return None
        self.lens.filter = self.filter.cleared()
        self.reload(keep_item=item.id)
        return Notice("Filter cleared to show that item.")

    def switch_annotator(self, name: str) -> Notice | None:
        """Label as someone else from now on (their queue, their labels, their undo)."""
        if (refused := self.labels.blocked()) is not None:
            return refused
        if name == self.annotator:
            return None
        self.save_place()
        self.scope.annotator = name
        self.labels.forget_session()
        self.labels.pace = Pace()
        return self.open() or Notice(f"Labelling as {name}.")

    def switch_dataset(self, name: str) -> Notice | None:
        """Open another dataset (its queue, if this annotator has one there)."""
        if (refused := self.labels.blocked()) is not None:
            return refused
        if name == self.dataset:
            return None
        self.save_place()
        self.scope.dataset = name
        self.labels.saw_everything = False
        self.labels.forget_session()
        return self.open()
