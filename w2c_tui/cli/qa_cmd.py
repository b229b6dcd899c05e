"""`w2c qa summary`: the item-QA checklist counted as in the When2Call paper's Table 6."""

from __future__ import annotations

from typing import Annotated

import typer

from w2c_tui.cli.context import console, print_json, services

qa_app = typer.Typer(help="Item QA: the quality checklist's results.", no_args_is_help=True)


@qa_app.command("summary")
def summary(
    ctx: typer.Context,
    dataset: Annotated[
        str | None, typer.Option(help="Dataset (may be left out when the store has one).")
    ] = None,
    annotator: Annotated[
        str | None, typer.Option("--annotator", help="Only this annotator's table.")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
) -> None:
    """Issue type × gold class: how many reviewed items have each checklist issue (count and
    % of the reviewed items of that class), overall and per annotator, and how many items
    were reviewed of how many."""
    from w2c_tui.tui.widgets.qa_summary import render_qa_summary, render_table

    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        doc = svc.qa.summary(name, annotator)
    if json_out:
        print_json(doc.as_json())
        return
    out = console()
    if annotator is not None:
        out.print(render_table(doc.annotators[0]))
        return
    out.print(render_qa_summary(doc))
