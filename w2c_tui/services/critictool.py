"""CriticTool datasets and predictions: import, and the official metrics on stored files."""

from __future__ import annotations

import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from w2c_tui.db.critic_store import CriticStore, StoredFile
from w2c_tui.db.store import Store
from w2c_tui.domain.critictool import CriticFile, Sample
from w2c_tui.domain.errors import InputError, W2CError
from w2c_tui.domain.records import ImportReport
from w2c_tui.io.critictool import read_critictool

DEFAULT_SIMILARITY_MODEL = "sentence-transformers/all-mpnet-base-v2"


@dataclass(frozen=True)
class Trajectories:
    """A CriticTool dataset for the trajectory view."""

    dataset: str
    samples: tuple[Sample, ...]
    predictions: dict[str, dict[str, tuple[str, ...]]]
    """Model → sample id → raw output(s)."""


class CriticToolService:
    """Imports CriticTool files; computes the reference's metrics from stored predictions."""

    def __init__(self, store: Store) -> None:
        self._critic = CriticStore(store.engine)

    def import_file(
        self, path: Path, *, dataset: str | None, model: str | None, dry_run: bool = False
    ) -> ImportReport:
        """Import a dataset file or a predictions file (the model: `model`, else the name)."""
        critic = read_critictool(path)
        if critic.kind.has_predictions:
            name = dataset or self._critic.dataset_for([s.item_sha256 for s in critic.samples])
            name = name or f"critictool_{critic.kind.source}_{_stem(path)}"
            model = model or _stem(path)
        else:
            name = dataset or f"critictool_{critic.kind.source}_{path.stem}"
            model = None
        new, unchanged, predictions = self._critic.store(critic, name, model, dry_run=dry_run)
        notes = [f"{critic.kind.source} samples ({'CoT' if critic.kind.cot else 'no CoT'})"]
        if model is not None:
            notes.append(f"predictions of {model}: {predictions} sample(s) new")
        return ImportReport(
            path=str(path),
            kind="critictool",
            dataset=name,
            items_new=new,
            items_unchanged=unchanged,
            responses_new=predictions,
            notes=tuple(notes),
            dry_run=dry_run,
        )

    def trajectories(self, dataset: str) -> Trajectories:
        """The dataset's samples (from its first stored file) and every model's predictions
        for them, by model and sample id (for the trajectory view)."""
        files = self._critic.files(dataset, every=True)
        if not files:
            raise InputError(dataset, "no CriticTool file stored for this dataset")
        samples = read_stored(files[0]).samples
        predictions: dict[str, dict[str, tuple[str, ...]]] = {}
        for stored in files:
            if stored.model is None:
                continue
            by_id = predictions.setdefault(stored.model, {})
            for sample in read_stored(stored).samples:
                if sample.predictions is not None:
                    by_id[sample.sample_id] = sample.predictions
        return Trajectories(dataset, samples, predictions)

    def metrics(
        self,
        dataset: str | None = None,
        model: str | None = None,
        similarity_model: str | None = None,
    ) -> list[dict[str, Any]]:
        """The official metrics of every stored predictions file (of `dataset`, `model`), with
        means per error type and per base/evol, and the paper's overall score per model."""
        from w2c_tui.runs.critictool.similarity import SentenceSimilarity

        files = self._critic.files(dataset, model)
        if not files:
            raise InputError(
                dataset or "(all datasets)",
                "no CriticTool predictions stored: import the official inference output first",
            )
        from w2c_tui.runs.critictool.similarity import SimilarityUnavailable

        similarity = SentenceSimilarity(similarity_model or DEFAULT_SIMILARITY_MODEL)
        try:
            results = [_score(stored, similarity) for stored in files]
        except SimilarityUnavailable as error:
            raise W2CError(f"{error} (--similarity-model PATH names a local model)") from error
        return results

    @staticmethod
    def overall(results: list[dict[str, Any]]) -> dict[str, float | None]:
        """The paper's overall score per model (§2.3.2 weights: reflect .2, correct .3, retry
        .05, skip/finish .45), from all its internal samples and all its external samples in
        skip mode (finish mode where it has no skip run) pooled; None where a part is missing.
        The reference code computes no overall score."""
        from w2c_tui.runs.critictool.summary import external_means, internal_means, overall_score

        out: dict[str, float | None] = {}
        for model in sorted({str(r["model"]) for r in results}):
            mine = [r for r in results if str(r["model"]) == model]
            internal = [x for r in mine if r["source"] == "internal" for x in r["_scores"]]
            modes = {r["mode"] for r in mine if r["source"] == "external"}
            mode = "skip" if "skip" in modes else "finish"
            external = [
                x
                for r in mine
                if r["source"] == "external" and r["mode"] == mode
                for x in r["_scores"]
            ]
            if not internal or not external:
                out[model] = None
                continue
            out[model] = overall_score(internal_means(internal), external_means(external))
        return out


def read_stored(stored: StoredFile) -> CriticFile:
    """A stored file read back through the parser (under its own name: its kind reads the
    same as at import)."""
    with tempfile.TemporaryDirectory(prefix="w2c-critic-") as folder:
        path = Path(folder) / stored.name
        path.write_text(stored.text, encoding="utf-8")
        return read_critictool(path)


def _stem(path: Path) -> str:
    return path.stem


def _score(stored: StoredFile, similarity: Any) -> dict[str, Any]:
    """Read the stored file back (same name, so its kind reads the same) and score it."""
    from w2c_tui.runs.critictool.metrics_external import score_external_file
    from w2c_tui.runs.critictool.metrics_internal import score_internal_file
    from w2c_tui.runs.critictool.summary import (
        by_error_type,
        by_variant_external,
        by_variant_internal,
        external_means,
        internal_means,
    )

    critic = read_stored(stored)
    out: dict[str, Any] = {
        "dataset": stored.dataset,
        "file": stored.name,
        "model": stored.model,
        "source": critic.kind.source,
        "cot": critic.kind.cot,
        "mode": critic.kind.mode,
    }
    if critic.kind.source == "internal":
        scores = score_internal_file(critic, similarity)
        out["means"] = asdict(internal_means(scores))
        out["by_error_type"] = {k: asdict(v) for k, v in by_error_type(scores).items()}
        out["by_variant"] = {k: asdict(v) for k, v in by_variant_internal(scores).items()}
        out["samples"] = [asdict(s) for s in scores]
        out["_scores"] = scores
    else:
        ext = score_external_file(critic, similarity)
        out["means"] = asdict(external_means(ext))
        out["by_variant"] = {k: asdict(v) for k, v in by_variant_external(ext).items()}
        out["samples"] = [asdict(s) for s in ext]
        out["_scores"] = ext
    return out
