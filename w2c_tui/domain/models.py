"""Frozen records the services hand to the front ends."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from w2c_tui.domain.changes import Change as Change  # re-exported: undo records
from w2c_tui.domain.changes import FlagChange as FlagChange
from w2c_tui.domain.changes import LabelChange as LabelChange
from w2c_tui.domain.changes import NoteChange as NoteChange
from w2c_tui.domain.labels import LABELS, ItemKind, Label, RaterKind, VerdictStatus
from w2c_tui.domain.qa import flag_text
from w2c_tui.domain.tools import signature


@dataclass(frozen=True, slots=True)
class Tool:
    """One tool specification as offered to the model (raw JSON text kept verbatim)."""

    raw: str

    @property
    def spec(self) -> dict[str, Any]:
        """The parsed specification (an empty dict if the text is not a JSON object)."""
        try:
            value = json.loads(self.raw)
        except json.JSONDecodeError:
            return {}
        return value if isinstance(value, dict) else {}

    @property
    def name(self) -> str:
        """The tool's name, or `?` when the spec has none."""
        return str(self.spec.get("name", "?"))

    @property
    def signature(self) -> str:
        """One line: name(required*: type, optional: type)."""
        return signature(self.spec) if self.spec else self.raw[:120]

    def pretty(self) -> str:
        """Indented JSON for display, non-ASCII shown as characters."""
        try:
            return json.dumps(json.loads(self.raw), indent=2, ensure_ascii=False)
        except json.JSONDecodeError:
            return self.raw


@dataclass(frozen=True, slots=True)
class Item:
    """A benchmark item (or a train example kept for browsing)."""

    id: int
    dataset: str
    uuid: str
    position: int
    question: str
    tools: tuple[Tool, ...]
    answers: tuple[tuple[str, str], ...]
    gold: Label | None
    kind: ItemKind = ItemKind.TEST
    source: str | None = None
    source_id: str | None = None
    held_out_param: str | None = None
    target_tool: str | None = None
    orig_question: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    raw_line: str | None = None
    """The file's line as imported (None for items imported before raw lines were kept)."""

    @property
    def n_tools(self) -> int:
        """How many tools the model is offered."""
        return len(self.tools)

    def answer(self, label: Label) -> str | None:
        """The candidate answer for `label`, if the item has one."""
        for name, text in self.answers:
            if name in (label.value, "direct_answer" if label is Label.DIRECT else ""):
                return text
        return None


@dataclass(frozen=True, slots=True)
class ItemRow:
    """The few fields the items list shows per line."""

    id: int
    uuid: str
    position: int
    gold: Label | None
    n_tools: int
    question: str
    labelled: bool
    dispute: float | None = None
    """In the disagreement queue: how split the item's readings are (1 − share of the mode)."""


@dataclass(frozen=True, slots=True)
class Dataset:
    """A named collection of items with counts for the datasets screen."""

    id: int
    name: str
    kind: str
    source_path: str | None
    sha256: str | None
    imported_at: datetime
    n_items: int = 0
    n_human_labels: int = 0
    n_responses: int = 0


@dataclass(frozen=True, slots=True)
class Rater:
    """Something that assigns labels: a person, a judge, a scorer, the gold label."""

    id: int
    kind: RaterKind
    name: str
    config: dict[str, Any] = field(default_factory=dict)

    @property
    def display(self) -> str:
        """Name for screens, with the kind."""
        return f"{self.name} ({self.kind.value})"


@dataclass(frozen=True, slots=True)
class Verdict:
    """One rater's reading of an item or of a model's response to it."""

    id: int
    rater: Rater
    item_id: int
    target_model: str | None
    response_id: int | None
    label: Label | None
    status: VerdictStatus
    raw: str | None
    scores: dict[str, Any]
    created_at: datetime
    supersedes_id: int | None = None
    run_id: int | None = None


@dataclass(frozen=True, slots=True)
class Response:
    """A target model's free-form response to an item, with every current verdict on it."""

    id: int | None
    item_id: int
    target_model: str
    text: str | None
    created_at: datetime | None
    verdicts: tuple[Verdict, ...] = ()

    def by_kind(self, kind: RaterKind) -> tuple[Verdict, ...]:
        """The verdicts given by raters of `kind`."""
        return tuple(v for v in self.verdicts if v.rater.kind is kind)


@dataclass(frozen=True, slots=True)
class ItemQA:
    """One annotator's item-QA state: the correct behaviour, flags on, a note."""

    label: Label | None
    flags: frozenset[str]
    note: str


@dataclass(frozen=True, slots=True)
class ItemDetail:
    """Everything the review screen shows for one item."""

    item: Item
    models: tuple[ModelPanel, ...]
    qa: ItemQA
    assigned: frozenset[int] = frozenset()
    """Ids of this item's responses in the annotator's queue (empty: no such assignments)."""

    @property
    def responses(self) -> tuple[Response, ...]:
        """Every response, model by model."""
        return tuple(r for panel in self.models for r in panel.responses)


@dataclass(frozen=True, slots=True)
class LabelRecord:
    """A human label as exported: who, what, when."""

    annotator: str
    dataset: str
    item_uuid: str
    target_model: str | None
    label: Label | None
    status: VerdictStatus
    flags: tuple[str, ...]
    note: str
    created_at: datetime
    first_labelled_at: datetime
    n_edits: int
    guideline_version: int | None = None
    """The guideline version in force when the current label was made (None: none yet)."""
    seen: str | None = None
    """What the annotator had seen of the unit when labelling (blind, revealed, gold, open)."""
    gold: Label | None = None
    """The item's gold label as imported."""
    question: str = ""
    response: str | None = None
    """The text of the labelled response (None for item QA)."""

    @property
    def flag_names(self) -> tuple[str, ...]:
        """The checklist wording of each flag (the paper's Table 6)."""
        return tuple(flag_text(code) for code in self.flags)


@dataclass(frozen=True, slots=True)
class Progress:
    """Labelling progress of one annotator on one dataset in one mode."""

    done: int
    total: int

    @property
    def fraction(self) -> float:
        """Share done, 0 when there is nothing to do."""
        return self.done / self.total if self.total else 0.0


def labels_by_index() -> dict[int, Label]:
    """Option index → label (for scorers that answer with an index)."""
    return dict(enumerate(LABELS))


@dataclass(frozen=True, slots=True)
class ModelPanel:
    """One target model's side of an item: its responses and its model-level verdicts."""

    target_model: str
    responses: tuple[Response, ...]
    model_verdicts: tuple[Verdict, ...]


@dataclass(frozen=True, slots=True)
class Rating:
    """One current verdict as the agreement layer reads it."""

    item_id: int
    item_uuid: str
    target_model: str | None
    response_id: int | None
    rater: Rater
    label: Label | None
    status: VerdictStatus
    scores: dict[str, Any]
    created_at: datetime
    repeats: tuple[tuple[Label | None, VerdictStatus], ...] = ()
    """A run with --repeats: the verdicts of samples 1…k−1 of the same task, in sample order
    (this rating is sample 0); empty otherwise."""


@dataclass(frozen=True, slots=True)
class ItemFacts:
    """What metrics need of an item besides its ratings."""

    item_id: int
    uuid: str
    position: int
    gold: Label | None
    n_tools: int
    source: str | None = None
