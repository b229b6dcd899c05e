"""CriticTool samples and predictions as the store holds them (ids for labels and agreement)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from w2c_tui.domain.critictool import ExternalMode, Sample, Variant

CRITICTOOL_DATASET_KIND = "critictool"
"""`dataset.kind` of a CriticTool dataset (When2Call screens and imports keep off it)."""
CRITICTOOL_ITEM_KIND = "critictool"
"""`item.kind` of a CriticTool sample's item row."""
DEFAULT_DATASET = "critictool"
"""Where CriticTool files go when no dataset is named and none holds their samples yet."""


@dataclass(frozen=True)
class StoredSample:
    """A stored sample: its item id (the unit labels and agreement key on) and what it is.

    `sample` holds the dataset form: the original system prompt, the dataset's turns, no
    instruction and no predictions (those are `StoredPrediction`s)."""

    item_id: int
    dataset: str
    sample: Sample
    variant: Variant | None
    cot: bool
    mode: ExternalMode | None
    source_path: str | None


@dataclass(frozen=True)
class StoredPrediction:
    """One model's predictions for one sample in one setting: its response id is the unit a
    label of this prediction keys on."""

    id: int
    item_id: int
    response_id: int
    target_model: str
    run_id: int | None
    mode: ExternalMode | None
    """skip or finish for external samples, None for internal ones."""
    cot: bool
    rounds: tuple[str, ...]
    """The raw replies: one for an internal sample, one per round for an external one."""
    parsed: tuple[dict[str, Any], ...]
    """Each round as the evaluators parse it: error, thought, name, args, parsed_as."""
    source_path: str | None


@dataclass(frozen=True)
class PredictionSet:
    """Predictions of one sample ready to store: raw rounds and their parsed form."""

    sample_id: str
    rounds: tuple[str, ...]
    parsed: tuple[dict[str, Any], ...]
    raw_json: str | None
