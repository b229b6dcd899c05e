"""MCQ_INDEX (a chat model picks 0–3) and MCQ_LOGPROB (echoed prompt log-probs per choice)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from w2c_tui.domain.labels import LABELS, VerdictStatus
from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.api import _template
from w2c_tui.runs.api.calls import Api
from w2c_tui.runs.api.retry import Attempts
from w2c_tui.runs.mcq_index import mcq_index_messages, mcq_index_result, option_labels


async def mcq_index(api: Api, task: Task, attempts: Attempts) -> TaskResult:
    """The chosen option's label, or `invalid` with the raw reply."""
    completion = await api.chat(attempts, list(mcq_index_messages(task)))
    reply = str(completion.choices[0].message.content or "") if completion.choices else ""
    return mcq_index_result(task, reply)


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
    meta = {"echo_max_tokens": api.endpoint.echo_max_tokens, "echo_batch": batched}
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
    "transformers backend for this item"
)
_NOT_EXACT = ("loglikelihoods", "pred_raw", "pred_norm", "is_greedy")
