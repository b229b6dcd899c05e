"""The openai backend against `transformers serve` (a real OpenAI-compatible server) on a tiny
random model built offline: generation and judging work; log-prob MCQ is refused, because that
server ignores `echo`/`logprobs` (WHEN2CALL_REFERENCE.md §10)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("transformers")
pytest.importorskip("torch")
import fastapi  # noqa: F401 (the dev extra installs them: without them this test fails)
import uvicorn  # noqa: F401
from fake_tasks import FAST_RETRY, make_config, make_task, run_tasks

from w2c_tui.domain.labels import VerdictStatus
from w2c_tui.domain.runs import Method, RunStartError
from w2c_tui.runs.api.executor import OpenAIExecutor

pytestmark = pytest.mark.slow

CLI = Path(sys.executable).with_name("transformers")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """(base URL, model path) of a `transformers serve` process, stopped after the module."""
    assert CLI.exists(), f"the transformers CLI is missing ({CLI}): install the local extra"
    from tiny_models import tiny_model_dir

    model = str(tiny_model_dir("qwen2", positions=2048))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    cache = tmp_path_factory.mktemp("hf-cache")
    env = {**os.environ, "HF_HUB_CACHE": str(cache), "HF_HUB_OFFLINE": "1"}
    command = [str(CLI), "serve", model, "--host", "127.0.0.1", "--port", str(port)]
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*command, "--device", "cpu"], env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1)
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    tail = log.read_text("utf-8", errors="replace")[-3000:]
                    pytest.fail(f"transformers serve did not start; its output:\n{tail}")
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/v1", model
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


def executor(served: tuple[str, str], method: Method) -> OpenAIExecutor:
    url, model = served
    config = make_config(url, method, model=model, max_tokens=8, timeout_s=60.0, concurrency=2)
    return OpenAIExecutor(config, retry=FAST_RETRY)


def test_generation_runs(served: tuple[str, str]) -> None:
    ex = executor(served, Method.GENERATE)
    ex.check()
    results = run_tasks(ex, [make_task(1, "Weather in Paris?"), make_task(2, "Hi?", tools=())])
    assert len(results) == 2
    for result in results:
        assert result.error is None and isinstance(result.response_text, str)
        assert result.meta["retries"] == 0


def test_a_random_judge_gives_invalid_verdicts_with_its_text(served: tuple[str, str]) -> None:
    ex = executor(served, Method.JUDGE)
    ex.check()
    [result] = run_tasks(ex, [make_task(1, "Weather?", response="Which city?")])
    assert result.error is None
    assert result.label is None and result.status is VerdictStatus.INVALID
    assert result.scores["repaired"] is True and "--- repair turn ---" in (result.raw or "")


def test_log_prob_mcq_is_refused(served: tuple[str, str]) -> None:
    with pytest.raises(RunStartError, match=r"does not return prompt log-probabilities"):
        executor(served, Method.MCQ_LOGPROB).check()
    results = run_tasks(executor(served, Method.MCQ_LOGPROB), [make_task(1, "Weather?")])
    assert results[0].error and results[0].scores == {} and results[0].label is None
