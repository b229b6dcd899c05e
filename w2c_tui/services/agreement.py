"""Agreement between humans, judges and scorers: the calibration dashboard and the judge question.

Panels follow ../shared/docs/AGREEMENT.md §2 (A coverage, B distributions, C human
reliability, D each automated rater against the humans with a decision, E drill-down, F
calibration); each lives in services/dashboard/. The document is typed (domain.dashboard).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

from w2c_tui import __version__
from w2c_tui.db.store import Store
from w2c_tui.domain.dashboard import (
    Against,
    BootstrapDoc,
    ClassDoc,
    DashboardDoc,
    DrilldownDoc,
    JudgesDoc,
    MetaDoc,
    MetricsDoc,
    PairDoc,
    SliceBy,
)
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.estimate import CorrectedDoc
from w2c_tui.domain.labels import InvalidMode, RaterKind
from w2c_tui.domain.pooled import PooledDoc
from w2c_tui.domain.review import UnitKind
from w2c_tui.io.ratings import read_rating_codes
from w2c_tui.services.consensus import consensus
from w2c_tui.services.dashboard.common import categories, table_of
from w2c_tui.services.dashboard.consistency import mcq_consistency, stands_in
from w2c_tui.services.dashboard.drill import drilldown
from w2c_tui.services.dashboard.judges import automated_row
from w2c_tui.services.dashboard.overview import coverage, distributions, humans_panel
from w2c_tui.services.dashboard.slices import slices
from w2c_tui.services.estimate import corrected_table
from w2c_tui.services.metrics import rater_metrics
from w2c_tui.services.readings import RaterInfo, Readings, stored_readings
from w2c_tui.services.reveal import reveal_effects
from w2c_tui.stats import RatingTable, agreement_summary
from w2c_tui.stats.metric_intervals import IntervalSettings

__all__ = ["AgreementService", "categories", "table_of"]


class AgreementService:
    """Agreement summaries, the judge question and the calibration dashboard."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def readings(self, dataset: str, kind: UnitKind = UnitKind.BEHAVIOUR) -> Readings:
        """Current verdicts arranged by unit and rater."""
        return stored_readings(self._store.ratings, dataset, kind)

    def default_raters(self, readings: Readings) -> list[str]:
        """Humans and every automated reading; gold only where it reads the same thing."""
        return [
            r.key
            for r in readings.raters
            if r.kind is not RaterKind.GOLD or readings.kind is UnitKind.ITEM
        ]

    def summary(
        self,
        dataset: str,
        *,
        raters: list[str] | None = None,
        kind: UnitKind = UnitKind.BEHAVIOUR,
        bootstrap: int = 1000,
        seed: int = 0,
        invalid_mode: InvalidMode | str = InvalidMode.MISSING,
    ) -> PooledDoc:
        """The pooled document (`w2c agreement --pooled --json`): every chosen rater in one
        table — α, Fleiss κ, AC1, % agreement, each pair, each category."""
        invalid_mode = InvalidMode(invalid_mode)
        readings = self.readings(dataset, kind)
        chosen = self._choose(readings, raters)
        doc = agreement_summary(
            table_of(readings, chosen, invalid_mode), bootstrap=bootstrap, seed=seed
        )
        return replace(
            PooledDoc.of(doc),
            dataset=dataset,
            unit_kind=kind.value,
            raters=tuple(chosen),
            invalid_mode=invalid_mode.value,
            reveal=reveal_effects(self._store, dataset, readings),
        )

    def judges(
        self,
        dataset: str,
        *,
        kind: UnitKind = UnitKind.BEHAVIOUR,
        bootstrap: int = 1000,
        seed: int = 0,
        min_humans: int = 1,
        invalid_mode: InvalidMode | str = InvalidMode.MISSING,
        by: SliceBy | None = None,
    ) -> JudgesDoc:
        """The judge question (`w2c agreement`): the humans' own reliability, then each
        automated rater against them with its decision, advice and, with `by`, slices."""
        return JudgesDoc.of(
            self.dashboard(
                dataset,
                kind=kind,
                bootstrap=bootstrap,
                seed=seed,
                min_humans=min_humans,
                invalid_mode=invalid_mode,
                by=by,
            )
        )

    @staticmethod
    def summary_file(path: Path, *, bootstrap: int = 1000, seed: int = 0) -> PooledDoc:
        """Agreement of any long-format ratings table (CSV / JSONL: item, rater, label)."""
        read = read_rating_codes(path)
        table = RatingTable.from_coded_long(
            read.unit, read.rater, read.label, read.units, read.raters, read.labels
        )
        doc = agreement_summary(table, bootstrap=bootstrap, seed=seed)
        return replace(PooledDoc.of(doc), source=str(path))

    def _choose(self, readings: Readings, raters: list[str] | None) -> list[str]:
        if not raters:
            return self.default_raters(readings)
        known = {r.key for r in readings.raters}
        unknown = [r for r in raters if r not in known]
        if unknown:
            raise NotFoundError(f"no rater {unknown[0]!r} (raters: {', '.join(sorted(known))})")
        return list(raters)

    def dashboard(
        self,
        dataset: str,
        *,
        kind: UnitKind = UnitKind.BEHAVIOUR,
        raters: list[str] | None = None,
        bootstrap: int = 1000,
        seed: int = 0,
        min_humans: int = 1,
        invalid_mode: InvalidMode | str = InvalidMode.MISSING,
        by: SliceBy | None = None,
    ) -> DashboardDoc:
        """Every panel of the calibration dashboard for one dataset."""
        mode = InvalidMode(invalid_mode)
        readings = self.readings(dataset, kind)
        chosen = self._choose(readings, raters)
        humans = [r.key for r in readings.humans() if r.key in chosen]
        automated = [r.key for r in readings.raters if r.key in chosen and r.key not in humans]
        agreed = consensus(readings, min_humans)
        ref = agreed.labels
        facts = {d.name: d for d in self._store.datasets.all()}.get(dataset)
        opts = {"bootstrap": bootstrap, "seed": seed}
        human_doc = humans_panel(readings, humans, mode, **opts)
        drills = {key: drilldown(readings, key, ref, **opts) for key in automated}
        rows = [
            automated_row(
                readings, key, humans, human_doc, ref, mode, _per_class(drills[key]), **opts
            )
            for key in automated
            if stands_in(readings.rater(key), kind)
        ]
        pooled = agreement_summary(table_of(readings, chosen, mode), bootstrap=0)

        return DashboardDoc(
            meta=MetaDoc(
                dataset=dataset,
                sha256=facts.sha256 if facts else None,
                source_path=facts.source_path if facts else None,
                unit_kind=kind.value,
                n_units=len(readings.units),
                raters=tuple(chosen),
                bootstrap=BootstrapDoc(B=bootstrap, seed=seed, level=0.95),
                min_humans=min_humans,
                invalid_mode=mode.value,
                consensus=agreed.as_json(),
                generated_at=datetime.now(UTC).isoformat(timespec="seconds"),
                w2c_tui=__version__,
            ),
            coverage=coverage(readings, chosen, mode),
            distributions=distributions(readings, chosen, humans, ref),
            humans=human_doc,
            automated=tuple(rows),
            drilldown=drills,
            pairwise=tuple(PairDoc.of(p) for p in cast(list[object], pooled["pairwise"])),
            metrics=tuple(
                m
                for key in automated
                for m in _metrics_rows(
                    readings, readings.rater(key), mode, IntervalSettings(B=bootstrap, seed=seed)
                )
            ),
            reveal=reveal_effects(self._store, dataset, readings),
            mcq_consistency=(
                mcq_consistency(readings, automated, ref, **opts)
                if kind is UnitKind.BEHAVIOUR
                else None
            ),
            slices=slices(readings, by, automated, ref, mode, **opts) if by is not None else None,
            corrected=_corrected(readings, dataset, kind, automated, min_humans, seed, bootstrap),
        )


