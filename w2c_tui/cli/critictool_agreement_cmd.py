"""`w2c critictool agreement`: humans vs the model's self-critique vs other raters on the
CriticTool labels detect, category and observed policy (nominal), with bootstrap intervals and
slices."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from w2c_tui.cli.context import BOOTSTRAP_MAX, SEED_MAX, console, print_json, services
from w2c_tui.cli.critictool_cmd import critictool_app
from w2c_tui.domain.critictool_slices import CriticToolSliceBy

if TYPE_CHECKING:
    from w2c_tui.services.critictool_agreement import (
        CriticToolAgreement,
        CriticToolAgreementReport,
    )
    from w2c_tui.stats.results import Estimate


def _value(estimate: Estimate) -> str:
    if estimate.value is None:
        return "—"
    if estimate.ci is None:
        return f"{estimate.value:.3f}"
    return f"{estimate.value:.3f} [{estimate.ci[0]:.3f}, {estimate.ci[1]:.3f}]"


@critictool_app.command("agreement")
def agreement(
    ctx: typer.Context,
    dataset: Annotated[str, typer.Option(help="CriticTool dataset.")],
    target_model: Annotated[str | None, typer.Option(help="Only this model's predictions.")] = None,
    by: Annotated[
        CriticToolSliceBy | None,
        typer.Option(
            help="Also on each slice: error type, source, variant (base/evol), setting "
            "(mode, CoT) or model of the prediction labelled."
        ),
    ] = None,
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples (0: no intervals).", min=0, max=BOOTSTRAP_MAX)
    ] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap.", min=0, max=SEED_MAX)] = 0,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
) -> None:
    """Krippendorff's α, percent agreement and pairwise Cohen's κ on detect (error in the last
    step: yes/no), category and observed policy, between the annotators, the model's own
    self-critique (read from its parsed reply) and any other rater of the dataset's CriticTool
    labels; 95% unit-bootstrap intervals, every one from the same resamples; `--by` adds each
    slice with its number of units."""
    with services(ctx) as svc:
        report = svc.critictool_agreement.report(
            dataset, target_model, bootstrap=bootstrap, seed=seed, by=by
        )
    print_critictool_agreement(report, json_out)


def print_critictool_agreement(report: CriticToolAgreementReport, json_out: bool) -> None:
    """The agreement of a CriticTool dataset: one JSON document, or a line and a table per
    label (and per slice)."""
    if json_out:
        print_json(report.to_json())
        return
    intervals = f"95% intervals: B = {report.bootstrap}, seed {report.seed}"
    console().print(
        f"{report.dataset}: {report.n} units; "
        + (intervals if report.bootstrap else "no intervals (--bootstrap 0)")
    )
    _print_labels(report.labels)
    for part in report.slices:
        console().print(f"\n{report.by} = {part.name} ({part.n} units)")
        _print_labels(part.labels)


def _print_labels(results: tuple[CriticToolAgreement, ...]) -> None:
    from rich.table import Table

    for result in results:
        console().print(
            f"{result.label}: raters {', '.join(result.raters) or 'none'}; "
            f"{result.units} units with ≥ 2 ratings; α = {_value(result.alpha)}"
            + (f" ({result.alpha.reason})" if result.alpha.reason else "")
            + f"; agreement = {_value(result.percent)}"
        )
        if result.pairs:
            table = Table("rater", "rater", "n", "κ", "agreement")
            for pair in result.pairs:
                table.add_row(
                    pair.a,
                    pair.b,
                    str(pair.n),
                    _value(pair.cohen_kappa),
                    _value(pair.percent_agreement),
                )
            console().print(table)
