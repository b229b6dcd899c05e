"""`w2c judge compare --start`: the missing prompt versions judge the stored responses first
(real judge runs of the openai backend against a local server), then the comparison."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_server import FakeOpenAI
from judge_lab_data import setup
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.services import Services, splits

KEY_ENV = "W2C_TEST_LAB_KEY"
SECRET = "sk-lab-secret-4242"


def test_start_judges_with_each_missing_version_then_compares(
    demo: Services, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup(demo)  # humans on every response (and a judge gpt-j we do not use here)
    splits.draw(demo.store, "demo", test_share=0.3, seed=2)
    monkeypatch.setenv(KEY_ENV, SECRET)
    packaged = Path(__file__).resolve().parents[2] / "w2c_tui/runs/judge_prompts"
    strict = tmp_path / "always-tool-call.txt"  # a prompt whose judge always says tool_call
    strict.write_text(
        (packaged / "when2call-judge-v1.txt").read_text(encoding="utf-8")
        + '\n[[reply:{"classification": "tool_call"}]]\n',
        encoding="utf-8",
    )
    reply = '{"classification": "request_for_info"}'
    runner = CliRunner()
    args = ["--db", db_url, "judge", "compare", "--judge", "fake-model", "--json"]
    args += ["--prompts", f"when2call-judge-v1,{strict}"]
    result = runner.invoke(app, args)  # nothing judged yet: refused, with the command to run
    assert result.exit_code == 2 and "w2c run start --method judge" in result.stderr
    with FakeOpenAI(api_key=SECRET, default_reply=reply) as server:
        start = ["--start", "openai", "--base-url", server.url, "--api-key-env", KEY_ENV]
        result = runner.invoke(app, args + start)
        assert result.exit_code == 0, result.stderr
        runs = len(demo.runs.all())
        again = runner.invoke(app, args + start)  # both versions have readings: no new run
        assert again.exit_code == 0 and len(demo.runs.all()) == runs == 4
    doc = json.loads(result.stdout)
    n = doc["n"]
    assert doc["a"].startswith("when2call-judge-v1@") and doc["b"].startswith("always-tool-call@")
    rfi = doc["accuracy"]["a"]["value"] * n  # A says request_for_info on every response
    tc = doc["accuracy"]["b"]["value"] * n
    assert rfi == pytest.approx(round(rfi)) and tc == pytest.approx(round(tc))
    assert doc["mcnemar"]["b_right_to_wrong"] == round(rfi)
    assert doc["mcnemar"]["c_wrong_to_right"] == round(tc)
