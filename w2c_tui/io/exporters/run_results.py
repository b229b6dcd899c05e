"""A run's per-task results as export records (`w2c verdicts export`): one per task."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from w2c_tui.domain.labels import LABELS
from w2c_tui.domain.runs import RunResult

CSV_FIELDS = (
    "uuid",
    "sample_index",
    "label",
    "status",
    "pred_raw",
    "pred_norm",
    *[f"ll_{label.value}" for label in LABELS],
    "raw",
    "response",
    "error",
    "retries",
)
"""The CSV columns: the four log-likelihoods flattened in option order; a CriticTool judge's
`answers` are in the JSON lines only."""


def result_record(row: RunResult) -> dict[str, Any]:
    """The export record of one task's result: uuid, sample, label, status, raw reply,
    response, error and retries; a CriticTool judge's `answers`; for log-prob runs the
    log-likelihoods in option order, pred_raw and pred_norm."""
    record: dict[str, Any] = {
        "uuid": row.uuid,
        "sample_index": row.sample_index,
        "label": row.label,
        "status": row.status,
        "raw": row.raw,
        "response": row.response,
        "error": row.error,
        "retries": row.retries,
    }
    if row.answers is not None:  # a CriticTool judge's answers (JSON lines only)
        record["answers"] = row.answers
    if row.loglikelihoods is not None:
        record.update(
            loglikelihoods=list(row.loglikelihoods),
            pred_raw=row.pred_raw,
            pred_norm=row.pred_norm,
        )
    return record


def csv_record(record: dict[str, Any]) -> dict[str, Any]:
    """`record` with its log-likelihoods in one column per option (`ll_direct`, …)."""
    flat = dict(record)
    values = record.get("loglikelihoods") or [None] * len(LABELS)
    for label, value in zip(LABELS, values, strict=True):
        flat[f"ll_{label.value}"] = value
    return flat


def result_records(
    rows: Sequence[RunResult], fmt: str
) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    """(records, CSV fields) of a run's results for `fmt` (jsonl or csv)."""
    records = [result_record(row) for row in rows]
    if fmt == "csv":
        return [csv_record(r) for r in records], CSV_FIELDS
    return records, ()
