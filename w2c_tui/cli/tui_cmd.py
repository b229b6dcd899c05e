"""`w2c tui` (and plain `w2c`): open the review workbench."""

from __future__ import annotations

from typing import Annotated

import typer

from w2c_tui.cli.context import EXIT_BAD_INPUT, fail, state


def tui(
    ctx: typer.Context,
    dataset: Annotated[str | None, typer.Option(help="Dataset to open.")] = None,
    annotator: Annotated[
        str | None,
        typer.Option(
            "--annotator", envvar="W2C_ANNOTATOR", help="Your name; every label carries it."
        ),
    ] = None,
) -> None:
    """Open the TUI (on an empty database the bundled demo is imported first)."""
    run_tui(ctx, dataset=dataset, annotator=annotator or state(ctx).annotator)


def run_tui(ctx: typer.Context, *, dataset: str | None, annotator: str | None) -> None:
    """Build the services and the app the same way the tests do, and run it."""
    from w2c_tui.config import load_settings
    from w2c_tui.services import open_services
    from w2c_tui.tui.app import W2CApp

    try:
        settings = load_settings()
    except ValueError as error:
        raise fail(str(error), EXIT_BAD_INPUT) from error
    try:
        svc = open_services(state(ctx).db)
    except Exception as error:
        raise fail(
            f"cannot open database {state(ctx).db or '(default)'}: {error}", EXIT_BAD_INPUT
        ) from error
    try:
        app = W2CApp(
            svc, annotator=annotator or settings.annotator, dataset=dataset, settings=settings
        )
        app.run()
    finally:
        svc.close()
