"""CriticTool labels in the database: answers of the `critictool` schema in the one label store,
one current row per rater, unit and question, history as answer sets, undo."""

from __future__ import annotations

from pathlib import Path

import pytest
from dbfixtures import query
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from w2c_tui.db.tables import LabelRow
from w2c_tui.domain.critictool_labels import CriticToolLabel, ErrorCategory, Policy
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.schema_labels import Unit
from w2c_tui.services import Services

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool" / "predictions"


def test_labels_supersede_and_undo(services: Services, db_url: str) -> None:
    services.critictool.import_file(
        CT / "interal_base_data_wo_cot.json", dataset="ct", target_model="tiny"
    )
    labels = services.store.critictool_labels
    ann = services.critictool_review.rater("ann")
    unit = services.critictool_review.open("ct").units[0]
    item, response = unit.item_id, unit.response_id
    assert response is not None
    first = CriticToolLabel(error=True, category=ErrorCategory.PARAMETERS_VALUE)
    assert labels.set_label(ann, item, response, first)
    assert not labels.set_label(ann, item, response, first)  # unchanged: no row
    second = CriticToolLabel(error=False, category=ErrorCategory.NONE, note="looks fine")
    assert labels.set_label(ann, item, response, second)
    assert labels.current(ann, item, response) == second
    assert labels.current(ann, item, None) is None  # the sample alone is another unit
    assert labels.undo(ann, item, response) == first
    assert labels.current(ann, item, response) == first
    assert labels.history(ann, item, response) == [first, second, first]
    rows = query(
        db_url,
        "SELECT question, count(*) FROM label WHERE schema_name = 'critictool' AND item_id = :i "
        "AND is_current GROUP BY question ORDER BY question",
        i=item,
    )
    assert rows == [("category", 1), ("error", 1), ("note", 1)]  # the note withdrawn by undo
    ratings = services.critictool_review.ratings("ct")
    assert [
        (r.sample_id, r.response_id, r.target_model, r.rater.name, r.label) for r in ratings
    ] == [(unit.sample.sample_id, response, "tiny", "ann", first)]
    assert labels.set_label(ann, item, response, CriticToolLabel())  # withdrawn
    assert labels.current(ann, item, response) is None
    assert services.critictool_review.ratings("ct") == []


def test_the_database_keeps_one_current_label(services: Services) -> None:
    services.critictool.import_file(
        CT / "external_skip_base_data_wo_cot.json", dataset="ct", target_model="tiny"
    )
    ann = services.critictool_review.rater("ann")
    unit = services.critictool_review.open("ct").units[0]
    services.store.critictool_labels.set_label(
        ann, unit.item_id, unit.response_id, CriticToolLabel(expected_policy=Policy.SKIP)
    )
    with Session(services.store.engine) as session, pytest.raises(IntegrityError):
        session.add(
            LabelRow(
                rater_id=ann,
                item_id=unit.item_id,
                response_id=unit.response_id,
                schema_name="critictool",
                question="expected_policy",
                value="retry",
            )
        )
        session.commit()


def test_units_and_self_critique(services: Services) -> None:
    services.critictool.import_file(
        CT / "interal_base_data_wo_cot.json", dataset="ct", target_model="tiny"
    )
    services.critictool.import_file(
        CT / "interal_base_data_wo_cot.json", dataset="ct", target_model="other"
    )
    opened = services.critictool_review.open("ct")
    samples = services.critictool.samples("ct")
    assert len(opened.units) == 2 * len(samples)  # one unit per model's prediction
    assert len(services.critictool_review.open("ct", target_model="tiny").units) == len(samples)
    critiques = services.critictool_review.self_critiques(opened)
    assert len(critiques) == len(opened.units)
    first = opened.units[0]
    assert first.response_id is not None
    assert critiques[(first.item_id, first.response_id)] == CriticToolLabel(
        error=True, category=ErrorCategory.PARAMETERS_VALUE
    )  # boolint1's reply reports parameters_value_error


def test_critictool_labels_are_answers_of_the_core_schema(services: Services) -> None:
    """Two annotators' CriticTool labels are read by the core's export and agreement like any
    schema's: α per question equals the krippendorff package on the same units."""
    import krippendorff
    import numpy as np

    from w2c_tui.domain.critictool_labels import Question

    services.critictool.import_file(
        CT / "interal_base_data_wo_cot.json", dataset="ct", target_model="tiny"
    )
    units = services.critictool_review.open("ct").units[:4]
    shown = services.schemas.unit("critictool", Unit(units[0].item_id, units[0].response_id))
    assert shown.facts == {"source": "internal", "prediction": "yes"}  # what when_unit reads
    errors = {"ann": [True, True, False, True], "ben": [True, False, False, True]}
    for who, marks in errors.items():
        rater = services.critictool_review.rater(who)
        for unit, error in zip(units, marks, strict=True):
            label = CriticToolLabel(error=error, category=None if error else ErrorCategory.NONE)
            if error:
                label = label.answer(Question.CATEGORY, "tool_select_error")
            services.store.critictool_labels.set_label(rater, unit.item_id, unit.response_id, label)
    result = services.schema_agreement.compute(services.schemas.get("critictool"), "ct")
    by_name = {q.question: q for q in result.questions}
    data = np.array([[1.0 if e else 0.0 for e in marks] for marks in errors.values()])
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    assert by_name["error"].alpha == pytest.approx(expected, abs=1e-12)
    assert by_name["error"].n_units == 4 and by_name["note"].alpha is None
    text = services.schemas.export("critictool", "ct")
    assert text.count("\n") == 1 + 8 and "tool_select_error" in text  # header + 2 × 4 units


def test_a_critictool_csv_is_labelled_through_the_core(services: Services, tmp_path: Path) -> None:
    """`labels import --schema critictool` writes what the CriticTool screen would: "no
    error" records the category none; a contradicting category is refused by line and field."""
    services.critictool.import_file(
        CT / "interal_base_data_wo_cot.json", dataset="ct", target_model="tiny"
    )
    units = services.critictool_review.open("ct").units[:2]
    uuid = [services.review.detail(u.item_id, None).item.uuid for u in units]
    path = tmp_path / "ct.csv"
    path.write_text(
        "annotator,item,response,error,category\n"
        f"ann,{uuid[0]},{units[0].response_id},no,\n"
        f"ann,{uuid[1]},{units[1].response_id},yes,tool_select_error\n",
        encoding="utf-8",
    )
    services.schemas.import_file(path, "critictool", "ct")
    rater = services.critictool_review.rater("ann")
    assert services.critictool_review.current(rater, units[0]) == CriticToolLabel(
        error=False, category=ErrorCategory.NONE
    )
    assert services.schemas.current(
        "ann", "critictool", Unit(units[0].item_id, units[0].response_id)
    ) == {
        "error": "no",
        "category": "none",
    }
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "annotator,item,response,error,category\n"
        f"ben,{uuid[0]},{units[0].response_id},no,tool_select_error\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as refused:
        services.schemas.import_file(bad, "critictool", "ct")
    assert "field 'category': must be 'none' when error is 'no'" in str(refused.value)
