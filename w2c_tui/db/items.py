"""Item queries for the review screen: filtered windows in the list's order, counts, progress."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Engine, and_, func, not_, or_
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from w2c_tui.db.common import chunked, dataset_row
from w2c_tui.db.convert import to_item
from w2c_tui.db.item_detail import ItemDetails
from w2c_tui.db.item_filters import ListSpec, conditions, human_current, labelled_condition
from w2c_tui.db.item_filters import order_key as list_key
from w2c_tui.db.item_lines import line as _line
from w2c_tui.db.item_lines import line_query as _line_query
from w2c_tui.db.item_search import SearchIndex, resolve, search_index
from w2c_tui.db.tables import ItemRow, LabelRow, ResponseRow
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.models import Item, ItemDetail, Progress
from w2c_tui.domain.models import ItemRow as ItemLine
from w2c_tui.domain.review import ItemFilter, ReviewMode


class ItemQueries:
    """Reads items for the list and the detail panes."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._details = ItemDetails(engine)
        self._search_index: SearchIndex | None = None

    @property
    def search_index(self) -> SearchIndex:
        """How searches are answered here (looked up once)."""
        if self._search_index is None:
            self._search_index = search_index(self.engine)
        return self._search_index

    def _spec(
        self,
        session: Session,
        dataset: str,
        flt: ItemFilter,
        mode: ReviewMode,
        rater_id: int | None,
        salt: int,
        *,
        searching: bool = True,
    ) -> ListSpec:
        """The list's spec; `searching=False` where no condition is built from it (the search
        is then not looked up: on PostgreSQL that is a query)."""
        ds = dataset_row(session, dataset)
        assert ds.id is not None
        search = None
        if flt.search and searching:
            search = resolve(session.connection(), flt.search, self.search_index)
        return ListSpec(ds.id, flt, mode, rater_id, salt, search)

    def count(
        self,
        dataset: str,
        flt: ItemFilter,
        mode: ReviewMode,
        rater_id: int | None,
        salt: int = 0,
    ) -> int:
        """How many items match."""
        with Session(self.engine) as session:
            spec = self._spec(session, dataset, flt, mode, rater_id, salt)
            query = select(func.count()).select_from(ItemRow).where(*conditions(spec))
            return int(session.exec(query).one())

    def window(
        self,
        dataset: str,
        flt: ItemFilter,
        mode: ReviewMode,
        rater_id: int | None,
        offset: int,
        limit: int,
        salt: int = 0,
    ) -> list[ItemLine]:
        """The matching items from `offset`, at most `limit`, in the list's order."""
        with Session(self.engine) as session:
            spec = self._spec(session, dataset, flt, mode, rater_id, salt)
            query = (
                _line_query(spec)
                .where(*conditions(spec))
                .order_by(list_key(spec), col(ItemRow.position))
                .offset(offset)
                .limit(limit)
            )
            return [_line(*row) for row in session.execute(query).all()]

    def ids(
        self,
        dataset: str,
        flt: ItemFilter,
        mode: ReviewMode,
        rater_id: int | None,
        salt: int = 0,
    ) -> list[int]:
        """Ids of every matching item, in the list's order."""
        with Session(self.engine) as session:
            spec = self._spec(session, dataset, flt, mode, rater_id, salt)
            query = (
                select(ItemRow.id)
                .where(*conditions(spec))
                .order_by(list_key(spec), col(ItemRow.position))
            )
            return [int(i) for i in session.exec(query).all() if i is not None]

    def rows(
        self,
        ids: Sequence[int],
        mode: ReviewMode,
        rater_id: int | None,
        dataset: str | None = None,
        flt: ItemFilter | None = None,
    ) -> list[ItemLine]:
        """List rows for these item ids, in the order given ("done" as in `dataset`'s list under
        `flt`: in a queue, every assigned unit labelled)."""
        if not ids:
            return []
        with Session(self.engine) as session:
            if dataset is None:
                spec = ListSpec(0, flt or ItemFilter(), mode, rater_id)
            else:
                flt = flt or ItemFilter()
                spec = self._spec(session, dataset, flt, mode, rater_id, 0, searching=False)
            query = _line_query(spec)
            found = {
                row[0]: _line(*row)
                for chunk in chunked(ids)
                for row in session.execute(query.where(col(ItemRow.id).in_(chunk))).all()
            }
            return [found[i] for i in ids if i in found]

    def _before(self, session: Session, spec: ListSpec, item_id: int) -> Any:
        """Condition: the item comes before `item_id` in the list's order."""
        key, position = session.execute(
            sa_select(list_key(spec), col(ItemRow.position)).where(col(ItemRow.id) == item_id)
        ).one()
        order = list_key(spec)
        return or_(order < key, and_(order == key, col(ItemRow.position) < position))

    def index_of(
        self,
        dataset: str,
        flt: ItemFilter,
        mode: ReviewMode,
        rater_id: int | None,
        item_id: int,
        salt: int = 0,
    ) -> int | None:
        """The row number of `item_id` in the filtered list (None when filtered out)."""
        with Session(self.engine) as session:
            spec = self._spec(session, dataset, flt, mode, rater_id, salt)
            where = conditions(spec)
            present = session.exec(
                select(func.count()).select_from(ItemRow).where(*where, col(ItemRow.id) == item_id)
            ).one()
            if not present:
                return None
            before = session.exec(
                select(func.count())
                .select_from(ItemRow)
                .where(*where, self._before(session, spec, item_id))
            ).one()
            return int(before)

    def next_unlabelled(
        self,
        dataset: str,
        flt: ItemFilter,
        mode: ReviewMode,
        rater_id: int | None,
        after_item: int | None,
        salt: int = 0,
    ) -> int | None:
        """The first item after `after_item` (in list order, wrapping) not done by the rater."""
        with Session(self.engine) as session:
            spec = self._spec(session, dataset, flt, mode, rater_id, salt)
            where = [*conditions(spec), not_(labelled_condition(spec))]
            ordered = (list_key(spec), col(ItemRow.position))
            if after_item is not None:
                before = self._before(session, spec, after_item)
                later = and_(not_(before), col(ItemRow.id) != after_item)
                for part in (later, or_(before, col(ItemRow.id) == after_item)):
                    found = session.exec(
                        select(ItemRow.id).where(*where, part).order_by(*ordered).limit(1)
                    ).first()
                    if found is not None:
                        return int(found)
                return None
            first = session.exec(select(ItemRow.id).where(*where).order_by(*ordered).limit(1))
            found = first.first()
            return int(found) if found is not None else None

    def find(self, dataset: str, uuid: str) -> Item:
        """The item with this uuid (or a unique uuid prefix) in `dataset`."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            assert ds.id is not None
            rows = session.exec(
                select(ItemRow)
                .where(
                    col(ItemRow.dataset_id) == ds.id,
                    func.lower(col(ItemRow.uuid)).startswith(uuid.strip().lower(), autoescape=True),
                )
                .limit(2)
            ).all()
            exact = [r for r in rows if r.uuid == uuid.strip()]
            if exact:
                return to_item(exact[0], ds.name)
            if len(rows) == 1:
                return to_item(rows[0], ds.name)
            if not rows:
                raise NotFoundError(f"no item with uuid {uuid!r} in dataset {dataset!r}")
            raise NotFoundError(f"uuid prefix {uuid!r} matches several items; type more of it")

    def has_responses(self, dataset: str) -> bool:
        """Whether any item of the dataset has a model response."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            found = session.exec(
                select(ResponseRow.id)
                .join(ItemRow, col(ItemRow.id) == col(ResponseRow.item_id))
                .where(col(ItemRow.dataset_id) == ds.id)
                .limit(1)
            ).first()
            return found is not None

    def sources(self, dataset: str) -> list[str]:
        """The distinct `source` values of a dataset."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            rows = session.exec(
                select(ItemRow.source).where(col(ItemRow.dataset_id) == ds.id).distinct()
            ).all()
            return sorted(s for s in rows if s)

    def progress(self, dataset: str, mode: ReviewMode, rater_id: int | None) -> Progress:
        """Labelled / total for this annotator."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            in_dataset = col(ItemRow.dataset_id) == ds.id
            counted: Any  # the verdict column whose distinct values count as labelled
            if mode is ReviewMode.ITEM_QA:  # items, labelled by item-level verdicts
                total_query = select(func.count()).select_from(ItemRow).where(in_dataset)
                counted, scope = col(LabelRow.item_id), col(LabelRow.target_model_id).is_(None)
            else:  # responses, labelled by verdicts on them
                total_query = (
                    select(func.count())
                    .select_from(ResponseRow)
                    .join(ItemRow, col(ItemRow.id) == col(ResponseRow.item_id))
                    .where(in_dataset)
                )
                counted, scope = (
                    col(LabelRow.response_id),
                    col(LabelRow.response_id).is_not(None),
                )
            total = session.exec(total_query).one()
            done = session.exec(
                select(func.count(func.distinct(counted)))
                .join(ItemRow, col(ItemRow.id) == col(LabelRow.item_id))
                .where(in_dataset, scope, human_current(rater_id))
            ).one()
            return Progress(done=int(done), total=int(total))

    def detail(self, item_id: int, rater_id: int | None) -> ItemDetail:
        """The item with its responses, every current verdict, and this annotator's QA."""
        return self._details.detail(item_id, rater_id)

    def verdicts_again(self, detail: ItemDetail, rater_id: int | None) -> ItemDetail:
        """`detail` with its verdicts read again (what a label write changes)."""
        return self._details.verdicts_again(detail, rater_id)

    def in_order(self, dataset: str) -> list[Item]:
        """Every item of `dataset`, in file order."""
        with Session(self.engine) as session:
            ds = dataset_row(session, dataset)
            query = select(ItemRow).where(col(ItemRow.dataset_id) == ds.id)
            rows = session.exec(query.order_by(col(ItemRow.position))).all()
            return [to_item(row, ds.name) for row in rows]
