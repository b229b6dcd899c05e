"""CriticTool labels in the database: one current row per rater and unit, history, undo."""

from __future__ import annotations

from pathlib import Path

import pytest
from dbfixtures import query
from sqlalchemy.exc import IntegrityError

from w2c_tui.db.store import Store
from w2c_tui.db.tables_team import CriticLabelRow
from w2c_tui.domain.critictool_labels import CriticLabel, ErrorCategory, Policy
from w2c_tui.domain.errors import InputError
from w2c_tui.io.critictool import read_critictool

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool" / "predictions"


def test_labels_supersede_and_undo(db_url: str) -> None:
    store = Store.open(db_url)
    internal = read_critictool(CT / "interal_base_data_wo_cot.json")
    ids = store.critic_labels.register_samples("ct-internal", internal)
    assert len(ids) == len(internal.samples)
    assert store.critic_labels.register_samples("ct-internal", internal) == ids  # idempotent
    labels = store.critic_labels
    ann = store.labels.rater_id("ann")
    assert ann is not None
    model = labels.model_id("tiny")
    item = ids[internal.samples[0].sample_id]
    first = CriticLabel(error=True, category=ErrorCategory.PARAMETERS_VALUE)
    assert labels.set_label(ann, item, model, first)
    assert not labels.set_label(ann, item, model, first)  # unchanged: no row
    second = CriticLabel(error=False, category=ErrorCategory.NONE, note="looks fine")
    assert labels.set_label(ann, item, model, second)
    assert labels.current(ann, item, model) == second
    assert labels.current(ann, item, None) is None  # another unit
    assert labels.undo(ann, item, model) == first
    assert labels.current(ann, item, model) == first
    assert labels.history(ann, item, model) == [first, second, first]
    rows = query(
        db_url,
        "SELECT count(*) FROM critic_label WHERE item_id = :i AND is_current",
        i=item,
    )
    assert rows == [(1,)]
    ratings = labels.ratings("ct-internal")
    assert [(r.sample_id, r.target_model, r.rater.name, r.label) for r in ratings] == [
        (internal.samples[0].sample_id, "tiny", "ann", first)
    ]
    assert labels.set_label(ann, item, model, CriticLabel())  # withdrawn
    assert labels.current(ann, item, model) is None and labels.ratings("ct-internal") == []


def test_the_database_keeps_one_current_label(db_url: str) -> None:
    store = Store.open(db_url)
    external = read_critictool(CT / "external_skip_base_data_wo_cot.json")
    ids = store.critic_labels.register_samples("ct-external", external)
    ann = store.labels.rater_id("ann")
    assert ann is not None
    item = next(iter(ids.values()))
    store.critic_labels.set_label(ann, item, None, CriticLabel(expected_policy=Policy.SKIP))
    from sqlmodel import Session

    with Session(store.engine) as session, pytest.raises(IntegrityError):
        session.add(CriticLabelRow(rater_id=ann, item_id=item, answers_json='{"error": "yes"}'))
        session.commit()


def test_a_changed_sample_is_refused(db_url: str, tmp_path: Path) -> None:
    store = Store.open(db_url)
    source = CT / "interal_base_data_wo_cot.json"
    store.critic_labels.register_samples("ct", read_critictool(source))
    changed = tmp_path / "interal_base_data_wo_cot.json"
    changed.write_text(
        source.read_text(encoding="utf-8").replace("Post 'hi' as a draft.", "Post 'ho'."),
        encoding="utf-8",
    )
    with pytest.raises(InputError, match="boolint1"):
        store.critic_labels.register_samples("ct", read_critictool(changed))
