"""Who is acting on the command line, and the lead gate for commands that need one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from w2c_tui.cli.context import EXIT_BAD_INPUT, fail, state

if TYPE_CHECKING:
    from w2c_tui.domain.roles import LeadAction
    from w2c_tui.services import Services


def acting_person(ctx: typer.Context) -> str | None:
    """The person running this command, as the TUI would name them: `--annotator`, then
    W2C_ANNOTATOR, then the config file's `annotator` (None: nobody said)."""
    given = state(ctx).annotator
    if given:
        return given
    from w2c_tui.config import load_settings

    try:
        return load_settings().annotator
    except ValueError as error:
        raise fail(str(error), EXIT_BAD_INPUT) from error


def require_lead(ctx: typer.Context, svc: Services, action: LeadAction) -> str | None:
    """Exit 2 with who the leads are unless the acting person may do `action`; the person."""
    person = acting_person(ctx)
    svc.roles.require(person, action)
    return person
