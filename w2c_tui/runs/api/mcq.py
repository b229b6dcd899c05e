"""MCQ_INDEX (a chat model picks 0–3) and MCQ_LOGPROB (echoed prompt log-probs per choice)."""

from __future__ import annotations

from typing import Any

from w2c_tui.domain.labels import LABELS, Label, VerdictStatus
from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.api import _template
from w2c_tui.runs.api.calls import Api
from w2c_tui.runs.api.retry import Attempts
from w2c_tui.runs.mcq_index import parse_mcq_index, render_mcq_index_messages


def option_labels(task: Task) -> list[Label]:
    """The labels of `task.answers` in their order; ValueError unless it is the four labels."""
    labels = [Label.parse(name) for name, _ in task.answers]
    if sorted(label.option for label in labels) != [0, 1, 2, 3]:
        raise ValueError(f"expected the four When2Call answers, got {[n for n, _ in task.answers]}")
    return labels


async def mcq_index(api: Api, task: Task, attempts: Attempts) -> TaskResult:
    """The chosen option's label, or `invalid` with the raw reply."""
    labels = option_labels(task)
    messages = render_mcq_index_messages(task.question, task.tools, [t for _, t in task.answers])
    completion = await api.chat(attempts, list(messages))
    reply = str(completion.choices[0].message.content or "") if completion.choices else ""
    index = parse_mcq_index(reply)
    if index is None:
        return TaskResult(task=task, status=VerdictStatus.INVALID, raw=reply)
    return TaskResult(
        task=task,
        label=labels[index],
        status=VerdictStatus.OK,
        raw=reply,
        scores={"index": index},
    )


def _argmax(values: list[float]) -> int:
    """First index of the maximum (numpy's tie rule, as lm-eval)."""
    return max(range(len(values)), key=lambda i: (values[i], -i))


async def mcq_logprob(api: Api, task: Task, attempts: Attempts) -> TaskResult:
    """Sum of each choice's continuation log-probs from echoed prompts; argmax is the label.

    The four context+choice texts go in one request where the server takes a list `prompt`
    (`Api.echoes`; else one request each), with the context alone as a fifth text once the
    endpoint is known to need it; otherwise the context is asked for only when a split needs its
    token count. Scores use the keys of the lm-eval importer, in option order (direct …
    cannot_answer): `loglikelihoods`, `is_greedy`, `choice_lengths` (characters of the raw
    choice), `pred_raw`, `pred_norm` (argmax of ll/len), plus `n_tokens`, `split` and
    `straddles`; `meta["echo_batch"]` says whether the choices came in one request.
    """
    labels = option_labels(task)
    prompt, choices = _template.mcq_prompt(api.config.template, task)
    pairs = [_template.split_context(prompt, choice) for choice in choices]
    context = pairs[0][0]  # the prompt less its trailing whitespace, the same for every choice
    texts = [context + continuation for _, continuation in pairs]
    with_context = api.endpoint.echo_context and api.endpoint.batch_prompts is not False
    echoes, batched = await api.echoes(attempts, [*texts, context] if with_context else texts)
    context_tokens = echoes[4].n_prompt if with_context else None
    lls = [0.0] * 4
    lengths = [0] * 4
    n_tokens = [0] * 4
    greedy: list[bool | None] = [None] * 4
    splits: set[str] = set()
    straddles = 0
    for label, choice, echo in zip(labels, choices, echoes[:4], strict=True):
        span = echo.span_by_offsets(len(context))
        if span is None:
            if context_tokens is None:
                api.endpoint.echo_context = True
                [alone], _ = await api.echoes(attempts, [context])
                context_tokens = alone.n_prompt
            span = echo.span_by_count(context_tokens)
            splits.add("token_count")
        else:
            splits.add("offsets")
        at = label.option
        lls[at] = echo.total(span)
        n_tokens[at] = span.stop - span.start
        greedy[at] = echo.greedy(span)
        lengths[at] = len(choice)
        straddles += span.straddles
    norm = [ll / n if n else float("-inf") for ll, n in zip(lls, lengths, strict=True)]
    pred, pred_norm = LABELS[_argmax(lls)], LABELS[_argmax(norm)]
    scores: dict[str, Any] = {
        "loglikelihoods": lls,
        "is_greedy": greedy,
        "choice_lengths": lengths,
        "pred_raw": pred.value,
        "pred_norm": pred_norm.value,
        "n_tokens": n_tokens,
        "split": splits.pop() if len(splits) == 1 else "mixed",
        "straddles": straddles,
    }
    return TaskResult(
        task=task,
        label=pred,
        status=VerdictStatus.OK,
        scores=scores,
        meta={"echo_max_tokens": api.endpoint.echo_max_tokens, "echo_batch": batched},
    )
