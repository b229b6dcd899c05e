"""`w2c guidelines`: labelling guidelines per dataset, versioned (set, show, list)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from w2c_tui.cli.acting import require_lead
from w2c_tui.cli.context import print_json, services
from w2c_tui.domain.roles import LeadAction

guidelines_app = typer.Typer(help="Labelling guidelines per dataset.", no_args_is_help=True)

JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")]


@guidelines_app.command("set")
def guidelines_set(
    ctx: typer.Context,
    dataset: Annotated[str, typer.Argument(help="Dataset name.")],
    path: Annotated[Path, typer.Argument(help="A Markdown file.")],
) -> None:
    """Store FILE as the dataset's next guideline version (an unchanged text adds none).
    Every label records the version in force; `G` in the TUI shows it beside the item."""
    with services(ctx) as svc:
        require_lead(ctx, svc, LeadAction.GUIDELINES)
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
