"""`w2c estimate`: a target model's When2Call metric from a judge, corrected by the humans."""

from __future__ import annotations

from typing import Annotated

import typer

from w2c_tui.cli.context import BOOTSTRAP_MAX, SEED_MAX, echo, print_json, services
from w2c_tui.domain.estimate import INVALID_RULE, CorrectedDoc, EstimateMetric
from w2c_tui.present.estimate import interval


def estimate(
    ctx: typer.Context,
    target_model: Annotated[str, typer.Option(help="The model whose responses are scored.")],
    judge: Annotated[
        str, typer.Option(help="The judge: its rater key (judge:gpt-4o) or its name.")
    ],
    metric: Annotated[EstimateMetric, typer.Option(help="The When2Call metric.")],
    dataset: Annotated[
        str | None, typer.Option(help="Dataset (may be left out when the store has one).")
    ] = None,
    min_humans: Annotated[
        int, typer.Option(help="Human labels a unit needs for a majority reference.", min=1)
    ] = 1,
    bootstrap: Annotated[
        int,
        typer.Option(
            help="Bootstrap resamples (macro_f1's intervals).", min=100, max=BOOTSTRAP_MAX
        ),
    ] = 2000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap.", min=0, max=SEED_MAX)] = 0,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
) -> None:
    """A model's When2Call score from a judge, corrected by the human labels (PPI++).

    The judge's verdicts on all of the model's responses, corrected by the human reference on
    the labelled ones (power-tuned λ; macro_f1: plug-in with a seeded bootstrap), beside the
    judge alone (its bias uncorrected) and the humans alone, each with a 95% interval, and how
    many human labels would halve the interval. Units whose judge verdict is invalid are left
    out of both sets and counted as n_invalid. See docs/estimate.md.
    """
    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        doc = svc.estimate.estimate(
            name,
            target_model,
            judge,
            metric,
            min_humans=min_humans,
            seed=seed,
            bootstrap=bootstrap,
        )
    if json_out:
        print_json(doc.to_json())
        return
    _print(doc)


def _print(doc: CorrectedDoc) -> None:
    echo(f"{doc.dataset}: {doc.metric.value} of {doc.target_model} as {doc.judge} sees it")
    echo("  (×100, 95% intervals cut at 0 and 100; --json gives them uncut)")
    main = interval(doc.corrected, with_reason=True)
    echo(f"  corrected    {main}  n={doc.corrected.n}  ({doc.method})")
    echo(
        f"  judge only   {interval(doc.judge_only, with_reason=True)}  n={doc.judge_only.n}"
        "  (the judge's own bias is not corrected)"
    )
    echo(f"  humans only  {interval(doc.humans_only, with_reason=True)}  n={doc.humans_only.n}")
    lam = f", lambda {doc.lam:.3f}" if doc.lam is not None else ""
    echo(
        f"  {doc.n_labelled} labelled, {doc.n_unlabelled} unlabelled, {doc.n_invalid} invalid{lam}"
    )
    echo(f"  ({INVALID_RULE})")
    if doc.labels_to_halve is not None:
        more = doc.labels_to_halve - doc.n_labelled
        echo(
            f"  to halve the interval: about {doc.labels_to_halve} labelled units "
            f"({more} more human labels)"
        )
    else:
        echo(f"  to halve the interval: {doc.halve_note}")
