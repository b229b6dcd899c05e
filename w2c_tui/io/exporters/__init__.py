"""Exports, one module per kind of output, and the registries of their formats.

- `records`: line-per-record text (labels, adjudications, run results): `RECORD_FORMATS`
  (jsonl, csv).
- `tabular`: typed tables (the cleaned items, the joined table): `TABLE_FORMATS` (jsonl, csv,
  parquet, hf), written beside the target and moved into place by `commit`.
- `when2call`: items in the official test-file format; `preference`: preference pairs in the
  official train format; `run_results`: a run's per-task results as records.
- `csv_writer`: the one CSV writer all CSV outputs go through (cells defused by
  `csvcell.safe_cell`).
"""

from __future__ import annotations

from w2c_tui.io.exporters.records import RECORD_FORMATS
from w2c_tui.io.exporters.tabular import TABLE_FORMATS

__all__ = ["RECORD_FORMATS", "TABLE_FORMATS"]
