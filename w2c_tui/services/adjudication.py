"""Adjudication: the units humans disagree on, resolved by a person whose decision becomes the
human reference (it takes precedence over the majority wherever a consensus is computed)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from w2c_tui.db.store import Store
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.labels import Label, RaterKind
from w2c_tui.domain.models import LabelChange
from w2c_tui.domain.review import UnitKind
from w2c_tui.services.consensus import consensus
from w2c_tui.services.readings import Readings, stored_readings


@dataclass(frozen=True, slots=True)
class Case:
    """One unit in the adjudication queue, with everything the adjudicator needs."""

    unit: str
    item_id: int
    uuid: str
    position: int
    question: str
    target_model: str | None
    response_id: int | None
    response_text: str | None
    humans: tuple[tuple[str, Label], ...]
    others: tuple[tuple[str, str], ...]
    """(rater key, its reading: a label or 'invalid') for judges and scorers."""
    gold: Label | None
    split: float
    """1 − the share of the most common human label (0 = unanimous)."""
    majority: Label | None
    decision: Label | None = None
    adjudicator: str | None = None
    note: str = ""


def _split(labels: list[Label]) -> float:
    if not labels:
        return 0.0
    return 1 - Counter(labels).most_common(1)[0][1] / len(labels)


class AdjudicationService:
    """Builds the queue and records decisions."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def readings(self, dataset: str, kind: UnitKind) -> Readings:
        """Current verdicts by unit (adjudications kept apart as references)."""
        ratings = self._store.ratings
        return stored_readings(ratings, dataset, kind, include_gold=False)

    def queue(
        self, dataset: str, kind: UnitKind = UnitKind.BEHAVIOUR, against: str | None = None
    ) -> list[Case]:
        """Units where the humans disagree, most split first (undecided before decided).

        With `against` (an automated rater's key): also the units where the human majority
        differs from that rater, even when the humans agree.
        """
        readings = self.readings(dataset, kind)
        if against is not None and against not in {r.key for r in readings.automated()}:
            known = ", ".join(r.key for r in readings.automated()) or "none"
            raise NotFoundError(f"no automated rater {against!r} (raters: {known})")
        humans = readings.humans()
        majority = consensus(readings, min_humans=1)
        notes = {
            (e.item_id, e.response_id): e.raw or ""
            for e in self._store.team.history(dataset, RaterKind.ADJUDICATOR)
            if e.is_current
        }
        cases = []
        for unit in readings.units:
            labels = [
                (h.name, lab)
                for h in humans
                if (lab := readings.label(unit.key, h.key)) is not None
            ]
            split = _split([lab for _, lab in labels])
            disputed = len(labels) >= 2 and split > 0
            if against is not None:
                other = readings.label(unit.key, against)
                agreed = readings.adjudicated.get(unit.key, (None, ""))[0] or majority.labels.get(
                    unit.key
                )
                disputed = disputed or (
                    agreed is not None and other is not None and agreed != other
                )
            if not disputed and unit.key not in readings.adjudicated:
                continue
            cases.append(self._case(readings, unit.key, tuple(labels), split, notes))
        cases.sort(key=lambda c: (c.decision is not None, -c.split, -len(c.humans), c.position))
        return cases

    def _case(
        self,
        readings: Readings,
        unit_key: str,
        humans: tuple[tuple[str, Label], ...],
        split: float,
        notes: dict[tuple[int, int | None], str],
    ) -> Case:
        unit = next(u for u in readings.units if u.key == unit_key)
        detail = self._store.items.detail(unit.item_id, None)
        response = None
        if unit.target_model is not None:
            mine = [r for r in detail.responses if r.target_model == unit.target_model]
            response = max(mine, key=lambda r: r.id or 0) if mine else None
        others = tuple(
            (r.key, str(value))
            for r in readings.automated()
            if (value := readings.values.get((unit_key, r.key))) is not None
        )
        counts = Counter(lab for _, lab in humans).most_common()
        majority = (
            counts[0][0] if counts and (len(counts) == 1 or counts[0][1] > counts[1][1]) else None
        )
        decided = readings.adjudicated.get(unit_key)
        return Case(
            unit=unit_key,
            item_id=unit.item_id,
            uuid=unit.item_uuid,
            position=unit.position,
            question=detail.item.question,
            target_model=unit.target_model,
            response_id=response.id if response else None,
            response_text=response.text if response else None,
            humans=humans,
            others=others,
            gold=detail.item.gold,
            split=split,
            majority=majority,
            decision=decided[0] if decided else None,
            adjudicator=decided[1] if decided else None,
            note=notes.get((unit.item_id, response.id if response else None), "")
            if decided
            else "",
        )

    def decide(
        self, case: Case, adjudicator: str, label: Label, note: str = ""
    ) -> LabelChange | None:
        """Record the adjudicator's decision on the case's unit (history kept like any label)."""
        labels = self._store.labels
        rater = labels.rater_id(adjudicator, kind=RaterKind.ADJUDICATOR)
        assert rater is not None
        return labels.set_label(
            rater, case.item_id, case.response_id, label, source="adjudication", note=note
        )

    def export(self, dataset: str) -> list[dict[str, object]]:
        """Every current adjudication with the human labels it resolved (both unit kinds)."""
        events = [
            e for e in self._store.team.history(dataset, RaterKind.ADJUDICATOR) if e.is_current
        ]
        rows: list[dict[str, object]] = []
        for kind in UnitKind:
            readings = self.readings(dataset, kind)
            humans = readings.humans()
            units = {(u.item_id, u.target_model): u for u in readings.units}
            for event in events:
                if event.label is None or (event.target_model is None) != (kind is UnitKind.ITEM):
                    continue
                unit = units.get((event.item_id, event.target_model))
                labels = [
                    (h.name, lab)
                    for h in humans
                    if unit is not None and (lab := readings.label(unit.key, h.key)) is not None
                ]
                counts = Counter(lab for _, lab in labels).most_common()
                tied = len(counts) > 1 and counts[0][1] == counts[1][1]
                overrides = bool(counts) and (tied or counts[0][0] != event.label)
                rows.append(
                    {
                        "dataset": dataset,
                        "unit_kind": kind.value,
                        "uuid": event.uuid,
                        "target_model": event.target_model,
                        "label": event.label.value,
                        "adjudicator": event.annotator,
                        "note": event.raw or "",
                        "humans": [f"{name}:{lab.value}" for name, lab in labels],
                        "majority": counts[0][0].value if counts and not tied else None,
                        "overrides_majority": overrides,
                        "created_at": event.created_at.isoformat(),
                    }
                )
        return rows
