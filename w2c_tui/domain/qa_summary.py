"""The item-QA summary in the layout of the When2Call paper's Table 6: issue type × gold class."""

from __future__ import annotations

from dataclasses import dataclass

ALL = "all"
"""The column over every reviewed item."""
NO_GOLD = "no gold"
"""The column of items without a gold label (train files)."""

REVIEWED_RULE = (
    "an item counts as reviewed by an annotator who gave it an item-QA label, switched on a "
    "checklist flag or wrote a note on it; overall, reviewed by anyone, flagged by anyone"
)


@dataclass(frozen=True, slots=True)
class QACount:
    """Items with an issue among the reviewed items of one column."""

    count: int
    reviewed: int

    @property
    def pct(self) -> float | None:
        """Percent of the column's reviewed items (None when none was reviewed)."""
        return 100.0 * self.count / self.reviewed if self.reviewed else None


@dataclass(frozen=True, slots=True)
class QARow:
    """One issue type (or a group's total, or 'any issue'), counted per column."""

    code: str | None
    """The checklist code; None for a total row."""
    text: str
    cells: tuple[QACount, ...]


@dataclass(frozen=True, slots=True)
class QAGroup:
    """A block of Table 6 (e.g. 'Answer: follow-up question') and its total: items with at
    least one issue of the block."""

    name: str
    rows: tuple[QARow, ...]
    total: QARow


@dataclass(frozen=True, slots=True)
class QATable:
    """Table 6 for one annotator, or for everyone together (`annotator` None)."""

    annotator: str | None
    columns: tuple[str, ...]
    """Gold classes present in the dataset (option order), NO_GOLD if any, then ALL."""
    items: tuple[int, ...]
    """Items per column."""
    reviewed: tuple[int, ...]
    """Reviewed items per column (the denominators)."""
    groups: tuple[QAGroup, ...]
    any_issue: QARow

    def as_json(self) -> dict[str, object]:
        """The table for `--json`: per row, count and percent per column."""

        def row(r: QARow) -> dict[str, object]:
            return {
                "code": r.code,
                "issue": r.text,
                "counts": {c: cell.count for c, cell in zip(self.columns, r.cells, strict=True)},
                "percent": {
                    c: None if cell.pct is None else round(cell.pct, 1)
                    for c, cell in zip(self.columns, r.cells, strict=True)
                },
            }

        return {
            "annotator": self.annotator,
            "columns": list(self.columns),
            "items": dict(zip(self.columns, self.items, strict=True)),
            "reviewed": dict(zip(self.columns, self.reviewed, strict=True)),
            "groups": [
                {"group": g.name, "issues": [row(r) for r in g.rows], "total": row(g.total)}
                for g in self.groups
            ],
            "any_issue": row(self.any_issue),
        }


@dataclass(frozen=True, slots=True)
class QASummary:
    """The QA summary of a dataset: overall and per annotator."""

    dataset: str
    n_items: int
    n_reviewed: int
    """Items reviewed by anyone."""
    overall: QATable
    annotators: tuple[QATable, ...]
    rule: str = REVIEWED_RULE

    def as_json(self) -> dict[str, object]:
        """The document for `w2c qa summary --json`."""
        return {
            "dataset": self.dataset,
            "items": self.n_items,
            "reviewed": self.n_reviewed,
            "rule": self.rule,
            "overall": self.overall.as_json(),
            "annotators": [t.as_json() for t in self.annotators],
        }
