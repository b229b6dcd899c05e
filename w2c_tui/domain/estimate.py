"""Judge-corrected scores (`w2c estimate`, the dashboard's corrected-scores tab, the report):
a target model's When2Call metric from a judge's verdicts corrected by the human reference."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from w2c_tui.domain.jsondoc import OMIT_NONE, JsonDoc


class EstimateMetric(StrEnum):
    """A When2Call metric of a target model, as the share of its responses' classes."""

    ACCURACY = "accuracy"
    MACRO_F1 = "macro_f1"
    TOOL_HALLUCINATION = "tool_hallucination"
    ANSWER_HALLUCINATION = "answer_hallucination"
    PARAMETER_HALLUCINATION = "parameter_hallucination"

    @property
    def is_mean(self) -> bool:
        """A mean of a per-unit indicator (PPI++ normal interval); macro-F1 is not."""
        return self is not EstimateMetric.MACRO_F1


METHODS = {
    True: "PPI++ mean, power-tuned lambda, normal 95% interval",
    False: "plug-in of PPI++-corrected per-class means, percentile bootstrap 95% interval "
    "(labelled and unlabelled units resampled separately)",
}
"""How the corrected value and its interval are computed, by `EstimateMetric.is_mean`."""

INVALID_RULE = (
    "units whose judge verdict is invalid are left out of both the labelled and the "
    "unlabelled set and counted as n_invalid"
)


@dataclass(frozen=True, slots=True)
class IntervalDoc(JsonDoc):
    """An estimate with its 95% interval and the units behind it; `value` or `ci` None with a
    `reason` when the data cannot define it."""

    value: float | None
    ci: tuple[float, float] | None
    n: int
    reason: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class CorrectedDoc(JsonDoc):
    """One target model's metric as one judge sees it, corrected by the humans."""

    dataset: str
    target_model: str
    judge: str
    metric: EstimateMetric
    method: str
    corrected: IntervalDoc
    judge_only: IntervalDoc
    """The judge's value on every unit it judged validly: its bias is not corrected."""
    humans_only: IntervalDoc
    """The human reference's value on the labelled units alone."""
    n_labelled: int
    n_unlabelled: int
    n_invalid: int
    lam: float | None
    """PPI++'s power-tuning λ (mean metrics; None for macro-F1, which tunes one per class)."""
    labels_to_halve: int | None
    """Labelled units in all that would halve the corrected interval; None with `halve_note`."""
    halve_note: str
    min_humans: int
    seed: int | None = None
    """The bootstrap's seed (macro-F1)."""
    bootstrap: int | None = None

    def to_json(self) -> dict[str, object]:
        """The document's keys, with λ written as `lambda`."""
        out = JsonDoc.to_json(self)
        return {("lambda" if key == "lam" else key): value for key, value in out.items()}
