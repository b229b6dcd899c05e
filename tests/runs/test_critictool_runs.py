"""`--method critictool` runs: a tiny local model, and a worker process against the test server
(with faults) killed with SIGKILL and resumed; predictions stored once per sample, then scored."""

from __future__ import annotations

import json
import os
import signal
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fake_server import FakeOpenAI
from sqlalchemy import text
from test_kill_resume import wait_for
from tiny_models import cpu_config, tiny_model_dir
from tiny_similarity import tiny_similarity_dir

from w2c_tui.domain.runs import Backend, Method, RunConfig, RunStartError, RunStatus
from w2c_tui.runs.critictool.parse import parse_reply
from w2c_tui.runs.critictool.similarity import SentenceSimilarity
from w2c_tui.services import Services
from w2c_tui.services.critictool_metrics import CriticToolMetricsService

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool" / "dataset"
INTERNAL = CT / "internal_error" / "base_data_wo_cot.json"
EXTERNAL = CT / "external_error" / "base_data_wo_cot.json"


def rows(svc: Services, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    with svc.store.engine.connect() as db:
        return [tuple(row) for row in db.execute(text(sql), params).all()]


def scripted(tmp_path: Path) -> tuple[Path, str]:
    """The external fixture with markers for the test server: the first sample's replies repeat
    its failed call (so it retries to the limit), two samples meet a 500 and a 429 first."""
    data = json.loads(EXTERNAL.read_text(encoding="utf-8"))
    ids = list(data)
    first = data[ids[0]]
    gold = first["ground_truth"][0]
    call = json.dumps({"name": gold["name"], "args": gold["args"]}, ensure_ascii=False)
    assert "]]" not in call
    first["query_prompt"][1]["content"] += f" [[reply:{call}]] [[repair:{call}]]"
    data[ids[1]]["query_prompt"][1]["content"] += " [[fault:500:1]]"
    data[ids[2]]["query_prompt"][1]["content"] += " [[fault:429:2]]"
    path = tmp_path / "external_error" / "base_data_wo_cot.json"
    path.parent.mkdir()
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path, ids[0]


def test_api_run_with_faults_killed_and_resumed_then_scored(demo: Services, tmp_path: Path) -> None:
    svc = demo
    path, retried = scripted(tmp_path)
    svc.imports.import_path(INTERNAL, dataset="ct")
    svc.imports.import_path(path, dataset="ct")
    total = 21 + 7
    reply = '{"error": "tool_select_error", "name": "FinishAction", "args": "done"}'
    with FakeOpenAI(latency_s=0.12, default_reply=reply) as server:
        config = RunConfig.of(
            method=Method.CRITICTOOL,
            backend=Backend.OPENAI,
            model="fake-model",
            dataset="ct",
            base_url=server.url,
            concurrency=1,
            retry_limit=2,
        )
        run_id = svc.runs.create(config)
        pid = svc.runs.launch(run_id)
        wait_for(lambda: svc.runs.get(run_id).n_done >= 5, 60, "five samples")
        os.kill(pid, signal.SIGKILL)
        wait_for(
            lambda: svc.runs.get(run_id).status is RunStatus.INTERRUPTED, 10, "the interruption"
        )
        assert svc.runs.get(run_id).n_done < total
        svc.runs.resume(run_id)
        wait_for(lambda: svc.runs.get(run_id).status is RunStatus.DONE, 90, "the resumed run")
        # the scripted sample's rounds all reached the server: its first call, then 2 retries
        asked = [
            s for s in server.requests("/v1/chat/completions") if "[[repair:" in json.dumps(s.body)
        ]
        assert len(asked) >= 3
    info = svc.runs.get(run_id)
    assert (info.n_done, info.n_error, info.n_total) == (total, 0, total)
    per_item = rows(
        svc,
        "SELECT item_id, COUNT(*) FROM critic_prediction WHERE run_id = :run GROUP BY item_id",
        run=run_id,
    )
    assert len(per_item) == total and {n for _, n in per_item} == {1}
    assert rows(svc, "SELECT COUNT(*) FROM run_result WHERE run_id = :run", run=run_id) == [
        (total,)
    ]
    retries = rows(svc, "SELECT SUM(retries) FROM run_result WHERE run_id = :run", run=run_id)
    assert int(retries[0][0]) >= 3  # one 500 and two 429s were retried
    [sample] = [s for s in svc.critictool.samples("ct") if s.sample.sample_id == retried]
    [pred] = svc.critictool.predictions(sample.item_id, "fake-model")
    assert (pred.mode, pred.cot, pred.run_id, len(pred.rounds)) == ("skip", False, run_id, 3)
    assert all(parse_reply(r).is_call(sample.sample.gold[0]) for r in pred.rounds)
    others = [p for p in svc.critictool.dataset_predictions("ct", run_id=run_id) if p.id != pred.id]
    assert {p.rounds for p in others} == {(reply,)}
    doc = CriticToolMetricsService(svc.store).compute(
        run_id=run_id, similarity=SentenceSimilarity(tiny_similarity_dir(), device="cpu")
    )
    by_source = {s.source: s for s in doc.settings}
    assert by_source["internal"].means["samples"] == 21
    assert by_source["external"].means["samples"] == 7
    assert by_source["external"].per_sample[retried]["retry"] == 1
    assert [o.mode for o in doc.overall] == ["skip"]
    with pytest.raises(RunStartError, match="already have predictions"):
        svc.runs.create(config)
    second = svc.runs.create(
        RunConfig.from_json(
            {
                **config.as_json(),
                "method": Method.CRITICTOOL,
                "backend": Backend.OPENAI,
                "critic_mode": "finish",
                "item_filter": {"source": "external"},
            }
        )
    )
    assert svc.runs.get(second).n_total == 7


def test_local_tiny_model_run(services: Services) -> None:
    services.imports.import_path(INTERNAL, dataset="ct")
    services.imports.import_path(EXTERNAL, dataset="ct")
    base = cpu_config(
        Method.CRITICTOOL,
        tiny_model_dir("qwen2"),
        "ct",
        max_tokens=6,
        batch_size=4,
        threads=1,
        critic_cot=True,
        critic_mode="finish",
    )
    first = services.runs.execute(services.runs.create(base))
    assert (first.status, first.n_done, first.n_error) == (RunStatus.DONE, 28, 0)
    again = services.runs.execute(services.runs.create(replace(base, target_model="twin")))
    assert again.n_done == 28
    ours = services.critictool.dataset_predictions("ct", run_id=first.id)
    twin = services.critictool.dataset_predictions("ct", run_id=again.id)
    assert [p.rounds for p in ours] == [p.rounds for p in twin]  # greedy: the same replies
    assert all(p.cot and len(p.parsed) == len(p.rounds) for p in ours)
    assert {p.mode for p in ours} == {None, "finish"}
    assert all(1 <= len(p.rounds) <= 4 for p in ours)
    described = services.runs.describe(first.id)
    assert described["critictool_mode"] == "finish" and described["critictool_cot"] is True


def test_a_critictool_run_is_refused_before_it_starts(demo: Services) -> None:
    demo.imports.import_path(EXTERNAL, dataset="ct")
    config = RunConfig.of(
        method=Method.CRITICTOOL,
        backend=Backend.OPENAI,
        model="m",
        dataset="demo",
        base_url="http://127.0.0.1:9/v1",
    )
    with pytest.raises(RunStartError, match="not one"):
        demo.runs.create(config)
    ct = {**config.as_json(), "method": Method.CRITICTOOL, "backend": Backend.OPENAI}
    with pytest.raises(RunStartError, match="skip or finish"):
        demo.runs.create(RunConfig.from_json({**ct, "dataset": "ct", "critic_mode": "stop"}))
    with pytest.raises(RunStartError, match="at least 0"):
        demo.runs.create(RunConfig.from_json({**ct, "dataset": "ct", "retry_limit": -1}))
    assert demo.runs.all() == []
