"""Storing an import's items: new ones appended, known ones compared by content hash."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import bindparam, insert, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, func, select

from w2c_tui.db.convert import dumps
from w2c_tui.db.tables import ItemRow
from w2c_tui.domain.records import ImportReport, ItemRecord
from w2c_tui.domain.team import shuffle_key

ITEM_BATCH = 2000


def store_items(
    session: Session, dataset_id: int, items: tuple[ItemRecord, ...], report: ImportReport
) -> ImportReport:
    """Append the new items in file order; count unchanged and changed ones (never updated),
    and give unchanged items imported before lines were kept their line."""
    if not items:
        return report
    known = session.execute(
        sa_select(
            col(ItemRow.uuid),
            col(ItemRow.content_hash),
            col(ItemRow.id),
            col(ItemRow.raw_line).is_(None),
        ).where(col(ItemRow.dataset_id) == dataset_id)
    ).all()
    existing = {uuid: digest for uuid, digest, _id, _none in known}
    no_raw = {uuid: item_id for uuid, _digest, item_id, none in known if none}
    backfill: list[dict[str, object]] = []
    last = session.exec(
        select(func.max(ItemRow.position)).where(col(ItemRow.dataset_id) == dataset_id)
    ).one()
    position = -1 if last is None else int(last)
    new_rows: list[dict[str, object]] = []
    unchanged = 0
    changed: list[str] = []
    for record in items:
        digest = record.content_hash()
        if record.uuid in existing:
            if existing[record.uuid] == digest:
                unchanged += 1
                if record.raw is not None and record.uuid in no_raw:
                    backfill.append({"row_id": no_raw[record.uuid], "raw": record.raw})
            else:
                changed.append(record.uuid)
            continue
        position += 1
        new_rows.append(_item_values(record, dataset_id, position, digest))
    for start in range(0, len(new_rows), ITEM_BATCH):
        session.execute(insert(ItemRow), new_rows[start : start + ITEM_BATCH])
    if backfill:  # items imported before their lines were kept get them now (same content)
        session.connection().execute(
            update(ItemRow)
            .where(col(ItemRow.id) == bindparam("row_id"))
            .values(raw_line=bindparam("raw")),
            backfill,
        )
    return replace(
        report, items_new=len(new_rows), items_unchanged=unchanged, items_changed=tuple(changed)
    )


def _item_values(
    record: ItemRecord, dataset_id: int, position: int, digest: str
) -> dict[str, object]:
    return {
        "dataset_id": dataset_id,
        "uuid": record.uuid,
        "position": position,
        "kind": record.kind.value,
        "question": record.question,
        "tools_json": dumps(list(record.tools)),
        "answers_json": dumps([list(a) for a in record.answers]),
        "gold": record.gold.value if record.gold else None,
        "n_tools": len(record.tools),
        "source": record.source,
        "source_id": record.source_id,
        "held_out_param": record.held_out_param,
        "target_tool": record.target_tool,
        "orig_question": record.orig_question,
        "extra_json": dumps(record.extra),
        "content_hash": digest,
        "shuffle_key": shuffle_key(record.uuid),
        "raw_line": record.raw,
    }
