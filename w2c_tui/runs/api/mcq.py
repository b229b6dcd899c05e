"""MCQ_INDEX (a chat model picks 0–3) and MCQ_LOGPROB (echoed prompt log-probs per choice)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from w2c_tui.domain.labels import LABELS, Label, VerdictStatus
from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.api import _template
from w2c_tui.runs.api.calls import Api
from w2c_tui.runs.api.choices import by_choice_index
from w2c_tui.runs.api.retry import Attempts
from w2c_tui.runs.api.tokens import encode, read_rows
from w2c_tui.runs.mcq_index import mcq_index_messages, mcq_index_result, option_labels


async def mcq_index(api: Api, task: Task, attempts: Attempts) -> TaskResult:
    """The chosen option's label, or `invalid` with the raw reply."""
    [result] = await mcq_index_n(api, [task], attempts)
    return result


async def mcq_index_n(api: Api, tasks: list[Task], attempts: Attempts) -> list[TaskResult]:
    """The repeats of one item from one request (`n` choices; NotNChoices if the reply does not
    hold one per repeat)."""
    extra: dict[str, Any] = {"n": len(tasks)} if len(tasks) > 1 else {}
    seed = api.sample_seed(tasks[0].sample_index)
    completion = await api.chat(attempts, list(mcq_index_messages(tasks[0])), seed=seed, **extra)
    choices = by_choice_index(completion.choices or [], len(tasks))
    sent = {"seed": seed if api.endpoint.seed else None, "n": len(tasks)}
    results = []
    for task, choice in zip(tasks, choices, strict=True):
        reply = str(choice.message.content or "") if choice is not None else ""
        result = mcq_index_result(task, reply)
        meta = {**result.meta, **{k: v for k, v in sent.items() if v is not None}}
        results.append(replace(result, meta=meta))
    return results


def _argmax(values: list[float]) -> int:
    """First index of the maximum (numpy's tie rule, as lm-eval)."""
    return max(range(len(values)), key=lambda i: (values[i], -i))


async def mcq_logprob(api: Api, task: Task, attempts: Attempts) -> TaskResult:
    """Token-id prompts where the server takes them (`tokens.py`: exact lm-eval splits), else
    echoed text (`mcq_logprob_text`)."""
    if api.endpoint.token_prompts:
        return await mcq_logprob_tokens(api, task, attempts)
    return await mcq_logprob_text(api, task, attempts)


async def mcq_logprob_tokens(api: Api, task: Task, attempts: Attempts) -> TaskResult:
    """The four context+continuation id sequences in one request (lm-eval's encoding, BOS id in
    front with --bos); each choice's ll is the sum over its continuation positions."""
    from w2c_tui.runs.local.encoding import encode_items

    tok = api.tokenizer
    assert tok is not None
    labels = option_labels(task)
    prompt, choices = _template.mcq_prompt(api.config.template, task)
    bos_id = tok.bos_token_id if api.config.bos else None
    prefix_id = tok.bos_token_id if tok.bos_token_id is not None else tok.eos_token_id
    [item] = encode_items(lambda texts: encode(tok, texts), [(prompt, choices)], bos_id, prefix_id)
    empty = [label.value for label, cont in zip(labels, item.conts, strict=True) if not cont]
    if empty:
        return TaskResult(
            task=task,
            error=f"choice {', '.join(empty)} adds no token of its own after the context",
        )
    prompts = [item.ctx + cont for cont in item.conts]
    via = bool(api.endpoint.prompt_logprobs)
    reply = await api.token_completion(attempts, prompts, prompt_logprobs=via)
    rows = read_rows(reply, prompts, prompt_logprobs=via)
    start = len(item.ctx)
    lls, n_tokens, lengths = [0.0] * 4, [0] * 4, [0] * 4
    greedy: list[bool | None] = [None] * 4
    for label, choice, cont, row in zip(labels, choices, item.conts, rows, strict=True):
        at = label.option
        lls[at] = row.total(start, start + len(cont))
        greedy[at] = row.all_greedy(start, start + len(cont))
        n_tokens[at], lengths[at] = len(cont), len(choice)
    scores = _scores(lls, greedy, lengths, n_tokens)
    scores.update(split="token_ids", straddles=0, prompt_mode="token_ids")
    meta = {
        "prompt_mode": "token_ids",
        "logprobs_via": "prompt_logprobs" if via else "echo",
        "boundary_merges": item.boundary_merges,
    }
    return TaskResult(
        task=task,
        label=Label(scores["pred_raw"]),
        status=VerdictStatus.OK,
        scores=scores,
        meta=meta,
    )


