"""The dashboard document's CriticTool part (see domain.dashboard): the official metrics of
each model and setting, or why they could not be computed, and the label agreement."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from w2c_tui.domain.dashboard_core import PairDoc


class CriticSettingDoc(TypedDict):
    """One model's predictions in one setting (internal, or external in a mode; CoT or not)."""

    target_model: str
    source: str
    mode: str | None
    cot: bool
    means: dict[str, float | int | None]
    by_error_type: dict[str, dict[str, float | int | None]]
    by_variant: dict[str, dict[str, float | int | None]]
    per_sample: dict[str, dict[str, float]]
    unpredicted: int


class CriticOverallDoc(TypedDict):
    """The paper's overall score of a model: its internal and one external setting."""

    target_model: str
    cot: bool
    mode: str
    score: float | None


class CriticMetricsDoc(TypedDict):
    """Every setting of every model in a CriticTool dataset (or of one run)."""

    dataset: str
    run_id: int | None
    similarity_model: str
    settings: list[CriticSettingDoc]
    overall: list[CriticOverallDoc]


class CriticLabelAgreementDoc(TypedDict):
    """Agreement on one CriticTool label (detect, category, observed policy)."""

    label: str
    raters: list[str]
    units: int
    alpha: float | None
    alpha_reason: str | None
    percent_agreement: float | None
    pairs: list[PairDoc]


class CriticEntryDoc(TypedDict):
    """A CriticTool dataset's dashboard part: its metrics or the problem computing them."""

    metrics: NotRequired[CriticMetricsDoc]
    problem: NotRequired[str]
    label_agreement: list[CriticLabelAgreementDoc]
