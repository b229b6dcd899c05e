"""What every part of `w2c merge` shares: the source as read (`Source`, keyed by identity), the
target's identities (`Merger`: datasets, items, models, responses and raters of the source
mapped to the target's rows), what a merge reports (`Counts`, `Conflict`) and `moment`.

Writing a merge: one source's people's work into the target, in the caller's transaction.
Each row is identified by what it is, not by its id: a label by (rater, unit, question, time,
value, status), a flag by (rater, item, code, on/off, time), a note by (rater, item, text, time), an
assignment by (rater, unit). A row already there is left alone, so merging the same file twice
changes nothing. History is kept: every label arrives, and of the current ones the later
wins; the one it beats stays as history (superseded), and a different label is a conflict
(`history.py`). Each kind of row has its module (`schema_labels.py` for every schema's labels,
`team.py`); the item-QA checklist and notes are answers of `when2call-item-qa`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import insert
from sqlmodel import Session, col, select

from w2c_tui.db.common import ids_by
from w2c_tui.db.tables import (
    DatasetRow,
    GuidelineRow,
    ItemRow,
    RaterRow,
    ResponseRow,
    TargetModelRow,
)
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import RaterKind

TARGET = "the target"
"""A conflict's side that was in the target database before this merge command."""
Unit = tuple[int, int, int | None, int | None]
"""(rater id, item id, target model id, response id)."""
SHOWN = 5

PEOPLE = (RaterKind.HUMAN.value, RaterKind.ADJUDICATOR.value)
"""Whose verdicts a merge brings: labels and adjudications (machines come from imports/runs)."""

ResponseKey = tuple[str, str, str]
"""(item uuid, target model name, response text)."""


def item_fingerprint(row: Any) -> str:
    """What must be equal for two databases to hold the same item."""
    parts = (row.question, row.tools_json, row.answers_json, row.gold or "")
    return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()


