"""`w2c team`: progress, roles and browser invitations from the shell (guidelines_cmd.py and
adjudications_cmd.py hold the rest of the team workflow)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated
from urllib.parse import urlsplit

import typer
from rich.table import Table
from rich.text import Text

from w2c_tui.cli.acting import acting_person
from w2c_tui.cli.context import BOOTSTRAP_MAX, EXIT_BAD_INPUT, SEED_MAX, fail, print_json, services
from w2c_tui.cli.context import console as make_console
from w2c_tui.domain.names import printable
from w2c_tui.domain.roles import Role
from w2c_tui.services.roles import parse_duration

team_app = typer.Typer(
    help="Team progress, roles (lead, annotator) and browser invitations for `w2c serve`.",
    no_args_is_help=True,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")]
DatasetOpt = Annotated[
    str | None, typer.Option(help="Dataset name (may be left out when the store has one).")
]


@team_app.command("status")
def status(
    ctx: typer.Context,
    dataset: DatasetOpt = None,
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples for α's interval.", min=0, max=BOOTSTRAP_MAX)
    ] = 1000,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.", min=0, max=SEED_MAX)] = 0,
    json_out: JsonOpt = False,
) -> None:
    """Per annotator: assigned / done / labels / rate / last active; units with all K labels;
    Krippendorff's α of the humans on those units with its 95% interval (what `T` shows)."""

    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        result = svc.team.status(name, bootstrap=bootstrap, seed=seed)
    if json_out:
        print_json(
            {
                "dataset": result.dataset,
                "units": result.units.value if result.units else None,
                "overlap": result.overlap,
                "units_assigned": result.units_assigned,
                "units_complete": result.units_complete,
                "alpha": {
                    "value": result.alpha.value,
                    "ci": [result.alpha.low, result.alpha.high]
                    if result.alpha.low is not None
                    else None,
                    "n": result.alpha.n,
                    "reason": result.alpha.reason,
                    "bootstrap": bootstrap,
                    "seed": seed,
                },
                "annotators": [
                    {
                        "annotator": a.annotator,
                        "assigned": a.assigned,
                        "done": a.done,
                        "labels": a.labels,
                        "per_hour": a.per_hour,
                        "active_minutes": a.active_minutes,
                        "last_active": a.last_active.isoformat() if a.last_active else None,
                    }
                    for a in result.annotators
                ],
            }
        )
        return
    out = make_console()
    out.print(Text(printable(f"Team progress · {result.headline()}", multiline=True)))
    table = Table("annotator", "assigned", "done", "labels", "rate /h", "active", "last active")
    for a in result.annotators:
        table.add_row(
            Text(printable(a.annotator)),
            str(a.assigned),
            str(a.done),
            str(a.labels),
            f"{a.per_hour:.0f}" if a.per_hour is not None else "—",
            f"{a.active_minutes:.0f} min",
            a.last_active.strftime("%Y-%m-%d %H:%M") if a.last_active else "—",
        )
    out.print(table)


@team_app.command("add")
def team_add(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The person's annotator name.")],
    role: Annotated[Role, typer.Option(help="lead or annotator.")] = Role.ANNOTATOR,
) -> None:
    """Give NAME a role. The first lead ends solo use: from then on assigning, guidelines,
    adjudication, labelling as someone else and team changes need a lead (the acting person is
    --annotator, W2C_ANNOTATOR or the config file's name)."""
    with services(ctx) as svc:
        before = svc.roles.add(acting_person(ctx), name, role)
        leads = svc.roles.leads()
    shown = printable(name.strip())
    if before is role:
        typer.echo(f"{shown} is already {role.value}; nothing changed")
    elif before is None:
        typer.echo(f"{shown} added as {role.value}")
    else:
        typer.echo(f"{shown}: {before.value} → {role.value}")
    if not leads:
        typer.echo("note: no lead yet, so this database stays solo (anyone may do anything)")


