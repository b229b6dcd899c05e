"""`w2c db`: schema migrations."""

from __future__ import annotations

import typer

from w2c_tui.cli.context import print_json, services

db_app = typer.Typer(
    help="Database schema: show the revision, apply migrations.", no_args_is_help=True
)


@db_app.command("upgrade")
def upgrade(ctx: typer.Context) -> None:
    """Apply pending migrations (opening a database does this too); labels are kept."""
    with services(ctx, migrate=False) as svc:
        before, head = svc.db_revision()
        svc.store.upgrade()
        after, _ = svc.db_revision()
        if before == after:
            typer.echo(f"{svc.url}: already at revision {after} (newest known: {head})")
        else:
            typer.echo(f"{svc.url}: upgraded from revision {before or 'empty'} to {after}")


@db_app.command("status")
def status(ctx: typer.Context, json_out: bool = typer.Option(False, "--json")) -> None:
    """Show the database URL and its schema revision."""
    with services(ctx) as svc:
        current, head = svc.db_revision()
        if json_out:
            print_json({"url": svc.url, "revision": current, "head": head})
        else:
            typer.echo(f"{svc.url}: revision {current} (newest known: {head})")
