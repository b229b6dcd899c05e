"""The item-QA summary (the paper's Table 6 per gold class) and who reviewed which item."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from w2c_tui.db.store import Store
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.labels import LABELS, Label, RaterKind, VerdictStatus
from w2c_tui.domain.models import ItemFacts
from w2c_tui.domain.outcomes import ItemFlag, ItemNote
from w2c_tui.domain.qa import QA_FLAGS
from w2c_tui.domain.qa_summary import ALL, NO_GOLD, QACount, QAGroup, QARow, QASummary, QATable


@dataclass(frozen=True, slots=True)
class QAState:
    """A dataset's item-QA state: items, flags on now, notes, and who reviewed what."""

    items: tuple[ItemFacts, ...]
    flags: tuple[ItemFlag, ...]
    notes: tuple[ItemNote, ...]
    reviewed: dict[str, frozenset[int]]
    """annotator → ids of the items they reviewed (item-QA label, flag or note)."""

    @property
    def reviewed_by_anyone(self) -> frozenset[int]:
        """Items somebody reviewed."""
        return frozenset().union(*self.reviewed.values()) if self.reviewed else frozenset()


def qa_state(store: Store, dataset: str) -> QAState:
    """Read the item-QA state of `dataset`."""
    items = tuple(store.ratings.items(dataset))
    flags = tuple(store.item_qa.flags(dataset))
    notes = tuple(store.item_qa.notes(dataset))
    reviewed: dict[str, set[int]] = defaultdict(set)
    for rating in store.ratings.ratings(dataset):
        if (
            rating.target_model is None
            and rating.rater.kind is RaterKind.HUMAN
            and rating.status is VerdictStatus.OK
        ):
            reviewed[rating.rater.name].add(rating.item_id)
    for flag in flags:
        reviewed[flag.annotator].add(flag.item_id)
    for note in notes:
        reviewed[note.annotator].add(note.item_id)
    return QAState(
        items=items,
        flags=flags,
        notes=notes,
        reviewed={name: frozenset(ids) for name, ids in sorted(reviewed.items())},
    )


def _columns(items: tuple[ItemFacts, ...]) -> tuple[str, ...]:
    present = {i.gold for i in items}
    columns = [label.value for label in LABELS if label in present]
    if None in present:
        columns.append(NO_GOLD)
    return (*columns, ALL)


def _column(gold: Label | None) -> str:
    return gold.value if gold is not None else NO_GOLD


def _table(
    annotator: str | None,
    columns: tuple[str, ...],
    items: tuple[ItemFacts, ...],
    reviewed: frozenset[int],
    flagged: dict[int, set[str]],
) -> QATable:
    """Counts of `flagged` (item → codes) over the `reviewed` items, per gold column."""
    column_of = {i.item_id: _column(i.gold) for i in items}
    scopes = [{i for i in reviewed if column in (ALL, column_of.get(i))} for column in columns]

    def cells(hit: set[int]) -> tuple[QACount, ...]:
        return tuple(QACount(count=len(hit & scope), reviewed=len(scope)) for scope in scopes)

    by_code: dict[str, set[int]] = defaultdict(set)
    for item_id, codes in flagged.items():
        if item_id in reviewed:
            for code in codes:
                by_code[code].add(item_id)
    groups: list[QAGroup] = []
    for name in dict.fromkeys(f.group for f in QA_FLAGS):
        specs = [f for f in QA_FLAGS if f.group == name]
        rows = tuple(QARow(f.code, f.text, cells(by_code[f.code])) for f in specs)
        union = set().union(*(by_code[f.code] for f in specs))
        groups.append(QAGroup(name, rows, QARow(None, "Total", cells(union))))
    any_issue = set().union(*by_code.values()) if by_code else set()
    return QATable(
        annotator=annotator,
        columns=columns,
        items=tuple(
            sum(1 for i in items if column in (ALL, _column(i.gold))) for column in columns
        ),
        reviewed=tuple(c.reviewed for c in cells(set())),
        groups=tuple(groups),
        any_issue=QARow(None, "Any issue", cells(any_issue)),
    )


class QASummaryService:
    """Builds the QA summary document that the CLI and the dashboard render."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def state(self, dataset: str) -> QAState:
        """The dataset's item-QA state."""
        return qa_state(self._store, dataset)

    def summary(self, dataset: str, annotator: str | None = None) -> QASummary:
        """Table 6 overall and per annotator (only `annotator`'s when given)."""
        state = self.state(dataset)
        if annotator is not None and annotator not in state.reviewed:
            known = ", ".join(state.reviewed) or "nobody yet"
            raise NotFoundError(
                f"{annotator!r} has reviewed no item of {dataset!r} (reviewed by: {known})"
            )
        columns = _columns(state.items)
        everyone: dict[int, set[str]] = defaultdict(set)
        mine: dict[str, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
        for flag in state.flags:
            everyone[flag.item_id].add(flag.code)
            mine[flag.annotator][flag.item_id].add(flag.code)
        names = [annotator] if annotator is not None else list(state.reviewed)
        return QASummary(
            dataset=dataset,
            n_items=len(state.items),
            n_reviewed=len(state.reviewed_by_anyone),
            overall=_table(None, columns, state.items, state.reviewed_by_anyone, everyone),
            annotators=tuple(
                _table(name, columns, state.items, state.reviewed[name], mine[name])
                for name in names
            ),
        )
