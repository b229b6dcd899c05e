"""Agreement on CriticTool labels: humans, the model's own self-critique and any other rater
(an LLM judge writing answers of the `critictool` schema) on detect and category, as nominal
labels (and, for external samples, the observed policy, which the self-critique reads from the
last round).

A unit is a sample's item with one model's prediction (or the sample alone); every rater of
the dataset is a column, and the model's self-critique (its parsed reply: does it report an
error, which) is one more column, `self-critique`. The coefficients are the agreement engine's
own (stats.agreement, stats.pairwise): Krippendorff's α (nominal), percent agreement and
Cohen's κ per pair on their overlap. With a bootstrap, every interval of one computation (each
label, each statistic, each pair) comes from the same resamples of the units (stats.shared);
`--by` repeats the computation on each slice of the units (services.critictool_slicing).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from w2c_tui.db.store import Store
from w2c_tui.domain.critictool_labels import CriticToolLabel, Question, options
from w2c_tui.domain.critictool_slices import CriticToolSliceBy
from w2c_tui.domain.dashboard import CriticToolLabelAgreementDoc, PairDoc
from w2c_tui.domain.models import Rater
from w2c_tui.services.critictool_review import CriticToolDataset, CriticToolReviewService
from w2c_tui.services.critictool_slicing import UnitKey, slice_units
from w2c_tui.stats.results import Estimate, PairResult
from w2c_tui.stats.shared import shared_agreement
from w2c_tui.stats.table import RatingTable

SELF = "self-critique"
"""The column of the model's own critique."""
NOMINAL = {
    "detect": Question.ERROR,
    "category": Question.CATEGORY,
    "observed_policy": Question.OBSERVED_POLICY,
}
"""The labels compared, by name (the observed policy: external samples only)."""
LEVEL = 0.95


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

    def to_json(self) -> dict[str, object]:
        """The label's statistics, each as {"value", "ci", "n", "reason", "degenerate"}."""
        return {
            "label": self.label,
            "raters": list(self.raters),
            "units": self.units,
            "alpha": self.alpha.as_json(),
            "percent_agreement": self.percent.as_json(),
            "pairs": [p.as_json() for p in self.pairs],
        }


@dataclass(frozen=True)
class CriticToolSlice:
    """The agreement on one slice of the units; `n`: its units with a rating."""

    name: str
    n: int
    labels: tuple[CriticToolAgreement, ...]