@dataclass
class Source:
    """One source database, read whole (its human work is small next to its items)."""

    path: Path
    datasets: dict[str, dict[str, str]] = field(default_factory=dict)
    """Dataset name → item uuid → fingerprint."""
    raters: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Rater key → its columns (people only)."""
    guidelines: list[dict[str, Any]] = field(default_factory=list)
    guideline_seen: list[dict[str, Any]] = field(default_factory=list)
    plans: list[dict[str, Any]] = field(default_factory=list)
    assignments: list[dict[str, Any]] = field(default_factory=list)
    label_schemas: dict[str, str] = field(default_factory=dict)
    """Label schema name → the TOML it was added from."""
    schema_labels: list[dict[str, Any]] = field(default_factory=list)


def moment(value: datetime) -> datetime:
    """A timestamp comparable across databases (UTC, naive: SQLite returns it naive)."""
    return value.astimezone(UTC).replace(tzinfo=None) if value.tzinfo else value


@dataclass
class Conflict:
    """The same annotator labelled the same unit differently in two places."""

    rater: str
    uuid: str
    model: str | None
    kept: str | None
    kept_at: datetime
    lost: str | None
    lost_at: datetime
    lost_from: str
    kept_from: str = TARGET
    """Where each side came from: a source file of this command, or the target database."""


@dataclass
class Counts:
    """What one source added (or would add, in a dry run)."""

    source: str
    verdicts: int = 0
    """When2Call labels added (people's and adjudications)."""
    verdicts_known: int = 0
    schemas: int = 0
    """Label schemas added or grown."""
    schema_labels: int = 0
    schema_labels_known: int = 0
    flags: int = 0
    """Item-QA checklist answers added (flags switched on or off)."""
    notes: int = 0
    guidelines: int = 0
    assignments: int = 0
    raters: int = 0
    conflicts: list[Conflict] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


class Merger:
    """Maps a source's identities to the target's rows and writes what is missing."""

    def __init__(
        self, session: Session, source: Source, origins: dict[object, str] | None = None
    ) -> None:
        self.s = session
        self.src = source
        self.origins: dict[object, str] = {} if origins is None else origins
        """Rows an earlier source of the same command added, by identity → that file."""
        self.out = Counts(source=str(source.path))
        self.datasets: dict[str, int] = {}
        self.items: dict[tuple[str, str], int] = {}
        self.models: dict[str, int] = {}
        self.responses: dict[ResponseKey, int] = {}
        self.raters: dict[str, int] = {}

    # ---- identities ------------------------------------------------------------------------

    def check_datasets(self) -> None:
        """Every dataset the source has work in must be in the target with the same items."""
        used = {v["dataset"] for v in self.src.schema_labels} | {
            r["dataset"] for r in self.src.assignments
        }
        path = str(self.src.path)
        for name in sorted(used):
            row = self.s.execute(select(DatasetRow.id).where(DatasetRow.name == name)).first()
            if row is None:
                raise InputError(
                    path,
                    f"dataset {name!r} is not in the target database: import its file there "
                    "first (w2c import FILE), then merge",
                    field="dataset",
                )
            self.datasets[name] = row[0]
            theirs = self.src.datasets[name]
            ours = {}
            for item in self.s.execute(select(ItemRow).where(ItemRow.dataset_id == row[0])):
                item = item[0]
                ours[item.uuid] = item_fingerprint(item)
                self.items[(name, item.uuid)] = item.id
            differ = sorted(u for u, f in theirs.items() if ours.get(u) != f)
            if differ:
                raise InputError(
                    path,
                    f"dataset {name!r} differs in content from the target's: {len(differ)} "
                    f"item(s) missing there or changed, e.g. {', '.join(differ[:SHOWN])}; "
                    "nothing was merged",
                    field="dataset",
                )

    def map_responses(self) -> None:
        """Target models by name and responses by (item, model, text), for the used datasets."""
        self.models.update(ids_by(self.s, TargetModelRow.name, TargetModelRow.id))
        ids = list(self.datasets.values())
        query = (
            select(ResponseRow.id, ItemRow.uuid, TargetModelRow.name, ResponseRow.text)
            .join(ItemRow, ItemRow.id == ResponseRow.item_id)  # type: ignore[arg-type]
            .join(TargetModelRow, TargetModelRow.id == ResponseRow.target_model_id)  # type: ignore[arg-type]
            .where(ItemRow.dataset_id.in_(ids))  # type: ignore[attr-defined]
            .order_by(ResponseRow.id)  # type: ignore[arg-type]
        )
        for response_id, uuid, model, text in self.s.execute(query):
            self.responses.setdefault((uuid, model, text or ""), response_id)

    def map_raters(self) -> None:
        """Raters by key, created where missing."""
        self.raters.update(ids_by(self.s, RaterRow.key, RaterRow.id))
        for key, values in self.src.raters.items():
            if key not in self.raters:
                result = self.s.execute(
                    insert(RaterRow).values(**values).returning(col(RaterRow.id))
                )
                self.raters[key] = result.scalar_one()
                self.out.raters += 1

    def unit(self, row: dict[str, Any]) -> Unit:
        """The target's unit for a source row (InputError when its response is missing)."""
        item = self.items[(row["dataset"], row["uuid"])]
        model = None
        if row["model"] is not None:
            model = self.models.get(row["model"])
            if model is None:
                self.s.execute(insert(TargetModelRow).values(name=row["model"], config_json="{}"))
                model = self.s.execute(
                    select(TargetModelRow.id).where(TargetModelRow.name == row["model"])
                ).scalar_one()
                self.models[row["model"]] = model
        response = None
        if row["response"] is not None:
            response = self.responses.get(row["response"])
            if response is None:
                uuid, name, _ = row["response"]
                raise InputError(
                    str(self.src.path),
                    f"a label of {name}'s response to item {uuid} has no such response in the "
                    "target: import that model's results there first; nothing was merged",
                    field="response",
                )
        return (self.raters[row["rater"]], item, model, response)

    def guideline_id(self, dataset: str, sha256: str) -> int | None:
        """The target's guideline with this text, if any."""
        found = self.s.execute(
            select(GuidelineRow.id).where(
                GuidelineRow.dataset_id == self.datasets[dataset], GuidelineRow.sha256 == sha256
            )
        ).first()
        return found[0] if found else None
