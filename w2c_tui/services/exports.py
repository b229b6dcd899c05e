"""Exports that leave the tool: the cleaned dataset (with its changelog) and the joined table."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from w2c_tui.db.store import Store
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import ItemKind
from w2c_tui.domain.outcomes import (
    ChangeKind,
    CleanOptions,
    CleanPlan,
    ItemExport,
    ItemFormat,
    TableFormat,
)
from w2c_tui.io.changelog import changelog_markdown
from w2c_tui.io.exporters.tabular import commit, write_rows, write_text_tmp
from w2c_tui.io.exporters.when2call import LineSource, official_line
from w2c_tui.io.item_rows import ITEM_COLUMNS, item_row
from w2c_tui.paths import exports_dir
from w2c_tui.services.analysis_table import AnalysisTable, analysis_table
from w2c_tui.services.cleaning import CleaningService


def changelog_path(output: Path) -> Path:
    """The changelog beside an export: `NAME.changelog.md` (for `x.jsonl`: `x.changelog.md`)."""
    stem = output.name.removesuffix(output.suffix) if output.suffix else output.name
    return output.with_name(f"{stem}.changelog.md")


class ExportService:
    """Writes cleaned datasets and analysis tables."""

    def __init__(self, store: Store, cleaning: CleaningService) -> None:
        self._store = store
        self.cleaning = cleaning

    def default_path(self, dataset: str, fmt: ItemFormat) -> Path:
        """exports/DATASET-clean.EXT (a folder for hf)."""
        return exports_dir() / f"{dataset}-clean{fmt.suffix}"

    def plan(self, dataset: str, options: CleanOptions) -> CleanPlan:
        """What an export would hold, without writing it."""
        return self.cleaning.plan(dataset, options)

    def items(
        self, dataset: str, fmt: ItemFormat, options: CleanOptions, output: Path | None = None
    ) -> ItemExport:
        """Write the cleaned dataset as `fmt` at `output`, and its changelog beside it."""
        path = output or self.default_path(dataset, fmt)
        plan = self.cleaning.plan(dataset, options)
        sources: Counter[LineSource] = Counter()
        if fmt is ItemFormat.WHEN2CALL:
            other = {c.item.kind for c in plan.kept} - {ItemKind.TEST}
            if other:
                raise InputError(
                    dataset,
                    "the when2call format holds test items; this dataset has "
                    f"{', '.join(sorted(k.value for k in other))} items: use jsonl, csv, "
                    "parquet or hf",
                )
            lines = []
            for clean in plan.kept:
                line, how = official_line(clean.item, clean.gold)
                sources[how] += 1
                lines.append(line + "\n")
            tmp = write_text_tmp("".join(lines), path)
        else:
            tmp = write_rows([item_row(c) for c in plan.kept], ITEM_COLUMNS, fmt.value, path)
        log = changelog_path(path)
        log_tmp = write_text_tmp(changelog_markdown(plan, path.name, len(plan.kept)), log)
        commit(tmp, path)
        commit(log_tmp, log)
        return ItemExport(
            path=str(path),
            changelog=str(log),
            format=fmt,
            written=len(plan.kept),
            dropped=plan.count(ChangeKind.DROPPED),
            relabelled=plan.count(ChangeKind.RELABELLED),
            ties_kept=plan.count(ChangeKind.TIE_KEPT),
            lines_raw=sources[LineSource.RAW],
            lines_relabelled=sources[LineSource.RELABELLED],
            lines_rebuilt=sources[LineSource.REBUILT],
        )

    def analysis(self, dataset: str) -> AnalysisTable:
        """The joined table: one row per unit with every rater's current label."""
        return analysis_table(self._store, dataset)

    def table(self, dataset: str, fmt: TableFormat, output: Path | None = None) -> tuple[Path, int]:
        """Write the joined table as `fmt`; (where, how many rows)."""
        table = self.analysis(dataset)
        path = output or exports_dir() / f"{dataset}-table.{fmt.value}"
        tmp = write_rows(table.rows, table.columns, fmt.value, path)
        commit(tmp, path)
        return path, len(table.rows)
