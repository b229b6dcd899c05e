"""A run's per-task results as export records (`w2c verdicts export`): one per task."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from w2c_tui.domain.labels import LABELS

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


def result_record(row: dict[str, Any]) -> dict[str, Any]:
    """The export record of one task's result: uuid, sample, label, status, raw reply,
    response, error and retries; a CriticTool judge's `answers`; for log-prob runs the
    log-likelihoods in option order, pred_raw and pred_norm."""
    scores = row["scores"]
    keys = ("uuid", "sample_index", "label", "status", "raw", "response", "error", "retries")
    record = {key: row[key] for key in keys}
    if "answers" in row:
        record["answers"] = row["answers"]
    if "loglikelihoods" in scores:
        record.update(
            loglikelihoods=scores["loglikelihoods"],
            pred_raw=scores.get("pred_raw"),
            pred_norm=scores.get("pred_norm"),
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
    rows: Sequence[dict[str, Any]], fmt: str
) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    """(records, CSV fields) of a run's results for `fmt` (jsonl or csv)."""
    records = [result_record(row) for row in rows]
    if fmt == "csv":
        return [csv_record(r) for r in records], CSV_FIELDS
    return records, ()
