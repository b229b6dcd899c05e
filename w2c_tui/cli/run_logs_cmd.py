"""`w2c run logs ID [-f]`: a run's log, followed live with -f until the run ends."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from w2c_tui.cli.context import EXIT_NOT_FOUND, ID_MAX, fail, services

FOLLOW_EVERY_S = 0.25
SETTLE_S = 1.0
"""After the run ends, what arrives within this long is still printed."""


def logs(
    ctx: typer.Context,
    run_id: Annotated[int, typer.Argument(help="The run id.", min=1, max=ID_MAX)],
    follow: Annotated[
        bool, typer.Option("-f", "--follow", help="Keep printing what is added until it ends.")
    ] = False,
) -> None:
    """Print the run's log: every check, retry (status, wait), task error and library warning
    its worker logged. With -f, follow it until the run has finished (Ctrl-C stops)."""
    from w2c_tui.io.follow import LogTail

    with services(ctx) as svc:
        info = svc.runs.get(run_id)
        path = Path(info.log_path) if info.log_path else svc.runs.log_path(run_id)
        if not path.exists() and not follow:
            raise fail(f"run {run_id} has no log yet ({path})", EXIT_NOT_FOUND)
        tail = LogTail(path)
        sys.stdout.write(tail.read())
        sys.stdout.flush()
        if not follow:
            return
        try:
            ended_at: float | None = None
            while ended_at is None or time.monotonic() - ended_at < SETTLE_S:
                time.sleep(FOLLOW_EVERY_S)
                sys.stdout.write(tail.read())
                sys.stdout.flush()
                if ended_at is None and svc.runs.get(run_id).status.finished:
                    ended_at = time.monotonic()
        except KeyboardInterrupt:
            return
        final = svc.runs.get(run_id).status_text
    typer.echo(f"run {run_id}: {final}", err=True)
