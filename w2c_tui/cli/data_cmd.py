"""`w2c datasets` and `w2c items`: list what the store holds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from w2c_tui.cli.choices import Label, ToolCount
from w2c_tui.cli.context import COUNT_MAX, print_json, services
from w2c_tui.cli.context import console as make_console
from w2c_tui.cli.outcome_options import FlagCode

if TYPE_CHECKING:
    from w2c_tui.domain.models import ItemDetail

datasets_app = typer.Typer(help="Datasets in the store.", no_args_is_help=True)
items_app = typer.Typer(help="Items of a dataset.", no_args_is_help=True)

JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")]
DatasetOpt = Annotated[
    str | None, typer.Option(help="Dataset name (may be left out when the store has one).")
]


@datasets_app.command("list")
def datasets_list(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Datasets with their item, response and human-label counts."""
    from rich.table import Table

    with services(ctx) as svc:
        rows = svc.datasets.all()
    if json_out:
        print_json(
            [
                {
                    "name": d.name,
                    "kind": d.kind,
                    "items": d.n_items,
                    "responses": d.n_responses,
                    "human_labels": d.n_human_labels,
                    "source_path": d.source_path,
                    "sha256": d.sha256,
                    "imported_at": d.imported_at.isoformat(),
                }
                for d in rows
            ]
        )
        return
    if not rows:
        typer.echo("no datasets yet: `w2c import FILE`, or open the TUI to load the demo")
        return
    table = Table("dataset", "kind", "items", "responses", "human labels", "imported")
    for d in rows:
        table.add_row(
            d.name,
            d.kind,
            str(d.n_items),
            str(d.n_responses),
            str(d.n_human_labels),
            d.imported_at.strftime("%Y-%m-%d %H:%M"),
        )
    make_console().print(table)


@items_app.command("list")
def items_list(
    ctx: typer.Context,
    dataset: DatasetOpt = None,
    gold: Annotated[Label | None, typer.Option(help="Only this gold label.")] = None,
    tools: Annotated[ToolCount | None, typer.Option(help="Number of tools.")] = None,
    source: Annotated[str | None, typer.Option(help="Only this source.")] = None,
    search: Annotated[str, typer.Option(help="Text in the question or uuid.")] = "",
    flag: Annotated[
        FlagCode | None,
        typer.Option(help="Only items with this QA flag on (anyone's); `any`: any flag."),
    ] = None,
    limit: Annotated[
        int | None, typer.Option(help="At most this many items.", min=0, max=COUNT_MAX)
    ] = None,
    offset: Annotated[int, typer.Option(help="Skip this many items.", min=0, max=COUNT_MAX)] = 0,
    json_out: JsonOpt = False,
) -> None:
    """Items in file order with gold label, number of tools and question."""
    from rich.table import Table

    from w2c_tui.domain.review import ItemFilter, ReviewMode

    flt = ItemFilter(
        gold=gold, tools=tools, source=source, search=search, flag=flag.value if flag else None
    )
    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        total = svc.review.count(name, flt, ReviewMode.ITEM_QA, None)
        rows = svc.review.window(
            name, flt, ReviewMode.ITEM_QA, None, offset, total if limit is None else limit
        )
    if json_out:
        print_json(
            {
                "dataset": name,
                "total": total,
                "items": [
                    {
                        "uuid": r.uuid,
                        "position": r.position,
                        "gold": r.gold.value if r.gold else None,
                        "n_tools": r.n_tools,
                        "question": r.question,
                    }
                    for r in rows
                ],
            }
        )
        return
    table = Table("#", "uuid", "gold", "tools", "question", title=f"{name}: {total} items")
    for r in rows:
        table.add_row(
            str(r.position + 1),
            r.uuid,
            r.gold.value if r.gold else "-",
            str(r.n_tools),
            r.question.replace("\n", " ")[:80],
        )
    make_console().print(table)


@items_app.command("show")
def items_show(
    ctx: typer.Context,
    uuid: Annotated[str, typer.Argument(help="The item's uuid (a unique prefix is enough).")],
    dataset: DatasetOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """One item with its tools, answers, responses and every current verdict."""
    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        item = svc.review.find(name, uuid)
        detail = svc.review.detail(item.id, None)
    if json_out:
        print_json(_detail_json(detail))
        return
    _print_detail(detail)


def _detail_json(detail: ItemDetail) -> dict[str, object]:
    item = detail.item
    return {
        "dataset": item.dataset,
        "uuid": item.uuid,
        "position": item.position,
        "question": item.question,
        "gold": item.gold.value if item.gold else None,
        "source": item.source,
        "source_id": item.source_id,
        "held_out_param": item.held_out_param,
        "target_tool": item.target_tool,
        "tools": [t.spec or t.raw for t in item.tools],
        "answers": dict(item.answers),
        "models": [
            {
                "target_model": panel.target_model,
                "responses": [
                    {"id": r.id, "text": r.text, "verdicts": [_verdict_json(v) for v in r.verdicts]}
                    for r in panel.responses
                ],
                "verdicts": [_verdict_json(v) for v in panel.model_verdicts],
            }
            for panel in detail.models
        ],
    }


def _verdict_json(v: object) -> dict[str, object]:
    from w2c_tui.domain.models import Verdict

    assert isinstance(v, Verdict)
    return {
        "rater": v.rater.name,
        "kind": v.rater.kind.value,
        "label": v.label.value if v.label else None,
        "status": v.status.value,
        "raw": v.raw,
        "scores": v.scores,
        "created_at": v.created_at.isoformat(),
    }


def _print_detail(detail: ItemDetail) -> None:
    from rich.panel import Panel
    from rich.syntax import Syntax
    from rich.text import Text

    console = make_console()
    item = detail.item
    console.print(
        Panel(
            Text(item.question),
            title=Text(f"{item.uuid}  gold: {item.gold.value if item.gold else '-'}"),
            title_align="left",
        )
    )
    console.print(Text(f"{item.n_tools} tool(s)") if item.tools else Text("no tools", "bold"))
    for tool in item.tools:
        console.print(Syntax(tool.pretty(), "json", word_wrap=True))
    for name, text in item.answers:
        console.print(Text.assemble((name, "bold"), f": {text}"))
    for panel in detail.models:
        console.print(Text.assemble("\n", (panel.target_model, "bold underline")))
        for response in panel.responses:
            console.print(
                Panel(
                    Text(response.text or "(empty response)"), title="response", title_align="left"
                )
            )
            for v in response.verdicts:
                console.print(f"  {v.rater.display}: {v.label or v.status.value}")
        for v in panel.model_verdicts:
            console.print(f"  {v.rater.display}: {v.label or v.status.value}")
