"""lm-eval's per-item MCQ results (pred, pred_norm) in the agreed `TaskResult.scores` format."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.local.encoding import EncodedItem
from w2c_tui.runs.local.scoring import ChoiceScore


@dataclass(frozen=True)
class Prepared:
    """A task with its rendered prompt and choices and their token ids."""

    task: Task
    prompt: str
    choices: list[str]
    encoded: EncodedItem


def argmax_first(values: Sequence[float]) -> int:
    """numpy's argmax: the first maximum wins; a NaN wins over everything."""
    import numpy as np

    return int(np.argmax(np.asarray(values, dtype=np.float64)))


def normalised(lls: Sequence[float], lengths: Sequence[int]) -> list[float]:
    """ll / character length, with numpy's division semantics (x/0 → ±inf or NaN)."""
    import numpy as np

    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.asarray(lls, dtype=np.float64) / np.asarray(lengths, dtype=np.float64)
    return [float(x) for x in ratio]


def mcq_result(
    item: Prepared,
    scores: Sequence[ChoiceScore],
    template: str,
    bos: bool,
    scoring: str,
    reused: int = 0,
) -> TaskResult:
    """pred = argmax ll, pred_norm = argmax ll / len(choice) (Python characters of the raw
    choice), ties to the lowest option; the label is pred."""
    lls = [s.ll for s in scores]
    lengths = [len(choice) for choice in item.choices]
    names = [name for name, _ in item.task.answers]
    pred = Label(names[argmax_first(lls)])
    pred_norm = Label(names[argmax_first(normalised(lls, lengths))])
    return TaskResult(
        task=item.task,
        label=pred,
        status=VerdictStatus.OK,
        scores={
            "loglikelihoods": lls,
            "is_greedy": [s.greedy for s in scores],
            "pred_raw": pred.value,
            "pred_norm": pred_norm.value,
            "choice_lengths": lengths,
            "n_tokens": [s.n_tokens for s in scores],
            "template": template,
            "bos": bos,
        },
        meta={
            "scoring": scoring,
            "boundary_merges": item.encoded.boundary_merges,
            "prefix_reused": reused,
        },
    )