def _scores(
    lls: list[float], greedy: list[bool | None], lengths: list[int], n_tokens: list[int]
) -> dict[str, Any]:
    """The lm-eval importer's keys, in option order; pred_norm = argmax ll / len(choice)."""
    norm = [ll / n if n else float("-inf") for ll, n in zip(lls, lengths, strict=True)]
    return {
        "loglikelihoods": lls,
        "is_greedy": greedy,
        "choice_lengths": lengths,
        "pred_raw": LABELS[_argmax(lls)].value,
        "pred_norm": LABELS[_argmax(norm)].value,
        "n_tokens": n_tokens,
    }


async def mcq_logprob_text(api: Api, task: Task, attempts: Attempts) -> TaskResult:
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
    context_echo = echoes[4] if with_context else None
    lls = [0.0] * 4
    lengths = [0] * 4
    n_tokens = [0] * 4
    greedy: list[bool | None] = [None] * 4
    splits: set[str] = set()
    straddles = 0
    for label, choice, echo in zip(labels, choices, echoes[:4], strict=True):
        span = echo.span_by_offsets(len(context))
        if span is None:
            if context_echo is None:
                api.endpoint.echo_context = True
                [context_echo], _ = await api.echoes(attempts, [context])
            span = echo.span_by_count(context_echo.n_prompt)
            if echo.tokens[: span.start] != context_echo.tokens:  # a token merged across
                span = replace(span, straddles=True)
            splits.add("token_count")
        else:
            splits.add("offsets")
        at = label.option
        lls[at] = echo.total(span)
        n_tokens[at] = span.stop - span.start
        greedy[at] = echo.greedy(span)
        lengths[at] = len(choice)
        straddles += span.straddles
    scores = _scores(lls, greedy, lengths, n_tokens)
    scores.update(
        split=splits.pop() if len(splits) == 1 else "mixed",
        straddles=straddles,
        prompt_mode="text",
    )
    pred = Label(scores["pred_raw"])
    meta = {
        "echo_max_tokens": api.endpoint.echo_max_tokens,
        "echo_batch": batched,
        "prompt_mode": "text",
    }
    if straddles:
        # The server tokenised context+answer as one string and a token spans the boundary:
        # lm-eval scores the context's own tokens followed by the rest, so these numbers are
        # not the reference's. Kept for inspection, never a label.
        kept = {f"{key}_server_tokenisation": scores.pop(key) for key in _NOT_EXACT}
        return TaskResult(
            task=task,
            status=VerdictStatus.INVALID,
            raw=STRADDLE_HELP.format(n=straddles),
            scores={**scores, **kept},
            meta=meta,
        )
    return TaskResult(task=task, label=pred, status=VerdictStatus.OK, scores=scores, meta=meta)


STRADDLE_HELP = (
    "not scored: in {n} of the four answers a token of the server's tokenisation spans the end "
    "of the prompt and the start of the answer, so the log-likelihoods differ from "
    "lm-evaluation-harness's (which scores the prompt's own tokens, then the answer's); use the "
    "transformers backend, or a server that takes token-id prompts with --tokenizer"
)
_NOT_EXACT = ("loglikelihoods", "pred_raw", "pred_norm", "is_greedy")
