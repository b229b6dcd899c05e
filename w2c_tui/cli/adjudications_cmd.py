"""`w2c adjudications`: the adjudicated labels, exported; for any label schema, the cases
people disagree on and a lead's decisions."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from w2c_tui.cli.acting import require_lead
from w2c_tui.cli.context import EXIT_BAD_INPUT, fail, print_json, services
from w2c_tui.cli.output import write_text
from w2c_tui.domain.roles import LeadAction
from w2c_tui.io.exporters.records import records_text

adjudications_app = typer.Typer(help="Adjudicated labels.", no_args_is_help=True)

SchemaOpt = Annotated[str, typer.Option("--schema", help="The label schema (`w2c schemas list`).")]
DatasetOpt = Annotated[
    str | None, typer.Option(help="Dataset name (may be left out when the store has one).")
]


class Format(StrEnum):
    """Export formats."""

    JSONL = "jsonl"
    CSV = "csv"


@adjudications_app.command("export")
def adjudications_export(
    ctx: typer.Context,
    fmt: Annotated[Format, typer.Option("--format", help="jsonl or csv.")] = Format.JSONL,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write here instead of stdout.")
    ] = None,
    dataset: DatasetOpt = None,
    schema: Annotated[
        str | None,
        typer.Option("--schema", help="A label schema's decisions (every case, decided or not)."),
    ] = None,
) -> None:
    """Every current adjudication: unit, decision, adjudicator, note, and the human labels it
    resolved (with the majority it replaced, if any). With --schema: that schema's cases, each
    with the answers, the majority and the decision (empty while undecided)."""
    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        if schema is None:
            rows = svc.adjudication.export(name)
        else:
            found = svc.schemas.get(schema)
            rows = [c.as_record() for c in svc.schema_adjudication.cases(found, name)]
    write_text(records_text(rows, fmt.value), output, what=f"{len(rows)} adjudication(s)")


@adjudications_app.command("cases")
def adjudications_cases(
    ctx: typer.Context,
    schema: SchemaOpt,
    dataset: DatasetOpt = None,
    question: Annotated[str | None, typer.Option(help="Only this question.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON document.")] = False,
) -> None:
    """The units people answered a schema's question differently on, most split first: the
    answers, the majority (none on a tie) and the decision so far."""
    with services(ctx) as svc:
        found = svc.schemas.get(schema)
        name = svc.datasets.resolve(dataset)
        cases = svc.schema_adjudication.cases(found, name, question)
    if as_json:
        print_json({"schema": found.name, "dataset": name, "cases": [c.as_record() for c in cases]})
        return
    if not cases:
        typer.echo(f"{found.name} on {name}: nothing to adjudicate (the people agree)")
        return
    typer.echo(f"{found.name} on {name}: {len(cases)} case(s), most split first")
    for c in cases:
        unit = c.item_uuid + (f" response {c.unit.response_id}" if c.unit.response_id else "")
        given = ", ".join(f"{who}={value}" for who, value in c.answers)
        decided = f" → decided {c.decision} by {c.adjudicator}" if c.decision else ""
        typer.echo(f"  {unit} · {c.question}: {given} (majority {c.majority or 'tied'}){decided}")


@adjudications_app.command("decide")
def adjudications_decide(
    ctx: typer.Context,
    schema: SchemaOpt,
    item: Annotated[str, typer.Option(help="The item's uuid.")],
    question: Annotated[str, typer.Option(help="The question decided.")],
    value: Annotated[str, typer.Argument(help="The decision: one of the question's options.")],
    response: Annotated[
        int | None, typer.Option(help="The response's id (response units).")
    ] = None,
    note: Annotated[str, typer.Option(help="Why, kept with the decision.")] = "",
    dataset: DatasetOpt = None,
) -> None:
    """Record a decision on one question of one unit, as the acting person (--annotator); once
    the database has a lead, only a lead may adjudicate."""
    with services(ctx) as svc:
        person = require_lead(ctx, svc, LeadAction.ADJUDICATE)
        if not person:
            raise fail("say who decides: --annotator NAME (or W2C_ANNOTATOR)", EXIT_BAD_INPUT)
        found = svc.schemas.get(schema)
        name = svc.datasets.resolve(dataset)
        units = [
            r.unit
            for r in svc.schemas.unit_refs(found.name, name)
            if r.item_uuid == item and r.unit.response_id == response
        ]
        if not units:
            where = f"item {item}" + (f" response {response}" if response is not None else "")
            raise fail(f"{found.name} has no unit {where} in {name}", EXIT_BAD_INPUT)
        changed = svc.schema_adjudication.decide(person, found, units[0], question, value, note)
    typer.echo(("recorded" if changed else "unchanged") + f": {question}={value} by {person}")
