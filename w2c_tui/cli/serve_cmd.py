"""`w2c serve`: the TUI in a browser (textual-serve), one app per browser session."""

from __future__ import annotations

import os
import shlex
import sys
from typing import Annotated

import typer

from w2c_tui.cli.context import EXIT_BAD_INPUT, fail, services

SERVE_HINT = "`w2c serve` needs textual-serve: pip install -e '.[serve]'"


def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    dataset: Annotated[str | None, typer.Option(help="Dataset every session opens.")] = None,
) -> None:
    """Serve the TUI over HTTP for annotators without a terminal: each browser tab is its own
    app that asks its annotator's name, on the same database."""
    try:
        from textual_serve.server import Server
    except ImportError as error:
        raise fail(SERVE_HINT, EXIT_BAD_INPUT) from error
    with services(ctx) as svc:  # upgrade once here, and the demo into an empty database once
        url = svc.url
        shown = svc.public_url
        if svc.imports.store_is_empty():
            svc.imports.import_demo()
    if shown != url and os.environ.get("W2C_DB") != url:
        typer.echo(
            "warning: the database password is on this command line, where `ps` shows it; "
            "use W2C_DB, PGPASSWORD or ~/.pgpass instead",
            err=True,
        )
    # Each session's process reads the URL from its environment: its command line (seen by
    # every user in `ps`) has no URL, and so no password. Each asks its annotator's name.
    os.environ["W2C_DB"] = url
    os.environ.pop("W2C_ANNOTATOR", None)
    command = [sys.executable, "-m", "w2c_tui", "tui", "--ask-annotator"]
    if dataset:
        command += ["--dataset", dataset]
    typer.echo(f"serving w2c-tui on http://{host}:{port} (database {shown})", err=True)
    Server(shlex.join(command), host=host, port=port, title="w2c-tui").serve()
