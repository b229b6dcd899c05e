"""`w2c split`: a frozen dev/test split of the labelled responses, stratified by gold."""

from __future__ import annotations

from typing import Annotated

import typer

from w2c_tui.cli.context import SEED_MAX, echo, print_json, services


def split(
    ctx: typer.Context,
    dataset: Annotated[
        str | None, typer.Option(help="Dataset (may be left out when the store has one).")
    ] = None,
    test: Annotated[
        float, typer.Option(help="Share of each gold class that goes to test.", min=0.0, max=1.0)
    ] = 0.3,
    seed: Annotated[int, typer.Option(help="Seed of the draw.", min=0, max=SEED_MAX)] = 0,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing split (and its test count).")
    ] = False,
    show: Annotated[
        bool, typer.Option("--show", help="Show the stored split; draw nothing.")
    ] = False,
    min_humans: Annotated[int, typer.Option(help="Humans needed for a reference label.")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
) -> None:
    """Freeze a dev/test split of the responses that have a human reference, stratified by
    gold, so that judge prompts are tuned on dev and judged once on test.

    The split is stored; drawing again needs --force. Units labelled later are not added
    (--show counts them). Every use of the test part is counted and shown ("test used 3
    times").
    """
    from w2c_tui.services import splits

    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        if show:
            view = splits.show(svc.store, name, min_humans)
        else:
            view = splits.draw(
                svc.store, name, test_share=test, seed=seed, force=force, min_humans=min_humans
            )
    if json_out:
        print_json(view.as_json())
        return
    echo(view.text())
