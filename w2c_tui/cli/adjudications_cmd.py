"""`w2c adjudications`: the adjudicated labels, exported."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from w2c_tui.cli.context import services
from w2c_tui.cli.output import write_text
from w2c_tui.io.exporters.records import records_text

adjudications_app = typer.Typer(help="Adjudicated labels.", no_args_is_help=True)

DatasetOpt = Annotated[
    str | None, typer.Option(help="Dataset name (may be left out when the store has one).")
]


class Format(StrEnum):
    """Export formats."""

    JSONL = "jsonl"
    CSV = "csv"


@adjudications_app.command("export")
def adjudications_export(
    ctx: typer.Context,
    fmt: Annotated[Format, typer.Option("--format", help="jsonl or csv.")] = Format.JSONL,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write here instead of stdout.")
    ] = None,
    dataset: DatasetOpt = None,
) -> None:
    """Every current adjudication: unit, decision, adjudicator, note, and the human labels it
    resolved (with the majority it replaced, if any)."""
    with services(ctx) as svc:
        rows = svc.adjudication.export(svc.datasets.resolve(dataset))
    write_text(records_text(rows, fmt.value), output, what=f"{len(rows)} adjudication(s)")
