"""`w2c mlflow`: runs, the agreement decision document and reports in MLflow (the `mlflow` extra).

What goes where is described in docs/runs.md ("Runs in MLflow"); the service is
services/tracking.py.
"""

from __future__ import annotations

import importlib.util
from typing import Annotated

import typer

from w2c_tui.cli.context import (
    BOOTSTRAP_MAX,
    EXIT_BAD_INPUT,
    ID_MAX,
    SEED_MAX,
    fail,
    print_json,
    services,
)
from w2c_tui.domain.review import UnitKind
from w2c_tui.domain.tracking import TRACKING_ENV, TrackingError, TrackingRecord

mlflow_app = typer.Typer(
    help="Log runs, the agreement decision document and reports to MLflow (the mlflow extra). "
    f"Where: --uri, else {TRACKING_ENV}, else the local store exports/mlruns "
    "(open it with `mlflow ui --backend-store-uri sqlite:///exports/mlruns/mlflow.db`).",
    no_args_is_help=True,
)

UriOption = Annotated[
    str | None,
    typer.Option(
        "--uri",
        help=f"Tracking URI: http(s)://host:port, sqlite:///file.db or a folder (default: "
        f"{TRACKING_ENV}, else exports/mlruns).",
    ),
]


def require_mlflow() -> None:
    """Exit with a message (nothing started) unless the mlflow extra is installed."""
    if importlib.util.find_spec("mlflow") is None:
        raise fail(
            "MLflow logging needs the mlflow extra: pip install 'w2c-tui[mlflow]' "
            "(./scripts/test installs it)",
            EXIT_BAD_INPUT,
        )


def tracking_json(record: TrackingRecord) -> dict[str, object]:
    """A tracking record as `--json` prints it."""
    return {
        "subject": record.subject.value,
        "ref": record.ref,
        "run_id": record.run_id,
        "dataset": record.dataset,
        "tracking_uri": record.tracking_uri,
        "status": record.status.value,
        "experiment_id": record.experiment_id,
        "mlflow_run_id": record.mlflow_run_id,
        "url": record.url,
        "digest": record.digest,
        "error": record.error,
        "logged_at": record.logged_at.isoformat(timespec="seconds") if record.logged_at else None,
    }


def tracking_line(record: TrackingRecord) -> str:
    """One record in words: logged where, asked for, or why it failed."""
    if record.status.value == "logged":
        return f"logged to {record.where}"
    if record.status.value == "requested":
        return f"to be logged to {record.tracking_uri} when the run ends"
    return f"not logged to {record.tracking_uri}: {record.error}"


def _done(record: TrackingRecord, json_out: bool, what: str) -> None:
    if json_out:
        print_json(tracking_json(record))
    else:
        typer.echo(f"{what}: {tracking_line(record)}")


@mlflow_app.command("log-run")
def log_run(
    ctx: typer.Context,
    run_id: Annotated[int, typer.Argument(help="The run id.", min=1, max=ID_MAX)],
    uri: UriOption = None,
    json_out: Annotated[bool, typer.Option("--json", help="The record as JSON.")] = False,
) -> None:
    """Log an ended run (or catch up one whose logging failed): the MLflow run
    `w2c-run-ID` in the experiment named after the dataset, with the configuration as
    parameters, the When2Call metrics with their interval bounds, the verdicts and the log as
    artifacts, and child runs per repeat. Logging again updates the same MLflow run."""
    require_mlflow()
    with services(ctx) as svc:
        try:
            record = svc.tracking.log_run(run_id, uri)
        except TrackingError as error:
            raise fail(str(error), EXIT_BAD_INPUT) from error
    _done(record, json_out, f"run {run_id}")


@mlflow_app.command("log-agreement")
def log_agreement(
    ctx: typer.Context,
    dataset: Annotated[
        str | None, typer.Option(help="Dataset (may be left out when the store has one).")
    ] = None,
    uri: UriOption = None,
    units: Annotated[
        UnitKind, typer.Option(help="behaviour: (item, target model) pairs; item: item QA.")
    ] = UnitKind.BEHAVIOUR,
    min_humans: Annotated[
        int, typer.Option(help="Human labels a unit needs for a majority reference.")
    ] = 1,
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples (0: no intervals).", min=0, max=BOOTSTRAP_MAX)
    ] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap.", min=0, max=SEED_MAX)] = 0,
    json_out: Annotated[bool, typer.Option("--json", help="The record as JSON.")] = False,
) -> None:
    """Log the agreement decision document (what `w2c agreement --json` prints) as the run
    `w2c-agreement-DATASET`: the humans' α and each judge's κ, Δκ and per-class numbers as
    metrics with their interval bounds, each judge's stand-in decision as a tag
    (`w2c.stand_in.<judge>`), the document and the decisions in words as artifacts. The same
    document logged twice is one MLflow run."""
    require_mlflow()
    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        doc = svc.agreement.judges(
            name, kind=units, bootstrap=bootstrap, seed=seed, min_humans=min_humans
        )
        try:
            record = svc.tracking.log_agreement(name, uri, doc)
        except TrackingError as error:
            raise fail(str(error), EXIT_BAD_INPUT) from error
    _done(record, json_out, f"agreement of {name}")


@mlflow_app.command("log-labels")
def log_labels(
    ctx: typer.Context,
    dataset: Annotated[
        str | None, typer.Option(help="Dataset (may be left out when the store has one).")
    ] = None,
    uri: UriOption = None,
    json_out: Annotated[bool, typer.Option("--json", help="The record as JSON.")] = False,
) -> None:
    """Log the human labels as MLflow 3 assessments: one trace per response a person labelled
    (the question and tools in, the response out), linked to the run `w2c-labels-DATASET`,
    with each person's label as HUMAN feedback `when2call_behaviour` (source: the annotator),
    adjudications likewise, each judge's verdict as LLM_JUDGE feedback and the gold label as
    an expectation. Needs a store that keeps traces (MLflow 3: a server, sqlite:///file.db
    or a folder). Logging again writes only the traces whose labels changed."""
    require_mlflow()
    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        try:
            record, done = svc.tracking.log_labels(name, uri)
        except TrackingError as error:
            raise fail(str(error), EXIT_BAD_INPUT) from error
    if json_out:
        print_json(
            {
                **tracking_json(record),
                "traces_written": done.written,
                "traces_unchanged": done.unchanged,
                "traces_replaced": done.replaced,
            }
        )
        return
    typer.echo(
        f"labels of {name}: {tracking_line(record)} ({done.written} trace(s) written, "
        f"{done.replaced} of them replacing one whose labels changed, {done.unchanged} unchanged)"
    )


@mlflow_app.command("list")
def list_logged(
    ctx: typer.Context,
    dataset: Annotated[str | None, typer.Option(help="Only this dataset.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="The records as JSON.")] = False,
) -> None:
    """What was logged to MLflow from this database, newest first: runs, agreement documents
    and reports, where each went, or why it failed."""
    with services(ctx) as svc:
        records = svc.tracking.records(dataset)
    if json_out:
        print_json([tracking_json(r) for r in records])
        return
    if not records:
        typer.echo("nothing was logged to MLflow from this database")
        return
    for r in records:
        what = f"run {r.run_id}" if r.run_id is not None else f"{r.subject.value} {r.ref}"
        when = r.logged_at.strftime("%Y-%m-%d %H:%M") if r.logged_at else "—"
        typer.echo(f"{when}  {r.dataset}  {what}: {tracking_line(r)}")
