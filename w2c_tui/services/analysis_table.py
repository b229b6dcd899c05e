"""One joined table for analysis: per unit, the item, its gold, every rater's current label,
the response text, the item's QA flags and notes.

Rows: one per item (`unit_kind` item: the humans' item-QA labels and the item adjudication),
then one per model response unit (`unit_kind` behaviour: the latest response of a model to an
item, as in agreement; the humans', judges' and scorers' readings of it and its adjudication).
A rater column holds a label, `invalid`, or nothing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from w2c_tui.db.store import Store
from w2c_tui.domain.qa import QA_FLAGS, flag_text
from w2c_tui.domain.review import UnitKind
from w2c_tui.io.exporters.tabular import Column, ColumnType
from w2c_tui.services.readings import Readings, build_readings

ORDER = {f.code: n for n, f in enumerate(QA_FLAGS)}
HEAD = (
    Column("unit_kind"),
    Column("uuid"),
    Column("position", ColumnType.INT),
    Column("source"),
    Column("n_tools", ColumnType.INT),
    Column("question"),
    Column("gold"),
    Column("target_model"),
    Column("response_id", ColumnType.INT),
    Column("response"),
)
TAIL = (
    Column("adjudicated"),
    Column("adjudicator"),
    Column("flags", ColumnType.CODES),
    Column("flag_names", ColumnType.CODES),
    Column("flagged_by", ColumnType.CODES),
    Column("notes", ColumnType.TEXT_LIST),
)


@dataclass(frozen=True, slots=True)
class AnalysisRow:
    """One unit of the joined table."""

    unit_kind: str
    uuid: str
    position: int
    source: str | None
    n_tools: int
    question: str
    gold: str | None
    target_model: str | None
    response_id: int | None
    response: str | None
    labels: dict[str, str] = field(default_factory=dict)
    """rater key (e.g. `human:ann`, `judge:gpt-4o`, `logprob:m:norm`) → label or `invalid`."""
    adjudicated: str | None = None
    adjudicator: str | None = None
    flags: tuple[str, ...] = ()
    flagged_by: tuple[str, ...] = ()
    """`code: ann, ben` per flag."""
    notes: tuple[str, ...] = ()
    """`ann: text` per note."""

    def record(self) -> dict[str, Any]:
        """The row as a flat record (rater columns by key)."""
        return {
            "unit_kind": self.unit_kind,
            "uuid": self.uuid,
            "position": self.position,
            "source": self.source,
            "n_tools": self.n_tools,
            "question": self.question,
            "gold": self.gold,
            "target_model": self.target_model,
            "response_id": self.response_id,
            "response": self.response,
            **self.labels,
            "adjudicated": self.adjudicated,
            "adjudicator": self.adjudicator,
            "flags": list(self.flags),
            "flag_names": [flag_text(c) for c in self.flags],
            "flagged_by": list(self.flagged_by),
            "notes": list(self.notes),
        }


@dataclass(frozen=True, slots=True)
class AnalysisTable:
    """The joined table: its columns (rater columns between the item and the QA columns)."""

    raters: tuple[str, ...]
    units: tuple[AnalysisRow, ...]

    @property
    def columns(self) -> tuple[Column, ...]:
        """Every column in order."""
        return (*HEAD, *(Column(r) for r in self.raters), *TAIL)

    @property
    def rows(self) -> list[dict[str, Any]]:
        """The rows as flat records."""
        return [u.record() for u in self.units]


def analysis_table(store: Store, dataset: str) -> AnalysisTable:
    """Build the joined table of `dataset`."""
    items = store.item_qa.items(dataset)
    facts = store.ratings.items(dataset)
    ratings = store.ratings.ratings(dataset)
    by_kind = {kind: build_readings(facts, ratings, kind, include_gold=False) for kind in UnitKind}
    latest: dict[tuple[int, str | None], int] = {}
    for rating in ratings:
        if rating.response_id is not None:
            key = (rating.item_id, rating.target_model)
            latest[key] = max(latest.get(key, 0), rating.response_id)
    texts = store.item_qa.response_texts(latest.values())
    flags: dict[int, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for flag in store.item_qa.flags(dataset):
        flags[flag.item_id][flag.code].append(flag.annotator)
    notes: dict[int, list[str]] = defaultdict(list)
    for note in store.item_qa.notes(dataset):
        notes[note.item_id].append(f"{note.annotator}: {note.text}")
    raters = tuple(dict.fromkeys(r.key for kind in UnitKind for r in by_kind[kind].raters))
    item_rows, unit_rows = [], []
    units_of: dict[int, list[str]] = defaultdict(list)
    for unit in by_kind[UnitKind.BEHAVIOUR].units:
        units_of[unit.item_id].append(unit.key)
    behaviour = {u.key: u for u in by_kind[UnitKind.BEHAVIOUR].units}
    for item in items:
        codes = sorted(flags[item.id], key=lambda c: ORDER.get(c, 99))
        common: dict[str, Any] = {
            "uuid": item.uuid,
            "position": item.position,
            "source": item.source,
            "n_tools": item.n_tools,
            "question": item.question,
            "gold": item.gold.value if item.gold else None,
            "flags": tuple(codes),
            "flagged_by": tuple(f"{c}: {', '.join(sorted(flags[item.id][c]))}" for c in codes),
            "notes": tuple(notes[item.id]),
        }
        readings = by_kind[UnitKind.ITEM]
        item_rows.append(
            AnalysisRow(
                unit_kind=UnitKind.ITEM.value,
                target_model=None,
                response_id=None,
                response=None,
                **common,
                **_readings_of(readings, item.uuid),
            )
        )
        for unit_key in units_of[item.id]:
            unit = behaviour[unit_key]
            rid = latest.get((item.id, unit.target_model))
            unit_rows.append(
                AnalysisRow(
                    unit_kind=UnitKind.BEHAVIOUR.value,
                    target_model=unit.target_model,
                    response_id=rid,
                    response=texts.get(rid) if rid is not None else None,
                    **common,
                    **_readings_of(by_kind[UnitKind.BEHAVIOUR], unit_key),
                )
            )
    return AnalysisTable(raters=raters, units=tuple(item_rows + unit_rows))


def _readings_of(readings: Readings, unit: str) -> dict[str, Any]:
    labels = {
        r.key: str(value)
        for r in readings.raters
        if (value := readings.values.get((unit, r.key))) is not None
    }
    decided = readings.adjudicated.get(unit)
    return {
        "labels": labels,
        "adjudicated": decided[0].value if decided else None,
        "adjudicator": decided[1] if decided else None,
    }
