"""The openai backend through the run service: generate, then judge, into a real store."""

from __future__ import annotations

import pytest
from dbfixtures import everything_stored
from fake_server import FakeOpenAI

from w2c_tui.domain.runs import Backend, Method, RunConfig, RunStatus
from w2c_tui.services import Services

KEY_ENV = "W2C_TEST_SERVICE_KEY"
SECRET = "sk-service-secret-987"


def test_generate_then_judge_through_the_service(
    demo: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    reply = '{"classification": "request_for_info"}'
    with FakeOpenAI(api_key=SECRET, default_reply=reply) as server:
        common = {"backend": Backend.OPENAI, "dataset": "demo", "base_url": server.url}
        generate = RunConfig.of(
            method=Method.GENERATE, model="fake-model", api_key_env=KEY_ENV, limit=6, **common
        )
        run_id = demo.runs.create(generate)
        info = demo.runs.execute(run_id)
        assert (info.status, info.n_done, info.n_error) == (RunStatus.DONE, 6, 0)
        # `w2c run show` says when the run started (it said null for every run)
        assert info.started_at is not None and info.finished_at is not None
        assert info.created_at <= info.started_at <= info.finished_at
        judge = RunConfig.of(
            method=Method.JUDGE,
            model="fake-model",
            target_model="fake-model",
            api_key_env=KEY_ENV,
            limit=6,
            **common,
        )
        judge_id = demo.runs.create(judge)
        judged = demo.runs.execute(judge_id)
    assert (judged.status, judged.n_done, judged.n_error) == (RunStatus.DONE, 6, 0)
    results = demo.runs.results(judge_id)
    assert [r.label for r in results] == ["request_for_info"] * 6
    described = demo.runs.describe(judge_id)
    assert described["judge_prompt_version"].startswith("when2call-judge-v1@")
    assert described["structured_output"] is True
    assert SECRET not in everything_stored(demo.url)
