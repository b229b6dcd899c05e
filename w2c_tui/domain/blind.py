"""What a unit shows before its label: the task, and only metadata that says nothing of gold.

The pre-label view of a unit is the task itself — the question, the tools, the candidate
answers (item QA) or the response — plus the item metadata listed by `item_facts`. Everything
the dataset was built from waits for the reveal: When2Call makes a `request_for_info` item by
holding out a parameter (`held_out_param` is present on exactly those), a `cannot_answer` item
by taking the target tool away (`target_tool` is empty on exactly those), and `source_id`
names the original BFCL item (a lookup away from the original question). Which metadata may
show before the label is decided by measuring: `tests/services/test_blind_view.py` fits a
one-feature classifier of gold on every fact this module lets through, on the real 300-item
judge file, and fails if any beats chance by more than `MAX_GAIN`. On other datasets the
review service runs the same measure (`predictive_fields`) and keeps back a field that
predicts that dataset's gold.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from w2c_tui.domain.models import Item

TASK_FIELDS = ("question", "tools", "answers", "response")
"""What the annotator judges: always on screen (the task, not metadata about it)."""

GOLD_REVEALING = frozenset({"held_out_param", "target_tool", "orig_question", "source_id"})
"""Metadata the When2Call labels are built from (or a lookup of the original item away):
never shown before the reveal."""

PRE_LABEL = ("source", "kind")
"""Metadata a blind unit may show before its label (unless the dataset makes it predictive)."""

MAX_GAIN = 0.10
"""A field may show before the label only if a one-feature classifier of gold built on it is
right at most this much more often than always guessing the commonest gold label."""

TARGET_NAME_MAX = 3000


@dataclass(frozen=True, slots=True)
class Fact:
    """One piece of item metadata as the item pane shows it."""

    name: str
    """The field (`source`, `held_out_param`, …)."""
    label: str
    """How the pane names it."""
    value: str


def target_tool_name(raw: str | None) -> str | None:
    """The target tool's name (its JSON spec's `name`), or a cut of the raw text."""
    if not raw:
        return None
    if len(raw) > TARGET_NAME_MAX:
        return raw[:40] + "…"
    try:
        spec = json.loads(raw)
    except json.JSONDecodeError:
        return raw[:40]
    return str(spec.get("name")) if isinstance(spec, dict) else None


def metadata(item: Item) -> tuple[Fact, ...]:
    """Every metadata fact of an item, in the pane's order (empty fields left out)."""
    out: list[Fact] = []
    for name, label, value in (
        ("source", "source", item.source),
        ("source_id", "source id", item.source_id),
        ("held_out_param", "held-out parameter", item.held_out_param),
        ("target_tool", "target tool", target_tool_name(item.target_tool)),
        ("kind", "kind", item.kind.value),
    ):
        if value:
            out.append(Fact(name, label, value[:200]))
    return tuple(out)


def item_facts(item: Item, *, blind: bool, shown: Sequence[str] = PRE_LABEL) -> tuple[Fact, ...]:
    """The metadata the item pane shows: everything once gold is revealed (or blind mode is
    off); before that only the `shown` fields (PRE_LABEL less what the dataset makes
    predictive), never a GOLD_REVEALING one. The single source of the pane and of the test."""
    facts = metadata(item)
    if not blind:
        return facts
    return tuple(f for f in facts if f.name in shown and f.name not in GOLD_REVEALING)


def majority_gain(values: Sequence[Hashable], golds: Sequence[Hashable]) -> float:
    """How much better than chance one feature predicts gold, in-sample: the share of units
    whose gold is the commonest gold of their value, minus the commonest gold's share. A value
    seen once predicts its own unit perfectly, so a field that nearly identifies the item (an
    id) scores high and is kept back too."""
    if not golds:
        return 0.0
    by_value: dict[Hashable, Counter[Hashable]] = defaultdict(Counter)
    for value, gold in zip(values, golds, strict=True):
        by_value[value][gold] += 1
    hits = sum(counts.most_common(1)[0][1] for counts in by_value.values())
    chance = Counter(golds).most_common(1)[0][1] / len(golds)
    return hits / len(golds) - chance


def predictive_fields(
    columns: dict[str, Sequence[Hashable]], golds: Sequence[Hashable]
) -> frozenset[str]:
    """The fields (name → one value per unit) whose value or whose presence predicts gold
    better than chance by more than MAX_GAIN."""
    out = set()
    for name, values in columns.items():
        present = [value is not None and value != "" for value in values]
        if max(majority_gain(values, golds), majority_gain(present, golds)) > MAX_GAIN:
            out.add(name)
    return frozenset(out)


def pre_label_fields(
    columns: dict[str, Sequence[Hashable]], golds: Sequence[Hashable]
) -> tuple[str, ...]:
    """PRE_LABEL less the fields this dataset makes predictive (`columns` holds them)."""
    keep_back = predictive_fields(
        {name: values for name, values in columns.items() if name in PRE_LABEL}, golds
    )
    return tuple(name for name in PRE_LABEL if name not in keep_back)


class BlindPolicy(StrEnum):
    """An assignment plan's blind mode (`w2c assign --blind`)."""

    REQUIRED = "required"
    """Its annotators label blind and cannot switch blind mode off."""
    DEFAULT = "default"
    """Opens blind (always for responses; for items when the overlap is 2 or more)."""
    OFF = "off"
    """Opens with blind mode off (an annotator may switch it on)."""


@dataclass(frozen=True, slots=True)
class PlanBlind:
    """What an annotator's assignment plan says about blind mode."""

    policy: BlindPolicy
    overlap: int

    def opens_blind(self, usual: bool) -> bool:
        """Whether the review screen opens blind (`usual`: the mode's own default)."""
        if self.policy is BlindPolicy.OFF:
            return False
        return self.policy is BlindPolicy.REQUIRED or self.overlap >= 2 or usual
