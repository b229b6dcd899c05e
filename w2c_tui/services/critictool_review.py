"""CriticTool review: a dataset's units for labelling, each answer recorded at once, and the
model's self-critique read as a rater's answers.

Samples and predictions come from the store (`Store.critictool`); the unit of a label is the
sample's item and, when the sample has predictions, the response holding one model's
prediction (one unit per prediction); the labels are answers of the `critictool` schema in the
label store.
"""

from __future__ import annotations

from dataclasses import dataclass

from w2c_tui.db.critictool_labels import CriticToolRating
from w2c_tui.db.store import Store
from w2c_tui.domain.critictool import Sample
from w2c_tui.domain.critictool_labels import CriticToolLabel
from w2c_tui.domain.critictool_stored import StoredPrediction
from w2c_tui.domain.team import Seen
from w2c_tui.runs.critictool.self_critique import self_critique


@dataclass(frozen=True)
class CriticToolUnit:
    """One thing to label: a sample and, if it has any, one model's prediction of it."""

    item_id: int
    sample: Sample
    prediction: StoredPrediction | None

    @property
    def response_id(self) -> int | None:
        """The response row of the prediction (None: the sample alone)."""
        return self.prediction.response_id if self.prediction else None

    @property
    def rounds(self) -> tuple[str, ...]:
        """The model's raw replies (empty: no prediction)."""
        return self.prediction.rounds if self.prediction else ()


@dataclass(frozen=True)
class CriticToolDataset:
    """A CriticTool dataset opened for review."""

    name: str
    units: tuple[CriticToolUnit, ...]


class CriticToolReviewService:
    """What the CriticTool review screen needs."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def is_critictool(self, dataset: str) -> bool:
        """Whether `dataset` holds CriticTool samples."""
        return dataset in self._store.critictool.datasets()

    def open(self, dataset: str, target_model: str | None = None) -> CriticToolDataset:
        """The dataset's units in sample order (optionally one model's predictions only)."""
        samples = self._store.critictool.samples(dataset)
        by_item: dict[int, list[StoredPrediction]] = {}
        for prediction in self._store.critictool.predictions(
            dataset=dataset, target_model=target_model
        ):
            by_item.setdefault(prediction.item_id, []).append(prediction)
        units: list[CriticToolUnit] = []
        for stored in samples:
            predictions: list[StoredPrediction | None] = [*by_item.get(stored.item_id, [])]
            units += [
                CriticToolUnit(stored.item_id, stored.sample, p) for p in predictions or [None]
            ]
        return CriticToolDataset(dataset, tuple(units))

    def rater(self, annotator: str) -> int:
        """The annotator's rater id."""
        rater = self._store.labels.rater_id(annotator)
        assert rater is not None
        return rater

    def current(self, rater_id: int, unit: CriticToolUnit) -> CriticToolLabel | None:
        """The annotator's answers on the unit."""
        return self._store.critictool_labels.current(rater_id, unit.item_id, unit.response_id)

    def save(
        self,
        rater_id: int,
        unit: CriticToolUnit,
        label: CriticToolLabel,
        seen: Seen,
        *,
        deadline_s: float = 10.0,
    ) -> bool:
        """Record the answers now (False: nothing changed); a busy database is retried until
        `deadline_s`, then WriteError says why they were not saved."""
        return self._store.critictool_labels.set_label(
            rater_id, unit.item_id, unit.response_id, label, seen=seen, deadline_s=deadline_s
        )

    def undo(self, rater_id: int, unit: CriticToolUnit) -> CriticToolLabel | None:
        """Put back the answers before the last change (recorded as one more change)."""
        return self._store.critictool_labels.undo(rater_id, unit.item_id, unit.response_id)

    def ratings(self, dataset: str) -> list[CriticToolRating]:
        """Every rater's current answers on the dataset."""
        return self._store.critictool_labels.ratings(dataset)

    def self_critiques(self, opened: CriticToolDataset) -> dict[tuple[int, int], CriticToolLabel]:
        """The model's own answers (detect, category; external: observed policy) by
        (item id, response id)."""
        found: dict[tuple[int, int], CriticToolLabel] = {}
        for unit in opened.units:
            if unit.response_id is not None:
                found[(unit.item_id, unit.response_id)] = self_critique(unit.sample, unit.rounds)
        return found
