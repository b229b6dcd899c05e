"""View transitions of the review state: blind, mode, queue, filters, jumps, who and what."""

from __future__ import annotations

from w2c_tui.domain.blind import BlindPolicy
from w2c_tui.domain.errors import NotFoundError, WriteError
from w2c_tui.domain.review import ItemFilter, ReviewMode, ReviewPlace
from w2c_tui.domain.team import AssignUnits
from w2c_tui.tui.pace import Pace
from w2c_tui.tui.review_labelling import LabellingState
from w2c_tui.tui.review_state import Notice


class ReviewController(LabellingState):
    """The whole review state: list, labelling, and the view switches."""

    saved_place: ReviewPlace | None = None
    """The place last written to the database (a new one is written only when it differs)."""
    no_responses = False
    """The dataset has no model responses (it opened in item QA)."""

    def open(self) -> Notice | None:
        """First look at a dataset: where this annotator left off; else their queue if they
        have one; item QA if the dataset has no responses to label."""
        assignments = self.services.assignments
        queues = {u: assignments.queue(self.dataset, self.annotator, u) for u in AssignUnits}
        self._apply_plans()
        self.no_responses = not self.services.review.has_responses(self.dataset)
        notice = None
        if queues[AssignUnits.RESPONSES] and not self.no_responses:
            self.mode, self.filter = ReviewMode.RESPONSES, ItemFilter(queue=True)
        elif queues[AssignUnits.ITEMS]:
            self.mode, self.filter = ReviewMode.ITEM_QA, ItemFilter(queue=True)
        else:
            self.mode, self.filter = ReviewMode.RESPONSES, ItemFilter()
            if self.no_responses:
                self.mode = ReviewMode.ITEM_QA
                notice = Notice(
                    "This dataset has no model responses: opened in item QA "
                    "(label the correct behaviour of each item; m switches mode).",
                    title="Item QA",
                )
        place = self.services.review.place(self.dataset, self.annotator)
        if place is not None and not (place.mode is ReviewMode.RESPONSES and self.no_responses):
            self.mode = place.mode
            self.filter = ItemFilter(queue=place.queue and queues[self.units] is not None)
        if self.filter.queue:
            done = queues[self.units]
            assert done is not None
            notice = Notice(
                f"Your queue: {done.done}/{done.total} assigned units done, in an order "
                "shuffled for you. Q leaves the queue.",
                title="Assignments",
            )
        self.index = 0
        self.reload(keep_item=place.item_id if place else None)
        self.saved_place = self.place_now()
        if place is not None and place.item_id is not None and self.rows.count:
            where = "your queue" if self.filter.queue else self.mode.display_name
            notice = Notice(
                f"Back where you left off: item {self.index + 1} of {self.rows.count} ({where}).",
                title="Welcome back",
            )
        return notice

    def _apply_plans(self) -> None:
        """Blind mode as the annotator's assignment plans say (docs/team.md): a plan with an
        overlap of 2 or more opens blind in both modes; `required` cannot be switched off."""
        self.blind = {ReviewMode.RESPONSES: True, ReviewMode.ITEM_QA: False}
        self.blind_required = {}
        for mode, units in (
            (ReviewMode.RESPONSES, AssignUnits.RESPONSES),
            (ReviewMode.ITEM_QA, AssignUnits.ITEMS),
        ):
            plan = self.services.assignments.blind(self.dataset, units, self.annotator)
            if plan is None:
                continue
            self.blind[mode] = plan.opens_blind(self.blind[mode])
            if plan.policy is BlindPolicy.REQUIRED:
                self.blind_required[mode] = (
                    f"the assignment plan of {units.value} on {self.dataset} requires blind "
                    f"mode (overlap {plan.overlap}); a lead sets it with `w2c assign --blind`"
                )

    def closed_while_blind(self, what: str) -> Notice | None:
        """Why `what` (a screen that shows other raters and gold of any unit) stays closed:
        blind mode is on in a mode where this annotator has units left (their queue's, else
        every unit of the dataset). None when it may open."""
        for mode, units in (
            (ReviewMode.RESPONSES, AssignUnits.RESPONSES),
            (ReviewMode.ITEM_QA, AssignUnits.ITEMS),
        ):
            if not self.blind[mode]:
                continue
            queue = self.services.assignments.queue(self.dataset, self.annotator, units)
            if queue is not None:
                done, total, where = queue.done, queue.total, f"your {mode.display_name} queue"
            else:
                counted = self.services.review.progress(self.dataset, mode, self.annotator)
                done, total, where = counted.done, counted.total, mode.display_name
            if done >= total:
                continue
            way_out = (
                f"blind mode is required there ({self.blind_required[mode]})"
                if mode in self.blind_required
                else f"or turn blind mode off in {mode.display_name} with b (your labels then "
                "record that you had seen everything)"
            )
            return Notice(
                f"{what} shows other raters' labels and gold of units you have not labelled. "
                f"It opens once {where} is done ({done}/{total}); {way_out}.",
                severity="warning",
                title="Closed while blind",
            )
        return None

    def place_now(self) -> ReviewPlace:
        """Where the annotator is now."""
        item = self.detail.item.id if self.detail else None
        return ReviewPlace(self.mode, item, self.filter.queue)

    def place_to_save(self) -> ReviewPlace | None:
        """The current place when it differs from the one last saved (else None)."""
        now = self.place_now()
        return None if now == self.saved_place else now

    def save_place(self, place: ReviewPlace | None = None) -> bool:
        """Write `place` (default: the current one, if changed); False when the database did
        not take it (busy, read-only): a place is not a label, the next save will do."""
        place = place or self.place_to_save()
        if place is None:
            return True
        try:
            self.services.review.save_place(self.dataset, self.annotator, place)
        except WriteError:
            return False
        self.saved_place = place
        return True

    @property
    def mode_label(self) -> str:
        """The mode as the header shows it."""
        if self.no_responses and self.mode is ReviewMode.ITEM_QA:
            return f"{self.mode.display_name} (no responses in this dataset)"
        return self.mode.display_name

    def _keep(self) -> int | None:
        return self.detail.item.id if self.detail else None

    def _response(self) -> int | None:
        card = self.card
        return card.response.id if card and card.response else None

    def toggle_blind(self) -> Notice:
        """Blind mode on / off for the current labelling mode (the order follows it)."""
        if self.is_blind and self.mode in self.blind_required:
            return Notice(
                f"Blind mode stays on: {self.blind_required[self.mode]}.",
                severity="warning",
                title="Blind required",
            )
        self.blind[self.mode] = not self.blind[self.mode]
        response = self._response()
        self.reload(keep_item=self._keep(), load=False)
        self.load(response)
        if self.is_blind:
            return Notice("Blind mode on: the list is shuffled for you; reveals follow labels.")
        return Notice("Blind mode off: gold, raters, scores and models are shown.")

    def toggle_mode(self) -> Notice | None:
        """Switch between response labelling and item QA."""
        if (refused := self.blocked()) is not None:
            return refused
        self.mode = (
            ReviewMode.ITEM_QA if self.mode is ReviewMode.RESPONSES else ReviewMode.RESPONSES
        )
        note = f"Mode: {self.mode.display_name}"
        if (
            self.filter.queue
            and self.services.assignments.queue(self.dataset, self.annotator, self.units) is None
        ):
            self.filter = self.filter.with_(queue=False)
            note += " (you have no assignments in this mode: showing every item)"
        self.reload(keep_item=self._keep())
        return Notice(note)

    def toggle_queue(self) -> Notice | None:
        """Your assigned units only, in your queue's order; or every item again."""
        if (refused := self.blocked()) is not None:
            return refused
        if not self.filter.queue:
            queue = self.services.assignments.queue(self.dataset, self.annotator, self.units)
            if queue is None:
                what = "items" if self.mode is ReviewMode.ITEM_QA else "responses"
                return Notice(
                    f"No {what} of {self.dataset} are assigned to {self.annotator} "
                    "(`w2c assign` makes a plan).",
                    severity="warning",
                )
        self.filter = self.filter.with_(queue=not self.filter.queue)
        self.index = 0
        self.reload(keep_item=self._keep())
        return Notice("Your queue." if self.filter.queue else "Every item (queue left).")

    def set_filter(self, flt: ItemFilter) -> Notice | None:
        """Apply a new filter, staying on the current item when it still matches."""
        if (refused := self.blocked()) is not None:
            return refused
        if flt == self.filter:
            return None
        self.filter = flt
        self.index = 0
        self.reload(keep_item=self._keep())
        return None

    def toggle_ranked(self) -> Notice | None:
        """Disagreement queue on / off: from its top, most disputed first (human splits before
        the units only the machines dispute); the list shows each item's split."""
        if (refused := self.blocked()) is not None:
            return refused
        self.filter = self.filter.with_(ranked=not self.filter.ranked)
        self.index = 0
        self.reload()  # the queue opens at its top, not at the current item
        if self.filter.ranked:
            blind = (
                " Blind: only items you have finished are in it (b off, or finish your queue, "
                "for the rest)."
                if self.is_blind
                else ""
            )
            return Notice(
                f"Disagreement queue: {self.rows.count} item(s), the humans' splits first; "
                f"the number beside each is how split its readings are. r leaves it.{blind}"
            )
        return Notice("Every item (disagreement queue left).")

    def jump(self, uuid: str) -> Notice | None:
        """Show the item with this uuid (or unique prefix); the filter is cleared if it hides it."""
        if (refused := self.blocked()) is not None:
            return refused
        try:
            item = self.services.review.find(self.dataset, uuid)
        except NotFoundError as error:
            return Notice(str(error), severity="error")
        if self.go_to_item(item.id):
            return None
        self.filter = self.filter.cleared()
        self.reload(keep_item=item.id)
        return Notice("Filter cleared to show that item.")

    def switch_annotator(self, name: str) -> Notice | None:
        """Label as someone else from now on (their queue, their labels, their undo)."""
        if (refused := self.blocked()) is not None:
            return refused
        if name == self.annotator:
            return None
        self.save_place()
        self.annotator = name
        self.undo_stack.clear()
        self.pace = Pace()
        self.previous = None
        opened = self.open()
        return opened or Notice(f"Labelling as {name}.")

    def switch_dataset(self, name: str) -> Notice | None:
        """Open another dataset (its queue, if this annotator has one there)."""
        if (refused := self.blocked()) is not None:
            return refused
        if name == self.dataset:
            return None
        self.save_place()
        self.dataset = name
        self.saw_everything = False
        self.undo_stack.clear()
        self.previous = None
        return self.open()
