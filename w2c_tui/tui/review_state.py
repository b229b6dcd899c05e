"""The review screen's state and its transitions, in a plain class that tests drive directly.

Cursor, filter, mode, blind mode, queue, undo, reveal and the label that could not be saved
live here; the screen only binds keys to these methods and pushes the result to its widgets.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from w2c_tui.domain.blind import Fact, item_facts
from w2c_tui.domain.labels import Label
from w2c_tui.domain.models import Change, ItemDetail, ItemRow, Progress
from w2c_tui.domain.review import ItemFilter, ListOrder, ReviewMode
from w2c_tui.domain.team import AssignUnits, QueueProgress, Seen
from w2c_tui.tui.cards import Card, build_cards, gold_revealed
from w2c_tui.tui.pace import Pace
from w2c_tui.tui.row_cache import RowCache

if TYPE_CHECKING:
    from w2c_tui.services import Services


@dataclass(frozen=True, slots=True)
class Notice:
    """Something to tell the annotator (shown literally, never as markup)."""

    text: str
    severity: str = "information"
    title: str = ""


@dataclass(frozen=True, slots=True)
class PendingLabel:
    """A label the annotator entered that the database has not taken yet."""

    item_id: int
    response_id: int | None
    label: Label | None
    seen: Seen
    reason: str
    retryable: bool
    advance: bool
    entered_at: datetime | None = None
    """When the annotator entered it (named in the unsaved-labels log if it is never saved)."""


class ReviewState:
    """What the review screen shows and how keys change it."""

    def __init__(self, services: Services, annotator: str, dataset: str) -> None:
        self.services = services
        self.annotator = annotator
        self.dataset = dataset
        self.filter = ItemFilter()
        self.mode = ReviewMode.RESPONSES
        self.blind = {ReviewMode.RESPONSES: True, ReviewMode.ITEM_QA: False}
        self.index = 0
        self.rows = RowCache(self._fetch)
        self.detail: ItemDetail | None = None
        self.cards: list[Card] = []
        self.card_index = 0
        self.undo_stack: list[Change] = []
        self.pace = Pace()
        self.unsaved: PendingLabel | None = None
        self.previous: str | None = None
        """One line about the item just finished (its gold, once its reveal was earned)."""
        self.exposed: set[int] = set()
        """Items whose gold has been on screen in this session (blind off, the items list's
        gold column, or a reveal): a later label on them never records `blind`."""
        self.saw_everything = False
        """The dashboard or adjudication was opened on this dataset in this session: they show
        readings and gold of any unit, so no later label here records `blind`."""
        self.blind_required: dict[ReviewMode, str] = {}
        """Modes whose assignment plan requires blind mode, with the plan's description."""
        self._progress: tuple[tuple[object, ...], Progress, QueueProgress | None] | None = None

    # ---- the list --------------------------------------------------------------------------

    @property
    def is_blind(self) -> bool:
        """Blind mode in the current labelling mode."""
        return self.blind[self.mode]

    @property
    def view(self) -> ItemFilter:
        """The filter with the list's order: shuffled per annotator while blind."""
        order = ListOrder.SHUFFLED if self.is_blind else ListOrder.FILE
        return self.filter.with_(order=order, blind=self.is_blind)

    @property
    def units(self) -> AssignUnits:
        """The kind of unit the current mode labels."""
        return AssignUnits.ITEMS if self.mode is ReviewMode.ITEM_QA else AssignUnits.RESPONSES

    def _fetch(self, ids: list[int]) -> list[ItemRow]:
        return self.services.review.rows(self.dataset, ids, self.view, self.mode, self.annotator)

    def reload(self, keep_item: int | None = None, *, load: bool = True) -> None:
        """Recount the filtered list and show `keep_item` (or the same row number)."""
        self._progress = None  # responses may have arrived (a run, an import)
        self.rows.reset(
            self.services.review.order(self.dataset, self.view, self.mode, self.annotator)
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
        self.detail = self.services.review.detail(row.id, self.annotator)
        self._build_cards(response_id)

    def _build_cards(self, response_id: int | None) -> None:
        assert self.detail is not None
        self.cards = build_cards(self.detail, self.annotator, self.is_blind, self.mode)
        if not self.gold_hidden:
            self.exposed.add(self.detail.item.id)
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
        if self.detail is None:
            return self.is_blind
        return not gold_revealed(self.detail, self.annotator, self.is_blind, self.mode)

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The item metadata on screen now (domain.blind: before the reveal only what cannot
        predict gold)."""
        if self.detail is None:
            return ()
        shown = self.services.review.pre_label(self.dataset)
        return item_facts(self.detail.item, blind=self.gold_hidden, shown=shown)

    def number(self) -> str:
        """The item's number as shown: its place in this annotator's list while blind (the file
        position of the real judge file names its gold), the file position otherwise."""
        if self.detail is None:
            return ""
        if self.is_blind:
            return f"#{self.index + 1}"
        return f"item {self.detail.item.position + 1}"

    def title(self) -> str:
        """The item pane's title: while blind, the place in the annotator's queue or blind order
        (the uuid only after the reveal); else the file position and uuid."""
        if self.detail is None:
            return ""
        uuid = self.detail.item.uuid
        if not self.is_blind:
            return f"{self.number()} · {uuid}"
        where = "your queue" if self.filter.queue else "your blind order"
        head = f"{self.number()}/{self.rows.count} · {where}"
        return head if self.gold_hidden else f"{head} · {uuid}"

    def progress(self) -> tuple[Progress, QueueProgress | None]:
        """Labelled / total in this mode, and the queue's assigned / done (counted again after a
        reload; a label in the same list adjusts the count, see LabellingState._write)."""
        key = (self.dataset, self.mode, self.annotator)
        if self._progress is None or self._progress[0] != key:
            done = self.services.review.progress(self.dataset, self.mode, self.annotator)
            queue = self.services.assignments.queue(self.dataset, self.annotator, self.units)
            self._progress = (key, done, queue)
        return self._progress[1], self._progress[2]

    # ---- moving ----------------------------------------------------------------------------

    def blocked(self) -> Notice | None:
        """Moving on is refused while a label the annotator entered is not saved."""
        if self.unsaved is None:
            return None
        return Notice(
            f"Your label is not saved yet ({self.unsaved.reason}). ctrl+s tries again; "
            "it is retried every few seconds too.",
            severity="warning",
            title="Not saved",
        )

    def move(self, delta: int) -> Notice | None:
        """Move the cursor by `delta` items."""
        if (refused := self.blocked()) is not None:
            return refused
        target = max(0, min(self.index + delta, self.rows.count - 1))
        if self.rows.count and target != self.index:
            self.index = target
            self.load()
        return None

    def go_index(self, index: int) -> Notice | None:
        """Show the item at row `index` (a click)."""
        if (refused := self.blocked()) is not None:
            return refused
        self.index = index
        self.load()
        return None

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
        if (refused := self.blocked()) is not None:
            return refused
        complete, row = self.rows.next_open(self.index)
        if row is not None:
            self.index = row
            self.load()
            return None
        target = None
        if not complete:  # a long run of done rows: the database finds the next one
            target = self.services.review.next_unlabelled(
                self.dataset,
                self.view,
                self.mode,
                self.annotator,
                self.detail.item.id if self.detail else None,
            )
        if target is None:
            what = "in your queue" if self.filter.queue else "under this filter"
            return Notice(f"Nothing left to label {what}.", title="All done")
        self.go_to_item(target)
        return None

    def advance(self) -> Notice | None:
        """On to the next owed response of this item, else the next unfinished item."""
        if self.mode is ReviewMode.RESPONSES:
            later = [
                i
                for i in range(self.card_index + 1, len(self.cards))
                if self.cards[i].labelable and self.cards[i].queued and self.cards[i].mine is None
            ]
            if later:
                self.card_index = later[0]
                return None
        return self.next_unlabelled()
