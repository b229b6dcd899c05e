"""The list in memory: ids in order, rows by block, the next open row without a query."""

from __future__ import annotations

from dataclasses import replace

import pytest

from w2c_tui.domain.models import ItemRow
from w2c_tui.tui import row_cache
from w2c_tui.tui.row_cache import BLOCK, RowCache


def make_rows(done: set[int]) -> tuple[RowCache, list[list[int]]]:
    fetched: list[list[int]] = []

    def fetch(ids: list[int]) -> list[ItemRow]:
        fetched.append(ids)
        return [ItemRow(i, f"u{i}", i, None, 1, "q", i in done) for i in ids]

    cache = RowCache(fetch)
    cache.reset([1000 + n for n in range(3 * BLOCK + 7)])
    return cache, fetched


def test_rows_come_by_block_and_positions_by_id() -> None:
    cache, fetched = make_rows(set())
    assert cache.count == 3 * BLOCK + 7
    assert cache.row(5) is not None and cache.row(5).id == 1005  # type: ignore[union-attr]
    assert cache.row(BLOCK - 1) is not None and len(fetched) == 1
    assert cache.row(3 * BLOCK + 6) is not None and len(fetched[-1]) == 7
    assert cache.row(3 * BLOCK + 7) is None and cache.row(-1) is None
    assert cache.position(1000 + BLOCK + 3) == BLOCK + 3 and cache.position(7) is None


def test_next_open_skips_done_rows_and_wraps_to_the_current_one_last() -> None:
    count = 3 * BLOCK + 7
    cache, _ = make_rows({1000 + n for n in range(count)} - {1003})
    assert cache.next_open(10) == (True, 3)  # wrapped round
    assert cache.next_open(3) == (True, 3)  # only the current row is still open
    every, _ = make_rows({1000 + n for n in range(count)})
    assert every.next_open(0) == (True, None)


def test_a_long_run_of_done_rows_is_left_to_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(row_cache, "SCAN_LIMIT", 50)
    cache, _ = make_rows({1000 + n for n in range(1, 60)})
    assert cache.next_open(0) == (False, None)
    assert cache.next_open(40) == (True, 60)


def test_replace_marks_one_row_changed_and_reset_starts_a_new_generation() -> None:
    cache, fetched = make_rows(set())
    row = cache.row(4)
    assert row is not None
    cache.replace(4, replace(row, labelled=True))
    assert cache.row(4).labelled and len(fetched) == 1  # type: ignore[union-attr]
    assert cache.take_changed() == {4} and cache.take_changed() == set()
    generation = cache.generation
    cache.reset([1, 2])
    assert cache.generation == generation + 1 and cache.count == 2
