"""The dashboard document's core parts: estimates, what it was computed on, coverage,
distributions and the humans' own reliability (see domain.dashboard); and its enums."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from w2c_tui.domain.jsondoc import FLATTEN, OMIT_NONE, JsonDoc

MIN_UNITS: Final = 5
"""Below this many units a statistic is not reported: "too few units (n=…)", no value and no
interval (a share or coefficient on 1–4 units moves by 20 points or more with one unit; on 2
units κ is 0.000 or 1.000 by construction, which reads like a finding)."""


def too_few_reason(n: int) -> str:
    """Why a statistic on fewer than MIN_UNITS units is not shown."""
    return f"too few units (n={n})"


@dataclass(frozen=True, slots=True)
class EstimateDoc(JsonDoc):
    """A statistic with its 95% interval; `value` None with a `reason` when not defined."""

    value: float | None
    ci: tuple[float, float] | None
    n: int
    reason: str | None
    degenerate: int

    @classmethod
    def of(cls, data: object) -> EstimateDoc:
        """The estimate the statistics layer wrote as plain JSON (stats.Estimate.as_json)."""
        if not isinstance(data, Mapping):
            raise TypeError(f"an estimate is a JSON object, not {type(data).__name__}")
        ci = data["ci"]
        return cls(
            value=data["value"],
            ci=(ci[0], ci[1]) if ci is not None else None,
            n=data["n"],
            reason=data["reason"],
            degenerate=data["degenerate"],
        )


def undefined(reason: str, n: int = 0) -> EstimateDoc:
    """An estimate that is not defined, and why."""
    return EstimateDoc(value=None, ci=None, n=n, reason=reason, degenerate=0)


@dataclass(frozen=True, slots=True)
class ConsensusDoc(JsonDoc):
    """How the human reference of each unit was found."""

    n: int
    ties_excluded: int
    too_few_humans: int
    adjudicated: int
    majority: int


@dataclass(frozen=True, slots=True)
class ReferenceDoc(JsonDoc):
    """What a rater is scored against (`w2c metrics`): how many units have a reference and,
    against the humans, how the consensus was found (None against gold: not written)."""

    n: int
    ties_excluded: int | None = field(default=None, metadata=OMIT_NONE)
    too_few_humans: int | None = field(default=None, metadata=OMIT_NONE)
    adjudicated: int | None = field(default=None, metadata=OMIT_NONE)
    majority: int | None = field(default=None, metadata=OMIT_NONE)

    @classmethod
    def of(cls, consensus: ConsensusDoc) -> ReferenceDoc:
        """The reference of the human consensus."""
        return cls(
            n=consensus.n,
            ties_excluded=consensus.ties_excluded,
            too_few_humans=consensus.too_few_humans,
            adjudicated=consensus.adjudicated,
            majority=consensus.majority,
        )


@dataclass(frozen=True, slots=True)
class BootstrapDoc(JsonDoc):
    """The resampling behind every interval."""

    B: int
    seed: int
    level: float


@dataclass(frozen=True, slots=True)
class MetaDoc(JsonDoc):
    """What the document was computed on."""

    dataset: str
    sha256: str | None
    source_path: str | None
    unit_kind: str
    n_units: int
    raters: tuple[str, ...]
    bootstrap: BootstrapDoc
    min_humans: int
    invalid_mode: str
    consensus: ConsensusDoc
    generated_at: str
    w2c_tui: str


@dataclass(frozen=True, slots=True)
class RaterCoverageDoc(JsonDoc):
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


@dataclass(frozen=True, slots=True)
class OverlapDoc(JsonDoc):
    """Units two raters share: `labelled` is what every pairwise statistic is computed on (a
    valid label from both, or an invalid output counted as a category in the strict mode);
    `rated` also counts invalid outputs."""

    raters: tuple[str, ...]
    labelled: tuple[tuple[int, ...], ...]
    rated: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class CoverageDoc(JsonDoc):
    """Panel A."""

    n_units: int
    raters: tuple[RaterCoverageDoc, ...]
    ratings_per_unit: Mapping[str, int]
    overlap: OverlapDoc


@dataclass(frozen=True, slots=True)
class DistributionDoc(JsonDoc):
    """Label counts of one rater (or the pooled humans, or the consensus)."""

    n: int
    direct: int
    tool_call: int
    request_for_info: int
    cannot_answer: int
    invalid: int


@dataclass(frozen=True, slots=True)
class HomogeneityDoc(JsonDoc):
    """Stuart–Maxwell test of a rater's marginals against the consensus (on n units)."""

    statistic: float | None
    df: int | None
    p_value: float | None
    dropped: tuple[str, ...]
    reason: str | None
    n: int


@dataclass(frozen=True, slots=True)
class DistributionsDoc(JsonDoc):
    """Panel B."""

    labels: tuple[str, ...]
    raters: Mapping[str, DistributionDoc]
    humans_pooled: DistributionDoc
    consensus: DistributionDoc
    stuart_maxwell: Mapping[str, HomogeneityDoc]


@dataclass(frozen=True, slots=True)
class PairDoc(JsonDoc):
    """Cohen's κ and percent agreement of two raters on their overlap."""

    a: str
    b: str
    n: int
    cohen_kappa: EstimateDoc
    percent_agreement: EstimateDoc

    @classmethod
    def of(cls, data: object) -> PairDoc:
        """The pair the statistics layer wrote as plain JSON (stats.PairResult.as_json)."""
        if not isinstance(data, Mapping):
            raise TypeError(f"a pair is a JSON object, not {type(data).__name__}")
        return cls(
            a=data["a"],
            b=data["b"],
            n=data["n"],
            cohen_kappa=EstimateDoc.of(data["cohen_kappa"]),
            percent_agreement=EstimateDoc.of(data["percent_agreement"]),
        )


@dataclass(frozen=True, slots=True)
class HumanReliabilityDoc(JsonDoc):
    """The humans' own reliability where it is defined (≥ 2 annotators on shared units)."""

    n_units_2plus: int
    krippendorff_alpha: EstimateDoc
    percent_agreement: EstimateDoc
    fleiss_kappa: EstimateDoc
    gwet_ac1: EstimateDoc
    mean_pairwise_kappa: float | None
    pairwise: tuple[PairDoc, ...]
    p_alpha_below: Mapping[str, float | None]
    interpretation: str


@dataclass(frozen=True, slots=True)
class HumansDoc(JsonDoc):
    """Panel C: human reliability, the ceiling (or why it is not defined). In JSON the
    reliability's keys follow `raters` directly."""

    raters: tuple[str, ...]
    reason: str | None = field(default=None, metadata=OMIT_NONE)
    reliability: HumanReliabilityDoc | None = field(default=None, metadata=FLATTEN)

    @property
    def alpha(self) -> EstimateDoc | None:
        """Krippendorff's α of the humans (None where not defined)."""
        return self.reliability.krippendorff_alpha if self.reliability else None


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
