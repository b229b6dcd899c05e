"""A large import on SQLite fills the search index in one statement after the rows (its insert
trigger dropped and created again inside the import's transaction): the search finds the same
items as the per-row trigger did, the trigger is back afterwards, and a failed import leaves it
in place with nothing written."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from w2c_tui.db.import_items import BULK_SEARCH_ROWS
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services

DEMO = Path(__file__).resolve().parents[2] / "w2c_tui" / "demo" / "when2call_demo.jsonl"


def items(n: int, start: int = 0) -> list[str]:
    base = json.loads(DEMO.read_text(encoding="utf-8").splitlines()[0])
    out = []
    for i in range(start, start + n):
        line = dict(base, uuid=f"00000000-0000-4000-8000-{i:012d}", source_id=f"bulk_{i}")
        line["question"] = f"Question {i}: is the zyxwv{i % 7} ferry on time in port {i}?"
        out.append(json.dumps(line))
    return out


def triggers(path: str) -> list[str]:
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='trigger'")]


@pytest.mark.sqlite_only
def test_bulk_import_fills_the_search_index(services: Services, tmp_path: Path) -> None:
    n = BULK_SEARCH_ROWS + 100
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    small.write_text("\n".join(items(10, start=10_000)) + "\n", encoding="utf-8")
    large.write_text("\n".join(items(n)) + "\n", encoding="utf-8")
    services.imports.import_path(small, dataset="bulk")  # the per-row trigger
    services.imports.import_path(large, dataset="bulk")  # the bulk path
    database = services.database_file()
    assert database is not None and "item_search_insert" in triggers(database)

    def found(text: str) -> int:
        flt = ItemFilter(search=text)
        return len(services.store.items.ids("bulk", flt, ReviewMode.ITEM_QA, None))

    per_seven = sum(1 for i in range(n) if i % 7 == 3) + sum(
        1 for i in range(10_000, 10_010) if i % 7 == 3
    )
    assert found("zyxwv3") == per_seven
    assert found("port 10005?") == 1 and found("port 512?") == 1
    # a failed large import: nothing written, the trigger still there
    bad = items(n, start=20_000)
    bad[-1] = bad[-1].replace('"question"', '"question_"')
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(bad) + "\n", encoding="utf-8")
    with pytest.raises(InputError):
        services.imports.import_path(broken, dataset="bulk")
    assert "item_search_insert" in triggers(database) and found("port 20005?") == 0
    later = tmp_path / "later.jsonl"
    later.write_text("\n".join(items(3, start=30_000)) + "\n", encoding="utf-8")
    services.imports.import_path(later, dataset="bulk")  # the trigger indexes it
    assert found("port 30001?") == 1
