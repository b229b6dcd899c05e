"""The place part of the review state: where an annotator starts on a dataset (where they left
off, else their queue) and the place saved for next time."""

from __future__ import annotations

from w2c_tui.domain.errors import WriteError
from w2c_tui.domain.review import ItemFilter, ReviewMode, ReviewPlace
from w2c_tui.domain.team import AssignUnits
from w2c_tui.tui.review_cursor import ReviewCursor
from w2c_tui.tui.review_lens import ReviewLens
from w2c_tui.tui.review_state import Notice, ReviewScope


class ReviewPlaces:
    """Opening a dataset where the annotator left it, and remembering where that is."""

    def __init__(self, scope: ReviewScope, lens: ReviewLens, cursor: ReviewCursor) -> None:
        self.scope = scope
        self.lens = lens
        self.cursor = cursor
        self.saved_place: ReviewPlace | None = None
        """The place last written to the database (a new one is written only when it differs)."""

    def open(self) -> Notice | None:
        """First look at a dataset: where this annotator left off; else their queue if they
        have one; item QA if the dataset has no responses to label."""
        scope, lens, cursor = self.scope, self.lens, self.cursor
        assignments = scope.services.assignments
        queues = {u: assignments.queue(scope.dataset, scope.annotator, u) for u in AssignUnits}
        lens.apply_plans(scope)
        lens.no_responses = not scope.services.review.has_responses(scope.dataset)
        notice = None
        if queues[AssignUnits.RESPONSES] and not lens.no_responses:
            lens.mode, lens.filter = ReviewMode.RESPONSES, ItemFilter(queue=True)
        elif queues[AssignUnits.ITEMS]:
            lens.mode, lens.filter = ReviewMode.ITEM_QA, ItemFilter(queue=True)
        else:
            lens.mode, lens.filter = ReviewMode.RESPONSES, ItemFilter()
            if lens.no_responses:
                lens.mode = ReviewMode.ITEM_QA
                notice = Notice(
                    "This dataset has no model responses: opened in item QA "
                    "(label the correct behaviour of each item; m switches mode).",
                    title="Item QA",
                )
        place = scope.services.review.place(scope.dataset, scope.annotator)
        if place is not None and not (place.mode is ReviewMode.RESPONSES and lens.no_responses):
            lens.mode = place.mode
            lens.filter = ItemFilter(queue=place.queue and queues[lens.units] is not None)
        if lens.filter.queue:
            done = queues[lens.units]
            assert done is not None
            notice = Notice(
                f"Your queue: {done.done}/{done.total} assigned units done, in an order "
                "shuffled for you. Q leaves the queue.",
                title="Assignments",
            )
        cursor.index = 0
        cursor.reload(keep_item=place.item_id if place else None)
        self.saved_place = self.place_now()
        if place is not None and place.item_id is not None and cursor.rows.count:
            where = "your queue" if lens.filter.queue else lens.mode.display_name
            notice = Notice(
                f"Back where you left off: item {cursor.index + 1} of {cursor.rows.count} "
                f"({where}).",
                title="Welcome back",
            )
        return notice

    def place_now(self) -> ReviewPlace:
        """Where the annotator is now."""
        item = self.cursor.detail.item.id if self.cursor.detail else None
        return ReviewPlace(self.lens.mode, item, self.lens.filter.queue)

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
            self.scope.services.review.save_place(self.scope.dataset, self.scope.annotator, place)
        except WriteError:
            return False
        self.saved_place = place
        return True
