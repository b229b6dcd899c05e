"""Metrics through the services equal the official definitions computed from the files."""

from __future__ import annotations

import json
from pathlib import Path

from dbfixtures import query
from sklearn.metrics import f1_score  # type: ignore[import-untyped]
from sqlalchemy import text

from w2c_tui.domain.dashboard import Against
from w2c_tui.domain.labels import LABELS
from w2c_tui.services import Services
from w2c_tui.services.metrics import MetricsService

DEMO = Path(__file__).resolve().parents[2] / "w2c_tui" / "demo"


def official(model: str) -> tuple[list[int], list[int], list[int]]:
    """gold, raw argmax and normalised argmax straight from the lm-eval samples file."""
    [path] = (DEMO / "lm_eval" / model).glob("samples_*.jsonl")
    gold, raw, norm = [], [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        sample = json.loads(line)
        lls = [float(pair[0]) for pair in sample["filtered_resps"]]
        lengths = [len(c) for c in sample["doc"]["choices"]]
        gold.append(int(sample["target"]))
        raw.append(max(range(4), key=lambda k: (lls[k], -k)))
        norm.append(max(range(4), key=lambda k: (lls[k] / lengths[k], -k)))
    return gold, raw, norm


def test_logprob_metrics_match_the_reference_definitions(demo: Services) -> None:
    rows = MetricsService(demo.store).metrics("demo", against=Against.GOLD)
    logprob = {r.target_model: r for r in rows if r.rater.key.startswith("logprob:")}
    assert set(logprob) == {"acme-7b-instruct", "tiny-tools-1b"}
    for model, row in logprob.items():
        gold, raw, norm = official(model)
        m = row.metrics
        assert m.n_scored == 30
        assert m.accuracy == sum(g == p for g, p in zip(gold, raw, strict=True)) / 30
        assert m.accuracy_norm == sum(g == p for g, p in zip(gold, norm, strict=True)) / 30
        assert abs((m.macro_f1_ref or 0) - f1_score(gold, raw, average="macro")) < 1e-12
        assert len(m.confusion) == 4 and all(len(r) == 4 for r in m.confusion)
        # the demo's four items without tools, all cannot_answer
        assert m.tool_hallucination["denominator"] == 4
        assert row.calibration is not None and row.calibration.raw.n == 30


def test_judge_invalid_verdicts_are_not_a_class(demo: Services) -> None:
    rows = MetricsService(demo.store).metrics("demo", raters=["judge:demo-judge"])
    for row in rows:
        assert row.metrics.n_invalid == 1  # one unparsable judge output per model
        assert sum(map(sum, row.metrics.confusion)) == row.metrics.n_valid == 29
        assert [label.value for label in LABELS] == list(row.metrics.per_class)


def test_acc_norm_survives_invalid_logprob_readings(demo: Services) -> None:
    """Invalid log-prob readings have no normalised reading; Acc-Norm is still computed (they
    are invalid there too), from the official normalised argmax of the valid items."""
    model = "acme-7b-instruct"
    rows = query(
        demo.url,
        "SELECT label.id, item.position FROM label JOIN rater ON rater.id = rater_id "
        "JOIN item ON item.id = item_id JOIN target_model ON target_model.id = target_model_id "
        "WHERE rater.kind = 'mcq_logprob' AND label.question = 'behaviour' AND is_current "
        "AND target_model.name = :m ORDER BY item.position",
        m=model,
    )
    broken = {int(str(position)) for _, position in rows[:3]}
    with demo.store.engine.begin() as db:
        for label_id, _ in rows[:3]:
            db.execute(
                text("UPDATE label SET status = 'invalid', value = NULL WHERE id = :i"),
                {"i": label_id},
            )
    metrics = MetricsService(demo.store).metrics("demo", against=Against.GOLD)
    [row] = [r for r in metrics if r.rater.key.startswith("logprob:") and r.target_model == model]
    gold, _raw, norm = official(model)
    m = row.metrics
    assert m.n_invalid == 3 and m.n_scored == 27
    valid = [i for i in range(30) if i not in broken]
    assert m.accuracy_norm == sum(gold[i] == norm[i] for i in valid) / 27
