"""The cleaned dataset's plan: which items stay, which gold each gets, and why (the changelog).

Drops come first (a flag in `--drop-flagged`, then `--only-reviewed`); a dropped item is not
relabelled. The gold of a kept item: the dataset's; with `adjudicated`, an item-level
adjudication (an `adjudicator` verdict with no target model) where there is one; with
`qa-consensus`, the adjudication, else the majority of the humans' item-QA labels, a tie
keeping the dataset's gold (listed in the changelog).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from w2c_tui.db.store import Store
from w2c_tui.domain.labels import Label, RaterKind
from w2c_tui.domain.models import Item
from w2c_tui.domain.outcomes import (
    Change,
    ChangeKind,
    CleanItem,
    CleanOptions,
    CleanPlan,
    FlagMarks,
    GoldSource,
)
from w2c_tui.domain.qa import QA_FLAGS
from w2c_tui.domain.review import UnitKind
from w2c_tui.services.consensus import consensus
from w2c_tui.services.qa_summary import qa_state
from w2c_tui.services.readings import Readings, stored_readings

CHECKLIST_ORDER = {f.code: n for n, f in enumerate(QA_FLAGS)}


class CleaningService:
    """Plans cleaned exports (items export and preference pairs share it)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def _readings(self, dataset: str) -> Readings:
        ratings = self._store.ratings
        return stored_readings(ratings, dataset, UnitKind.ITEM, include_gold=False)

    def _notes(self, dataset: str) -> dict[int, str]:
        """Item id → the note of its current item-level adjudication."""
        return {
            e.item_id: e.raw or ""
            for e in self._store.team.history(dataset, RaterKind.ADJUDICATOR)
            if e.is_current and e.target_model is None
        }

    def plan(self, dataset: str, options: CleanOptions) -> CleanPlan:
        """What an export of `dataset` with `options` holds, and its changelog."""
        items = self._store.item_qa.items(dataset)
        state = qa_state(self._store, dataset)
        marks: dict[int, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for flag in state.flags:
            marks[flag.item_id][flag.code].append(flag.annotator)
        reviewed = state.reviewed_by_anyone
        readings = self._readings(dataset) if options.gold is not GoldSource.DATASET else None
        notes = self._notes(dataset) if readings is not None else {}
        majority = consensus(readings).labels if readings is not None else {}
        kept: list[CleanItem] = []
        changes: list[Change] = []
        for item in items:
            flags = tuple(
                FlagMarks(code, tuple(sorted(names)))
                for code, names in sorted(
                    marks[item.id].items(), key=lambda kv: CHECKLIST_ORDER.get(kv[0], 99)
                )
            )
            dropping = [m for m in flags if options.drops(m.code)]
            if dropping:
                changes.append(
                    _change(
                        ChangeKind.DROPPED,
                        item,
                        None,
                        "flagged " + "; ".join(m.describe() for m in dropping),
                        flags=tuple(dropping),
                    )
                )
                continue
            if options.only_reviewed and item.id not in reviewed:
                changes.append(_change(ChangeKind.DROPPED, item, None, "not reviewed in item QA"))
                continue
            gold, source = item.gold, GoldSource.DATASET.value
            if readings is not None:
                gold, source, change = _decide(item, options.gold, readings, majority, notes)
                if change is not None:
                    changes.append(change)
            kept.append(CleanItem(item=item, gold=gold, gold_source=source, flags=flags))
        return CleanPlan(
            dataset=dataset,
            options=options,
            n_items=len(items),
            n_reviewed=len(reviewed),
            kept=tuple(kept),
            changes=tuple(changes),
        )


def _change(
    kind: ChangeKind,
    item: Item,
    gold: Label | None,
    reason: str,
    *,
    flags: tuple[FlagMarks, ...] = (),
    adjudicator: str | None = None,
    note: str = "",
    humans: tuple[tuple[str, Label], ...] = (),
) -> Change:
    return Change(
        kind=kind,
        uuid=item.uuid,
        position=item.position,
        dataset_gold=item.gold,
        gold=gold,
        reason=reason,
        flags=flags,
        adjudicator=adjudicator,
        note=note,
        humans=humans,
    )


def _decide(
    item: Item,
    source: GoldSource,
    readings: Readings,
    majority: dict[str, Label],
    notes: dict[int, str],
) -> tuple[Label | None, str, Change | None]:
    """(gold, where it comes from, the changelog entry or None) for one kept item."""
    key = item.uuid
    humans = tuple(
        (h.name, lab) for h in readings.humans() if (lab := readings.label(key, h.key)) is not None
    )
    if key in readings.adjudicated:
        label, who = readings.adjudicated[key]
        change = None
        if label != item.gold:
            change = _change(
                ChangeKind.RELABELLED,
                item,
                label,
                f"adjudicated by {who}",
                adjudicator=who,
                note=notes.get(item.id, ""),
                humans=humans,
            )
        return label, GoldSource.ADJUDICATED.value, change
    if source is GoldSource.ADJUDICATED or not humans:
        return item.gold, GoldSource.DATASET.value, None
    if key not in majority:
        counts = Counter(lab for _, lab in humans).most_common()
        tied = ", ".join(f"{lab.value} {n}" for lab, n in counts)
        reason = f"the humans' item-QA labels tie ({tied}): the dataset's gold stays"
        return (
            item.gold,
            GoldSource.DATASET.value,
            _change(ChangeKind.TIE_KEPT, item, item.gold, reason, humans=humans),
        )
    label = majority[key]
    change = None
    if label != item.gold:
        share = sum(1 for _, lab in humans if lab is label)
        change = _change(
            ChangeKind.RELABELLED,
            item,
            label,
            f"human item-QA majority ({share} of {len(humans)})",
            humans=humans,
        )
    return label, GoldSource.QA_CONSENSUS.value, change
