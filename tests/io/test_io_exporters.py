"""The export registries, the one CSV writer and a run's results as export records."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from typing import Any

from w2c_tui.domain.runs import RunResult
from w2c_tui.io.exporters import RECORD_FORMATS, TABLE_FORMATS
from w2c_tui.io.exporters.records import records_text
from w2c_tui.io.exporters.run_results import CSV_FIELDS, result_records


def test_registries() -> None:
    assert list(RECORD_FORMATS) == ["jsonl", "csv"]
    assert list(TABLE_FORMATS) == ["jsonl", "csv", "parquet", "hf"]


def _row(**changes: Any) -> RunResult:
    row = RunResult(
        uuid="u",
        position=0,
        sample_index=0,
        status="ok",
        label="direct",
        raw="=HYPERLINK(x)",
        response=None,
        error=None,
        retries=0,
    )
    return replace(row, **changes)


def test_run_results_as_csv() -> None:
    scored = _row(loglikelihoods=(-1.0, -2.0, -3.0, -4.0), pred_raw="direct", pred_norm="x")
    records, fields = result_records([scored, _row(answers={"q": 1})], "csv")
    assert fields == CSV_FIELDS
    assert fields[6:10] == ("ll_direct", "ll_tool_call", "ll_request_for_info", "ll_cannot_answer")
    rows = list(csv.DictReader(io.StringIO(records_text(records, "csv", fields))))
    assert [r["ll_tool_call"] for r in rows] == ["-2.0", ""]
    assert rows[0]["raw"] == "'=HYPERLINK(x)"  # defused
    assert "answers" not in rows[1]


def test_run_results_as_jsonl_keep_lists() -> None:
    row = _row(loglikelihoods=(-1.0, -2.0, -3.0, -4.0), answers={"q": 1})
    records, fields = result_records([row], "jsonl")
    assert fields == ()
    assert list(records[0]) == [
        "uuid",
        "sample_index",
        "label",
        "status",
        "raw",
        "response",
        "error",
        "retries",
        "answers",
        "loglikelihoods",
        "pred_raw",
        "pred_norm",
    ]
    assert records_text(records, "jsonl").count("\n") == 1
