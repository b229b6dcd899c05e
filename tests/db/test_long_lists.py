"""Long lists of ids: no statement binds more parameters than SQLite or PostgreSQL allow."""

from __future__ import annotations

from w2c_tui.db.common import chunked
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.domain.runs import Backend, Method, RunConfig
from w2c_tui.services import Services

MANY = 70_000  # over PostgreSQL's 65,535 and SQLite's 32,766 parameters per statement


def test_chunks_keep_the_order_and_every_id() -> None:
    parts = list(chunked(range(12_001), 5_000))
    assert [len(p) for p in parts] == [5_000, 5_000, 2_001]
    assert [i for p in parts for i in p] == list(range(12_001))
    assert list(chunked([])) == []


def test_tasks_and_list_rows_for_70000_ids(demo: Services) -> None:
    ids = demo.store.items.ids("demo", ItemFilter(), ReviewMode.ITEM_QA, None)
    many = [*range(10**7, 10**7 + MANY), *reversed(ids)]  # unknown ids, then the real ones
    config = RunConfig(method=Method.GENERATE, backend=Backend.OPENAI, model="m", dataset="demo")
    assert [t.item_id for t in demo.store.runs.tasks(config, many)] == ids[::-1]
    rows = demo.store.items.rows(many, ReviewMode.ITEM_QA, None)
    assert [r.id for r in rows] == ids[::-1]
    judge = RunConfig(
        method=Method.JUDGE,
        backend=Backend.OPENAI,
        model="m",
        dataset="demo",
        target_model=demo.datasets.target_models()[0],
    )
    assert len(demo.store.runs.tasks(judge, many)) == len(ids)  # each item's response
