"""Running tasks over the API: one task, or an item's repeats as one request with `n` choices.

At temperature > 0, the K repeats of an item for GENERATE and MCQ_INDEX go as one request with
`n = K` (seed: the run's seed + the first repeat's index) where the server answers with K
choices; a server that refuses `n` or answers with another number of choices is asked one
request per repeat from then on (each with its own seed). Either way each result records how
(`meta["repeats_via"]`: "n" or "requests") and the seed sent. The judge always asks per repeat
(its repair turn belongs to one reply).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from w2c_tui.domain.runs import Method, RunConfig, Task, TaskResult
from w2c_tui.runs.api.calls import Api
from w2c_tui.runs.api.choices import NotNChoices
from w2c_tui.runs.api.echo import NO_ECHO_HELP, NoPromptLogprobs
from w2c_tui.runs.api.endpoint import refuses
from w2c_tui.runs.api.generate import generate_n
from w2c_tui.runs.api.mcq import mcq_index_n
from w2c_tui.runs.api.retry import Attempts, describe_error

Handler = Callable[[Api, Task, Attempts], Awaitable[TaskResult]]
ManyHandler = Callable[[Api, list[Task], Attempts], Awaitable[list[TaskResult]]]


def n_handler(config: RunConfig) -> ManyHandler | None:
    """The handler that asks for an item's repeats in one request, where that applies."""
    if config.repeats < 2 or config.temperature <= 0:
        return None
    if config.method is Method.GENERATE:
        return generate_n
    if config.method is Method.MCQ_INDEX:
        return mcq_index_n
    return None


def group_repeats(tasks: Sequence[Task]) -> list[list[Task]]:
    """Consecutive tasks of the same item (and response) as one unit, in order."""
    units: list[list[Task]] = []
    for task in tasks:
        last = units[-1][0] if units else None
        if last is not None and (last.item_id, last.response_id) == (
            task.item_id,
            task.response_id,
        ):
            units[-1].append(task)
        else:
            units.append([task])
    return units


async def process_unit(
    api: Api, handler: Handler, many: ManyHandler | None, unit: list[Task]
) -> list[TaskResult]:
    """The unit's results: one request with `n` choices where possible, else one per task."""
    import openai

    if many is not None and len(unit) > 1 and api.endpoint.n_choices is not False:
        attempts = Attempts()
        try:
            results = await many(api, unit, attempts)
        except NotNChoices:
            api.endpoint.n_choices = False
        except openai.APIStatusError as exc:
            if not refuses(exc, "'n'", " n ", "n must", "n:", "choices"):
                return [_failed(api, task, exc, attempts) for task in unit]
            api.endpoint.n_choices = False
        except Exception as exc:
            return [_failed(api, task, exc, attempts) for task in unit]
        else:
            api.endpoint.n_choices = True
            return [_with_retries(r, attempts, "n") for r in results]
    via = "requests" if many is not None else None
    return [await process(api, handler, task, via) for task in unit]


async def process(api: Api, handler: Handler, task: Task, via: str | None = None) -> TaskResult:
    """One task's result; any failure becomes a task error (redacted), retries in meta."""
    attempts = Attempts()
    try:
        result = await handler(api, task, attempts)
    except NoPromptLogprobs as exc:
        result = TaskResult(task=task, error=f"{NO_ECHO_HELP} ({exc})")
    except Exception as exc:
        result = TaskResult(task=task, error=api.redact(describe_error(exc)))
    return _with_retries(result, attempts, via)


def _failed(api: Api, task: Task, exc: BaseException, attempts: Attempts) -> TaskResult:
    error = TaskResult(task=task, error=api.redact(describe_error(exc)))
    return _with_retries(error, attempts, "n")


def _with_retries(result: TaskResult, attempts: Attempts, via: str | None) -> TaskResult:
    meta = {**result.meta, "retries": attempts.retries}
    if attempts.last_error is not None:
        meta["last_error"] = attempts.last_error
    if via is not None:
        meta["repeats_via"] = via
    return replace(result, meta=meta)
