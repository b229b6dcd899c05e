"""State shared by sub-commands (the database URL) and how errors reach the user."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from w2c_tui.services import Services

EXIT_NOT_FOUND = 1
EXIT_BAD_INPUT = 2
EXIT_STRICT = 3


@dataclass
class CliState:
    """Options given before the sub-command."""

    db: str | None = None
    annotator: str | None = None


def state(ctx: typer.Context) -> CliState:
    """The CliState of this invocation."""
    root = ctx.find_root()
    if not isinstance(root.obj, CliState):
        root.obj = CliState()
    return root.obj


def cannot_open(url: str | None, error: BaseException) -> str:
    """Why the database did not open, its URL and the error shown without its password."""
    if not url:
        return f"cannot open database (default): {error}"
    from w2c_tui.runs.runlog import public_db_url, url_secrets

    text = f"cannot open database {public_db_url(url)}: {error}"
    for secret in url_secrets(url):
        text = text.replace(secret, "***")
    return text


def fail(message: str, code: int) -> typer.Exit:
    """Print an error to stderr and return the Exit to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


@contextmanager
def services(ctx: typer.Context, *, migrate: bool = True) -> Iterator[Services]:
    """Open the services for this command; turn our errors into messages and exit codes."""
    from w2c_tui.domain.errors import InputError, NotFoundError, StrictImportError, W2CError
    from w2c_tui.services import open_services

    try:
        svc = open_services(state(ctx).db, migrate=migrate)
    except Exception as error:  # a bad URL or an unreadable file: say which
        raise fail(cannot_open(state(ctx).db, error), EXIT_BAD_INPUT) from error
    try:
        yield svc
    except InputError as error:
        raise fail(str(error), EXIT_BAD_INPUT) from error
    except StrictImportError as error:
        raise fail(str(error), EXIT_STRICT) from error
    except NotFoundError as error:
        raise fail(str(error), EXIT_NOT_FOUND) from error
    except W2CError as error:
        raise fail(str(error), EXIT_BAD_INPUT) from error
    finally:
        svc.close()


def print_json(value: Any) -> None:
    """One JSON document on stdout."""
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2, default=str) + "\n")


def console() -> Any:
    """A rich Console for tables: the terminal's width, or 160 columns when piped.

    Markup is off: text from data (a model called `model[/bold]`) is printed as it is.
    """
    from rich.console import Console

    out = Console(markup=False)
    return out if out.is_terminal else Console(width=160, markup=False)
