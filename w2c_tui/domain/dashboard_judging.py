"""The dashboard document's judge parts: each automated rater against the humans, its
decision, and its drill-down (see domain.dashboard)."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from w2c_tui.domain.dashboard_core import EstimateDoc


class VersusHumansDoc(TypedDict):
    """A judge against the human ceiling, all on the same resamples."""

    judge: str
    humans: list[str]
    kappa_judge_human: EstimateDoc
    kappa_human_human: EstimateDoc
    delta_kappa: EstimateDoc
    alpha_humans: EstimateDoc
    alpha_with_judge: EstimateDoc
    delta_alpha: EstimateDoc


class AltTestDoc(TypedDict):
    """The alternative-annotator test (≥ 3 humans), or why it is not defined."""

    judge: str
    epsilon: float
    alpha: float
    winning_rate: float | None
    advantage_probability: float | None
    passed: bool | None
    reason: str | None
    annotators: list[dict[str, object]]


class StratifiedDoc(TypedDict):
    """κ against the consensus on units where the humans were unanimous vs split."""

    unanimous: EstimateDoc
    split: EstimateDoc


Decision = Literal["can stand in", "cannot stand in", "undecided", "not defined"]


class VerdictDoc(TypedDict):
    """The decision on a judge, in plain words, with the rule that gave it and its evidence."""

    decision: Decision
    text: str
    rule: str
    evidence: list[str]
    weakest_class: str | None


class AdviceDoc(TypedDict):
    """How many more units would narrow κ's interval, and which strata are thin."""

    n: int
    half_width: float | None
    more_for_005: int | None
    more_for_010: int | None
    thin_strata: list[str]
    text: str


class AutomatedDoc(TypedDict):
    """Panel D: one automated rater against the humans."""

    key: str
    kind: str
    name: str
    reading: str
    coverage: float | None
    invalid_rate: float | None
    n_consensus: int
    reason: NotRequired[str]
    n: NotRequired[int]
    p_o: NotRequired[float | None]
    cohen_kappa: NotRequired[EstimateDoc]
    gwet_ac1: NotRequired[EstimateDoc]
    macro_f1: NotRequired[float | None]
    macro_f1_reason: NotRequired[str | None]
    cohen_kappa_invalid_wrong: NotRequired[EstimateDoc]
    versus_humans: NotRequired[VersusHumansDoc | None]
    versus_humans_reason: NotRequired[str | None]
    alt_test: NotRequired[AltTestDoc]
    stratified: NotRequired[StratifiedDoc]
    verdict: NotRequired[VerdictDoc]
    advice: NotRequired[AdviceDoc]


class ClassDoc(TypedDict):
    """One class of a drill-down, over the units of its confusion matrix."""

    support: int
    precision: float | None
    recall: float | None
    f1: float | None
    specific_agreement: EstimateDoc
    kappa: EstimateDoc
    alpha: EstimateDoc
    prevalence_humans: float | None
    prevalence_rater: float | None


class DisagreementDoc(TypedDict):
    """A unit where the rater differs from the human reference."""

    unit: str
    item_id: int | None
    uuid: str
    target_model: str | None
    consensus: str
    rater: str
    humans: list[str]
    unanimity: float | None


class DrilldownDoc(TypedDict):
    """Panel E for one rater: confusion against the consensus, per class, disagreements."""

    reason: NotRequired[str]
    n: NotRequired[int]
    confusion: NotRequired[list[list[int]]]
    row_normalised: NotRequired[list[list[float]]]
    cells: NotRequired[dict[str, list[str]]]
    per_class: NotRequired[dict[str, ClassDoc]]
    disagreements: NotRequired[list[DisagreementDoc]]
    n_disagreements: NotRequired[int]
    alpha_pair: NotRequired[EstimateDoc]
