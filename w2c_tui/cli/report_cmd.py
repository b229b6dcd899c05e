"""`w2c report`: the calibration report as Markdown, HTML or JSON."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from w2c_tui.cli.context import BOOTSTRAP_MAX, SEED_MAX, services
from w2c_tui.cli.output import safe_name, write_output
from w2c_tui.domain.dashboard import CriticToolMetricsDoc, SliceBy
from w2c_tui.domain.labels import InvalidMode
from w2c_tui.domain.review import UnitKind

if TYPE_CHECKING:
    from w2c_tui.services import Services


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
        UnitKind, typer.Option(help="behaviour (item × model) or item (item QA).")
    ] = UnitKind.BEHAVIOUR,
    raters: Annotated[
        list[str] | None,
        typer.Option(help="Rater keys, comma-separated or repeated (default: all)."),
    ] = None,
    min_humans: Annotated[int, typer.Option(help="Humans needed for a consensus label.")] = 1,
    invalid: Annotated[
        InvalidMode, typer.Option(help="Invalid outputs as missing or wrong.")
    ] = InvalidMode.MISSING,
    by: Annotated[
        SliceBy | None,
        typer.Option(help="Add slices: gold class, tools (0/1/2+), source or model."),
    ] = None,
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples (2000+ for papers).", min=0, max=BOOTSTRAP_MAX)
    ] = 2000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap.", min=0, max=SEED_MAX)] = 0,
    similarity_model: Annotated[
        str | None,
        typer.Option(help="CriticTool datasets: the similarity model of the metrics section."),
    ] = None,
    mlflow: Annotated[
        str | None,
        typer.Option(
            "--mlflow",
            metavar="[URI]",
            help="Also log the report to MLflow as the run w2c-report-DATASET (alone: "
            "W2C_MLFLOW_TRACKING_URI, else exports/mlruns; needs the mlflow extra).",
        ),
    ] = None,
) -> None:
    """Write the calibration report: the data it was computed on, coverage, label
    distributions, human reliability, a decision on each judge and scorer (with the rule, the
    evidence, the weakest class and sample-size advice) and its numbers against the humans,
    drill-downs with confusion matrices and disagreements, calibration of log-prob scorers,
    reveal effects, slices (--by) and the When2Call metrics. HTML embeds each chart once."""
    from w2c_tui.cli.agreement_cmd import split_raters
    from w2c_tui.io import report as render
    from w2c_tui.paths import exports_dir

    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        dash = svc.agreement.dashboard(
            name,
            kind=units,
            raters=split_raters(raters),
            bootstrap=bootstrap,
            seed=seed,
            min_humans=min_humans,
            invalid_mode=invalid,
            by=by,
        )
        database = svc.database_file()
        critic, problem = _critictool_metrics(svc, name, similarity_model)
    if fmt is ReportFormat.JSON:
        text = render.as_json(dash, critic)
    else:
        write = render.markdown if fmt is ReportFormat.MD else render.html
        text = write(dash, render.critictool(critic, problem))
    target = output or exports_dir() / f"report-{safe_name(name)}.{fmt.value}"
    write_output(target, text, database)
    typer.echo(f"wrote {target} ({len(text):,} characters)", err=True)
    if mlflow is not None:
        _log_report(ctx, name, mlflow, text, target, dash.to_json())


def _log_report(
    ctx: typer.Context, dataset: str, uri: str, text: str, path: Path, basis: object
) -> None:
    """Log the written report to MLflow; a failure says so (the file stays written)."""
    from w2c_tui.cli.context import EXIT_BAD_INPUT, fail
    from w2c_tui.cli.mlflow_cmd import require_mlflow, tracking_line
    from w2c_tui.domain.tracking import TrackingError

    require_mlflow()
    with services(ctx) as svc:
        try:
            record = svc.tracking.log_report(dataset, uri, text, path, basis)
        except TrackingError as error:
            raise fail(f"{error} (the report was written to {path})", EXIT_BAD_INPUT) from error
    typer.echo(f"report: {tracking_line(record)}", err=True)


def _critictool_metrics(
    svc: Services, dataset: str, similarity_model: str | None
) -> tuple[CriticToolMetricsDoc | None, str | None]:
    """The CriticTool metrics of a CriticTool dataset (None otherwise), or why they could not
    be computed (the rest of the report is still written)."""
    from w2c_tui.domain.errors import W2CError

    if dataset not in svc.critictool.datasets():
        return None, None
    model = _local_or_name(similarity_model)
    try:
        doc = svc.critictool_metrics.compute(dataset, similarity_model=model)
    except W2CError as error:
        return None, str(error)
    return doc, None


def _local_or_name(value: str | None) -> str | Path | None:
    """A local folder as a Path (never taken for a hub name), else the name as given."""
    if value is None:
        return None
    return Path(value) if Path(value).exists() else value
