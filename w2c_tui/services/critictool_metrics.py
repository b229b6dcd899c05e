"""The official CriticTool metrics over stored predictions: per sample, means, per error type,
per base/evol, and the paper's overall score (runs/critictool/summary.py)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from w2c_tui.db.store import Store
from w2c_tui.domain.critictool import ExternalMode
from w2c_tui.domain.critictool_stored import StoredPrediction, StoredSample
from w2c_tui.domain.dashboard import (
    CriticToolMetricsDoc,
    CriticToolOverallDoc,
    CriticToolSettingDoc,
    Means,
)
from w2c_tui.domain.errors import NotFoundError, W2CError
from w2c_tui.runs.critictool.metrics_external import ExternalScore, score_external
from w2c_tui.runs.critictool.metrics_internal import InternalScore, score_internal
from w2c_tui.runs.critictool.similarity import (
    DEFAULT_MODEL,
    SentenceSimilarity,
    Similarity,
    SimilarityUnavailable,
)
from w2c_tui.runs.critictool.summary import (
    ExternalMeans,
    InternalMeans,
    by_error_type,
    by_variant_external,
    by_variant_internal,
    external_means,
    internal_means,
    overall_score,
)

SIMILARITY_ENV = "W2C_SIMILARITY_MODEL"
"""A default similarity model (a local folder, say) for the CLI, the report and the dashboard."""
MEAN_NAMES = {"broke": "break"}
"""Our field names that the reference spells otherwise."""


def _means(means: InternalMeans | ExternalMeans) -> Means:
    return {MEAN_NAMES.get(key, key): value for key, value in asdict(means).items()}


class CriticToolMetricsService:
    """Scores stored CriticTool predictions with the reference's evaluators."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def resolve(self, dataset: str | None, run_id: int | None = None) -> str:
        """The dataset named, the run's, or the only CriticTool dataset."""
        names = self._store.critictool.datasets()
        if run_id is not None and dataset is None:
            dataset = self._store.runs.get(run_id).config.dataset
        if dataset is not None:
            if dataset not in names:
                raise NotFoundError(
                    f"no CriticTool dataset named {dataset!r} (CriticTool datasets: "
                    f"{', '.join(names) or 'none yet'})"
                )
            return dataset
        if len(names) != 1:
            raise NotFoundError(
                "name a CriticTool dataset with --dataset (CriticTool datasets: "
                f"{', '.join(names) or 'none yet; import one with w2c import'})"
            )
        return names[0]

    def compute(
        self,
        dataset: str | None = None,
        *,
        run_id: int | None = None,
        target_model: str | None = None,
        similarity: Similarity | None = None,
        similarity_model: str | Path | None = None,
    ) -> CriticToolMetricsDoc:
        """The metrics of every (model, setting) with predictions in the dataset or run;
        similarity model: `similarity_model`, else W2C_SIMILARITY_MODEL, else the default."""
        name = self.resolve(dataset, run_id)
        model = similarity_model or os.environ.get(SIMILARITY_ENV) or DEFAULT_MODEL
        sim = similarity or SentenceSimilarity(model)
        samples = {s.item_id: s for s in self._store.critictool.samples(name)}
        preds = self._store.critictool.predictions(
            dataset=name, target_model=target_model, run_id=run_id
        )
        groups: dict[tuple[str, str, str, bool], list[StoredPrediction]] = {}
        for pred in preds:
            source = samples[pred.item_id].sample.source
            groups.setdefault((pred.target_model, source, pred.mode or "", pred.cot), []).append(
                pred
            )
        try:
            settings = [
                self._setting(samples, members, sim) for members in groups.values() if members
            ]
        except SimilarityUnavailable as error:
            raise W2CError(f"{error} (or pass --similarity-model PATH to a local model)") from error
        return CriticToolMetricsDoc(
            dataset=name,
            run_id=run_id,
            similarity_model=str(getattr(sim, "model_name", model)),
            settings=tuple(settings),
            overall=tuple(_overall(settings)),
        )

    @staticmethod
    def _setting(
        samples: dict[int, StoredSample], preds: Sequence[StoredPrediction], sim: Similarity
    ) -> CriticToolSettingDoc:
        first = preds[0]
        source = samples[first.item_id].sample.source
        total = sum(1 for s in samples.values() if s.sample.source == source)
        if source == "internal":
            internal: list[InternalScore] = [
                score_internal(
                    samples[p.item_id].sample,
                    p.rounds[0],
                    p.cot,
                    sim,
                    samples[p.item_id].variant,
                )
                for p in preds
            ]
            return CriticToolSettingDoc(
                first.target_model,
                source,
                None,
                first.cot,
                _means(internal_means(internal)),
                {k: _means(v) for k, v in by_error_type(internal).items()},
                {k: _means(v) for k, v in by_variant_internal(internal).items()},
                {s.sample_id: s.as_dict() for s in internal},
                total - len(internal),
            )
        mode: ExternalMode = "finish" if first.mode == "finish" else "skip"
        external: list[ExternalScore] = [
            score_external(
                samples[p.item_id].sample, p.rounds, mode, p.cot, sim, samples[p.item_id].variant
            )
            for p in preds
        ]
        return CriticToolSettingDoc(
            first.target_model,
            source,
            mode,
            first.cot,
            _means(external_means(external)),
            {},
            {k: _means(v) for k, v in by_variant_external(external).items()},
            {s.sample_id: s.as_dict() for s in external},
            total - len(external),
        )


def _overall(settings: Sequence[CriticToolSettingDoc]) -> list[CriticToolOverallDoc]:
    out: list[CriticToolOverallDoc] = []
    for internal in (s for s in settings if s.source == "internal"):
        for external in settings:
            if (
                external.source != "external"
                or external.target_model != internal.target_model
                or external.cot != internal.cot
                or external.mode is None
            ):
                continue
            # the means are `asdict` of these very classes, renamed by MEAN_NAMES
            score = overall_score(
                InternalMeans(**internal.means),  # type: ignore[arg-type]
                ExternalMeans(
                    **{k if k != "break" else "broke": v for k, v in external.means.items()}  # type: ignore[arg-type]
                ),
            )
            out.append(
                CriticToolOverallDoc(internal.target_model, internal.cot, external.mode, score)
            )
    return out
