"""`w2c split` and `w2c judge compare` on the demo: a frozen split stratified by gold, two
prompt versions of one judge read from their runs' raters, the test part counted."""

from __future__ import annotations

import json

import pytest
from judge_lab_data import V1, V2, setup
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.errors import W2CError
from w2c_tui.services import Services, splits
from w2c_tui.services.judge_compare import compare
from w2c_tui.stats.prompt_compare import mcnemar_exact


def test_split_is_stratified_frozen_and_counts_test_uses(demo: Services) -> None:
    truth = setup(demo)
    view = splits.draw(demo.store, "demo", test_share=0.3, seed=5)
    assert sum(view.counts().values()) == len(truth) == 60
    by_gold: dict[str, list[str]] = {}
    golds = {f"{u}@{m}": g.value for (u, m), g in truth.items()}
    for key, part in view.split.units.items():
        by_gold.setdefault(golds[key], []).append(part)
    for parts in by_gold.values():  # each gold class split 70/30 (rounded)
        assert parts.count("test") == round(0.3 * len(parts))
    with pytest.raises(W2CError, match=r"already has a frozen split .* test used 0 times"):
        splits.draw(demo.store, "demo", test_share=0.5, seed=1)
    dev = compare(
        demo.store,
        "demo",
        "gpt-j",
        "when2call-judge-v1",
        "when2call-judge-v2",
        part="dev",
        bootstrap=200,
    )
    n_rfi_dev = sum(
        1 for k, p in view.split.units.items() if p == "dev" and golds[k] == "request_for_info"
    )
    r = dev.result
    n_dev, n_test = view.counts()["dev"], view.counts()["test"]
    assert dev.a == V1 and dev.b == V2 and r.n == n_dev and dev.test_uses == 0
    assert len(r.right_to_wrong) == n_rfi_dev and not r.wrong_to_right
    assert r.p_mcnemar == mcnemar_exact(n_rfi_dev, 0) < 0.01
    assert r.accuracy_difference.value == pytest.approx(-n_rfi_dev / n_dev)
    assert r.accuracy_a.value == 1.0 and r.kappa_a.value == pytest.approx(1.0)
    assert {golds[k] for k in dev.as_json()["right_to_wrong"]} == {"request_for_info"}  # type: ignore[union-attr]
    first = compare(demo.store, "demo", "gpt-j", V1, "bbbb", part="test", bootstrap=0)
    second = compare(demo.store, "demo", "gpt-j", V1, V2, part="test", bootstrap=0)
    assert (first.test_uses, second.test_uses, first.result.n) == (1, 2, n_test)
    assert "test used 2 times" in splits.show(demo.store, "demo").text()


def test_what_is_missing_is_said(demo: Services, db_url: str) -> None:
    setup(demo)
    with pytest.raises(W2CError, match="no split"):
        compare(demo.store, "demo", "gpt-j", V1, V2)
    splits.draw(demo.store, "demo", test_share=0.3, seed=5)
    with pytest.raises(
        W2CError, match=r"no readings with prompt 'v3'.*w2c run start --method judge"
    ):
        compare(demo.store, "demo", "gpt-j", V1, "v3")
    with pytest.raises(W2CError, match="no judge 'gpt-x'"):
        compare(demo.store, "demo", "gpt-x", V1, V2)
    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "--db",
            db_url,
            "judge",
            "compare",
            "--judge",
            "gpt-j",
            "--prompts",
            "when2call-judge-v1,when2call-judge-v2",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["split"] == "dev" and doc["mcnemar"]["p_exact"] < 0.01
    assert set(doc["accuracy"]) == {"a", "b", "difference"}
    result = runner.invoke(
        app,
        [
            "--db",
            db_url,
            "judge",
            "compare",
            "--judge",
            "gpt-j",
            "--prompts",
            "when2call-judge-v1,when2call-judge-v2",
            "--split",
            "test",
        ],
    )
    assert result.exit_code == 0 and "test used 1 times" in result.stdout
    result = runner.invoke(app, ["--db", db_url, "split", "--show", "--json"])
    assert json.loads(result.stdout)["test_uses"] == 1
