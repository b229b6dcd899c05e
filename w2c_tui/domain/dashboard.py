"""The calibration dashboard's document, typed: built once by the agreement service, rendered
by the TUI panels, the CLI and the report (and dumped as JSON by `--json`).

TypedDicts rather than dataclasses because the document *is* the JSON contract: what mypy
checks here is exactly what `json.dumps` writes. Every statistic is an `EstimateDoc`; a value
that is not defined is `None` with a `reason`, never 0.0.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, NotRequired, TypedDict


class EstimateDoc(TypedDict):
    """A statistic with its 95% interval; `value` None with a `reason` when not defined."""

    value: float | None
    ci: list[float] | None
    n: int
    reason: str | None
    degenerate: int


def undefined(reason: str, n: int = 0) -> EstimateDoc:
    """An estimate that is not defined, and why."""
    return {"value": None, "ci": None, "n": n, "reason": reason, "degenerate": 0}


class ConsensusDoc(TypedDict):
    """How the human reference of each unit was found."""

    n: int
    ties_excluded: int
    too_few_humans: int
    adjudicated: int
    majority: int


class BootstrapDoc(TypedDict):
    """The resampling behind every interval."""

    B: int
    seed: int
    level: float


class MetaDoc(TypedDict):
    """What the document was computed on."""

    dataset: str
    sha256: str | None
    source_path: str | None
    unit_kind: str
    n_units: int
    raters: list[str]
    bootstrap: BootstrapDoc
    min_humans: int
    invalid_mode: str
    consensus: ConsensusDoc
    generated_at: str
    w2c_tui: str
    slice: NotRequired[str | None]


class RaterCoverageDoc(TypedDict):
    """One rater's coverage: units rated (invalid outputs included) and labelled."""

    key: str
    kind: str
    name: str
    reading: str
    n_rated: int
    n_labelled: int
    n_invalid: int
    invalid_rate: float | None
    coverage: float | None


class OverlapDoc(TypedDict):
    """Units two raters share: `labelled` is what every pairwise statistic is computed on (a
    valid label from both, or an invalid output counted as a category in the strict mode);
    `rated` also counts invalid outputs."""

    raters: list[str]
    labelled: list[list[int]]
    rated: list[list[int]]


class CoverageDoc(TypedDict):
    """Panel A."""

    n_units: int
    raters: list[RaterCoverageDoc]
    ratings_per_unit: dict[str, int]
    overlap: OverlapDoc


class DistributionDoc(TypedDict):
    """Label counts of one rater (or the pooled humans, or the consensus)."""

    n: int
    direct: int
    tool_call: int
    request_for_info: int
    cannot_answer: int
    invalid: int


class HomogeneityDoc(TypedDict):
    """Stuart–Maxwell test of a rater's marginals against the consensus."""

    statistic: float | None
    df: int | None
    p_value: float | None
    dropped: list[str]
    reason: str | None


class DistributionsDoc(TypedDict):
    """Panel B."""

    labels: list[str]
    raters: dict[str, DistributionDoc]
    humans_pooled: DistributionDoc
    consensus: DistributionDoc
    stuart_maxwell: dict[str, HomogeneityDoc]


class PairDoc(TypedDict):
    """Cohen's κ and percent agreement of two raters on their overlap."""

    a: str
    b: str
    n: int
    cohen_kappa: EstimateDoc
    percent_agreement: EstimateDoc


class HumansDoc(TypedDict):
    """Panel C: human reliability, the ceiling (or why it is not defined)."""

    raters: list[str]
    reason: NotRequired[str]
    n_units_2plus: NotRequired[int]
    krippendorff_alpha: NotRequired[EstimateDoc]
    percent_agreement: NotRequired[EstimateDoc]
    fleiss_kappa: NotRequired[EstimateDoc]
    gwet_ac1: NotRequired[EstimateDoc]
    mean_pairwise_kappa: NotRequired[float | None]
    pairwise: NotRequired[list[PairDoc]]
    p_alpha_below: NotRequired[dict[str, float | None]]
    interpretation: NotRequired[str]


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


class ReliabilityBinDoc(TypedDict):
    """One bin of a reliability diagram."""

    n: int
    confidence_low: float
    confidence_high: float
    mean_confidence: float
    accuracy: float


