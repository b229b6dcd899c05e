"""The dashboard document's judge parts: each automated rater against the humans, its
decision, and its drill-down (see domain.dashboard)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Literal

from w2c_tui.domain.dashboard_core import EstimateDoc
from w2c_tui.domain.jsondoc import FLATTEN, OMIT_NONE, JsonDoc


@dataclass(frozen=True, slots=True)
class VersusHumansDoc(JsonDoc):
    """A judge against the human ceiling, all on the same resamples."""

    judge: str
    humans: tuple[str, ...]
    kappa_judge_human: EstimateDoc
    kappa_human_human: EstimateDoc
    delta_kappa: EstimateDoc
    alpha_humans: EstimateDoc
    alpha_with_judge: EstimateDoc
    delta_alpha: EstimateDoc


@dataclass(frozen=True, slots=True)
class AltAnnotatorDoc(JsonDoc):
    """The alternative-annotator test for one left-out human."""

    human: str
    n: int
    rho_judge: float | None
    rho_human: float | None
    t: float | None
    p_value: float | None
    p_adjusted: float | None
    rejected: bool
    reason: str | None

    @classmethod
    def of(cls, data: object) -> AltAnnotatorDoc:
        """One annotator as the statistics layer wrote it (stats.AltTestAnnotator.as_json)."""
        if not isinstance(data, Mapping):
            raise TypeError(f"an alt-test annotator is a JSON object, not {type(data).__name__}")
        return cls(**{f.name: data[f.name] for f in fields(cls)})


@dataclass(frozen=True, slots=True)
class AltTestDoc(JsonDoc):
    """The alternative-annotator test (≥ 3 humans), or why it is not defined."""

    judge: str
    epsilon: float
    alpha: float
    winning_rate: float | None
    advantage_probability: float | None
    passed: bool | None
    annotators: tuple[AltAnnotatorDoc, ...]
    reason: str | None

    @classmethod
    def of(cls, data: object) -> AltTestDoc:
        """The test as the statistics layer wrote it (stats.AltTestResult.as_json)."""
        if not isinstance(data, Mapping):
            raise TypeError(f"an alt-test is a JSON object, not {type(data).__name__}")
        values = {f.name: data[f.name] for f in fields(cls)}
        values["annotators"] = tuple(AltAnnotatorDoc.of(a) for a in data["annotators"])
        return cls(**values)


@dataclass(frozen=True, slots=True)
class StratifiedDoc(JsonDoc):
    """κ against the consensus on units where the humans were unanimous vs split."""

    unanimous: EstimateDoc
    split: EstimateDoc


Decision = Literal["can stand in", "cannot stand in", "undecided", "not defined"]


@dataclass(frozen=True, slots=True)
class StandInDoc(JsonDoc):
    """The decision on a judge, in plain words, with the rule that gave it and its evidence."""

    decision: Decision
    text: str
    rule: str
    evidence: tuple[str, ...]
    weakest_class: str | None


@dataclass(frozen=True, slots=True)
class AdviceDoc(JsonDoc):
    """How many more units would narrow κ's interval, and which strata are thin."""

    n: int
    half_width: float | None
    more_for_005: int | None
    more_for_010: int | None
    thin_strata: tuple[str, ...]
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeStatsDoc(JsonDoc):
    """An automated rater's numbers against the humans, where it shares units with their
    consensus (`alt_test` with ≥ 3 humans; `cohen_kappa_invalid_wrong` where it has invalid
    outputs counted as missing)."""

    n: int
    p_o: float | None
    cohen_kappa: EstimateDoc
    gwet_ac1: EstimateDoc
    macro_f1: float | None
    macro_f1_reason: str | None
    cohen_kappa_invalid_wrong: EstimateDoc | None = field(default=None, metadata=OMIT_NONE)
    alt_test: AltTestDoc | None = field(default=None, metadata=OMIT_NONE)
    versus_humans: VersusHumansDoc | None
    versus_humans_reason: str | None
    stratified: StratifiedDoc


@dataclass(frozen=True, slots=True, kw_only=True)
class AutomatedDoc(JsonDoc):
    """Panel D: one automated rater against the humans: its numbers (written flat after
    `n_consensus`), or why there are none; whether it can stand in, and advice."""

    key: str
    kind: str
    name: str
    reading: str
    coverage: float | None
    invalid_rate: float | None
    n_consensus: int
    reason: str | None = field(default=None, metadata=OMIT_NONE)
    stats: JudgeStatsDoc | None = field(default=None, metadata=FLATTEN)
    stand_in: StandInDoc
    advice: AdviceDoc

    @property
    def n(self) -> int:
        """Units shared with the consensus (0 where there are none)."""
        return self.stats.n if self.stats else 0

    @property
    def cohen_kappa(self) -> EstimateDoc | None:
        """κ against the consensus."""
        return self.stats.cohen_kappa if self.stats else None

    @property
    def versus_humans(self) -> VersusHumansDoc | None:
        """Against the human ceiling."""
        return self.stats.versus_humans if self.stats else None

    @property
    def alt_test(self) -> AltTestDoc | None:
        """The alternative-annotator test."""
        return self.stats.alt_test if self.stats else None

    @property
    def macro_f1(self) -> float | None:
        """Macro-F1 against the consensus."""
        return self.stats.macro_f1 if self.stats else None


@dataclass(frozen=True, slots=True)
class ClassDoc(JsonDoc):
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


@dataclass(frozen=True, slots=True)
class DisagreementDoc(JsonDoc):
    """A unit where the rater differs from the human reference."""

    unit: str
    item_id: int | None
    uuid: str
    target_model: str | None
    consensus: str
    rater: str
    humans: tuple[str, ...]
    unanimity: float | None


@dataclass(frozen=True, slots=True)
class MatrixDoc(JsonDoc):
    """A rater's confusion against the consensus (rows: consensus, columns: rater), per class
    on exactly those units, the units of each cell and the disagreements."""

    n: int
    confusion: tuple[tuple[int, ...], ...]
    row_normalised: tuple[tuple[float, ...], ...]
    cells: Mapping[str, tuple[str, ...]]
    per_class: Mapping[str, ClassDoc]
    disagreements: tuple[DisagreementDoc, ...]
    n_disagreements: int
    alpha_pair: EstimateDoc


@dataclass(frozen=True, slots=True)
class DrilldownDoc(JsonDoc):
    """Panel E for one rater: its matrix (written flat), or why there is none."""

    reason: str | None = field(default=None, metadata=OMIT_NONE)
    matrix: MatrixDoc | None = field(default=None, metadata=FLATTEN)