@team_app.command("remove")
def team_remove(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The person's annotator name.")],
) -> None:
    """Take NAME's role away (their labels stay; their invitations are revoked). Removing the
    last lead makes the database solo again."""
    with services(ctx) as svc:
        person = acting_person(ctx)
        had = svc.roles.remove(person, name)
        revoked = svc.roles.revoke(person, name)
    shown = printable(name.strip())
    if not had:
        raise fail(f"{shown} has no role in this database", EXIT_BAD_INPUT)
    typer.echo(f"{shown} removed from the team ({revoked} invitation(s) revoked); labels kept")


@team_app.command("list")
def team_list(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Everyone with a role, leads first, with their open invitations."""

    with services(ctx) as svc:
        members = svc.roles.members()
        invites = svc.roles.invites()
    now = datetime.now(UTC)
    open_by = {
        m.name: [i for i in invites if i.name == m.name and i.state(now) == "valid"]
        for m in members
    }
    if json_out:
        print_json(
            {
                "solo": not any(m.role is Role.LEAD for m in members),
                "members": [
                    {
                        "name": m.name,
                        "role": m.role.value,
                        "added_by": m.added_by,
                        "added_at": m.added_at.isoformat(),
                        "open_invites": [
                            {
                                "expires_at": i.expires_at.isoformat(),
                                "last_used_at": (
                                    i.last_used_at.isoformat() if i.last_used_at else None
                                ),
                            }
                            for i in open_by[m.name]
                        ],
                    }
                    for m in members
                ],
            }
        )
        return
    if not any(m.role is Role.LEAD for m in members):
        typer.echo(
            "no lead: a solo database (anyone may do anything); `w2c team add NAME "
            "--role lead` makes one"
        )
    for m in members:
        valid = open_by[m.name]
        until = (
            f"; invitation until {max(i.expires_at for i in valid):%Y-%m-%d %H:%M} UTC"
            if valid
            else ""
        )
        typer.echo(f"{printable(m.name)}  {m.role.value}{until}")


@team_app.command("invite")
def team_invite(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Who the invitation lets in.")],
    expires: Annotated[str, typer.Option(help="How long it stays valid: 30m, 12h, 7d, 2w.")] = "7d",
    base_url: Annotated[
        str, typer.Option(help="Where `w2c serve` is reached (its --public-url, if any).")
    ] = "http://127.0.0.1:8000/",
    json_out: JsonOpt = False,
) -> None:
    """Print a `w2c serve` link that lets NAME in as NAME (a secret token, shown once; the
    database keeps only its SHA-256). `w2c team revoke NAME` withdraws it."""

    try:
        lifetime = parse_duration(expires)
    except ValueError as error:
        raise fail(str(error), EXIT_BAD_INPUT) from error
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise fail(f"--base-url {base_url!r}: give http(s)://HOST:PORT/", EXIT_BAD_INPUT)
    with services(ctx) as svc:
        invite, token = svc.roles.invite(acting_person(ctx), name, lifetime)
    url = f"{parts.scheme}://{parts.netloc}{parts.path or '/'}?token={token}"
    if json_out:
        print_json({"name": invite.name, "url": url, "expires_at": invite.expires_at.isoformat()})
        return
    typer.echo(url)
    typer.echo(
        f"for {printable(invite.name)}, valid until {invite.expires_at:%Y-%m-%d %H:%M} UTC; "
        "shown once (only its hash is stored): send it privately. "
        f"`w2c team revoke {printable(invite.name)}` withdraws it.",
        err=True,
    )


@team_app.command("revoke")
def team_revoke(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Whose invitations to revoke.")],
) -> None:
    """Revoke every invitation of NAME: their links stop working, and their open browser
    sessions end within seconds."""
    with services(ctx) as svc:
        revoked = svc.roles.revoke(acting_person(ctx), name)
    typer.echo(f"{printable(name.strip())}: {revoked} invitation(s) revoked")
