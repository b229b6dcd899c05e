"""A run over 70,000 items on PostgreSQL: no statement depends on a bound-parameter limit."""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path

import pytest
from dbfixtures import query
from fake_server import FakeOpenAI

from w2c_tui.domain.runs import Backend, Method, RunConfig, RunStatus
from w2c_tui.services import open_services

N_ITEMS = 70_000  # more than PostgreSQL's 65,535 bound parameters in one statement
LABELS = ("direct", "tool_call", "request_for_info", "cannot_answer")
TOOL = {"name": "get_time", "description": "The time in a city.", "parameters": {}}


def write_items(path: Path, n: int) -> None:
    """n small When2Call test items (every third with one tool)."""
    with path.open("w", encoding="utf-8") as out:
        for i in range(n):
            record = {
                "uuid": f"big-{i:06d}",
                "question": f"What time is it in city {i}?",
                "correct_answer": LABELS[i % 4],
                "answers": {label: f"{label} {i}" for label in LABELS},
                "tools": [json.dumps(TOOL)] if i % 3 == 0 else [],
            }
            out.write(json.dumps(record) + "\n")


@pytest.mark.slow(minutes=6)
def test_a_run_over_70000_items_completes_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    items = tmp_path / "big.jsonl"
    write_items(items, N_ITEMS)
    services = open_services(pg_url)
    try:
        report = services.imports.import_path(items, dataset="big")
        assert report.items_new == N_ITEMS
        with FakeOpenAI(default_reply="It is noon.", keep_bodies=False) as server:
            config = RunConfig.of(
                method=Method.GENERATE,
                backend=Backend.OPENAI,
                model="fake-model",
                dataset="big",
                base_url=server.url,
                concurrency=16,
            )
            run_id = services.runs.create(config)
            pid = services.runs.launch(run_id)  # the worker: a process of its own
            deadline = time.monotonic() + 1800
            while services.runs.get(run_id).status in (RunStatus.PENDING, RunStatus.RUNNING):
                assert time.monotonic() < deadline, "the run did not finish in 30 minutes"
                time.sleep(1)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
            requests = len(server.seen)
        info = services.runs.get(run_id)
        log = Path(info.log_path or "").read_text(encoding="utf-8", errors="replace")
        assert (info.status, info.n_done, info.n_error) == (RunStatus.DONE, N_ITEMS, 0), log[-2000:]
        assert info.n_total == N_ITEMS and requests >= N_ITEMS
    finally:
        services.close()
    counted = "SELECT COUNT(*), COUNT(DISTINCT item_id) FROM {} WHERE run_id = :run"
    assert query(pg_url, counted.format("run_result"), run=run_id) == [(N_ITEMS, N_ITEMS)]
    assert query(pg_url, counted.format("response"), run=run_id) == [(N_ITEMS, N_ITEMS)]
