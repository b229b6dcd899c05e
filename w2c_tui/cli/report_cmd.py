"""`w2c report`: the calibration report as Markdown, HTML or JSON."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from w2c_tui.cli.context import services


class ReportFormat(StrEnum):
    """Report formats."""

    MD = "md"
    HTML = "html"
    JSON = "json"


def report(
    ctx: typer.Context,
    fmt: Annotated[
        ReportFormat, typer.Option("--format", help="md, html or json.")
    ] = ReportFormat.HTML,
    output: Annotated[
        Path | None,
        typer.Option(
            "-o", "--output", help="Where to write it (default: exports/report-DATASET.FORMAT)."
        ),
    ] = None,
    dataset: Annotated[
        str | None, typer.Option(help="Dataset (may be left out when the store has one).")
    ] = None,
    units: Annotated[
        str, typer.Option(help="behaviour (item × model) or item (item QA).")
    ] = "behaviour",
    raters: Annotated[
        list[str] | None,
        typer.Option(help="Rater keys, comma-separated or repeated (default: all)."),
    ] = None,
    min_humans: Annotated[int, typer.Option(help="Humans needed for a consensus label.")] = 1,
    invalid: Annotated[
        str, typer.Option(help="Invalid outputs as 'missing' or 'wrong'.")
    ] = "missing",
    bootstrap: Annotated[int, typer.Option(help="Bootstrap resamples (2000+ for papers).")] = 2000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap.")] = 0,
) -> None:
    """Write the calibration report: the data it was computed on, coverage, label
    distributions, human reliability, every judge and scorer against the humans with paired
    intervals, drill-downs with confusion matrices and disagreements, calibration of log-prob
    scorers, and the When2Call metrics table. HTML embeds its charts as SVG images."""
    from w2c_tui.cli.agreement_cmd import split_raters
    from w2c_tui.io import report as render
    from w2c_tui.paths import exports_dir
    from w2c_tui.services.readings import UnitKind

    try:
        kind = UnitKind(units)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--units") from error
    if invalid not in ("missing", "wrong"):
        raise typer.BadParameter("must be missing or wrong", param_hint="--invalid")
    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        dash = svc.agreement.dashboard(
            name,
            kind=kind,
            raters=split_raters(raters),
            bootstrap=bootstrap,
            seed=seed,
            min_humans=min_humans,
            invalid_mode=invalid,
        )
    text = {
        ReportFormat.MD: render.markdown,
        ReportFormat.HTML: render.html,
        ReportFormat.JSON: render.as_json,
    }[fmt](dash)
    target = output or exports_dir() / f"report-{name}.{fmt.value}"
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(target)
    typer.echo(f"wrote {target} ({len(text):,} characters)", err=True)
