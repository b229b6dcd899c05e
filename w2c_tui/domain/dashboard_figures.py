"""The dashboard document's result parts: calibration, metrics, stability, reveal effects and
slices (see domain.dashboard)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from w2c_tui.domain.dashboard_core import BootstrapDoc, EstimateDoc
from w2c_tui.domain.jsondoc import OMIT_NONE, JsonDoc


@dataclass(frozen=True, slots=True)
class ReliabilityBinDoc(JsonDoc):
    """One bin of a reliability diagram."""

    n: int
    confidence_low: float
    confidence_high: float
    mean_confidence: float
    accuracy: float


@dataclass(frozen=True, slots=True)
class CalibrationFigures(JsonDoc):
    """Probabilistic calibration of one probability source (see stats.calibration)."""

    n: int
    accuracy: float | None
    nll: float | None
    nll_floor: float
    brier: float | None
    ece: float | None
    mce: float | None
    bins_requested: int
    bins_used: int
    reliability: tuple[ReliabilityBinDoc, ...]
    coverage_curve: tuple[Mapping[str, float | int | None], ...]
    """threshold, n, coverage, accuracy per confidence threshold."""


@dataclass(frozen=True, slots=True)
class CalibrationDoc(JsonDoc):
    """Panel F for one log-prob scorer and model."""

    probabilities: str
    raw: CalibrationFigures
    length_normalised: CalibrationFigures | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class RateDoc(JsonDoc):
    """A rate with its numerator and denominator (tool hallucination: also the official
    rate, 0.0 where undefined)."""

    rate: float | None
    numerator: int
    denominator: int
    rate_official: float | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class StabilityDoc(JsonDoc):
    """Stability over repeats or repeated responses (see stats.stability); `over` says which."""

    n: int
    n_processed: int
    coverage: float | None
    k: int | None
    k_min: int | None
    k_max: int | None
    over_n: Mapping[str, float | None]
    over_processed: Mapping[str, float | None]
    per_gold: Mapping[str, Mapping[str, float | int | None]]
    units: tuple[Mapping[str, object] | None, ...]
    over: str


@dataclass(frozen=True, slots=True)
class MetricsDoc(JsonDoc):
    """When2Call metrics of one rater (and target model) against a reference."""

    rater: str
    kind: str
    name: str
    config: Mapping[str, object]
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
    macro_f1_ref_labels: tuple[str, ...]
    macro_f1_ref_source: str
    macro_f1_ref_norm: float | None
    macro_f1_4: float | None
    macro_f1_no_direct: float | None
    per_class: Mapping[str, Mapping[str, float | int | None]]
    confusion: tuple[tuple[int, ...], ...]
    invalid_by_gold: tuple[int, ...]
    tool_hallucination: RateDoc
    answer_hallucination: RateDoc
    parameter_hallucination: RateDoc
    calibration: CalibrationDoc | None
    stability: StabilityDoc | None
    intervals: Mapping[str, EstimateDoc] | None = field(default=None, metadata=OMIT_NONE)
    """Each metric (accuracy, …, f1_<label>, invalid_rate) as {value, ci, n, reason}, all
    from the same bootstrap draws (`bootstrap`); left out when no interval was asked for."""
    bootstrap: BootstrapDoc | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class RevealVersusDoc(JsonDoc):
    """An annotator's agreement with one automated rater before and after the reveal."""

    rater: str
    n: int
    agreement_pre_reveal: float
    agreement_current: float
    kappa_pre_reveal: EstimateDoc
    kappa_current: EstimateDoc


@dataclass(frozen=True, slots=True)
class RevealAnnotatorDoc(JsonDoc):
    """What the reveal did to one annotator's labels."""

    annotator: str
    units_labelled: int
    first_labels_blind: int
    post_reveal_flips: int
    units_flipped: int
    flip_rate: float | None
    versus: tuple[RevealVersusDoc, ...]


@dataclass(frozen=True, slots=True)
class RevealDoc(JsonDoc):
    """Post-reveal flips and pre- vs post-reveal agreement, per annotator."""

    unit_kind: str
    definition: str
    annotators: tuple[RevealAnnotatorDoc, ...]


@dataclass(frozen=True, slots=True)
class SliceRowDoc(JsonDoc):
    """One automated rater on one slice: κ against the consensus and macro-F1 against gold."""

    rater: str
    n_consensus: int
    cohen_kappa: EstimateDoc
    n_gold: int
    macro_f1: float | None
    accuracy: float | None
    macro_f1_interval: EstimateDoc | None = field(default=None, metadata=OMIT_NONE)
    """macro-F1 (reference-compatible) with its bootstrap interval over the slice's items."""
    accuracy_interval: EstimateDoc | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class SliceDoc(JsonDoc):
    """One slice of the units (a gold class, a tool bucket, a source, a target model)."""

    name: str
    n_units: int
    rows: tuple[SliceRowDoc, ...]


@dataclass(frozen=True, slots=True)
class SlicesDoc(JsonDoc):
    """The units cut by one attribute, each part with its n."""

    by: str
    slices: tuple[SliceDoc, ...]
