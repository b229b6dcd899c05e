"""CriticTool review: register a file's samples, open a dataset's samples for labelling,
record each answer at once, and read the model's self-critique as a rater's answers.

The samples themselves are read from the dataset's file (its path and sha256 are kept on the
dataset row; a file that changed since is refused), the labels live in `critic_label`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from w2c_tui.db.critic_labels import DATASET_KIND, CriticRating
from w2c_tui.db.store import Store
from w2c_tui.domain.critictool import CriticFile, Sample
from w2c_tui.domain.critictool_labels import CriticLabel
from w2c_tui.domain.errors import InputError, NotFoundError
from w2c_tui.domain.team import Seen
from w2c_tui.io.critictool import read_critictool
from w2c_tui.runs.critictool.self_critique import self_critique


@dataclass(frozen=True)
class CriticUnit:
    """One sample to label: its item id and, when it has predictions, the model's id."""

    sample: Sample
    item_id: int
    model_id: int | None


@dataclass(frozen=True)
class CriticDataset:
    """A CriticTool dataset opened for review."""

    name: str
    file: CriticFile
    units: tuple[CriticUnit, ...]
    model: str | None
    """The name the predictions are recorded under (None: a dataset file, no model)."""


def model_name(critic_file: CriticFile) -> str | None:
    """The target model a predictions file is recorded under: its file name."""
    if not critic_file.kind.has_predictions:
        return None
    return f"predictions:{Path(critic_file.path).name}"


class CriticReviewService:
    """What the CriticTool review screen needs."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def register(self, path: Path, dataset: str | None = None) -> str:
        """Put a CriticTool file's samples in the store as dataset `dataset` (default: the
        file's stem); returns the dataset name. Idempotent."""
        critic_file = read_critictool(path)
        name = dataset or path.stem
        self._store.critic_labels.register_samples(name, critic_file)
        return name

    def is_critictool(self, dataset: str) -> bool:
        """Whether `dataset` holds CriticTool samples."""
        return any(d.name == dataset and d.kind == DATASET_KIND for d in self._store.datasets.all())

    def open(self, dataset: str) -> CriticDataset:
        """The dataset's samples with their unit ids (the file is read again and checked)."""
        found = next((d for d in self._store.datasets.all() if d.name == dataset), None)
        if found is None or found.kind != DATASET_KIND:
            raise NotFoundError(f"no CriticTool dataset named {dataset!r}")
        path, digest = self._store.critic_labels.source(dataset)
        if path is None:
            raise NotFoundError(f"dataset {dataset!r} does not say which file it came from")
        critic_file = read_critictool(Path(path))
        if critic_file.sha256 != digest:
            raise InputError(path, f"changed since it was registered as dataset {dataset!r}")
        ids = self._store.critic_labels.register_samples(dataset, critic_file)
        model = model_name(critic_file)
        model_id = self._store.critic_labels.model_id(model) if model else None
        units = tuple(
            CriticUnit(s, ids[s.sample_id], model_id if s.predictions else None)
            for s in critic_file.samples
        )
        return CriticDataset(dataset, critic_file, units, model)

    def rater(self, annotator: str) -> int:
        """The annotator's rater id."""
        rater = self._store.labels.rater_id(annotator)
        assert rater is not None
        return rater

    def current(self, rater_id: int, unit: CriticUnit) -> CriticLabel | None:
        """The annotator's answers on the unit."""
        return self._store.critic_labels.current(rater_id, unit.item_id, unit.model_id)

    def save(self, rater_id: int, unit: CriticUnit, label: CriticLabel, seen: Seen) -> bool:
        """Record the answers now (False: nothing changed)."""
        return self._store.critic_labels.set_label(
            rater_id, unit.item_id, unit.model_id, label, seen=seen
        )

    def ratings(self, dataset: str) -> list[CriticRating]:
        """Every rater's current answers on the dataset."""
        return self._store.critic_labels.ratings(dataset)

    def self_critiques(self, opened: CriticDataset) -> dict[str, CriticLabel]:
        """The model's own answers (detect, category; external: observed policy) by sample."""
        found: dict[str, CriticLabel] = {}
        for unit in opened.units:
            label = self_critique(unit.sample)
            if label is not None:
                found[unit.sample.sample_id] = label
        return found
