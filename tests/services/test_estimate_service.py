"""`EstimateService` on a real database: the demo's judge, human labels imported from a file,
and the corrected score equal to ppi_py's on the same units."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from dbfixtures import require_module

from w2c_tui.domain.errors import NotFoundError, W2CError
from w2c_tui.domain.estimate import EstimateMetric
from w2c_tui.domain.labels import Label
from w2c_tui.services import Services
from w2c_tui.services.readings import INVALID

require_module("ppi_py", "dev")
import ppi_py  # noqa: E402

MODEL, JUDGE = "acme-7b-instruct", "judge:demo-judge"


def label(demo: Services, tmp_path: Path, annotator: str, every: int) -> dict[str, Label]:
    """Human labels on every `every`-th unit of MODEL (gold, but the direct class on every
    third), imported from a CSV; returns unit → label."""
    readings = demo.metrics.readings("demo")
    units = [u for u in readings.units if u.target_model == MODEL][::every]
    out: dict[str, Label] = {}
    path = tmp_path / f"{annotator}.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["uuid", "annotator", "label", "target_model"])
        for i, unit in enumerate(units):
            assert unit.gold is not None
            out[unit.key] = Label.DIRECT if i % 3 == 0 else unit.gold
            writer.writerow([unit.item_uuid, annotator, out[unit.key].value, MODEL])
    demo.labels.import_file(path, "demo")
    return out


def test_accuracy_equals_ppi_py_and_invalid_verdicts_are_left_out(
    demo: Services, tmp_path: Path
) -> None:
    human = label(demo, tmp_path, "alice", 2)
    readings = demo.metrics.readings("demo")
    y, yhat, yu, invalid = [], [], [], 0
    for unit in readings.units:
        if unit.target_model != MODEL:
            continue
        judged = readings.values.get((unit.key, JUDGE))
        invalid += judged == INVALID
        if not isinstance(judged, Label):
            continue
        if unit.key in human:
            y.append(float(human[unit.key] is unit.gold))
            yhat.append(float(judged is unit.gold))
        else:
            yu.append(float(judged is unit.gold))
    assert invalid == 1  # the demo judge's one unparsable output on this model
    doc = demo.estimate.estimate("demo", MODEL, "demo-judge", EstimateMetric.ACCURACY)
    arrays = np.array(y), np.array(yhat), np.array(yu)
    low, high = ppi_py.ppi_mean_ci(*arrays, alpha=0.05)
    assert doc.corrected.ci == pytest.approx((low[0], high[0]), abs=1e-12)
    assert doc.corrected.value == pytest.approx(ppi_py.ppi_mean_pointestimate(*arrays)[0])
    assert (doc.n_labelled, doc.n_unlabelled, doc.n_invalid) == (len(y), len(yu), 1)
    assert doc.n_labelled + doc.n_unlabelled + doc.n_invalid == 30
    humans = ppi_py.classical_mean_ci(arrays[0], alpha=0.05)
    assert doc.humans_only.ci == pytest.approx(humans, abs=1e-12)
    assert doc.judge_only.value == pytest.approx(np.concatenate([yhat, yu]).mean())
    assert doc.judge == JUDGE and doc.lam is not None


def test_subsets_and_macro_f1(demo: Services, tmp_path: Path) -> None:
    label(demo, tmp_path, "alice", 2)
    tool = demo.estimate.estimate("demo", MODEL, JUDGE, EstimateMetric.TOOL_HALLUCINATION)
    # the demo's items without tools whose gold is cannot_answer
    assert tool.n_labelled + tool.n_unlabelled + tool.n_invalid == 4
    f1 = demo.estimate.estimate("demo", MODEL, JUDGE, EstimateMetric.MACRO_F1, seed=3)
    assert f1.lam is None and f1.seed == 3 and f1.bootstrap == 2000
    assert f1.corrected.value is not None
    again = demo.estimate.estimate("demo", MODEL, JUDGE, EstimateMetric.MACRO_F1, seed=3)
    assert again.corrected.ci == f1.corrected.ci


def test_min_humans_uses_the_consensus(demo: Services, tmp_path: Path) -> None:
    label(demo, tmp_path, "alice", 2)
    label(demo, tmp_path, "bob", 4)  # agrees with alice on every 2nd of her units
    one = demo.estimate.estimate("demo", MODEL, JUDGE, EstimateMetric.ACCURACY)
    two = demo.estimate.estimate("demo", MODEL, JUDGE, EstimateMetric.ACCURACY, min_humans=2)
    assert 0 < two.n_labelled <= 8 < one.n_labelled  # only units bob labelled too
    assert two.n_labelled + two.n_unlabelled == one.n_labelled + one.n_unlabelled


def test_clear_errors(demo: Services, tmp_path: Path) -> None:
    with pytest.raises(W2CError, match="no human reference on any of acme-7b-instruct"):
        demo.estimate.estimate("demo", MODEL, JUDGE, EstimateMetric.ACCURACY)
    label(demo, tmp_path, "alice", 2)
    with pytest.raises(NotFoundError, match="no judge 'nobody'"):
        demo.estimate.estimate("demo", MODEL, "nobody", EstimateMetric.ACCURACY)
    with pytest.raises(NotFoundError, match="no target model 'gpt-x'"):
        demo.estimate.estimate("demo", "gpt-x", JUDGE, EstimateMetric.ACCURACY)


def test_table_lists_each_model_judge_and_metric_with_labels(
    demo: Services, tmp_path: Path
) -> None:
    label(demo, tmp_path, "alice", 1)
    rows = demo.estimate.table("demo", bootstrap=200)
    assert {(r.target_model, r.judge) for r in rows} == {(MODEL, JUDGE)}
    assert {r.metric for r in rows} == set(EstimateMetric)
    # every judged unit is labelled: no correction to make, and the document says so
    assert all(r.corrected.value is None and r.n_unlabelled == 0 for r in rows)
    assert all("humans-only estimate is the answer" in (r.corrected.reason or "") for r in rows)
