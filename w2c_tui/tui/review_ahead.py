"""The items after the cursor, read ahead: their details are read off the UI thread while the
annotator reads the current item, so that the next item shows without a database read.

What may be read ahead, and when a detail read ahead may still be shown, is decided here; the
screen runs the reads in a thread worker (screens/review_prefetch.py). A detail is shown only
if nothing could have changed it since it was read in this session: a new list (filter, mode,
blind, annotator, dataset: `invalidate`) drops every detail and every read still running, a
write on an item (a label, an undo, a flag, a note: `written`) drops that item's. What other
sessions write meanwhile shows as it does on an item left open: a detail read ahead is shown
only within `FRESH_S` of its read.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from w2c_tui.domain.models import ItemDetail

AHEAD = 2
"""How many rows after the cursor are read ahead (plus the next unfinished row and the row
before)."""
FRESH_S = 60.0
"""How long a detail read ahead may wait to be shown (then it is read again)."""
KEEP = 8
"""At most this many details are held."""


@dataclass(frozen=True, slots=True)
class AheadPlan:
    """What one read-ahead reads: rows (row number, item id) of the list as it was when planned."""

    epoch: int
    serial: int
    rows: tuple[tuple[int, int], ...]


class ReadAhead:
    """Details read ahead by item id, and which reads may still be kept."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._held: dict[int, tuple[float, ItemDetail]] = {}
        self.epoch = 0
        """Counts new lists: a read planned for another list is dropped."""
        self._serial = 0
        self._written: dict[int, int] = {}
        """Item id → the serial of its last write (a read planned before it is stale)."""

    def invalidate(self) -> None:
        """A new list, or new eyes on it: nothing read ahead may be shown."""
        self.epoch += 1
        self._held.clear()
        self._written.clear()

    def written(self, item_id: int) -> None:
        """`item_id` was written in this session: its detail must be read again."""
        self._serial += 1
        self._written[item_id] = self._serial
        self._held.pop(item_id, None)

    def plan(self, rows: list[tuple[int, int]]) -> AheadPlan | None:
        """A read of those rows not held yet (None when every one is)."""
        wanted = tuple((index, item_id) for index, item_id in rows if item_id not in self._held)
        if not wanted:
            return None
        return AheadPlan(self.epoch, self._serial, wanted)

    def keep(self, plan: AheadPlan, details: list[ItemDetail]) -> list[ItemDetail]:
        """Hold the details `plan` read, unless the list changed or an item was written since it
        was planned; returns those held."""
        if plan.epoch != self.epoch:
            return []
        now = self._clock()
        kept = []
        for detail in details:
            item_id = detail.item.id
            if self._written.get(item_id, -1) >= plan.serial:
                continue  # written while it was being read
            self._held[item_id] = (now, detail)
            kept.append(detail)
        while len(self._held) > KEEP:
            self._held.pop(next(iter(self._held)))
        return kept

    def take(self, item_id: int) -> ItemDetail | None:
        """The detail read ahead for `item_id`, if it is still fresh."""
        held = self._held.get(item_id)
        if held is None:
            return None
        if self._clock() - held[0] > FRESH_S:
            del self._held[item_id]
            return None
        return held[1]
