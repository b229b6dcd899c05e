"""`w2c schemas`: add label schemas from TOML, list them, show one."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from w2c_tui.cli.context import checked_name, echo, print_json, services
from w2c_tui.domain.schemas import LabelSchema

schemas_app = typer.Typer(
    help="Label schemas: what is labelled, the questions, their options and keys.",
    no_args_is_help=True,
)


@schemas_app.command("add")
def add(
    ctx: typer.Context,
    path: Annotated[Path, typer.Argument(help="A TOML schema file (docs/schemas.md).")],
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
) -> None:
    """Add the schema in a TOML file. Adding the same file again changes nothing; a changed
    schema with labels is refused unless it only adds questions and options; a built-in's
    name is refused. A bad file names file:line:field (exit 2)."""
    with services(ctx) as svc:
        added = svc.schemas.add(path)
    if json_out:
        print_json({"schema": added.schema.name, "status": added.status})
        return
    echo(f"{added.schema.name}: {added.status} ({len(added.schema.questions)} question(s))")


@schemas_app.command("list")
def list_schemas(
    ctx: typer.Context,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
) -> None:
    """Every schema: the built-ins, then yours; its unit, questions and labels recorded."""
    with services(ctx) as svc:
        found = [(s, svc.schemas.n_labels(s.name)) for s in svc.schemas.all()]
    if json_out:
        print_json(
            [
                {
                    "name": s.name,
                    "title": s.title,
                    "unit": s.unit.value,
                    "builtin": s.builtin,
                    "questions": list(s.names),
                    "n_labels": n,
                }
                for s, n in found
            ]
        )
        return
    for schema, n in found:
        kind = "built-in" if schema.builtin else "custom"
        echo(
            f"{schema.name}\t{schema.unit.value}\t{kind}\t{len(schema.questions)} question(s)"
            f"\t{n} label(s)\t{schema.title}"
        )


def describe(schema: LabelSchema) -> list[str]:
    """The schema as lines of text (`schemas show`)."""
    lines = [
        f"{schema.name} — {schema.title}",
        f"unit: {schema.unit.value}; version {schema.version}; "
        f"{'built-in' if schema.builtin else 'custom'}",
    ]
    if schema.description:
        lines.append(schema.description)
    if schema.blind_hidden:
        lines.append(f"hidden while blind: {', '.join(schema.blind_hidden)}")
    for question in schema.questions:
        level = question.level.value if question.level else "no agreement"
        extra = []
        if question.when is not None:
            extra.append(f"when {question.when.question} = {'|'.join(question.when.values)}")
        extra += [f"on {c.question} = {'|'.join(c.values)}" for c in question.when_unit]
        if question.after_blind:
            extra.append("after blind")
        if not question.required:
            extra.append("optional")
        tail = f" [{'; '.join(extra)}]" if extra else ""
        lines.append(f"  {question.name} ({question.kind.value}, {level}){tail}: {question.title}")
        lines += [
            f"    {o.key}  {o.value}" + (f" — {o.title}" if o.title != o.value else "")
            for o in question.options
        ]
    return lines


@schemas_app.command("show")
def show(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The schema's name (`w2c schemas list`).")],
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
) -> None:
    """One schema: its unit, questions, options with their keys, conditions and levels."""
    name = checked_name(name, "NAME")
    with services(ctx) as svc:
        schema = svc.schemas.get(name)
    if json_out:
        print_json(schema.as_json())
        return
    for line in describe(schema):
        echo(line)
