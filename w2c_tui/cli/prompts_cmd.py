"""`w2c prompts`: exactly what a model sees for each item under a template."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from w2c_tui.cli.context import print_json, services
from w2c_tui.cli.output import write_output

if TYPE_CHECKING:
    from w2c_tui.domain.prompts import PromptRecord

prompts_app = typer.Typer(
    help="Prompts and choices as the model sees them (the seven official When2Call families, "
    "chat, or a template file).",
    no_args_is_help=True,
)

TEMPLATE_HELP = (
    "when2call-default, -qwen2_5, -llama3_2, -xlam, -hermes, -functionary, -nemotron, chat "
    "(needs --tokenizer), or a Jinja template file."
)
Template = Annotated[str, typer.Option(help=TEMPLATE_HELP)]
Tokenizer = Annotated[
    str | None, typer.Option(help="For --template chat: a local model folder with its tokenizer.")
]
Dataset = Annotated[
    str | None, typer.Option(help="Dataset (may be left out when the store has one).")
]


@prompts_app.command("export")
def export(
    ctx: typer.Context,
    template: Template,
    dataset: Dataset = None,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write here instead of stdout.")
    ] = None,
    tokenizer: Tokenizer = None,
) -> None:
    """One JSON line per item: uuid, prompt and choices as the official functions build them
    (before lm-eval's whitespace handling), and the context and continuations scored."""
    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        lines = [
            json.dumps(r.as_json(), ensure_ascii=False) + "\n"
            for r in svc.prompts.export(template, name, tokenizer)
        ]
        database = svc.database_file()
    text = "".join(lines)
    if output is None:
        sys.stdout.write(text)
        return
    write_output(output, text, database)
    typer.echo(f"wrote {len(lines)} prompt(s) of {name} under {template} to {output}", err=True)


@prompts_app.command("show")
def show(
    ctx: typer.Context,
    uuid: Annotated[str, typer.Argument(help="The item's uuid (or a unique prefix).")],
    template: Template,
    dataset: Dataset = None,
    tokenizer: Tokenizer = None,
    json_out: Annotated[bool, typer.Option("--json", help="The export's JSON record.")] = False,
) -> None:
    """One item's prompt and choices, readably, with the whitespace that moves shown."""
    with services(ctx) as svc:
        record = svc.prompts.show(uuid, template, svc.datasets.resolve(dataset), tokenizer)
    if json_out:
        print_json(record.as_json())
        return
    sys.stdout.write(readable(record))


def readable(record: PromptRecord) -> str:
    """The prompt verbatim between rules, then each choice and its scored continuation."""
    moved = record.prompt[len(record.context) :]
    rule = "─" * 72
    out = [
        f"uuid {record.uuid} · template {record.template} (hash {record.template_hash})",
        f"{rule}\nprompt ({len(record.prompt):,} characters"
        + (f"; ends with {moved!r}, moved into every continuation" if moved else "")
        + f")\n{rule}",
        record.prompt,
        f"{rule}\nchoices (option order; as the official function builds them)\n{rule}",
    ]
    for option, choice, continuation in zip(
        record.options, record.choices, record.continuations, strict=True
    ):
        out.append(f"[{option}] {choice}")
        if continuation != choice:
            out.append(f"    scored continuation: {continuation!r}")
    return "\n".join(out) + "\n"
