"""Judge and MCQ-index on a local chat model: constrained and free judging, the repair turn,
invalid replies kept raw, option indexes mapped to labels, and a judge run stored by the service."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from tiny_models import (
    DEMO,
    load_tasks,
    one_torch_thread,  # noqa: F401 (an autouse fixture)
    tiny_model_dir,
)

from w2c_tui.domain.labels import LABELS, Label, RaterKind, VerdictStatus
from w2c_tui.domain.runs import Backend, Method, RunConfig, RunStartError, RunStatus, TaskResult
from w2c_tui.runs.judge import RAW_TURN_SEPARATOR, REPAIR_REQUEST
from w2c_tui.runs.local import chat as chat_module
from w2c_tui.runs.local.chat import judge_replies, reply_constraint
from w2c_tui.runs.local.executor import TransformersExecutor
from w2c_tui.runs.local.generate import Generated
from w2c_tui.runs.local.loading import load
from w2c_tui.services import Services

RESPONSE = "I'll look that up with the search tool."


def config(method: Method, **kw: Any) -> RunConfig:
    values: dict[str, Any] = {"max_tokens": 8, "batch_size": 4, **kw}
    return RunConfig.of(
        method=method,
        backend=Backend.TRANSFORMERS,
        model=str(values.pop("model", tiny_model_dir("qwen2"))),
        dataset="demo",
        **values,
    )


def judge_tasks(n: int) -> list[Any]:
    return [replace(t, response_text=RESPONSE) for t in load_tasks(DEMO)[:n]]


def run(executor: TransformersExecutor, tasks: list[Any]) -> list[TaskResult]:
    results: list[TaskResult] = []
    executor.run(tasks, results.append, lambda: False)
    return sorted(results, key=lambda r: r.task.item_id)


def script(monkeypatch: pytest.MonkeyPatch, replies: dict[str, list[str]]) -> list[list[int]]:
    """Replace the generator by scripted replies, keyed by text in the prompt: 'REPAIR' when the
    prompt holds the repair request, else the task's question; returns the prompts seen."""
    seen: list[list[int]] = []
    model = load(str(tiny_model_dir("qwen2")), "cpu", "float32")

    def fake(loaded: Any, prompts: list[list[int]], *args: Any, **kwargs: Any) -> list[Generated]:
        outs = []
        for ids in prompts:
            seen.append(ids)
            text = model.tokenizer.decode(ids)
            key = "REPAIR" if REPAIR_REQUEST in text else next(k for k in replies if k in text)
            outs.append(Generated(replies[key].pop(0), 3, True))
        return outs

    monkeypatch.setattr(chat_module, "generate_batch", fake)
    return seen


def test_constrained_judge_always_answers_one_of_the_four_json_replies() -> None:
    executor = TransformersExecutor(config(Method.JUDGE))
    executor.check()
    results = run(executor, judge_tasks(6))
    assert [r.error for r in results] == [None] * 6
    for result in results:
        assert result.status is VerdictStatus.OK and isinstance(result.label, Label)
        assert result.raw == json.dumps({"classification": result.label.value})
        assert result.scores == {"structured": True, "repaired": False, "fenced": False}
    info = executor.describe()
    assert info["structured_output"] == "constrained decoding"
    assert info["judge_prompt_version"].startswith("when2call-judge-v1@")
    assert "chat_template_hash" in info


def test_the_constraint_allows_exactly_the_four_replies() -> None:
    loaded = load(str(tiny_model_dir("gpt2")), "cpu", "float32")
    constraint = reply_constraint(loaded, judge_replies())
    found: set[str] = set()

    def walk(prefix: list[int]) -> None:
        allowed = constraint.allowed(prefix)
        if allowed == [loaded.tokenizer.eos_token_id]:
            found.add(loaded.tokenizer.decode(prefix))
            return
        for token in allowed:
            walk([*prefix, token])

    walk([])
    assert found == {json.dumps({"classification": label.value}) for label in LABELS}


def test_a_free_judge_on_a_random_model_gives_invalid_verdicts_with_both_replies() -> None:
    results = run(TransformersExecutor(config(Method.JUDGE, structured=False)), judge_tasks(4))
    for result in results:
        assert result.error is None
        assert result.status is VerdictStatus.INVALID and result.label is None
        assert result.raw is not None and RAW_TURN_SEPARATOR in result.raw
        assert result.scores["repaired"] is True and result.scores["structured"] is False
        assert result.meta["problem"]


