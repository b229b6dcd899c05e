"""ORM rows → frozen domain objects (the only place that knows both)."""

from __future__ import annotations

import json
from typing import Any

from w2c_tui.db.tables import ItemRow, LabelRow, RaterRow
from w2c_tui.domain.labels import ItemKind, Label, RaterKind, VerdictStatus
from w2c_tui.domain.models import Item, Rater, Tool, Verdict


def loads(text: str | None) -> Any:
    """JSON text from a column (empty → {})."""
    return json.loads(text) if text else {}


def dumps(value: Any) -> str:
    """JSON text for a column: compact, non-ASCII kept, keys in their order."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def to_item(row: ItemRow, dataset: str) -> Item:
    """An item row as a domain Item."""
    assert row.id is not None
    return Item(
        id=row.id,
        dataset=dataset,
        uuid=row.uuid,
        position=row.position,
        question=row.question,
        tools=tuple(Tool(t) for t in loads(row.tools_json) or ()),
        answers=tuple((str(k), str(v)) for k, v in loads(row.answers_json) or ()),
        gold=Label(row.gold) if row.gold else None,
        kind=ItemKind(row.kind),
        source=row.source,
        source_id=row.source_id,
        held_out_param=row.held_out_param,
        target_tool=row.target_tool,
        orig_question=row.orig_question,
        extra=loads(row.extra_json),
        raw_line=row.raw_line,
    )


def to_rater(row: RaterRow) -> Rater:
    """A rater row as a domain Rater."""
    assert row.id is not None
    return Rater(id=row.id, kind=RaterKind(row.kind), name=row.name, config=loads(row.config_json))


def to_verdict(row: LabelRow, rater: Rater, target_model: str | None) -> Verdict:
    """A When2Call label row as a domain Verdict."""
    assert row.id is not None
    return Verdict(
        id=row.id,
        rater=rater,
        item_id=row.item_id,
        target_model=target_model,
        response_id=row.response_id,
        label=Label(row.value) if row.value else None,
        status=VerdictStatus(row.status or VerdictStatus.OK.value),
        raw=row.raw,
        scores=loads(row.scores_json or "{}"),
        created_at=row.created_at,
        supersedes_id=row.supersedes_id,
        run_id=row.run_id,
    )
