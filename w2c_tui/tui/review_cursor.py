"""The cursor part of the review state: the filtered list, the item under the cursor and its
response cards, and the moves between them."""

from __future__ import annotations

from dataclasses import dataclass

from w2c_tui.domain.blind import Fact, item_facts
from w2c_tui.domain.models import ItemDetail, ItemRow, LabelChange, Progress
from w2c_tui.domain.review import ReviewMode
from w2c_tui.domain.team import QueueProgress
from w2c_tui.tui.cards import Card, build_cards, gold_revealed
from w2c_tui.tui.review_ahead import AHEAD, AheadPlan, ReadAhead
from w2c_tui.tui.review_lens import ReviewLens
from w2c_tui.tui.review_state import Notice, ReviewScope
from w2c_tui.tui.row_cache import RowCache


@dataclass(frozen=True, slots=True)
class Shown:
    """What the panes show of one item at one row: its cards, whether its gold is hidden, its
    metadata and the item pane's title (the inputs of the widgets' renders)."""

    index: int
    detail: ItemDetail
    cards: tuple[Card, ...]
    gold_hidden: bool
    facts: tuple[Fact, ...]
    title: str


class ReviewCursor:
    """Where the annotator is in the list the lens shows, and what that item holds."""

    def __init__(self, scope: ReviewScope, lens: ReviewLens) -> None:
        self.scope = scope
        self.lens = lens
        self.index = 0
        self.rows = RowCache(self._fetch)
        self.detail: ItemDetail | None = None
        self.cards: list[Card] = []
        self.card_index = 0
        self.exposed: set[int] = set()
        """Items whose gold has been on screen in this session (blind off, the items list's
        gold column, or a reveal): a later label on them never records `blind`."""
        self._progress: tuple[tuple[object, ...], Progress, QueueProgress | None] | None = None
        self.ahead = ReadAhead()
        """The next items' details, read off the UI thread (screens/review_prefetch.py)."""

    def _fetch(self, ids: list[int]) -> list[ItemRow]:
        scope, lens = self.scope, self.lens
        return scope.services.review.rows(scope.dataset, ids, lens.view, lens.mode, scope.annotator)

    def reload(self, keep_item: int | None = None, *, load: bool = True) -> None:
        """Recount the filtered list and show `keep_item` (or the same row number)."""
        scope, lens = self.scope, self.lens
        self._progress = None  # responses may have arrived (a run, an import)
        self.ahead.invalidate()
        self.rows.reset(
            scope.services.review.order(scope.dataset, lens.view, lens.mode, scope.annotator)
        )
        if keep_item is not None:
            found = self.rows.position(keep_item)
            if found is not None:
                self.index = found
        self.index = max(0, min(self.index, self.rows.count - 1))
        if load:
            self.load()

    def load(self, response_id: int | None = None) -> None:
        """Fetch the item under the cursor (selecting `response_id` if given)."""
        row = self.rows.row(self.index)
        if row is None:
            self.detail, self.cards = None, []
            return
        detail = self.ahead.take(row.id)
        if detail is None:
            detail = self.scope.services.review.detail(row.id, self.scope.annotator)
        self.show(detail, response_id)

    def show(self, detail: ItemDetail, response_id: int | None) -> None:
        """Show `detail` (read again after a label), selecting `response_id` if given, else
        the first response owed."""
        self.detail = detail
        self.cards = build_cards(detail, self.scope.annotator, self.lens.is_blind, self.lens.mode)
        if not self.gold_hidden:
            self.exposed.add(detail.item.id)
        ids = [c.response.id if c.response else None for c in self.cards]
        if response_id is not None and response_id in ids:
            self.card_index = ids.index(response_id)
            return
        owed = [i for i, c in enumerate(self.cards) if c.labelable and c.queued and c.mine is None]
        labelable = [i for i, c in enumerate(self.cards) if c.labelable]
        self.card_index = (owed or labelable or [0])[0]

    @property
    def card(self) -> Card | None:
        """The selected response card."""
        return self.cards[self.card_index] if 0 <= self.card_index < len(self.cards) else None

    @property
    def gold_hidden(self) -> bool:
        """The gold label (and item-level scores) must not be shown yet."""
        return self._gold_hidden(self.detail)

    def _gold_hidden(self, detail: ItemDetail | None) -> bool:
        if detail is None:
            return self.lens.is_blind
        return not gold_revealed(detail, self.scope.annotator, self.lens.is_blind, self.lens.mode)

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The item metadata on screen now (domain.blind: before the reveal only what cannot
        predict gold)."""
        return self._facts(self.detail, self.gold_hidden)

    def _facts(self, detail: ItemDetail | None, gold_hidden: bool) -> tuple[Fact, ...]:
        if detail is None:
            return ()
        shown = self.scope.services.review.pre_label(self.scope.dataset)
        return item_facts(detail.item, blind=gold_hidden, shown=shown)

    def number(self) -> str:
        """The item's number as shown: its place in this annotator's list while blind (the file
        position of the real judge file names its gold), the file position otherwise."""
        return self._number(self.detail, self.index)

    def _number(self, detail: ItemDetail | None, index: int) -> str:
        if detail is None:
            return ""
        if self.lens.is_blind:
            return f"#{index + 1}"
        return f"item {detail.item.position + 1}"

    def title(self) -> str:
        """The item pane's title: while blind, the place in the annotator's queue or blind order
        (the uuid only after the reveal); else the file position and uuid."""
        return self._title(self.detail, self.index, self.gold_hidden)

    def _title(self, detail: ItemDetail | None, index: int, gold_hidden: bool) -> str:
        if detail is None:
            return ""
        uuid = detail.item.uuid
        if not self.lens.is_blind:
            return f"{self._number(detail, index)} · {uuid}"
        where = "your queue" if self.lens.filter.queue else "your blind order"
        head = f"{self._number(detail, index)}/{self.rows.count} · {where}"
        return head if gold_hidden else f"{head} · {uuid}"

    def shown(self, detail: ItemDetail, index: int) -> Shown:
        """What the panes would show of `detail` at row `index` in this list (the current item,
        or one read ahead: safe off the UI thread, the lens and list are only read)."""
        hidden = self._gold_hidden(detail)
        return Shown(
            index=index,
            detail=detail,
            cards=tuple(
                build_cards(detail, self.scope.annotator, self.lens.is_blind, self.lens.mode)
            ),
            gold_hidden=hidden,
            facts=self._facts(detail, hidden),
            title=self._title(detail, index, hidden),
        )

    # ---- reading ahead ---------------------------------------------------------------------

    def ahead_plan(self) -> AheadPlan | None:
        """The rows to read ahead from here: the next AHEAD, the next unfinished one (where a
        label moves on to) and the one before; None when each is held already."""
        if not self.rows.count:
            return None
        wanted = [self.index + step for step in range(1, AHEAD + 1)] + [self.index - 1]
        _, unfinished = self.rows.next_open(self.index, cached_only=True)
        if unfinished is not None:
            wanted.append(unfinished)
        rows = []
        for index in dict.fromkeys(wanted):
            row = self.rows.row(index)
            if row is not None:
                rows.append((index, row.id))
        return self.ahead.plan(rows)

    def read_ahead(self, plan: AheadPlan) -> list[ItemDetail]:
        """The details of `plan`'s items, read from the database (safe off the UI thread)."""
        review = self.scope.services.review
        return [review.detail(item_id, self.scope.annotator) for _, item_id in plan.rows]

    def progress(self) -> tuple[Progress, QueueProgress | None]:
        """Labelled / total in this mode, and the queue's assigned / done (counted again after a
        reload; a label in the same list adjusts the count, see `count_label`)."""
        scope, lens = self.scope, self.lens
        key = (scope.dataset, lens.mode, scope.annotator)
        if self._progress is None or self._progress[0] != key:
            done = scope.services.review.progress(scope.dataset, lens.mode, scope.annotator)
            queue = scope.services.assignments.queue(scope.dataset, scope.annotator, lens.units)
            self._progress = (key, done, queue)
        return self._progress[1], self._progress[2]

    def count_label(self, change: LabelChange) -> None:
        """Progress after one label: one more done when a unit gets its first label of this
        annotator, one less when it is cleared (exact, and no count over 100,000 rows)."""
        if self._progress is None or self.lens.filter.queue:
            self._progress = None  # a queue's assigned / done is counted again
            return
        key, done, queue = self._progress
        delta = (change.label is not None) - (change.previous_label is not None)
        self._progress = (key, Progress(done=done.done + delta, total=done.total), queue)

    # ---- moving ----------------------------------------------------------------------------

    def move(self, delta: int) -> None:
        """Move the cursor by `delta` items."""
        target = max(0, min(self.index + delta, self.rows.count - 1))
        if self.rows.count and target != self.index:
            self.index = target
            self.load()

    def go_index(self, index: int) -> None:
        """Show the item at row `index` (a click)."""
        self.index = index
        self.load()

    def select_response(self, delta: int) -> None:
        """Select the next / previous response of this item."""
        if self.cards:
            self.card_index = (self.card_index + delta) % len(self.cards)

    def go_to_item(self, item_id: int, response_id: int | None = None) -> bool:
        """Show `item_id`; False when the current filter hides it."""
        found = self.rows.position(item_id)
        if found is None:
            return False
        self.index = found
        self.load(response_id)
        return True

    def next_unlabelled(self) -> Notice | None:
        """Jump to the next item this annotator has not finished."""
        complete, row = self.rows.next_open(self.index)
        if row is not None:
            self.index = row
            self.load()
            return None
        target = None
        if not complete:  # a long run of done rows: the database finds the next one
            scope, lens = self.scope, self.lens
            target = scope.services.review.next_unlabelled(
                scope.dataset,
                lens.view,
                lens.mode,
                scope.annotator,
                self.detail.item.id if self.detail else None,
            )
        if target is None:
            what = "in your queue" if self.lens.filter.queue else "under this filter"
            return Notice(f"Nothing left to label {what}.", title="All done")
        self.go_to_item(target)
        return None

    def advance(self) -> Notice | None:
        """On to the next owed response of this item, else the next unfinished item."""
        later = self.later_card()
        if later is not None:
            self.card_index = later
            return None
        return self.next_unlabelled()

    def later_card(self) -> int | None:
        """In response labelling, the next card after the selected one that is owed a label."""
        if self.lens.mode is not ReviewMode.RESPONSES:
            return None
        for i in range(self.card_index + 1, len(self.cards)):
            card = self.cards[i]
            if card.labelable and card.queued and card.mine is None:
                return i
        return None
