"""`w2c db`: which database this is, and schema migrations."""

from __future__ import annotations

from dataclasses import asdict

import typer

from w2c_tui.cli.context import print_json, services

db_app = typer.Typer(
    help="The database: which one it is, its revision; apply migrations.", no_args_is_help=True
)


@db_app.command("upgrade")
def upgrade(ctx: typer.Context) -> None:
    """Apply pending migrations (opening a database does this too); labels are kept."""
    with services(ctx, migrate=False) as svc:
        before, head = svc.db_revision()
        svc.store.upgrade()
        after, _ = svc.db_revision()
        if before == after:
            typer.echo(f"{svc.public_url}: already at revision {after} (newest known: {head})")
        else:
            typer.echo(f"{svc.public_url}: upgraded from revision {before or 'empty'} to {after}")


@db_app.command("status")
def status(ctx: typer.Context, json_out: bool = typer.Option(False, "--json")) -> None:
    """Which backend and server, which database, and its schema revision (never a password)."""
    with services(ctx) as svc:
        info = svc.db_info()
        if json_out:
            print_json(asdict(info))
            return
        typer.echo(f"backend:   {info.backend} {info.server_version}")
        typer.echo(f"database:  {info.where()}")
        typer.echo(f"url:       {info.url}")
        typer.echo(f"revision:  {info.revision or 'empty'} (newest known: {info.head})")
