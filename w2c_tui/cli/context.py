"""State shared by sub-commands (the database URL) and how errors reach the user."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from w2c_tui.services import Services

EXIT_NOT_FOUND = 1
EXIT_BAD_INPUT = 2
EXIT_STRICT = 3

SEED_MAX = 2**31 - 1
"""The largest seed an option takes (seeds are stored in 32-bit integer columns)."""
COUNT_MAX = 2**31 - 1
"""The largest count (--sample, --per-label, --limit, …) an option takes."""
ID_MAX = 2**63 - 1
"""The largest id (a run, a response) a database integer holds."""
BOOTSTRAP_MAX = 1_000_000
"""The most bootstrap resamples an option takes."""


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
    """Print an error to stderr and return the Exit to raise (control characters escaped:
    an error may quote a name or a line of a file)."""
    from w2c_tui.domain.names import printable

    typer.echo(f"error: {printable(message, multiline=True)}", err=True)
    return typer.Exit(code)


def echo(text: str, *, err: bool = False) -> None:
    """One line of text that holds stored names or other data: printed with its control
    characters escaped (`domain.names.printable`; tabs and newlines kept)."""
    from w2c_tui.domain.names import printable

    typer.echo(printable(text, multiline=True), err=err)


def checked_name(value: str, option: str) -> str:
    """A name given on the command line (`option` names where), in NFC and trimmed; a name
    with control characters, blank or too long ends the command with exit 2."""
    from w2c_tui.domain.names import clean_name

    try:
        return clean_name(value, f"{option}:")
    except ValueError as error:
        raise fail(str(error), EXIT_BAD_INPUT) from error


def name_option(value: str | None) -> str | None:
    """A typer callback for options that take a name (see `checked_name`)."""
    if value is None:
        return None
    from w2c_tui.domain.names import clean_name

    try:
        return clean_name(value, "the name")
    except ValueError as error:
        raise typer.BadParameter(str(error)) from error


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
    except OverflowError as error:  # a number past what the database stores
        raise fail(f"a number too large for the database: {error}", EXIT_BAD_INPUT) from error
    finally:
        svc.close()


def print_json(value: Any) -> None:
    """One JSON document on stdout. Non-ASCII text stays readable, but the control characters
    that JSON does not escape itself (DEL, C1, bidi overrides, line separators) are written
    as `\\uXXXX`: the same data, and nothing a terminal would run."""
    text = json.dumps(value, ensure_ascii=False, indent=2, default=str)
    # only ever inside strings, where \uXXXX is the same text
    text = _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    sys.stdout.write(text + "\n")


_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
"""What `json.dumps(ensure_ascii=False)` leaves raw that a terminal may act on."""


def console() -> Any:
    """A rich Console for tables: the terminal's width, or 160 columns when piped.

    Markup is off: text from data (a model called `model[/bold]`) is printed as it is, its
    control characters escaped.
    """
    out = _safe_console()(markup=False)
    return out if out.is_terminal else _safe_console()(width=160, markup=False)


def _safe_console() -> Any:
    """A rich Console class that prints the text of every segment through
    `domain.names.printable` (its own colour and cursor codes untouched): a name holding ESC
    or NUL reaches the terminal as `\\x1b`, `\\x00`."""
    from rich.console import Console
    from rich.segment import Segment

    from w2c_tui.domain.names import printable

    class SafeConsole(Console):
        def _render_buffer(self, buffer: Iterable[Segment]) -> str:
            return super()._render_buffer(
                Segment(printable(s.text, multiline=True), s.style, s.control)
                if s.control is None
                else s
                for s in buffer
            )

    return SafeConsole