@dataclass(frozen=True)
class CriticToolAgreementReport:
    """`w2c critictool agreement`: every label on all units, and on each slice with `by`."""

    dataset: str
    target_model: str | None
    bootstrap: int
    seed: int
    n: int
    """Units with at least one rating of any label."""
    labels: tuple[CriticToolAgreement, ...]
    by: CriticToolSliceBy | None = None
    slices: tuple[CriticToolSlice, ...] = field(default=())

    def to_json(self) -> dict[str, object]:
        """The JSON document: per label and slice, each statistic with its interval and n."""
        doc: dict[str, object] = {
            "dataset": self.dataset,
            "kind": "critictool",
            "target_model": self.target_model,
            "bootstrap": {"B": self.bootstrap, "seed": self.seed, "level": LEVEL},
            "n": self.n,
            "labels": [r.to_json() for r in self.labels],
        }
        if self.by is not None:
            doc["by"] = self.by.value
            doc["slices"] = [
                {"slice": s.name, "n": s.n, "labels": [r.to_json() for r in s.labels]}
                for s in self.slices
            ]
        return doc


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
    ) -> dict[str, dict[UnitKey, CriticToolLabel]]:
        """Every rater's answers by column and unit, the self-critique included."""
        review = CriticToolReviewService(self._store)
        return self._columns(review, review.open(dataset, target_model))

    def _columns(
        self, review: CriticToolReviewService, opened: CriticToolDataset
    ) -> dict[str, dict[UnitKey, CriticToolLabel]]:
        wanted = {(u.item_id, u.response_id) for u in opened.units}
        columns: dict[str, dict[UnitKey, CriticToolLabel]] = {}
        ratings = [r for r in review.ratings(opened.name) if (r.item_id, r.response_id) in wanted]
        names = column_names([r.rater for r in ratings])
        for rating in ratings:
            unit = (rating.item_id, rating.response_id)
            columns.setdefault(names[rating.rater.id], {})[unit] = rating.label
        for (item_id, response_id), label in review.self_critiques(opened).items():
            if (item_id, response_id) in wanted:
                columns.setdefault(SELF, {})[(item_id, response_id)] = label
        return columns

    def compute(
        self,
        dataset: str,
        target_model: str | None = None,
        *,
        bootstrap: int = 0,
        seed: int = 0,
    ) -> list[CriticToolAgreement]:
        """α, percent agreement and pairwise κ for detect, category and observed policy (with
        `bootstrap` resamples: intervals, all from the same resamples)."""
        columns = self.labels(dataset, target_model)
        return _agreement(columns, _units(columns), bootstrap, seed)

    def report(
        self,
        dataset: str,
        target_model: str | None = None,
        *,
        bootstrap: int = 0,
        seed: int = 0,
        by: CriticToolSliceBy | None = None,
    ) -> CriticToolAgreementReport:
        """`compute` on all units and, with `by`, on each slice of them (each slice its own
        bootstrap over its own units, same B and seed)."""
        review = CriticToolReviewService(self._store)
        opened = review.open(dataset, target_model)
        columns = self._columns(review, opened)
        units = _units(columns)
        slices: list[CriticToolSlice] = []
        if by is not None:
            variants = {s.item_id: s.variant for s in self._store.critictool.samples(dataset)}
            for name, keys in slice_units(opened.units, by, variants, set(units)):
                members = [u for u in units if u in keys]
                labels = _agreement(columns, members, bootstrap, seed)
                slices.append(CriticToolSlice(name, len(members), tuple(labels)))
        return CriticToolAgreementReport(
            dataset=dataset,
            target_model=target_model,
            bootstrap=bootstrap,
            seed=seed,
            n=len(units),
            labels=tuple(_agreement(columns, units, bootstrap, seed)),
            by=by,
            slices=tuple(slices),
        )


def _units(columns: dict[str, dict[UnitKey, CriticToolLabel]]) -> list[UnitKey]:
    """The units some rater labelled, in item then response order."""
    return sorted({u for col in columns.values() for u in col}, key=lambda u: (u[0], u[1] or 0))


def _agreement(
    columns: dict[str, dict[UnitKey, CriticToolLabel]],
    units: list[UnitKey],
    bootstrap: int,
    seed: int,
) -> list[CriticToolAgreement]:
    """Every label's table on `units`, and its statistics from one shared bootstrap."""
    raters = tuple(sorted(c for c in columns if c != SELF)) + ((SELF,) if SELF in columns else ())
    tables: dict[str, RatingTable] = {}
    for name, question in NOMINAL.items():
        categories = tuple(value for value, _ in options(question))
        codes = np.full((len(units), len(raters)), -1, dtype=np.int16)
        for i, unit in enumerate(units):
            for j, rater in enumerate(raters):
                label = columns[rater].get(unit)
                answer = label.get(question) if label else None
                if answer is not None:
                    codes[i, j] = categories.index(answer)
        tables[name] = RatingTable(
            codes=codes,
            categories=categories,
            raters=raters,
            units=tuple(f"{item}:{response or 0}" for item, response in units),
        )
    shared = shared_agreement(tables, bootstrap=bootstrap, seed=seed, level=LEVEL)
    return [
        CriticToolAgreement(
            label=name,
            raters=raters,
            units=int(((table.codes >= 0).sum(axis=1) >= 2).sum()),
            alpha=shared[name].alpha,
            percent=shared[name].percent,
            pairs=shared[name].pairs,
        )
        for name, table in tables.items()
    ]
