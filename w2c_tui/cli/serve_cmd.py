"""`w2c serve`: the TUI in a browser for invited annotators, one app per browser session."""

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
    max_sessions: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Most sessions (app processes) at once; default: 4 per CPU core, within half "
            "of the memory.",
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address browsers use when a proxy is in front (e.g. "
            "https://label.example.org): the only Origin its websocket accepts."
        ),
    ] = None,
) -> None:
    """Serve the TUI over HTTP to invited annotators: each opens the link of `w2c team invite
    NAME` and labels as NAME (never typed). Requests without a valid invitation get 401/403
    and start nothing. Plain HTTP: put TLS (a reverse proxy) in front when it is reachable from
    other machines."""
    try:
        from w2c_tui.tui.serve.server import InvitedServer, is_local
        from w2c_tui.tui.serve.sessions import default_max_sessions
    except ImportError as error:
        raise fail(SERVE_HINT, EXIT_BAD_INPUT) from error
    if public_url is not None and not public_url.startswith(("http://", "https://")):
        raise fail(f"--public-url {public_url!r}: give http(s)://HOST[:PORT]", EXIT_BAD_INPUT)
    # kept open while serving: every request's invitation is checked against the database
    with services(ctx) as svc:
        url = svc.url
        shown = svc.public_url
        if svc.imports.store_is_empty():  # upgrade once here, and the demo once
            svc.imports.import_demo()
        invites = svc.roles.invites()
        limit = max_sessions or default_max_sessions()
        if shown != url and os.environ.get("W2C_DB") != url:
            typer.echo(
                "warning: the database password is on this command line, where `ps` shows it; "
                "use W2C_DB, PGPASSWORD or ~/.pgpass instead",
                err=True,
            )
        if not is_local(host):
            typer.echo(
                f"warning: --host {host} is reachable from other machines over plain HTTP: "
                "invitation links and everything typed travel unencrypted. TLS and a reverse "
                "proxy in front (with --public-url) are your job.",
                err=True,
            )
        # Each session's process reads the URL from its environment (its command line, seen
        # by every user in `ps`, has no URL and so no password) and its annotator from the
        # W2C_ANNOTATOR the server sets from the invitation.
        os.environ["W2C_DB"] = url
        os.environ.pop("W2C_ANNOTATOR", None)
        command = [sys.executable, "-m", "w2c_tui", "tui", "--invited"]
        if dataset:
            command += ["--dataset", dataset]
        base = public_url or f"http://{host}:{port}"
        typer.echo(
            f"serving w2c-tui on {base} (database {shown}) to invited annotators, at most "
            f"{limit} sessions at once; `w2c team invite NAME --base-url {base}` makes a link"
            + ("" if invites else " (none made yet)"),
            err=True,
        )
        server = InvitedServer(
            shlex.join(command),
            admit=svc.roles.admit,
            still_valid=svc.roles.still_valid,
            host=host,
            port=port,
            max_sessions=limit,
            public_url=public_url,
        )
        server.serve()
