"""Review-screen state that the services understand: modes and filters."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from w2c_tui.domain.labels import Label


class ReviewMode(StrEnum):
    """What the annotator labels."""

    RESPONSES = "responses"
    ITEM_QA = "item_qa"

    @property
    def display_name(self) -> str:
        """Name for the header."""
        return "response labelling" if self is ReviewMode.RESPONSES else "item QA"


class ListOrder(StrEnum):
    """How the items list is ordered (an assigned queue always has its own seeded order)."""

    FILE = "file"
    """The dataset's file order."""
    SHUFFLED = "shuffled"
    """Shuffled per annotator (blind mode): position says nothing about the gold label."""


class ToolCount(StrEnum):
    """Buckets of the number of tools offered."""

    NONE = "0"
    ONE = "1"
    SEVERAL = "2+"


@dataclass(frozen=True, slots=True)
class ItemFilter:
    """Which items the review list shows; `None` means any."""

    gold: Label | None = None
    tools: ToolCount | None = None
    source: str | None = None
    labelled: bool | None = None
    disagree: bool = False
    search: str = ""
    ranked: bool = False
    """The disagreement queue: only items raters disagree on, most disputed first."""
    queue: bool = False
    """Only the annotator's assigned units, in their queue's seeded order."""
    informative: bool = False
    """Most informative first: the items in `w2c next`'s order (responses whose label would
    most narrow the judge's agreement interval), then the rest in the list's order. Not in
    blind mode: the order comes from how the automated raters disagree."""
    order: ListOrder = ListOrder.FILE
    """File order or shuffled per annotator (not a filter: it never hides an item)."""
    flag: str | None = None
    """Only items with this item-QA flag switched on by anyone (a code of domain.qa, or
    "any" for any flag)."""
    blind: bool = False
    """The list is blind (not a filter): a filter that reads gold or other raters (gold,
    human ≠ judge, QA flags, the disagreement queue) keeps only items the annotator has
    finished."""

    @property
    def reads_others(self) -> bool:
        """The filter reads gold or other raters' readings."""
        return self.gold is not None or self.disagree or self.ranked or self.flag is not None

    @property
    def computed(self) -> bool:
        """The list is a ranking computed in the service (the disagreement queue, or most
        informative first), not an ORDER BY of the store."""
        return self.ranked or self.informative

    @property
    def finished_only(self) -> bool:
        """Blind and reading gold or other raters: only the annotator's finished items."""
        return self.blind and self.reads_others

    def with_(self, **changes: object) -> ItemFilter:
        """A copy with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def active(self) -> bool:
        """True when anything is filtered."""
        return self.with_(order=ListOrder.FILE, blind=False) != ItemFilter()

    def cleared(self) -> ItemFilter:
        """No filter, the same order."""
        return ItemFilter(order=self.order, blind=self.blind)

    def describe(self) -> str:
        """A short text for the header, e.g. 'gold=tool_call tools=0'."""
        parts = []
        if self.gold:
            parts.append(f"gold={self.gold.value}")
        if self.tools:
            parts.append(f"tools={self.tools.value}")
        if self.source:
            parts.append(f"source={self.source}")
        if self.labelled is not None:
            parts.append("labelled" if self.labelled else "unlabelled")
        if self.disagree:
            parts.append("human≠judge")
        if self.flag:
            parts.append(f"flag={self.flag}")
        if self.search:
            parts.append(f"search={self.search!r}")
        if self.ranked:
            parts.append("disagreement queue")
        if self.queue:
            parts.append("my queue")
        if self.informative:
            parts.append("most informative first")
        if self.finished_only:
            parts.append("(blind: only items you finished)")
        return " ".join(parts) or "all items"


class UnitKind(StrEnum):
    """What the raters label."""

    BEHAVIOUR = "behaviour"
    ITEM = "item"


@dataclass(frozen=True, slots=True)
class ReviewPlace:
    """Where an annotator left off in a dataset: the mode, the item, and whether in their
    queue."""

    mode: ReviewMode
    item_id: int | None
    queue: bool = False
