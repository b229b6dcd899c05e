"""Run workers as a user meets them: the log says what happened (checks, retries with status
and wait, task errors, library warnings), failed tasks can be retried, two resumes at once
start one worker, and a key given where a variable name belongs is refused unseen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from fake_server import FakeOpenAI
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.runs import Backend, Method, RunConfig, RunStartError, RunStatus
from w2c_tui.runs.api.executor import OpenAIExecutor
from w2c_tui.services import Services

runner = CliRunner()
ANSWERS = {
    "direct": "Yes.",
    "tool_call": '{"name": "f", "arguments": {}}',
    "request_for_info": "Which?",
    "cannot_answer": "No.",
}


def items_file(folder: Path, questions: list[str]) -> Path:
    """A When2Call test file whose questions carry the fake server's fault markers."""
    path = folder / "faulty.jsonl"
    lines = [
        json.dumps(
            {
                "uuid": f"q{i}",
                "question": q,
                "tools": [],
                "answers": ANSWERS,
                "correct_answer": "cannot_answer",
            }
        )
        for i, q in enumerate(questions)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def generate(url: str, dataset: str, **options: object) -> RunConfig:
    values: dict[str, object] = {"max_retries": 2, "timeout_s": 5.0, **options}
    return RunConfig.of(
        method=Method.GENERATE,
        backend=Backend.OPENAI,
        model="fake-model",
        dataset=dataset,
        base_url=url,
        **values,  # type: ignore[arg-type]
    )


def test_the_log_holds_checks_retries_task_errors_and_warnings(
    services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = items_file(tmp_path, ["Plain?", "Busy? [[fault:429:1]]", "Bad? [[fault:400:*]]"])
    services.imports.import_path(path, dataset="faulty")
    described = OpenAIExecutor.describe

    def describe_with_a_warning(self: OpenAIExecutor) -> dict[str, object]:
        warnings.warn("a library's deprecation notice", UserWarning, stacklevel=1)
        return described(self)

    monkeypatch.setattr(OpenAIExecutor, "describe", describe_with_a_warning)
    with FakeOpenAI(retry_after="0.01") as server:
        run_id = services.runs.create(generate(server.url, "faulty"))
        info = services.runs.execute(run_id)
    assert info.status is RunStatus.DONE and info.status_text == "done with 1 error"
    log = Path(info.log_path or "").read_text("utf-8")
    assert Path(info.log_path or "").name.endswith(f"-run-{run_id}.log")
    stem = Path(urlsplit(services.url).path).stem  # the database's name, then its hash
    assert Path(info.log_path or "").name.startswith(f"{stem}-")
    for expected in (
        "checking the configuration",
        "check passed",
        "retry 1 of 2 in 0.01 s (Retry-After) after RateLimitError (HTTP 429)",
        "task q2 (sample 0) failed after 0 retries: BadRequestError (HTTP 400)",
        "UserWarning: a library's deprecation notice",
        f"run {run_id} done with 1 error: 2 done, 1 errors of 3 tasks",
        f"`w2c run resume {run_id} --retry-errors`",
    ):
        assert expected in log, expected


def test_failed_tasks_can_be_retried(services: Services, tmp_path: Path) -> None:
    """A server outage during a run fails its tasks for good ("done with 6 errors"); once the
    server is back, --retry-errors runs exactly those again (the CLI without it says how)."""
    path = items_file(tmp_path, [f"Question {i}?" for i in range(6)])
    services.imports.import_path(path, dataset="faulty")
    with FakeOpenAI() as server:
        run_id = services.runs.create(generate(server.url, "faulty", max_retries=0))
        server.outage = True  # /v1/models still answers: the check passes, the tasks fail
        first = services.runs.execute(run_id)
        assert (first.status, first.n_done, first.n_error) == (RunStatus.DONE, 0, 6)
        assert first.status_text == "done with 6 errors"
        server.outage = False
        before = len(server.requests("/v1/chat/completions"))
        result = runner.invoke(app, ["--db", services.url, "run", "resume", str(run_id)])
        assert result.exit_code == 2 and f"resume {run_id} --retry-errors" in result.stderr
        services.runs.resume(run_id, launch=False, retry_errors=True)
        final = services.runs.execute(run_id)
        assert (final.n_done, final.n_error, final.status_text) == (6, 0, "done")
        assert len(server.requests("/v1/chat/completions")) - before == 6
    results = services.runs.results(run_id)
    assert sorted(r.uuid or "" for r in results) == [f"q{i}" for i in range(6)]
    assert all(r.status == "ok" and r.error is None for r in results)


def test_two_resumes_at_once_start_one_worker(demo: Services) -> None:
    with FakeOpenAI(latency_s=0.02) as server:
        config = RunConfig.of(
            method=Method.GENERATE,
            backend=Backend.OPENAI,
            model="fake-model",
            dataset="demo",
            base_url=server.url,
            concurrency=4,
            limit=20,
        )
        run_id = demo.runs.create(config)
        demo.store.runs.update(run_id, status=RunStatus.INTERRUPTED)
        env = {**os.environ, "W2C_DB": demo.url}
        command = [sys.executable, "-m", "w2c_tui", "run", "resume", str(run_id)]
        both = [
            subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(2)
        ]
        outcomes = [(p.wait(timeout=60), p.communicate()[1].decode()) for p in both]
        deadline = time.monotonic() + 60
        while demo.runs.get(run_id).status is not RunStatus.DONE:
            assert time.monotonic() < deadline, "the resumed run did not finish"
            time.sleep(0.1)
        chats = len(server.requests("/v1/chat/completions"))
    codes = sorted(code for code, _ in outcomes)
    assert codes == [0, 2], outcomes
    refused = next(err for code, err in outcomes if code == 2)
    assert "just resumed by someone else" in refused or "already being worked on" in refused
    assert chats == 20  # one worker: each task asked once


@pytest.mark.parametrize(
    "given", ["sk-proj-abcdefghijklmnopqrstuvwxyz0123456789", "my key", "AIzaSyA1b2C3d4E5f6"]
)
def test_a_key_given_as_the_variable_name_is_refused_unseen(demo: Services, given: str) -> None:
    args = [
        *("--db", demo.url, "run", "start", "--method", "generate", "--backend", "openai"),
        *("--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--api-key-env", given),
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "NAME of the environment variable" in result.stderr
    assert given not in result.stderr and given not in result.stdout
    assert demo.runs.all() == []  # nothing stored
    ok = RunConfig.of(
        method=Method.GENERATE,
        backend=Backend.OPENAI,
        model="m",
        dataset="demo",
        base_url="http://127.0.0.1:9/v1",
        api_key_env="OPENAI_API_KEY",
    )
    assert demo.runs.create(ok) > 0


def test_a_password_in_the_base_url_is_refused(demo: Services) -> None:
    config = RunConfig.of(
        method=Method.GENERATE,
        backend=Backend.OPENAI,
        model="m",
        dataset="demo",
        base_url="https://user:hunter2@example.com/v1",
    )
    with pytest.raises(RunStartError) as caught:
        demo.runs.create(config)
    assert "hunter2" not in str(caught.value) and demo.runs.all() == []
