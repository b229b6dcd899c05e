"""The pooled agreement document (`w2c agreement --pooled`, `--ratings`): every chosen rater in
one table. Built once by the agreement service; the CLI's tables and `--json` render it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import cast

from w2c_tui.domain.dashboard_core import BootstrapDoc, EstimateDoc, PairDoc
from w2c_tui.domain.dashboard_figures import RevealDoc
from w2c_tui.domain.jsondoc import OMIT_NONE, JsonDoc


@dataclass(frozen=True, slots=True)
class CategoryAgreement(JsonDoc):
    """One category against the rest: specific agreement, α and κ."""

    specific_agreement: EstimateDoc
    alpha: EstimateDoc
    kappa: EstimateDoc


@dataclass(frozen=True, slots=True)
class PooledDoc(JsonDoc):
    """Every multi-rater coefficient of one table with its 95% interval (keys: the contract of
    `w2c agreement --json`, see stats.agreement_summary); for a dataset also what it was
    computed on and the reveal's effects, for a ratings file its path."""

    n_items: int
    n_raters: int
    categories: tuple[str, ...]
    krippendorff_alpha: EstimateDoc
    fleiss_kappa: EstimateDoc
    gwet_ac1: EstimateDoc
    percent_agreement: EstimateDoc
    pairwise: tuple[PairDoc, ...]
    per_category: Mapping[str, CategoryAgreement]
    bootstrap: BootstrapDoc
    p_alpha_below: Mapping[str, float | None]
    dataset: str | None = field(default=None, metadata=OMIT_NONE)
    unit_kind: str | None = field(default=None, metadata=OMIT_NONE)
    raters: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    invalid_mode: str | None = field(default=None, metadata=OMIT_NONE)
    reveal: RevealDoc | None = field(default=None, metadata=OMIT_NONE)
    source: str | None = field(default=None, metadata=OMIT_NONE)

    @classmethod
    def of(cls, summary: Mapping[str, object]) -> PooledDoc:
        """The typed document of `stats.agreement_summary`'s plain JSON."""
        boot = cast(dict[str, float], summary["bootstrap"])
        per_category = cast(dict[str, dict[str, object]], summary["per_category"])
        return cls(
            n_items=cast(int, summary["n_items"]),
            n_raters=cast(int, summary["n_raters"]),
            categories=tuple(cast(list[str], summary["categories"])),
            krippendorff_alpha=EstimateDoc.of(summary["krippendorff_alpha"]),
            fleiss_kappa=EstimateDoc.of(summary["fleiss_kappa"]),
            gwet_ac1=EstimateDoc.of(summary["gwet_ac1"]),
            percent_agreement=EstimateDoc.of(summary["percent_agreement"]),
            pairwise=tuple(PairDoc.of(p) for p in cast(list[object], summary["pairwise"])),
            per_category={
                name: CategoryAgreement(
                    specific_agreement=EstimateDoc.of(values["specific_agreement"]),
                    alpha=EstimateDoc.of(values["alpha"]),
                    kappa=EstimateDoc.of(values["kappa"]),
                )
                for name, values in per_category.items()
            },
            bootstrap=BootstrapDoc(B=int(boot["B"]), seed=int(boot["seed"]), level=boot["level"]),
            p_alpha_below=cast(dict[str, float | None], summary["p_alpha_below"]),
        )
