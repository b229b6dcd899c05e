"""`w2c critictool`: the official CriticTool metrics of imported predictions."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from w2c_tui.cli.context import console, print_json, services

critictool_app = typer.Typer(
    help="CriticTool: the official metrics of imported predictions (w2c import reads the "
    "dataset files and the official inference output).",
    no_args_is_help=True,
)

INTERNAL = ("critic", "parse_rate", "reflect", "name", "args", "goal")
EXTERNAL = ("retry", "broke", "name", "args", "thought", "parse_rate")


def _cell(value: Any) -> str:
    return "—" if value is None else f"{100 * value:.1f}"


@critictool_app.command("metrics")
def metrics(
    ctx: typer.Context,
    dataset: Annotated[str | None, typer.Option(help="Only this CriticTool dataset.")] = None,
    model: Annotated[str | None, typer.Option(help="Only this model's predictions.")] = None,
    similarity_model: Annotated[
        str | None,
        typer.Option(
            help="sentence-transformers model name or local folder for the args and thought "
            "similarity (default all-mpnet-base-v2; needs the `similarity` extra)."
        ),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Every file's means, groups and per-sample values.")
    ] = False,
) -> None:
    """The reference evaluators' metrics (×100) of each imported predictions file: internal
    parse rate, critic (detect), reflect (category), name, args, goal (CoT); external retry,
    break, name, args (skip mode), thought (CoT); per error type and base/evolved in --json.
    A mean with nothing to average is shown as — (the reference divides by zero there)."""
    with services(ctx) as svc:
        results = svc.critictool.metrics(dataset, model, similarity_model)
        overall = svc.critictool.overall(results)
        if json_out:
            files = [{k: v for k, v in r.items() if k != "_scores"} for r in results]
            print_json({"files": files, "overall": overall})
            return
        from rich.table import Table

        for source, names in (("internal", INTERNAL), ("external", EXTERNAL)):
            rows = [r for r in results if r["source"] == source]
            if not rows:
                continue
            table = Table(title=f"CriticTool {source} (×100)")
            for column in ("dataset", "model", "file", "samples", *names):
                table.add_column(column)
            for r in rows:
                means = r["means"]
                table.add_row(
                    r["dataset"],
                    r["model"] or "",
                    r["file"] + (f" ({r['mode']})" if r["mode"] else ""),
                    str(means["samples"]),
                    *(_cell(means.get(n)) for n in names),
                )
            console().print(table)
        for name, score in overall.items():
            why = "" if score is not None else " (needs an internal and an external run)"
            typer.echo(f"overall score of {name} (the paper's weights): {_cell(score)}{why}")
