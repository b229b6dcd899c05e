"""What MetricsService computes for one rater, and the typed document each part is written
as: the metrics, Panel F's calibration and the stability over repeats (domain.dashboard)."""

from __future__ import annotations

from dataclasses import dataclass

from w2c_tui.domain.dashboard import (
    Against,
    BootstrapDoc,
    CalibrationDoc,
    CalibrationFigures,
    EstimateDoc,
    MetricsDoc,
    RateDoc,
    ReliabilityBinDoc,
    StabilityDoc,
)
from w2c_tui.services.readings import RaterInfo
from w2c_tui.stats.calibration import Calibration
from w2c_tui.stats.metric_intervals import IntervalSettings
from w2c_tui.stats.metrics import Metrics, Rate
from w2c_tui.stats.results import Estimate
from w2c_tui.stats.stability import Stability

SOFTMAX = "softmax over the four log-likelihoods"


@dataclass(frozen=True)
class CalibrationResult:
    """Panel F for one log-prob scorer: calibration of its raw probabilities and, where the
    choices' lengths are known, of the length-normalised ones."""

    raw: Calibration
    length_normalised: Calibration | None = None
    probabilities: str = SOFTMAX

    def document(self) -> CalibrationDoc:
        """The metrics document's `calibration`."""
        return CalibrationDoc(
            probabilities=self.probabilities,
            raw=_figures(self.raw),
            length_normalised=(
                _figures(self.length_normalised) if self.length_normalised is not None else None
            ),
        )


def _figures(result: Calibration) -> CalibrationFigures:
    return CalibrationFigures(
        n=result.n,
        accuracy=result.accuracy,
        nll=result.nll,
        nll_floor=result.nll_floor,
        brier=result.brier,
        ece=result.ece,
        mce=result.mce,
        bins_requested=result.bins_requested,
        bins_used=result.bins_used,
        reliability=tuple(
            ReliabilityBinDoc(
                n=int(b["n"]),
                confidence_low=b["confidence_low"],
                confidence_high=b["confidence_high"],
                mean_confidence=b["mean_confidence"],
                accuracy=b["accuracy"],
            )
            for b in result.reliability
        ),
        coverage_curve=tuple(result.coverage_curve),
    )


def _rate(rate: Rate) -> RateDoc:
    official = rate.get("rate_official")
    return RateDoc(
        rate=rate["rate"],
        numerator=int(rate["numerator"] or 0),
        denominator=int(rate["denominator"] or 0),
        rate_official=float(official) if official is not None else None,
    )


@dataclass(frozen=True)
class StabilityResult:
    """Stability of one rater, over its own repeats or over the target model's responses."""

    stability: Stability
    over: str
    """"repeats" (a run's `--repeats`) or "responses" (the target model's repeated ones)."""

    def document(self) -> StabilityDoc:
        """The metrics document's `stability`."""
        s = self.stability
        return StabilityDoc(
            n=s.n,
            n_processed=s.n_processed,
            coverage=s.coverage,
            k=s.k,
            k_min=s.k_min,
            k_max=s.k_max,
            over_n=s.over_n,
            over_processed=s.over_processed,
            per_gold=s.per_gold,
            units=tuple(s.units),
            over=self.over,
        )


@dataclass(frozen=True)
class RaterMetrics:
    """One rater's metrics, with what they were computed on."""

    rater: RaterInfo
    target_model: str | None
    against: Against
    metrics: Metrics
    norm_reading: str | None
    calibration: CalibrationResult | None
    stability: StabilityResult | None
    intervals: dict[str, Estimate] | None = None
    """Each metric's value and bootstrap interval (None: not asked for)."""
    settings: IntervalSettings | None = None

    def document(self) -> MetricsDoc:
        """The typed document (the dashboard's `metrics`, `w2c metrics --json`)."""
        m = self.metrics
        return MetricsDoc(
            rater=self.rater.key,
            kind=self.rater.kind.value,
            name=self.rater.name,
            config=self.rater.config,
            target_model=self.target_model,
            against=self.against.value,
            length_normalised_reading=self.norm_reading,
            n=m.n,
            n_valid=m.n_valid,
            n_scored=m.n_scored,
            n_invalid=m.n_invalid,
            n_missing=m.n_missing,
            invalid_rate=m.invalid_rate,
            invalid_mode=m.invalid_mode,
            accuracy=m.accuracy,
            accuracy_invalid_missing=m.accuracy_invalid_missing,
            accuracy_invalid_wrong=m.accuracy_invalid_wrong,
            accuracy_norm=m.accuracy_norm,
            macro_f1_ref=m.macro_f1_ref,
            macro_f1_ref_labels=tuple(m.macro_f1_ref_labels),
            macro_f1_ref_source=m.macro_f1_ref_source,
            macro_f1_ref_norm=m.macro_f1_ref_norm,
            macro_f1_4=m.macro_f1_4,
            macro_f1_no_direct=m.macro_f1_no_direct,
            per_class=m.per_class,
            confusion=tuple(tuple(row) for row in m.confusion),
            invalid_by_gold=tuple(m.invalid_by_gold),
            tool_hallucination=_rate(m.tool_hallucination),
            answer_hallucination=_rate(m.answer_hallucination),
            parameter_hallucination=_rate(m.parameter_hallucination),
            calibration=self.calibration.document() if self.calibration else None,
            stability=self.stability.document() if self.stability else None,
            intervals=(
                {name: EstimateDoc.of(e.as_json()) for name, e in self.intervals.items()}
                if self.intervals is not None
                else None
            ),
            bootstrap=(
                BootstrapDoc(B=self.settings.B, seed=self.settings.seed, level=self.settings.level)
                if self.settings is not None
                else None
            ),
        )

    def as_json(self) -> dict[str, object]:
        """A plain dict (the `w2c metrics --json` contract)."""
        return self.document().to_json()
