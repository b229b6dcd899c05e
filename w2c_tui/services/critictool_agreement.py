"""Agreement on CriticTool labels: humans, the model's own self-critique and any other rater
(an LLM judge writing answers of the `critictool` schema) on detect and category, as nominal
labels (and, for external samples, the observed policy, which the self-critique reads from the
last round).

A unit is a sample's item with one model's prediction (or the sample alone); every rater of
the dataset is a column, and the model's self-critique (its parsed reply: does it report an
error, which) is one more column, `self-critique`. The coefficients are the agreement engine's
own (stats.agreement, stats.pairwise): Krippendorff's α (nominal), percent agreement and
Cohen's κ per pair on their overlap.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from w2c_tui.db.store import Store
from w2c_tui.domain.critictool_labels import CriticToolLabel, Question, options
from w2c_tui.domain.dashboard import CriticToolLabelAgreementDoc, PairDoc
from w2c_tui.domain.models import Rater
from w2c_tui.services.critictool_review import CriticToolReviewService
from w2c_tui.stats.agreement import krippendorff_alpha, percent_agreement
from w2c_tui.stats.pairwise import pairwise
from w2c_tui.stats.results import Estimate, PairResult
from w2c_tui.stats.table import RatingTable

SELF = "self-critique"
"""The column of the model's own critique."""
NOMINAL = {
    "detect": Question.ERROR,
    "category": Question.CATEGORY,
    "observed_policy": Question.OBSERVED_POLICY,
}
"""The labels compared, by name (the observed policy: external samples only)."""


@dataclass(frozen=True)
class CriticToolAgreement:
    """Agreement on one label (detect or category) of one dataset."""

    label: str
    raters: tuple[str, ...]
    units: int
    """Units with at least two ratings of this label."""
    alpha: Estimate
    percent: Estimate
    pairs: tuple[PairResult, ...]

    def document(self) -> CriticToolLabelAgreementDoc:
        """The summary document (the dashboard's `critictool.label_agreement`)."""
        return CriticToolLabelAgreementDoc(
            label=self.label,
            raters=self.raters,
            units=self.units,
            alpha=self.alpha.value,
            alpha_reason=self.alpha.reason,
            percent_agreement=self.percent.value,
            pairs=tuple(PairDoc.of(p.as_json()) for p in self.pairs),
        )


def rater_column(kind: str, name: str) -> str:
    """A rater's column name: humans by name, other kinds as kind:name."""
    return name if kind == "human" else f"{kind}:{name}"


def column_names(raters: list[Rater]) -> dict[int, str]:
    """Rater id → its column: `rater_column`, and where two raters would share one (the same
    judge model under two prompt versions), each with its prompt version (or its id)."""
    by_name: dict[str, dict[int, Rater]] = {}
    for rater in raters:
        by_name.setdefault(rater_column(rater.kind.value, rater.name), {})[rater.id] = rater
    names: dict[int, str] = {}
    for base, group in by_name.items():
        if len(group) == 1:
            names.update(dict.fromkeys(group, base))
            continue
        prompts = [str(r.config.get("prompt", "")) for r in group.values()]
        distinct = all(prompts) and len(set(prompts)) == len(prompts)
        for rater, prompt in zip(group.values(), prompts, strict=True):
            names[rater.id] = f"{base} ({prompt if distinct else f'rater {rater.id}'})"
    return names


class CriticToolAgreementService:
    """Computes CriticTool label agreement from the store."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def labels(
        self, dataset: str, target_model: str | None = None
    ) -> dict[str, dict[tuple[int, int | None], CriticToolLabel]]:
        """Every rater's answers by column and unit, the self-critique included."""
        review = CriticToolReviewService(self._store)
        opened = review.open(dataset, target_model)
        wanted = {(u.item_id, u.response_id) for u in opened.units}
        columns: dict[str, dict[tuple[int, int | None], CriticToolLabel]] = {}
        ratings = [r for r in review.ratings(dataset) if (r.item_id, r.response_id) in wanted]
        names = column_names([r.rater for r in ratings])
        for rating in ratings:
            unit = (rating.item_id, rating.response_id)
            columns.setdefault(names[rating.rater.id], {})[unit] = rating.label
        for (item_id, response_id), label in review.self_critiques(opened).items():
            if (item_id, response_id) in wanted:
                columns.setdefault(SELF, {})[(item_id, response_id)] = label
        return columns

    def compute(self, dataset: str, target_model: str | None = None) -> list[CriticToolAgreement]:
        """α, percent agreement and pairwise κ for detect and for category."""
        columns = self.labels(dataset, target_model)
        raters = tuple(sorted(c for c in columns if c != SELF)) + (
            (SELF,) if SELF in columns else ()
        )
        units = sorted(
            {u for col in columns.values() for u in col}, key=lambda u: (u[0], u[1] or 0)
        )
        results: list[CriticToolAgreement] = []
        for name, question in NOMINAL.items():
            categories = tuple(value for value, _ in options(question))
            codes = np.full((len(units), len(raters)), -1, dtype=np.int16)
            for i, unit in enumerate(units):
                for j, rater in enumerate(raters):
                    label = columns[rater].get(unit)
                    answer = label.get(question) if label else None
                    if answer is not None:
                        codes[i, j] = categories.index(answer)
            table = RatingTable(
                codes=codes,
                categories=categories,
                raters=raters,
                units=tuple(f"{item}:{response or 0}" for item, response in units),
            )
            pairable = int(((codes >= 0).sum(axis=1) >= 2).sum())
            results.append(
                CriticToolAgreement(
                    label=name,
                    raters=raters,
                    units=pairable,
                    alpha=krippendorff_alpha(table),
                    percent=percent_agreement(table),
                    pairs=tuple(pairwise(table)) if len(raters) >= 2 else (),
                )
            )
        return results
