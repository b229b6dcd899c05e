"""lm-eval's log-prob MCQ scoring written out plainly, and the tasks the KV-cache scorer is held
to it on (tests/runs/test_local_scoring.py, tests/runs/test_mcq_choices.py; import after their
torch / transformers gate)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import torch
from dbfixtures import unavailable
from tiny_models import DEMO, judge_path, load_tasks
from transformers import AutoModelForCausalLM, AutoTokenizer

from w2c_tui.domain.labels import Label
from w2c_tui.domain.runs import Backend, Method, RunConfig, Task, TaskResult
from w2c_tui.runs.local.executor import TransformersExecutor
from w2c_tui.runs.prompts import render

TEMPLATES = ("when2call-default", "when2call-qwen2_5")


@cache
def loaded(folder: Path) -> tuple[Any, Any]:
    model = AutoModelForCausalLM.from_pretrained(folder).eval()
    return model, AutoTokenizer.from_pretrained(folder)


def reference(
    model: Any, tok: Any, prompt: str, choices: Sequence[str], bos: bool, max_length: int
) -> list[tuple[float, bool, int]]:
    """lm-eval ≤ 0.4.9.1, written out plainly: one forward pass per choice over ctx + cont."""
    out = []
    for choice in choices:
        n = len(prompt) - len(prompt.rstrip())
        context, continuation = (prompt[:-n], prompt[-n:] + choice) if n else (prompt, choice)
        whole = tok.encode(context + continuation, add_special_tokens=False)
        ctx = tok.encode(context, add_special_tokens=False)
        cont = whole[len(ctx) :]
        if bos:
            ctx = [tok.bos_token_id, *ctx]
        inp = (ctx + cont)[-(max_length + 1) :][:-1]
        with torch.inference_mode():
            logits = model(input_ids=torch.tensor([inp])).logits[0]
        logp = torch.log_softmax(logits[-len(cont) :], dim=-1)
        target = torch.tensor(cont)
        ll = float(logp.gather(1, target.unsqueeze(1)).sum())
        out.append((ll, bool((logp.argmax(-1) == target).all()), len(cont)))
    return out


def first_argmax(values: Sequence[float]) -> int:
    best = 0
    for i, value in enumerate(values):
        if value > values[best]:
            best = i
    return best


def run_mcq(
    folder: Path, tasks: Sequence[Task], template: str, bos: bool = False, batch_size: int = 4
) -> list[TaskResult]:
    config = RunConfig.of(
        method=Method.MCQ_LOGPROB,
        backend=Backend.TRANSFORMERS,
        model=str(folder),
        dataset="test",
        template=template,
        bos=bos,
        batch_size=batch_size,
    )
    results: list[TaskResult] = []
    TransformersExecutor(config).run(tasks, results.append, lambda: False)
    return sorted(results, key=lambda r: (r.task.item_id, r.task.uuid))


def edge_tasks() -> list[Task]:
    """Questions ending in whitespace, non-ASCII text, and a word split at the boundary."""
    answers = (
        ("direct", "Le résumé est prêt ✓"),
        ("tool_call", '{"name": "f", "arguments": {}}'),
        ("request_for_info", " Which one?"),
        ("cannot_answer", "\nI can't 🍝."),
    )
    questions = ["Can you help? ", "Tabs and newlines\n\t\n", "Zürich → Genève?", "Tell me the wea"]
    tasks = [
        Task(900 + i, f"edge-{i}", q, (), answers, Label.TOOL_CALL) for i, q in enumerate(questions)
    ]
    split = (
        ("direct", "ther in Paris"),
        ("tool_call", "ther is nice today"),
        ("request_for_info", "ks"),
        ("cannot_answer", "thermometer"),
    )
    tasks.append(Task(950, "edge-split", "Tell me the wea", (), split, Label.TOOL_CALL))
    return tasks


@cache
def sample_tasks() -> tuple[Task, ...]:
    """Demo items (non-ASCII, one question ending in a space) and the edge cases."""
    return tuple(load_tasks(DEMO)[::3] + edge_tasks())


def real_whitespace_tasks() -> list[Task]:
    """Two of the six real items whose question ends in whitespace (skip when absent)."""
    judge = judge_path()
    if judge is None:
        unavailable("the shared When2Call data", "it is not found; set W2C_SHARED_DATA")
    return [t for t in load_tasks(judge) if t.question != t.question.rstrip()][:2]


def assert_matches_reference(
    folder: Path, tasks: Sequence[Task], template: str, bos: bool, max_length: int = 8192
) -> float:
    model, tok = loaded(folder)
    results = run_mcq(folder, tasks, template, bos)
    assert len(results) == len(tasks) and all(r.error is None for r in results)
    by_uuid = {r.task.uuid: r for r in results}
    worst = 0.0
    for task in tasks:
        prompt, choices = render(template, task)
        ref = reference(model, tok, prompt, choices, bos, max_length)
        scores = by_uuid[task.uuid].scores
        for (ll, greedy, n), got, got_greedy, got_n in zip(
            ref, scores["loglikelihoods"], scores["is_greedy"], scores["n_tokens"], strict=True
        ):
            assert abs(got - ll) <= 1e-4 + 1e-6 * abs(ll), (task.uuid, got, ll)
            assert (got_greedy, got_n) == (greedy, n)
            worst = max(worst, abs(got - ll))
        lls = [r[0] for r in ref]
        names = [name for name, _ in task.answers]
        assert scores["pred_raw"] == names[first_argmax(lls)]
        norm = [ll / len(c) for ll, c in zip(lls, choices, strict=True)]
        assert scores["pred_norm"] == names[first_argmax(norm)]
    return worst
