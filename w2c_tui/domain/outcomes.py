"""What the benchmark builder takes away: QA marks, the cleaned dataset's plan and changelog."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from w2c_tui.domain.labels import Label
from w2c_tui.domain.models import Item
from w2c_tui.domain.qa import ANY_FLAG, QA_FLAG_CODES, QA_FLAGS, flag_text


@dataclass(frozen=True, slots=True)
class ItemFlag:
    """A checklist flag that is switched on now: who, on which item, which code."""

    annotator: str
    item_id: int
    code: str


@dataclass(frozen=True, slots=True)
class ItemNote:
    """An annotator's current note on an item (non-empty)."""

    annotator: str
    item_id: int
    text: str


class GoldSource(StrEnum):
    """Where the exported gold label comes from."""

    DATASET = "dataset"
    """The label as imported."""
    ADJUDICATED = "adjudicated"
    """An item-level adjudication where there is one, else the dataset's."""
    QA_CONSENSUS = "qa-consensus"
    """Adjudication first, then the majority of the humans' item-QA labels; ties and items
    nobody labelled keep the dataset's."""


@dataclass(frozen=True, slots=True)
class CleanOptions:
    """Which items a cleaned export keeps and which gold it writes."""

    drop_flags: frozenset[str] = frozenset()
    """Checklist codes that drop an item flagged with any of them; ANY_FLAG drops every
    flagged item."""
    gold: GoldSource = GoldSource.DATASET
    only_reviewed: bool = False
    """Keep only items somebody reviewed in item QA (a label, a flag or a note)."""

    def drops(self, code: str) -> bool:
        """Whether a flag with this code drops its item."""
        return ANY_FLAG in self.drop_flags or code in self.drop_flags

    @property
    def drop_codes(self) -> tuple[str, ...]:
        """The dropping codes in checklist order (every code for ANY_FLAG)."""
        return tuple(f.code for f in QA_FLAGS if self.drops(f.code))

    def __post_init__(self) -> None:
        unknown = sorted(self.drop_flags - QA_FLAG_CODES - {ANY_FLAG})
        if unknown:
            raise ValueError(f"unknown QA flag(s): {', '.join(unknown)}")


@dataclass(frozen=True, slots=True)
class FlagMarks:
    """One flag code on one item and everyone who has it switched on."""

    code: str
    annotators: tuple[str, ...]

    @property
    def text(self) -> str:
        """The checklist wording."""
        return flag_text(self.code)

    def describe(self) -> str:
        """e.g. `qca_vague (Generic / vague terms …) by ann, ben`."""
        return f"{self.code} ({self.text}) by {', '.join(self.annotators)}"


class ChangeKind(StrEnum):
    """What happened to an item in a cleaned export."""

    DROPPED = "dropped"
    RELABELLED = "relabelled"
    TIE_KEPT = "tie_kept"
    """The humans' item-QA labels tie: the dataset's gold stays (qa-consensus)."""


@dataclass(frozen=True, slots=True)
class Change:
    """One changelog entry: an item dropped or relabelled (or a tie that kept its gold)."""

    kind: ChangeKind
    uuid: str
    position: int
    dataset_gold: Label | None
    gold: Label | None
    """The gold written (None for a dropped item)."""
    reason: str
    flags: tuple[FlagMarks, ...] = ()
    adjudicator: str | None = None
    note: str = ""
    humans: tuple[tuple[str, Label], ...] = ()
    """The humans' item-QA labels behind a consensus or a tie."""


@dataclass(frozen=True, slots=True)
class CleanItem:
    """An item the export keeps, with the gold it gets and where that comes from."""

    item: Item
    gold: Label | None
    gold_source: str
    """`dataset`, `adjudicated` or `qa-consensus`: what decided the written gold."""
    flags: tuple[FlagMarks, ...] = ()

    @property
    def relabelled(self) -> bool:
        """True when the written gold differs from the imported one."""
        return self.gold != self.item.gold


@dataclass(frozen=True, slots=True)
class CleanPlan:
    """What a cleaned export holds and the changelog that explains it."""

    dataset: str
    options: CleanOptions
    n_items: int
    n_reviewed: int
    kept: tuple[CleanItem, ...]
    changes: tuple[Change, ...] = field(default=())

    def count(self, kind: ChangeKind) -> int:
        """How many changelog entries of this kind."""
        return sum(1 for c in self.changes if c.kind is kind)


class ItemFormat(StrEnum):
    """Formats of `w2c items export`."""

    WHEN2CALL = "when2call"
    """The official test-file format (untouched items byte for byte as imported)."""
    JSONL = "jsonl"
    CSV = "csv"
    PARQUET = "parquet"
    HF = "hf"
    """A Hugging Face `datasets` folder (`Dataset.save_to_disk`)."""

    @property
    def suffix(self) -> str:
        """The default file name ending."""
        return {"when2call": ".jsonl", "hf": ""}.get(self.value, f".{self.value}")


class TableFormat(StrEnum):
    """Formats of `w2c export table`."""

    CSV = "csv"
    PARQUET = "parquet"
    JSONL = "jsonl"


@dataclass(frozen=True, slots=True)
class ItemExport:
    """What `items export` wrote."""

    path: str
    changelog: str
    format: ItemFormat
    written: int
    dropped: int
    relabelled: int
    ties_kept: int
    lines_raw: int = 0
    """when2call: lines written exactly as imported."""
    lines_relabelled: int = 0
    lines_rebuilt: int = 0
    """when2call: lines rebuilt from stored fields (items imported before lines were kept)."""


@dataclass(frozen=True, slots=True)
class Ratio:
    """The tool-call : non-call ratio of preference pairs (by the chosen answer)."""

    tool_call: int
    other: int

    @classmethod
    def parse(cls, text: str) -> Ratio:
        """`2:1` → Ratio(2, 1); ValueError with the expected form otherwise."""
        parts = text.strip().split(":")
        try:
            a, b = (int(p) for p in parts)
        except ValueError:
            raise ValueError(f"expected a ratio like 2:1, got {text!r}") from None
        if a < 0 or b < 0 or a + b == 0:
            raise ValueError(f"a ratio needs non-negative parts, not both 0: {text!r}")
        return cls(a, b)

    def __str__(self) -> str:
        return f"{self.tool_call}:{self.other}"


@dataclass(frozen=True, slots=True)
class PreferencePair:
    """One RPO pair: the item, the chosen (correct) behaviour and the rejected one."""

    uuid: str
    position: int
    chosen: Label
    rejected: Label
    gold_source: str


@dataclass(frozen=True, slots=True)
class PreferenceExport:
    """What `export preference` wrote."""

    path: str
    manifest: str
    pairs: tuple[PreferencePair, ...]
    eligible_tool_call: int
    eligible_other: int
    ratio: Ratio | None
    seed: int
    dropped: int = 0

    @property
    def n_tool_call(self) -> int:
        """Pairs whose chosen answer is a tool call."""
        return sum(1 for p in self.pairs if p.chosen is Label.TOOL_CALL)

    @property
    def n_other(self) -> int:
        """Pairs whose chosen answer is not a tool call."""
        return len(self.pairs) - self.n_tool_call
