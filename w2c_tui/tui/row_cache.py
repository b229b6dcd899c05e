"""The items list in memory: every matching id in the list's order, rows fetched by block.

The order is read once per list (one query on a covering index: about 50 ms at 100,000 items),
so moving, finding an item's row and the next unlabelled item are lookups, not queries; rows
(question preview, gold, done mark) come 200 at a time by primary key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from w2c_tui.domain.models import ItemRow

BLOCK = 200
KEEP_BLOCKS = 20
SCAN_LIMIT = 2_000
"""How many rows `next_open` walks before it leaves the search to the database."""


class RowCache:
    """The filtered list's ids in order and its rows, fetched block by block."""

    def __init__(self, fetch: Callable[[list[int]], list[ItemRow]]) -> None:
        self._fetch = fetch
        self._blocks: dict[int, list[ItemRow]] = {}
        self._order: list[int] = []
        self._where: dict[int, int] | None = None
        self.generation = 0
        """Counts new lists: the view repaints every line when it changes."""
        self._changed: set[int] = set()

    @property
    def count(self) -> int:
        """Rows in the list."""
        return len(self._order)

    def reset(self, order: list[int]) -> None:
        """A new list (its ids in order): drop every cached row."""
        self._order = order
        self._where = None
        self._blocks.clear()
        self._changed.clear()
        self.generation += 1

    def position(self, item_id: int) -> int | None:
        """The row of `item_id` (None: not in the list)."""
        if self._where is None:
            self._where = {item_id: n for n, item_id in enumerate(self._order)}
        return self._where.get(item_id)

    def forget(self, index: int) -> None:
        """One row changed: fetch its block again when next asked."""
        self._blocks.pop(index // BLOCK, None)
        self._changed.update(range(index // BLOCK * BLOCK, (index // BLOCK + 1) * BLOCK))

    def replace(self, index: int, row: ItemRow) -> None:
        """Put a freshly read row in place (its done mark changed) without refetching."""
        block = self._blocks.get(index // BLOCK)
        offset = index - (index // BLOCK) * BLOCK
        if block is not None and offset < len(block) and block[offset].id == row.id:
            block[offset] = row
            self._changed.add(index)

    def take_changed(self) -> set[int]:
        """Rows changed since the last call (the view repaints just those lines)."""
        changed, self._changed = self._changed, set()
        return changed

    def row(self, index: int, *, cached_only: bool = False) -> ItemRow | None:
        """The row at `index`, fetched with its block when not cached (`cached_only`: None
        then)."""
        if not 0 <= index < self.count:
            return None
        block = index // BLOCK
        if block not in self._blocks:
            if cached_only:
                return None
            start = block * BLOCK
            self._blocks[block] = self._fetch(self._order[start : start + BLOCK])
            if len(self._blocks) > KEEP_BLOCKS:  # memory stays flat on large datasets
                self._blocks.pop(next(iter(self._blocks)))
        rows = self._blocks[block]
        offset = index - block * BLOCK
        return rows[offset] if offset < len(rows) else None

    def _after(self, index: int) -> Iterator[int]:
        """Row numbers after `index`, wrapping round to `index` itself, at most SCAN_LIMIT."""
        count = self.count
        for step in range(1, min(count, SCAN_LIMIT) + 1):
            yield (index + step) % count

    def next_open(self, index: int, *, cached_only: bool = False) -> tuple[bool, int | None]:
        """The first row after `index` (wrapping, `index` itself last) not done yet: (searched
        the whole list, its row). A walk stopped at SCAN_LIMIT rows, or (`cached_only`) at a
        row not cached, gives (False, None)."""
        for n in self._after(index):
            row = self.row(n, cached_only=cached_only)
            if row is None and cached_only:
                return False, None
            if row is not None and not row.labelled:
                return True, n
        return self.count <= SCAN_LIMIT, None
