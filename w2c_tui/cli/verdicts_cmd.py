"""`w2c verdicts export`: one line per task of a run."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from w2c_tui.cli.choices import ExportFormat
from w2c_tui.cli.context import ID_MAX, services
from w2c_tui.cli.output import write_output
from w2c_tui.domain.labels import LABELS
from w2c_tui.io.csvcell import safe_row

verdicts_app = typer.Typer(help="Verdicts of runs.", no_args_is_help=True)


@verdicts_app.command("export")
def export(
    ctx: typer.Context,
    run: Annotated[int, typer.Option("--run", help="The run id.", min=1, max=ID_MAX)],
    fmt: Annotated[
        ExportFormat, typer.Option("--format", help="jsonl or csv.")
    ] = ExportFormat.JSONL,
    output: Annotated[Path | None, typer.Option("-o", "--output")] = None,
) -> None:
    """uuid, sample, label, status (ok / invalid / error), and for log-prob runs the four
    log-likelihoods in option order (direct, tool_call, request_for_info, cannot_answer),
    pred_raw and pred_norm; for CriticTool judge runs (JSON lines) the judge's `answers`. No API
    key is ever part of it."""
    with services(ctx) as svc:
        rows = svc.runs.results(run)
        database = svc.database_file()
    records = []
    for row in rows:
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
        records.append(record)
    buffer = io.StringIO()
    if fmt is ExportFormat.JSONL:
        for record in records:
            buffer.write(json.dumps(record, ensure_ascii=False) + "\n")
    else:
        fields = [
            "uuid",
            "sample_index",
            "label",
            "status",
            "pred_raw",
            "pred_norm",
            *[f"ll_{label}" for label in LABELS],
            "raw",
            "response",
            "error",
            "retries",
        ]
        writer = csv.DictWriter(buffer, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        for record in records:
            flat = dict(record)
            for label, value in zip(
                LABELS, record.get("loglikelihoods") or [None] * 4, strict=True
            ):
                flat[f"ll_{label}"] = value
            writer.writerow(safe_row(flat))
    if output is None:
        sys.stdout.write(buffer.getvalue())
        return
    write_output(output, buffer.getvalue(), database)
    typer.echo(f"wrote {len(records)} line(s) to {output}", err=True)
