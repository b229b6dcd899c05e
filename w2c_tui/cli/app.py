"""The Typer application: global options, the default TUI, and the sub-command groups."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from w2c_tui import __version__
from w2c_tui.cli import (
    adjudications_cmd,
    agreement_cmd,
    assign_cmd,
    critictool_agreement_cmd,
    critictool_cmd,
    data_cmd,
    db_cmd,
    estimate_cmd,
    export_cmd,
    guidelines_cmd,
    import_cmd,
    judge_cmd,
    labels_cmd,
    merge_cmd,
    metrics_cmd,
    mlflow_cmd,
    next_cmd,
    prompts_cmd,
    qa_cmd,
    report_cmd,
    run_cmd,
    schemas_cmd,
    serve_cmd,
    split_cmd,
    team_cmd,
    tui_cmd,
    verdicts_cmd,
)
from w2c_tui.cli.context import name_option, state

HELP = """\
w2c-tui: review When2Call items, model responses and judge verdicts from the keyboard,
record your own labels, and see how humans, LLM judges and log-prob scoring agree.

Run `w2c` alone to open the TUI (on an empty database it imports the bundled demo first).
Every command takes --db URL (any SQLAlchemy URL; default: W2C_DB, else annotations/w2c.db).
"""

OPTIONAL_VALUE = ("--mlflow",)
"""Options whose value may be left out (`--mlflow` alone: the default tracking URI)."""


class OptionalValueGroup(TyperGroup):
    """The root group: an option of OPTIONAL_VALUE given without a value (last, or followed by
    another option) is read as `--mlflow=` (an empty value: the default), which click's parser
    cannot do by itself without taking the next option for the value."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:  # click.Context
        """The arguments with bare optional-value options given an empty value."""
        out: list[str] = []
        for i, arg in enumerate(args):
            if arg == "--":
                out.extend(args[i:])
                break
            following = args[i + 1] if i + 1 < len(args) else None
            if arg in OPTIONAL_VALUE and (following is None or following.startswith("-")):
                arg = f"{arg}="
            out.append(arg)
        return super().parse_args(ctx, out)


app = typer.Typer(
    cls=OptionalValueGroup,
    help=HELP,
    no_args_is_help=False,
    add_completion=False,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"w2c-tui {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def root(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            envvar="W2C_DB",
            help="Database: a SQLite file path (annotations/w2c.db) or a URL, e.g. "
            "sqlite:///annotations/w2c.db or postgresql+psycopg://user@host/w2c.",
        ),
    ] = None,
    annotator: Annotated[
        str | None,
        typer.Option(
            "--annotator",
            envvar="W2C_ANNOTATOR",
            help="Your name; every label you record carries it.",
            callback=name_option,
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Open the TUI when no sub-command is given."""
    cli = state(ctx)
    cli.db = db
    cli.annotator = annotator
    if ctx.invoked_subcommand is None:
        tui_cmd.run_tui(ctx, dataset=None, annotator=annotator)


app.command("tui")(tui_cmd.tui)
app.command("import")(import_cmd.import_files)
app.command("metrics")(metrics_cmd.metrics)
app.command("next")(next_cmd.next_units)
app.command("split")(split_cmd.split)
app.command("agreement")(agreement_cmd.agreement)
app.command("estimate")(estimate_cmd.estimate)
app.command("report")(report_cmd.report)
app.command("serve")(serve_cmd.serve)
app.command("merge")(merge_cmd.merge)
app.add_typer(data_cmd.datasets_app, name="datasets")
app.add_typer(data_cmd.items_app, name="items")
app.add_typer(labels_cmd.labels_app, name="labels")
app.add_typer(schemas_cmd.schemas_app, name="schemas")
app.add_typer(db_cmd.db_app, name="db")
app.add_typer(run_cmd.run_app, name="run")
app.add_typer(prompts_cmd.prompts_app, name="prompts")
app.add_typer(verdicts_cmd.verdicts_app, name="verdicts")
app.add_typer(assign_cmd.assign_app, name="assign")
app.add_typer(team_cmd.team_app, name="team")
app.add_typer(guidelines_cmd.guidelines_app, name="guidelines")
app.add_typer(adjudications_cmd.adjudications_app, name="adjudications")
app.add_typer(qa_cmd.qa_app, name="qa")
app.add_typer(export_cmd.export_app, name="export")
app.add_typer(judge_cmd.judge_app, name="judge")
app.add_typer(mlflow_cmd.mlflow_app, name="mlflow")
assert critictool_agreement_cmd.agreement is not None  # registers `critictool agreement`
app.add_typer(critictool_cmd.critictool_app, name="critictool")
data_cmd.items_app.command("export")(export_cmd.items_export)
