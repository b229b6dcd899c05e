"""Mean CriticTool metrics (the reference's), per error type and base/evol, and the overall score.

Means are plain sums in the given order divided by a count, as the reference computes them.
Internal: critic and parse_rate over all samples; reflect, name, args and goal over the
erroneous samples only, counted afresh on each call (None where there are none: the reference
divides by zero there). External: every metric over all samples.

The overall score is the paper's (§2.3.2): 0.2 Reflect + 0.3 Correct + 0.05 Retry + 0.45
Skip/Finish. Neither the paper nor the code says how the sub-metrics make up a dimension; here
each dimension is the plain mean of its table columns (Reflect: critic, reflect; Correct: name,
args; Retry: retry; Skip/Finish: break, name and, in skip mode, args). Applied to the columns of
the paper's Table 2 this gives its Overall column to within 1.23 points (docs/critictool.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from w2c_tui.runs.critictool.metrics_external import ExternalScore
from w2c_tui.runs.critictool.metrics_internal import InternalScore

NO_ERROR = "none"
"""The group name of error-free internal samples in `by_error_type`."""

OVERALL_WEIGHTS = {"reflect": 0.2, "correct": 0.3, "retry": 0.05, "skip_finish": 0.45}
"""The paper's weights of the four self-critique dimensions (§2.3.2)."""


@dataclass(frozen=True)
class InternalMeans:
    """The reference's internal means; None where nothing was there to average."""

    samples: int
    erroneous: int
    critic: float | None
    parse_rate: float | None
    reflect: float | None
    name: float | None
    args: float | None
    goal: float | None


@dataclass(frozen=True)
class ExternalMeans:
    """The reference's external means; args only in skip mode, thought only with CoT."""

    samples: int
    retry: float | None
    broke: float | None
    name: float | None
    args: float | None
    thought: float | None
    parse_rate: float | None


def _mean(values: Sequence[float]) -> float | None:
    total: float = 0
    for value in values:
        total += value
    return float(total / len(values)) if values else None


def internal_means(scores: Sequence[InternalScore]) -> InternalMeans:
    """Means of internal scores (in the order given)."""
    erroneous = [score for score in scores if score.erroneous]
    cot = any(score.goal is not None for score in scores)
    return InternalMeans(
        samples=len(scores),
        erroneous=len(erroneous),
        critic=_mean([score.critic for score in scores]),
        parse_rate=_mean([score.parse_rate for score in scores]),
        reflect=_mean([score.reflect for score in erroneous]),
        name=_mean([score.name for score in erroneous]),
        args=_mean([score.args for score in erroneous]),
        goal=_mean([score.goal or 0.0 for score in erroneous]) if cot else None,
    )


def external_means(scores: Sequence[ExternalScore]) -> ExternalMeans:
    """Means of external scores (in the order given)."""
    skip = any(score.args is not None for score in scores)
    cot = any(score.thought is not None for score in scores)
    return ExternalMeans(
        samples=len(scores),
        retry=_mean([score.retry for score in scores]),
        broke=_mean([score.broke for score in scores]),
        name=_mean([score.name for score in scores]),
        args=_mean([score.args or 0.0 for score in scores]) if skip else None,
        thought=_mean([score.thought or 0.0 for score in scores]) if cot else None,
        parse_rate=_mean([score.parse_rate for score in scores]),
    )


S = TypeVar("S", InternalScore, ExternalScore)
M = TypeVar("M", InternalMeans, ExternalMeans)


def _groups(
    scores: Sequence[S], key: Callable[[S], str], means: Callable[[Sequence[S]], M]
) -> dict[str, M]:
    grouped: dict[str, list[S]] = {}
    for score in scores:
        grouped.setdefault(key(score), []).append(score)
    return {name: means(members) for name, members in grouped.items()}


def by_error_type(scores: Sequence[InternalScore]) -> dict[str, InternalMeans]:
    """Internal means per error type (error-free samples under NO_ERROR), first-seen order."""
    return _groups(scores, lambda score: score.error_type or NO_ERROR, internal_means)


def by_variant_internal(scores: Sequence[InternalScore]) -> dict[str, InternalMeans]:
    """Internal means for base and evol data ("unknown" where the file name said neither)."""
    return _groups(scores, lambda score: score.variant or "unknown", internal_means)


def by_variant_external(scores: Sequence[ExternalScore]) -> dict[str, ExternalMeans]:
    """External means for base and evol data ("unknown" where the file name said neither)."""
    return _groups(scores, lambda score: score.variant or "unknown", external_means)


def _average(*values: float | None) -> float | None:
    if any(value is None for value in values):
        return None
    return sum(value for value in values if value is not None) / len(values)


def overall_score(internal: InternalMeans, external: ExternalMeans) -> float | None:
    """The paper's weighted overall score in [0, 1], from one internal and one external
    evaluation (skip or finish); None where a needed mean is missing."""
    parts = {
        "reflect": _average(internal.critic, internal.reflect),
        "correct": _average(internal.name, internal.args),
        "retry": external.retry,
        "skip_finish": (
            _average(external.broke, external.name, external.args)
            if external.args is not None
            else _average(external.broke, external.name)
        ),
    }
    total = 0.0
    for key, weight in OVERALL_WEIGHTS.items():
        value = parts[key]
        if value is None:
            return None
        total += weight * value
    return total