class CalibrationFigures(TypedDict):
    """Probabilistic calibration of one probability source."""

    n: int
    accuracy: float | None
    nll: float | None
    nll_floor: float
    brier: float | None
    ece: float | None
    mce: float | None
    bins_requested: int
    bins_used: int
    reliability: list[ReliabilityBinDoc]
    coverage_curve: list[dict[str, float | int | None]]


class CalibrationDoc(TypedDict):
    """Panel F for one log-prob scorer and model."""

    probabilities: str
    raw: CalibrationFigures
    length_normalised: NotRequired[CalibrationFigures]


class RateDoc(TypedDict):
    """A rate with its numerator and denominator."""

    rate: float | None
    numerator: int
    denominator: int
    rate_official: NotRequired[float]


class StabilityDoc(TypedDict):
    """Stability over repeats or repeated responses."""

    n: int
    n_processed: int
    coverage: float | None
    k: int | None
    k_min: int | None
    k_max: int | None
    over_n: dict[str, float | None]
    over_processed: dict[str, float | None]
    per_gold: dict[str, dict[str, float | int | None]]
    units: list[dict[str, object] | None]
    over: str


class MetricsDoc(TypedDict):
    """When2Call metrics of one rater (and target model) against a reference."""

    rater: str
    kind: str
    name: str
    config: dict[str, object]
    target_model: str | None
    against: str
    length_normalised_reading: str | None
    n: int
    n_valid: int
    n_scored: int
    n_invalid: int
    n_missing: int
    invalid_rate: float | None
    invalid_mode: str
    accuracy: float | None
    accuracy_invalid_missing: float | None
    accuracy_invalid_wrong: float | None
    accuracy_norm: float | None
    macro_f1_ref: float | None
    macro_f1_ref_labels: list[str]
    macro_f1_ref_source: str
    macro_f1_ref_norm: float | None
    macro_f1_4: float | None
    macro_f1_no_direct: float | None
    per_class: dict[str, dict[str, float | int | None]]
    confusion: list[list[int]]
    invalid_by_gold: list[int]
    tool_hallucination: RateDoc
    answer_hallucination: RateDoc
    parameter_hallucination: RateDoc
    calibration: CalibrationDoc | None
    stability: StabilityDoc | None


class RevealVersusDoc(TypedDict):
    """An annotator's agreement with one automated rater before and after the reveal."""

    rater: str
    n: int
    agreement_pre_reveal: float
    agreement_current: float
    kappa_pre_reveal: EstimateDoc
    kappa_current: EstimateDoc


class RevealAnnotatorDoc(TypedDict):
    """What the reveal did to one annotator's labels."""

    annotator: str
    units_labelled: int
    first_labels_blind: int
    post_reveal_flips: int
    units_flipped: int
    flip_rate: float | None
    versus: list[RevealVersusDoc]


class RevealDoc(TypedDict):
    """Post-reveal flips and pre- vs post-reveal agreement, per annotator."""

    unit_kind: str
    definition: str
    annotators: list[RevealAnnotatorDoc]


class SliceRowDoc(TypedDict):
    """One automated rater on one slice: κ against the consensus and macro-F1 against gold."""

    rater: str
    n_consensus: int
    cohen_kappa: EstimateDoc
    n_gold: int
    macro_f1: float | None
    accuracy: float | None


class SliceDoc(TypedDict):
    """One slice of the units (a gold class, a tool bucket, a source, a target model)."""

    name: str
    n_units: int
    rows: list[SliceRowDoc]


class SlicesDoc(TypedDict):
    """The units cut by one attribute, each part with its n."""

    by: str
    slices: list[SliceDoc]


class DashboardDoc(TypedDict):
    """Every panel of the calibration dashboard (and of the report)."""

    meta: MetaDoc
    coverage: CoverageDoc
    distributions: DistributionsDoc
    humans: HumansDoc
    automated: list[AutomatedDoc]
    drilldown: dict[str, DrilldownDoc]
    pairwise: list[PairDoc]
    metrics: list[MetricsDoc]
    reveal: RevealDoc
    slices: NotRequired[SlicesDoc]
    all_raters: NotRequired[list[str]]


class SliceBy(StrEnum):
    """What to cut the units by."""

    GOLD = "gold"
    TOOLS = "tools"
    SOURCE = "source"
    MODEL = "model"


class Against(StrEnum):
    """What a rater is scored against."""

    GOLD = "gold"
    HUMANS = "humans"
