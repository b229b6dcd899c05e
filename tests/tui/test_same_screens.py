"""The key screens look exactly the same whether the store is SQLite or PostgreSQL (the SVG
snapshots in test_snapshots.py are rendered from SQLite)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dbfixtures import PgServer

from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import open_services
from w2c_tui.tui.app import W2CApp

SIZE = (160, 45)


async def screens(url: str) -> dict[str, str]:
    """SVG screenshots of the review screen revealed with scores, and of item QA."""
    services = open_services(url)
    try:
        services.imports.import_demo()
        item = services.review.window("demo", ItemFilter(), ReviewMode.ITEM_QA, None, 0, 1)[0]
        services.review.set_flag("alice", item.id, "qca_vague", True)
        services.review.set_note("alice", item.id, "", "question names no city")
        shots = {}
        for name, keys in (("revealed", ["j", "j", "b"]), ("item_qa", ["m"])):
            app = W2CApp(services, annotator="alice")
            async with app.run_test(size=SIZE) as pilot:
                await app.workers.wait_for_complete()
                for _ in range(5):
                    await pilot.pause()
                await pilot.press(*keys)
                for _ in range(5):
                    await pilot.pause()
                shots[name] = app.export_screenshot()
        return shots
    finally:
        services.close()


async def test_screens_are_the_same_on_both_databases(pg_server: PgServer, tmp_path: Path) -> None:
    pg_url = pg_server.fresh()
    try:
        on_postgresql = await screens(pg_url)
    finally:
        pg_server.drop(pg_url)
    on_sqlite = await screens(f"sqlite:///{tmp_path / 'w2c.db'}")
    for name, svg in on_sqlite.items():
        if svg != on_postgresql[name]:
            (tmp_path / f"{name}-sqlite.svg").write_text(svg, encoding="utf-8")
            (tmp_path / f"{name}-postgresql.svg").write_text(on_postgresql[name], encoding="utf-8")
            pytest.fail(f"the {name} screen differs between SQLite and PostgreSQL ({tmp_path})")
