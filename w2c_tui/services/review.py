"""The review screen's operations: filtered item windows, details, labels, undo."""

from __future__ import annotations

from dataclasses import replace

from w2c_tui.db.store import Store
from w2c_tui.domain.blind import pre_label_fields
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.labels import Label
from w2c_tui.domain.models import (
    Change,
    FlagChange,
    Item,
    ItemDetail,
    ItemRow,
    LabelChange,
    NoteChange,
    Progress,
)
from w2c_tui.domain.qa import QA_FLAG_CODES
from w2c_tui.domain.review import ItemFilter, ReviewMode, ReviewPlace, UnitKind
from w2c_tui.domain.team import Seen, annotator_key
from w2c_tui.services.consensus import Dispute, disagreement_scores
from w2c_tui.services.readings import build_readings


class ReviewService:
    """Browse and label items; every write is committed before it returns."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._rater_ids: dict[str, int] = {}
        self._queue: tuple[tuple[object, ...], list[int]] | None = None
        self._disputes: dict[int, Dispute] = {}
        self._pre_label: dict[str, tuple[str, ...]] = {}
        self._generation = 0
        """Bumped by every write, so the disagreement queue is recomputed after labels."""

    def _rater(
        self, annotator: str | None, *, create: bool = False, deadline_s: float = 10.0
    ) -> int | None:
        if annotator is None:
            return None
        if annotator not in self._rater_ids:
            found = self._store.labels.rater_id(annotator, create=create, deadline_s=deadline_s)
            if found is None:
                return None
            self._rater_ids[annotator] = found
        return self._rater_ids[annotator]

    def place(self, dataset: str, annotator: str) -> ReviewPlace | None:
        """Where `annotator` left off in `dataset` (None the first time)."""
        rater = self._rater(annotator)
        return None if rater is None else self._store.places.load(rater, dataset)

    def save_place(self, dataset: str, annotator: str, place: ReviewPlace) -> None:
        """Remember where `annotator` is (WriteError when the database is busy or read-only:
        a place is not worth waiting for)."""
        rater = self._rater(annotator, create=True)
        assert rater is not None
        self._store.places.save(rater, dataset, place)

    @staticmethod
    def _salt(annotator: str | None) -> int:
        return annotator_key(annotator) if annotator else 0

    def count(self, dataset: str, flt: ItemFilter, mode: ReviewMode, annotator: str | None) -> int:
        """How many items the filter keeps."""
        if flt.computed:
            return len(self.queue(dataset, flt, mode, annotator))
        return self._store.items.count(
            dataset, flt, mode, self._rater(annotator), self._salt(annotator)
        )

    def queue(
        self, dataset: str, flt: ItemFilter, mode: ReviewMode, annotator: str | None
    ) -> list[int]:
        """The computed list: most informative first (services.next_units.item_order), or the
        disagreement queue: matching items that raters disagree on, most disputed first.

        Items whose humans disagree come first (by their split: 1 − the share of the most
        common human label), then the ones where only the machines differ, by the split among
        all raters' readings (gold left out; an invalid output counts as a reading of its own);
        units the humans agree on come last; ties keep the list's order.
        """
        key = (dataset, flt, mode, annotator, self._generation)
        if self._queue is not None and self._queue[0] == key:
            return self._queue[1]
        rater = self._rater(annotator)
        if flt.informative:
            from w2c_tui.services.next_units import item_order  # numpy: on first use only

            base_ids = self._store.items.ids(
                dataset, flt.with_(informative=False), mode, rater, self._salt(annotator)
            )
            informative = item_order(self._store, dataset, base_ids)
            self._queue = (key, informative)
            return informative
        base = flt.with_(ranked=False)
        if flt.blind:  # blind: disputes only of the items this annotator has finished
            if flt.labelled is False:
                self._queue = (key, [])
                return []
            base = base.with_(labelled=True)
        ids = self._store.items.ids(dataset, base, mode, rater, self._salt(annotator))
        items = self._store.ratings.items(dataset)
        ratings = self._store.ratings.ratings(dataset)
        scores: dict[int, Dispute] = {}
        for kind in UnitKind:
            readings = build_readings(items, ratings, kind, include_gold=False)
            for item_id, score in disagreement_scores(readings).items():
                if item_id not in scores or score.rank < scores[item_id].rank:
                    scores[item_id] = score
        ranked = sorted((i for i in ids if i in scores), key=lambda i: scores[i].rank)
        self._queue = (key, ranked)
        self._disputes = scores
        return ranked

    def window(
        self,
        dataset: str,
        flt: ItemFilter,
        mode: ReviewMode,
        annotator: str | None,
        offset: int,
        limit: int,
    ) -> list[ItemRow]:
        """Rows `offset`..`offset+limit` of the filtered list."""
        if flt.computed:
            ids = self.queue(dataset, flt, mode, annotator)[offset : offset + limit]
            rows = self._store.items.rows(ids, mode, self._rater(annotator))
            if not flt.ranked:
                return rows
            return [replace(row, dispute=self._disputes[row.id].overall) for row in rows]
        return self._store.items.window(
            dataset, flt, mode, self._rater(annotator), offset, limit, self._salt(annotator)
        )

    def order(
        self, dataset: str, flt: ItemFilter, mode: ReviewMode, annotator: str | None
    ) -> list[int]:
        """Every matching item's id, in the list's order (one query on a covering index; the
        screen keeps it, so moving, finding a row and the next unlabelled item need no query)."""
        if flt.computed:
            return list(self.queue(dataset, flt, mode, annotator))
        return self._store.items.ids(
            dataset, flt, mode, self._rater(annotator), self._salt(annotator)
        )

    def rows(
        self, dataset: str, ids: list[int], flt: ItemFilter, mode: ReviewMode, annotator: str | None
    ) -> list[ItemRow]:
        """List rows for these ids, in the order given (with the dispute score in the queue)."""
        rows = self._store.items.rows(ids, mode, self._rater(annotator), dataset, flt)
        if flt.ranked and self._disputes:
            disputes = self._disputes
            return [
                replace(row, dispute=disputes[row.id].overall) if row.id in disputes else row
                for row in rows
            ]
        return rows

    def index_of(
        self, dataset: str, flt: ItemFilter, mode: ReviewMode, annotator: str | None, item_id: int
    ) -> int | None:
        """Where `item_id` sits in the filtered list (None: filtered out)."""
        if flt.computed:
            ranked = self.queue(dataset, flt, mode, annotator)
            return ranked.index(item_id) if item_id in ranked else None
        return self._store.items.index_of(
            dataset, flt, mode, self._rater(annotator), item_id, self._salt(annotator)
        )

    def next_unlabelled(
        self,
        dataset: str,
        flt: ItemFilter,
        mode: ReviewMode,
        annotator: str | None,
        after_item: int | None,
    ) -> int | None:
        """The next item this annotator has not finished, after `after_item` (wrapping)."""
        if flt.computed:
            ranked = self.queue(dataset, flt, mode, annotator)
            rows = self._store.items.rows(ranked, mode, self._rater(annotator))
            start = next((n for n, r in enumerate(rows) if r.id == after_item), -1)
            for row in rows[start + 1 :] + rows[: start + 1]:
                if not row.labelled:
                    return row.id
            return None
        return self._store.items.next_unlabelled(
            dataset, flt, mode, self._rater(annotator), after_item, self._salt(annotator)
        )

    def find(self, dataset: str, uuid: str) -> Item:
        """An item by uuid (or unique prefix)."""
        return self._store.items.find(dataset, uuid)

    def detail(self, item_id: int, annotator: str | None) -> ItemDetail:
        """The item, its responses with every current verdict, and the annotator's QA."""
        return self._store.items.detail(item_id, self._rater(annotator))

    def verdicts_again(self, detail: ItemDetail, annotator: str | None) -> ItemDetail:
        """`detail` with its verdicts and the annotator's QA label read again, as after a
        label write (which changes nothing else of the item: that is taken from `detail`)."""
        return self._store.items.verdicts_again(detail, self._rater(annotator))

    def progress(self, dataset: str, mode: ReviewMode, annotator: str | None) -> Progress:
        """Labelled / total for the annotator in this mode."""
        return self._store.items.progress(dataset, mode, self._rater(annotator))

    def has_responses(self, dataset: str) -> bool:
        """Whether the dataset has model responses to label."""
        return self._store.items.has_responses(dataset)

    def pre_label(self, dataset: str) -> tuple[str, ...]:
        """The metadata fields a blind unit of `dataset` may show before its label:
        domain.blind.PRE_LABEL less those that predict this dataset's gold (measured once)."""
        if dataset not in self._pre_label:
            facts = self._store.ratings.items(dataset)
            self._pre_label[dataset] = pre_label_fields(
                {"source": [f.source for f in facts]}, [f.gold for f in facts]
            )
        return self._pre_label[dataset]

    def sources(self, dataset: str) -> list[str]:
        """Distinct item sources (for the source filter)."""
        return self._store.items.sources(dataset)

    def label_response(
        self,
        annotator: str,
        item_id: int,
        response_id: int,
        label: Label | None,
        *,
        seen: Seen | None = None,
        deadline_s: float = 10.0,
    ) -> LabelChange | None:
        """Record which behaviour a response shows; durable when this returns.

        A busy database is retried until `deadline_s`; then WriteError says why it was not
        saved (the TUI waits less and keeps the label on screen, retrying).
        """
        rater = self._rater(annotator, create=True, deadline_s=deadline_s)
        assert rater is not None
        self._generation += 1
        return self._store.labels.set_label(
            rater, item_id, response_id, label, seen=seen, deadline_s=deadline_s
        )

    def label_item(
        self,
        annotator: str,
        item_id: int,
        label: Label | None,
        *,
        seen: Seen | None = None,
        deadline_s: float = 10.0,
    ) -> LabelChange | None:
        """Record which behaviour is correct for the item (item QA); durable when this returns."""
        rater = self._rater(annotator, create=True, deadline_s=deadline_s)
        assert rater is not None
        self._generation += 1
        return self._store.labels.set_label(
            rater, item_id, None, label, seen=seen, deadline_s=deadline_s
        )

    def set_flag(self, annotator: str, item_id: int, code: str, active: bool) -> FlagChange:
        """Switch a checklist flag on or off."""
        if code not in QA_FLAG_CODES:
            raise NotFoundError(f"unknown QA flag {code!r}")
        rater = self._rater(annotator, create=True)
        assert rater is not None
        self._store.labels.set_flag(rater, item_id, code, active)
        return FlagChange(item_id=item_id, code=code, active=active)

    def set_note(self, annotator: str, item_id: int, previous: str, text: str) -> NoteChange:
        """Replace the annotator's note on an item."""
        rater = self._rater(annotator, create=True)
        assert rater is not None
        self._store.labels.set_note(rater, item_id, text)
        return NoteChange(item_id=item_id, previous=previous, text=text)

    def undo(self, annotator: str, change: Change, *, seen: Seen | None = None) -> None:
        """Restore the state before `change`, as a new history entry (a label records `seen`,
        what the annotator had seen of the unit)."""
        if isinstance(change, LabelChange):
            if change.response_id is None:
                self.label_item(annotator, change.item_id, change.previous_label, seen=seen)
            else:
                self.label_response(
                    annotator, change.item_id, change.response_id, change.previous_label, seen=seen
                )
        elif isinstance(change, FlagChange):
            self.set_flag(annotator, change.item_id, change.code, not change.active)
        else:
            self.set_note(annotator, change.item_id, change.text, change.previous)