def _corrected(
    readings: Readings,
    dataset: str,
    kind: UnitKind,
    automated: list[str],
    min_humans: int,
    seed: int,
    bootstrap: int,
) -> tuple[CorrectedDoc, ...] | None:
    """The corrected-scores table of the chosen judges (responses only), None when empty."""
    if kind is not UnitKind.BEHAVIOUR:
        return None
    judges = [k for k in automated if readings.rater(k).kind is RaterKind.JUDGE]
    rows = corrected_table(
        readings,
        dataset,
        judges,
        min_humans=min_humans,
        seed=seed,
        bootstrap=max(bootstrap, 200),  # 0 turns intervals off elsewhere; macro-F1 needs some
    )
    return tuple(rows) or None


def _per_class(drill: DrilldownDoc) -> Mapping[str, ClassDoc] | None:
    return drill.matrix.per_class if drill.matrix else None


def _metrics_rows(
    readings: Readings, rater: RaterInfo, mode: InvalidMode, settings: IntervalSettings
) -> list[MetricsDoc]:
    """Metrics against gold per target model, with intervals from the dashboard's bootstrap
    (label readings; `:norm` readings are in Acc-Norm)."""
    if rater.reading != "label" or rater.kind is RaterKind.GOLD:
        return []
    models: list[str | None] = [*sorted({u.target_model for u in readings.units if u.target_model})]
    out = []
    for model in models or [None]:
        row = rater_metrics(
            readings, rater, Against.GOLD, target_model=model, invalid_mode=mode, settings=settings
        )
        if row is not None:
            out.append(row.document())
    return out
