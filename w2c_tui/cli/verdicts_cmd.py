"""`w2c verdicts export`: one line per task of a run."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from w2c_tui.cli.choices import ExportFormat
from w2c_tui.cli.context import ID_MAX, services
from w2c_tui.cli.output import write_output
from w2c_tui.io.exporters.records import records_text
from w2c_tui.io.exporters.run_results import result_records

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
    records, fields = result_records(rows, fmt.value)
    text = records_text(records, fmt.value, fields)
    if output is None:
        sys.stdout.write(text)
        return
    write_output(output, text, database)
    typer.echo(f"wrote {len(records)} line(s) to {output}", err=True)
