"""`w2c tui` (and plain `w2c`): open the review workbench."""

from __future__ import annotations

from typing import Annotated

import typer

from w2c_tui.cli.context import (
    EXIT_BAD_INPUT,
    EXIT_NOT_FOUND,
    cannot_open,
    fail,
    name_option,
    state,
)
from w2c_tui.domain.errors import InputError, NotFoundError


def tui(
    ctx: typer.Context,
    dataset: Annotated[str | None, typer.Option(help="Dataset to open.")] = None,
    annotator: Annotated[
        str | None,
        typer.Option(
            "--annotator",
            envvar="W2C_ANNOTATOR",
            help="Your name; every label carries it.",
            callback=name_option,
        ),
    ] = None,
    schema: Annotated[
        str | None,
        typer.Option(
            help="Label the dataset with this label schema (`w2c schemas list`): its "
            "questions one key each.",
            callback=name_option,
        ),
    ] = None,
    ask_annotator: Annotated[
        bool,
        typer.Option(
            "--ask-annotator",
            hidden=True,
            help="Ask the name at start, whatever is configured, and do not save it "
            "(each `w2c serve` session).",
        ),
    ] = False,
    invited: Annotated[
        bool,
        typer.Option(
            "--invited",
            hidden=True,
            help="A `w2c serve` session: the annotator is W2C_ANNOTATOR, set by the server "
            "from the browser's invitation; it is neither asked nor saved.",
        ),
    ] = False,
) -> None:
    """Open the TUI (on an empty database the bundled demo is imported first)."""
    if invited:
        name = annotator or state(ctx).annotator
        if not name:
            raise fail("--invited needs W2C_ANNOTATOR (set by `w2c serve`)", EXIT_BAD_INPUT)
        run_tui(ctx, dataset=dataset, annotator=name, invited=True, schema=schema)
    elif ask_annotator:
        run_tui(ctx, dataset=dataset, annotator=None, ask=True, schema=schema)
    else:
        name = annotator or state(ctx).annotator
        run_tui(ctx, dataset=dataset, annotator=name, schema=schema)


def run_tui(
    ctx: typer.Context,
    *,
    dataset: str | None,
    annotator: str | None,
    ask: bool = False,
    invited: bool = False,
    schema: str | None = None,
) -> None:
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
        raise fail(cannot_open(state(ctx).db, error), EXIT_BAD_INPUT) from error
    if schema is not None:
        try:
            svc.schemas.on_screen(schema, "--schema")
        except NotFoundError as error:
            svc.close()
            raise fail(str(error), EXIT_NOT_FOUND) from error
        except InputError as error:
            svc.close()
            raise fail(str(error), EXIT_BAD_INPUT) from error
    try:
        app = W2CApp(
            svc,
            annotator=None if ask else annotator or settings.annotator,
            dataset=dataset,
            settings=settings,
            remember_annotator=not ask and not invited,
            invited=invited,
            schema=schema,
        )
        app.run()
    finally:
        svc.close()
    if app.lost_log.count and not app.lost_log.told:
        typer.echo(app.lost_log.message(), err=True)
    code = app.return_code or (1 if app.lost_log.unasked else 0)  # a label lost unasked: not ok
    if code:
        raise typer.Exit(code)