def test_the_repair_turn_reads_a_second_reply_and_never_guesses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tasks = judge_tasks(3)
    a, b, c = (t.uuid for t in tasks)
    qa, qb, qc = (t.question for t in tasks)
    script(
        monkeypatch,
        {
            qa: ['```json\n{"classification": "tool_call"}\n```'],
            qb: ["It asks for information, so request_for_info."],
            qc: ["classification: direct"],
            "REPAIR": ['{"classification": "request_for_info"}', "direct"],
        },
    )
    by_uuid = {
        r.task.uuid: r
        for r in run(TransformersExecutor(config(Method.JUDGE, structured=False)), tasks)
    }
    assert by_uuid[a].label is Label.TOOL_CALL and by_uuid[a].scores["fenced"] is True
    assert by_uuid[a].scores["repaired"] is False
    assert by_uuid[b].label is Label.REQUEST_FOR_INFO and by_uuid[b].scores["repaired"] is True
    assert by_uuid[c].status is VerdictStatus.INVALID and by_uuid[c].label is None
    assert by_uuid[c].raw == f"classification: direct{RAW_TURN_SEPARATOR}direct"


def test_mcq_index_maps_the_digit_to_the_option_and_keeps_unreadable_replies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tasks = load_tasks(DEMO)[:3]
    a, b, c = (t.uuid for t in tasks)
    replies = {tasks[0].question: ["2"], tasks[1].question: ["I pick 3."], tasks[2].question: ["?"]}
    script(monkeypatch, replies)
    results = {r.task.uuid: r for r in run(TransformersExecutor(config(Method.MCQ_INDEX)), tasks)}
    option = {label.option: label for label in LABELS}
    assert results[a].label is option[2] and results[a].scores == {"index": 2}
    assert results[b].label is option[3]
    assert results[c].status is VerdictStatus.INVALID and results[c].raw == "?"


def test_mcq_index_on_a_random_model_is_invalid_not_a_label() -> None:
    results = run(
        TransformersExecutor(config(Method.MCQ_INDEX, max_tokens=6)), load_tasks(DEMO)[:4]
    )
    assert [r.error for r in results] == [None] * 4
    for result in results:
        assert result.status in (VerdictStatus.OK, VerdictStatus.INVALID)
        if result.status is VerdictStatus.OK:  # a random model may print a digit 0–3
            assert result.label is not None and "index" in result.scores
        else:
            assert result.label is None and result.raw is not None


def test_a_model_without_a_chat_template_is_refused_at_start(tmp_path: Path) -> None:
    model = tmp_path / "no-chat"
    shutil.copytree(tiny_model_dir("gpt2"), model)
    for name in ("chat_template.jinja", "chat_template.json"):
        (model / name).unlink(missing_ok=True)
    settings = model / "tokenizer_config.json"
    data = json.loads(settings.read_text(encoding="utf-8"))
    data.pop("chat_template", None)
    settings.write_text(json.dumps(data), encoding="utf-8")
    for method in (Method.JUDGE, Method.MCQ_INDEX, Method.CRITICTOOL):
        with pytest.raises(
            RunStartError,
            match="no chat template: judge, mcq_index, critictool and critictool_judge",
        ):
            TransformersExecutor(config(method, model=model)).check()
    with pytest.raises(RunStartError, match="judge prompt 'nope' not found"):
        TransformersExecutor(config(Method.JUDGE, judge_prompt="nope")).check()


def test_a_local_judge_run_stores_verdicts_of_a_judge_rater(demo: Services) -> None:
    judge = config(Method.JUDGE, target_model="acme-7b-instruct", limit=6)
    run_id = demo.runs.create(judge)
    info = demo.runs.execute(run_id)
    assert info.status is RunStatus.DONE and info.n_error == 0
    assert info.n_done == info.n_total > 0
    assert info.rater is not None and "judge" in info.rater
    rows = demo.runs.results(run_id)
    assert all(row.status == "ok" and row.label in {x.value for x in LABELS} for row in rows)
    readings = demo.metrics.readings("demo")
    ours = [r for r in readings.raters if r.kind is RaterKind.JUDGE and r.name == judge.model]
    assert len(ours) == 1 and ours[0].config["backend"] == "transformers"
    assert ours[0].config["prompt"].startswith("when2call-judge-v1@")
    judged = [u for u in readings.units if (u.key, ours[0].key) in readings.values]
    assert len(judged) == len(rows) and all(u.target_model == "acme-7b-instruct" for u in judged)
