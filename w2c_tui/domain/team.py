"""The team workflow's vocabulary: what an annotator had seen, units, plans, progress."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from w2c_tui.domain.labels import Label

KEY_MASK = 0x7FFFFFFF
"""Order keys are 31-bit, so that mixing two of them stays inside every SQL integer type."""


class Seen(StrEnum):
    """What an annotator had seen of a unit when committing a label."""

    BLIND = "blind"
    """Nothing revealed: the unit's model, the other raters and gold were hidden."""
    REVEALED = "revealed"
    """The unit's own reveal had happened (its model, the other raters' verdicts on it)."""
    GOLD = "gold"
    """Gold and the item-level scores had been revealed as well."""
    OPEN = "open"
    """Blind mode was off: everything was on screen."""

    @property
    def after_reveal(self) -> bool:
        """The annotator had seen something that could sway the label."""
        return self in (Seen.REVEALED, Seen.GOLD)


class AssignUnits(StrEnum):
    """What an assignment plan hands out."""

    RESPONSES = "responses"
    """A model's response to an item (the unit of behaviour labels)."""
    ITEMS = "items"
    """The item itself (item QA: which behaviour is correct)."""


def _key(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") & KEY_MASK


def shuffle_key(uuid: str) -> int:
    """An item's fixed pseudo-random key (stored with the item; blind order mixes it)."""
    return _key(uuid)


def annotator_key(annotator: str) -> int:
    """The annotator's own key: blind order sorts items by shuffle_key XOR this."""
    return _key(f"annotator:{annotator}")


def queue_key(seed: int, annotator: str, item_uuid: str) -> int:
    """An item's place in an annotator's queue: seeded, per annotator, unrelated to gold."""
    return _key(f"queue:{seed}:{annotator}:{item_uuid}")


def unit_rank(seed: int, unit_key: str) -> str:
    """Which units a seeded selection takes first (a larger selection extends a smaller one)."""
    return hashlib.sha256(f"select:{seed}:{unit_key}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Selection:
    """Which units an assignment plan covers."""

    units: AssignUnits = AssignUnits.RESPONSES
    sample: int | None = None
    """N units at random (seeded)."""
    per_label: int | None = None
    """N units per gold label."""
    per_tools: int | None = None
    """N units per tool bucket (0 / 1 / 2+); with per_label: N per (label, bucket) cell."""
    source: str | None = None
    """Only items of this source."""

    def describe(self) -> str:
        """A short text, e.g. 'responses, 20 per gold label'."""
        parts = [self.units.value]
        if self.source:
            parts.append(f"source {self.source}")
        if self.per_label and self.per_tools:
            parts.append(f"{self.per_label} per gold label × tool bucket")
        elif self.per_label:
            parts.append(f"{self.per_label} per gold label")
        elif self.per_tools:
            parts.append(f"{self.per_tools} per tool bucket (0 / 1 / 2+)")
        if self.sample:
            parts.append(f"{self.sample} at random")
        if not (self.sample or self.per_label or self.per_tools):
            parts.append("all units")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class PlanReport:
    """What `w2c assign` did."""

    dataset: str
    units: AssignUnits
    overlap: int
    seed: int
    selection: str
    selected: int
    """Units the selection covers (old and new)."""
    new_units: int
    new_assignments: int
    loads: dict[str, int]
    """Annotator → assigned units after this run."""
    notes: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        """Whether anything was written."""
        return self.new_assignments > 0

    @property
    def balanced(self) -> bool:
        """Every annotator's load is within ±1 of the others'."""
        values = list(self.loads.values())
        return not values or max(values) - min(values) <= 1


@dataclass(frozen=True, slots=True)
class AssignedUnit:
    """One unit in one annotator's queue."""

    annotator: str
    item_id: int
    item_uuid: str
    target_model: str | None
    response_id: int | None
    order: int
    """1-based place in the annotator's queue."""
    done: bool
    label: Label | None


@dataclass(frozen=True, slots=True)
class QueueProgress:
    """How far an annotator is through their assignments on a dataset."""

    done: int
    total: int


@dataclass(frozen=True, slots=True)
class AnnotatorProgress:
    """One annotator's line of the team progress table."""

    annotator: str
    assigned: int
    done: int
    labels: int
    """Current labels on the dataset (assigned or not)."""
    per_hour: float | None
    """Labels per hour of active time (gaps over the idle limit do not count)."""
    active_minutes: float
    last_active: datetime | None


@dataclass(frozen=True, slots=True)
class Estimate:
    """A statistic with its interval, or the reason it is not defined."""

    value: float | None
    low: float | None = None
    high: float | None = None
    n: int = 0
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class TeamStatus:
    """Team progress on one dataset."""

    dataset: str
    units: AssignUnits | None
    overlap: int | None
    annotators: tuple[AnnotatorProgress, ...]
    units_assigned: int
    units_complete: int
    """Units whose K assigned annotators have all labelled them."""
    alpha: Estimate
    """Krippendorff's α of the humans on the complete units, with a bootstrap interval."""
    notes: tuple[str, ...] = field(default_factory=tuple)

    def headline(self) -> str:
        """Three lines: the dataset, the plan and its complete units, α with its interval."""
        if self.units is None:
            plan = "no assignment plan yet (`w2c assign --annotators a,b,c --overlap 2 …`)"
        else:
            plan = (
                f"plan: {self.units.value}, {self.overlap} annotators per unit; "
                f"{self.units_complete} of {self.units_assigned} units complete"
            )
        alpha = self.alpha
        if alpha.value is None:
            reliability = f"human α: not defined ({alpha.reason})"
        else:
            interval = (
                f" [{alpha.low:.3f}, {alpha.high:.3f}]"
                if alpha.low is not None and alpha.high is not None
                else ""
            )
            reliability = (
                f"human α on the complete units: {alpha.value:.3f}{interval} (n = {alpha.n})"
            )
        return f"{self.dataset}\n{plan}\n{reliability}"


@dataclass(frozen=True, slots=True)
class Guideline:
    """One version of a dataset's labelling guidelines."""

    id: int
    dataset: str
    version: int
    text: str
    sha256: str
    created_at: datetime
    source_path: str | None = None


@dataclass(frozen=True, slots=True)
class LabelRow:
    """One validated row of a label file."""

    line: int
    uuid: str
    annotator: str
    label: Label | None
    target_model: str | None = None
    response_id: int | None = None
    note: str | None = None
    flags: tuple[str, ...] = ()
    dataset: str | None = None
    withdrawn: bool = False
    """The row says the unit has no label (status `missing`, as `labels export` writes a
    withdrawn label): the annotator's current label, if any, is withdrawn."""

    @property
    def unit(self) -> tuple[str, str, str | None, int | None]:
        """(annotator, uuid, target model, response id): what one current label is about."""
        return (self.annotator, self.uuid, self.target_model, self.response_id)
