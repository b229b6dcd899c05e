"""`w2c critictool metrics`: the official CriticTool metrics of stored predictions."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from w2c_tui.cli.context import ID_MAX, console, print_json, services
from w2c_tui.domain.dashboard import Means
from w2c_tui.io.report.critictool import COLUMNS, cell

critictool_app = typer.Typer(help="CriticTool: tool-calling self-critique.", no_args_is_help=True)


@critictool_app.command("metrics")
def metrics(
    ctx: typer.Context,
    dataset: Annotated[
        str | None, typer.Option(help="CriticTool dataset (may be left out when there is one).")
    ] = None,
    run: Annotated[
        int | None, typer.Option("--run", help="Only this run's predictions.", min=1, max=ID_MAX)
    ] = None,
    target_model: Annotated[str | None, typer.Option(help="Only this model's predictions.")] = None,
    similarity_model: Annotated[
        str | None,
        typer.Option(
            help="sentence-transformers model for args/goal/thought similarity: a name or a "
            "local folder (needs the `similarity` extra)."
        ),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
) -> None:
    """The reference evaluators' metrics of every model and setting (internal; external in
    skip or finish mode; CoT or not): means, per error type, base vs evolved, per sample with
    --json, and the paper's overall score (docs/critictool.md)."""
    model = _local_or_name(similarity_model)
    with services(ctx) as svc:
        doc = svc.critictool_metrics.compute(
            dataset, run_id=run, target_model=target_model, similarity_model=model
        )
    if json_out:
        print_json(doc.to_json())
        return
    from rich.table import Table

    out = console()
    if not doc.settings:
        out.print(f"dataset {doc.dataset!r}: no predictions to score")
        return
    for setting in doc.settings:
        mode = f" {setting.mode}" if setting.mode else ""
        title = (
            f"{setting.target_model} · {setting.source}{mode} · "
            f"{'CoT' if setting.cot else 'no CoT'}"
            + (f" · {setting.unpredicted} sample(s) not predicted" if setting.unpredicted else "")
        )
        keys = [k for k in COLUMNS if k in setting.means]
        table = Table(title=title, title_justify="left")
        table.add_column("group")
        for key in keys:
            table.add_column(key, justify="right")
        rows: list[tuple[str, Means]] = [("all", setting.means)]
        rows += [(f"error: {k}", v) for k, v in setting.by_error_type.items()]
        rows += [(f"data: {k}", v) for k, v in setting.by_variant.items()]
        for label, values in rows:
            table.add_row(label, *(cell(values.get(key)) for key in keys))
        out.print(table)
    for score in doc.overall:
        cot = "CoT" if score.cot else "no CoT"
        out.print(f"overall score {score.target_model} ({cot}, {score.mode}): {cell(score.score)}")


def _local_or_name(value: str | None) -> str | Path | None:
    """A local folder as a Path (never taken for a hub name), else the name as given."""
    if value is None:
        return None
    return Path(value) if Path(value).exists() else value
