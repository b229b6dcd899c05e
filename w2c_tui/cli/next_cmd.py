"""`w2c next`: the units to label next to settle whether a judge can stand in, and when to stop."""

from __future__ import annotations

from typing import Annotated

import typer

from w2c_tui.cli.context import SEED_MAX, print_json, services
from w2c_tui.cli.context import console as make_console


def next_units(
    ctx: typer.Context,
    dataset: Annotated[
        str | None, typer.Option(help="Dataset (may be left out when the store has one).")
    ] = None,
    annotator: Annotated[
        str | None,
        typer.Option(
            help="Leave out the units this annotator has labelled, and the priors (blind)."
        ),
    ] = None,
    judge: Annotated[
        str | None, typer.Option(help="The judge (key or name; needed when there are several).")
    ] = None,
    k: Annotated[int, typer.Option("--k", help="How many units to list.", min=1)] = 10,
    bar: Annotated[
        float | None,
        typer.Option(
            help="Agreement with the humans the judge must reach (default: the humans' own "
            "agreement less 0.10, else 0.80).",
            min=0.0,
            max=1.0,
        ),
    ] = None,
    width: Annotated[
        float, typer.Option(help="Stop when the interval is narrower than this.", min=0.0)
    ] = 0.10,
    seed: Annotated[int, typer.Option(help="Seed of the queue.", min=0, max=SEED_MAX)] = 0,
    min_humans: Annotated[int, typer.Option(help="Humans needed for a reference label.")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
) -> None:
    """Which responses a human should label next so that the judge's agreement with the
    humans is settled with the fewest labels, what the labels so far say, and whether to stop.

    Units with more disagreement among the other automated readings (log-prob, MCQ-index,
    other judges, the judge's repeats) come first, near-duplicates (one item's responses from
    several models) share their weight, and the order is a seeded priority sample, so the
    estimate stays unbiased in it (inverse-probability weights; docs/agreement.md). Stop when
    the interval lies on one side of the bar, or is narrower than --width.
    """
    from w2c_tui.services.next_units import NextOptions, plan

    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        result = plan(
            svc.store,
            name,
            NextOptions(
                judge=judge,
                annotator=annotator,
                k=k,
                bar=bar,
                width=width,
                seed=seed,
                min_humans=min_humans,
            ),
        )
    if json_out:
        print_json(result.as_json())
        return
    from rich.table import Table

    console = make_console()
    est = result.estimate
    if est.ci is not None and est.value is not None:
        console.print(
            f"{result.dataset} · {result.judge}: agreement with the humans {est.value:.3f} "
            f"[{est.ci[0]:.3f}, {est.ci[1]:.3f}] from {est.n_labelled} labelled of "
            f"{est.n_units} units"
        )
    console.print(f"bar {result.bar:.3f}: {result.bar_source}", style="dim")
    console.print(result.decision, style="bold" if result.stop else None)
    if not result.next:
        console.print("no unit left to label for this judge")
        return
    blind = result.annotator is not None
    table = Table("#", "item #", "uuid", "target model", *(() if blind else ("prior", "weight")))
    for u in result.next:
        extra = () if blind else (f"{u.prior:.2f}", f"{u.weight:.3f}")
        table.add_row(str(u.rank), str(u.position + 1), u.item_uuid, u.target_model or "", *extra)
    console.print(table)
