"""Migration 0024 makes a CriticTool sample its file's id within its dataset: a database as
release 0023 wrote it keeps every sample row, each sample's id comes from its stored item
(`item.uuid`), (dataset, sample id) becomes unique, and the downgrade takes only the index
away (both databases)."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from dbfixtures import query
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from w2c_tui.db.engine import make_engine
from w2c_tui.db.migrate import alembic_config, current_revision, upgrade
from w2c_tui.services import open_services

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool" / "predictions"
ALL = "SELECT * FROM critic_sample ORDER BY id"


def _release_0023(url: str) -> list[tuple[object, ...]]:
    """A database at 0023 holding the fixture's samples and predictions; the sample rows as
    0023 wrote them, before two ids are blanked the way no importer wrote them."""
    svc = open_services(url)
    svc.critictool.import_file(CT / "interal_base_data_wo_cot.json", target_model="m")
    svc.close()
    engine = make_engine(url, migrate=False)
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0023")
    rows = query(url, ALL)
    with engine.begin() as db:  # 0023 had no index on the id: these fit, 0024 repairs them
        db.execute(text("UPDATE critic_sample SET sample_id = '' WHERE id IN (1, 2)"))
    engine.dispose()
    return rows


def test_samples_take_their_ids_from_their_items_and_the_id_becomes_unique(
    empty_db_url: str,
) -> None:
    before = _release_0023(empty_db_url)
    assert len(before) == 21
    engine = make_engine(empty_db_url, migrate=False)
    upgrade(engine, "0024")
    assert current_revision(engine) == "0024"
    assert query(empty_db_url, ALL) == before
    assert query(
        empty_db_url,
        "SELECT count(*) FROM critic_sample JOIN item ON item.id = critic_sample.item_id "
        "WHERE item.uuid = critic_sample.sample_id",
    ) == [(21,)]
    with pytest.raises(IntegrityError), engine.begin() as db:
        db.execute(
            text(
                "UPDATE critic_sample SET sample_id = (SELECT min(sample_id) FROM critic_sample) "
                "WHERE id = (SELECT max(id) FROM critic_sample)"
            )
        )
    svc = open_services(empty_db_url)  # the same file again: nothing new, nothing refused
    again = svc.critictool.import_file(CT / "interal_base_data_wo_cot.json", target_model="m")
    assert (again.items_unchanged, again.responses_unchanged) == (21, 21)
    svc.close()

    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0023")
    assert query(empty_db_url, ALL) == before
    with engine.begin() as db:  # no index any more: 0023's schema
        db.execute(text("UPDATE critic_sample SET sample_id = 'x' WHERE id IN (1, 2)"))
    engine.dispose()
