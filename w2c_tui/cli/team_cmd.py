"""`w2c team`, `w2c guidelines`, `w2c adjudications`: the team workflow from the shell."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from w2c_tui.cli.context import console as make_console
from w2c_tui.cli.context import print_json, services
from w2c_tui.cli.output import write_text

team_app = typer.Typer(help="Team progress.", no_args_is_help=True)
guidelines_app = typer.Typer(help="Labelling guidelines per dataset.", no_args_is_help=True)
adjudications_app = typer.Typer(help="Adjudicated labels.", no_args_is_help=True)

JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")]
DatasetOpt = Annotated[
    str | None, typer.Option(help="Dataset name (may be left out when the store has one).")
]


class Format(StrEnum):
    """Export formats."""

    JSONL = "jsonl"
    CSV = "csv"


@team_app.command("status")
def status(
    ctx: typer.Context,
    dataset: DatasetOpt = None,
    bootstrap: Annotated[int, typer.Option(help="Bootstrap resamples for α's interval.")] = 1000,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = 0,
    json_out: JsonOpt = False,
) -> None:
    """Per annotator: assigned / done / labels / rate / last active; units with all K labels;
    Krippendorff's α of the humans on those units with its 95% interval (what `T` shows)."""
    from rich.table import Table
    from rich.text import Text

    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        result = svc.team.status(name, bootstrap=bootstrap, seed=seed)
    if json_out:
        print_json(
            {
                "dataset": result.dataset,
                "units": result.units.value if result.units else None,
                "overlap": result.overlap,
                "units_assigned": result.units_assigned,
                "units_complete": result.units_complete,
                "alpha": {
                    "value": result.alpha.value,
                    "ci": [result.alpha.low, result.alpha.high]
                    if result.alpha.low is not None
                    else None,
                    "n": result.alpha.n,
                    "reason": result.alpha.reason,
                    "bootstrap": bootstrap,
                    "seed": seed,
                },
                "annotators": [
                    {
                        "annotator": a.annotator,
                        "assigned": a.assigned,
                        "done": a.done,
                        "labels": a.labels,
                        "per_hour": a.per_hour,
                        "active_minutes": a.active_minutes,
                        "last_active": a.last_active.isoformat() if a.last_active else None,
                    }
                    for a in result.annotators
                ],
            }
        )
        return
    out = make_console()
    out.print(Text(f"Team progress · {result.headline()}"))
    table = Table("annotator", "assigned", "done", "labels", "rate /h", "active", "last active")
    for a in result.annotators:
        table.add_row(
            Text(a.annotator),
            str(a.assigned),
            str(a.done),
            str(a.labels),
            f"{a.per_hour:.0f}" if a.per_hour is not None else "—",
            f"{a.active_minutes:.0f} min",
            a.last_active.strftime("%Y-%m-%d %H:%M") if a.last_active else "—",
        )
    out.print(table)


@guidelines_app.command("set")
def guidelines_set(
    ctx: typer.Context,
    dataset: Annotated[str, typer.Argument(help="Dataset name.")],
    path: Annotated[Path, typer.Argument(help="A Markdown file.")],
) -> None:
    """Store FILE as the dataset's next guideline version (an unchanged text adds none).
    Every label records the version in force; `G` in the TUI shows it beside the item."""
    with services(ctx) as svc:
        guideline, created = svc.guidelines.set(svc.datasets.resolve(dataset), path)
    if created:
        typer.echo(f"{guideline.dataset}: guidelines version {guideline.version} stored")
    else:
        typer.echo(
            f"{guideline.dataset}: the text equals version {guideline.version}; nothing changed"
        )


@guidelines_app.command("show")
def guidelines_show(
    ctx: typer.Context,
    dataset: Annotated[str | None, typer.Argument(help="Dataset name.")] = None,
    version: Annotated[int | None, typer.Option(help="A version (default: newest).")] = None,
) -> None:
    """Print one version's Markdown."""
    with services(ctx) as svc:
        guideline = svc.guidelines.get(svc.datasets.resolve(dataset), version)
    sys.stdout.write(guideline.text if guideline.text.endswith("\n") else guideline.text + "\n")


@guidelines_app.command("list")
def guidelines_list(
    ctx: typer.Context,
    dataset: Annotated[str | None, typer.Argument(help="Dataset name.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Every version with its date, size and source file."""
    with services(ctx) as svc:
        versions = svc.guidelines.versions(svc.datasets.resolve(dataset))
    rows = [
        {
            "version": g.version,
            "created_at": g.created_at.isoformat(),
            "sha256": g.sha256,
            "chars": len(g.text),
            "source_path": g.source_path,
        }
        for g in versions
    ]
    if json_out:
        print_json(rows)
        return
    if not rows:
        typer.echo("no guidelines yet: `w2c guidelines set DATASET FILE.md`")
    for row in rows:
        typer.echo(
            f"version {row['version']}  {row['created_at']}  {row['chars']} chars  "
            f"{row['source_path'] or ''}"
        )


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
    from w2c_tui.io.records_out import records_text

    with services(ctx) as svc:
        rows = svc.adjudication.export(svc.datasets.resolve(dataset))
    write_text(records_text(rows, fmt.value), output, what=f"{len(rows)} adjudication(s)")
