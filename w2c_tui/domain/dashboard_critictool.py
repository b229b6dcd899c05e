"""The dashboard document's CriticTool part (see domain.dashboard): the official metrics of
each model and setting, or why they could not be computed, and the label agreement. Built once
by the CriticTool services; the dashboard, `w2c critictool metrics` and the report render it."""

from __future__ import annotations

from dataclasses import dataclass, field

from w2c_tui.domain.critictool import ExternalMode, Source
from w2c_tui.domain.dashboard_core import PairDoc
from w2c_tui.domain.jsondoc import OMIT_NONE, JsonDoc

Means = dict[str, float | int | None]
"""A setting's means by the reference's names (samples, parse_rate, critic, …)."""


@dataclass(frozen=True, slots=True)
class CriticToolSettingDoc(JsonDoc):
    """One model's predictions in one setting (internal, or external in a mode; CoT or not)."""

    target_model: str
    source: Source
    mode: ExternalMode | None
    cot: bool
    means: Means
    by_error_type: dict[str, Means]
    """Internal only (error-free samples under "none")."""
    by_variant: dict[str, Means]
    per_sample: dict[str, dict[str, float]]
    """The reference's per-sample records, by sample id."""
    unpredicted: int
    """Samples of the dataset of this source that this setting has no prediction for."""


@dataclass(frozen=True, slots=True)
class CriticToolOverallDoc(JsonDoc):
    """The paper's overall score of a model: its internal and one external setting."""

    target_model: str
    cot: bool
    mode: ExternalMode
    score: float | None


@dataclass(frozen=True, slots=True)
class CriticToolMetricsDoc(JsonDoc):
    """Every setting of every model in a CriticTool dataset (or of one run)."""

    dataset: str
    run_id: int | None
    similarity_model: str
    settings: tuple[CriticToolSettingDoc, ...] = ()
    overall: tuple[CriticToolOverallDoc, ...] = ()


@dataclass(frozen=True, slots=True)
class CriticToolLabelAgreementDoc(JsonDoc):
    """Agreement on one CriticTool label (detect, category, observed policy)."""

    label: str
    raters: tuple[str, ...]
    units: int
    alpha: float | None
    alpha_reason: str | None
    percent_agreement: float | None
    pairs: tuple[PairDoc, ...]


@dataclass(frozen=True, slots=True)
class CriticToolEntryDoc(JsonDoc):
    """A CriticTool dataset's dashboard part: its metrics or the problem computing them."""

    metrics: CriticToolMetricsDoc | None = field(default=None, metadata=OMIT_NONE)
    problem: str | None = field(default=None, metadata=OMIT_NONE)
    label_agreement: tuple[CriticToolLabelAgreementDoc, ...] = ()
