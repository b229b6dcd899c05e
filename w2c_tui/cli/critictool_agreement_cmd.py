"""`w2c critictool agreement`: humans vs the model's self-critique vs other raters on the
CriticTool labels detect and category (nominal)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from w2c_tui.cli.context import console, print_json, services
from w2c_tui.cli.critictool_cmd import critictool_app

if TYPE_CHECKING:
    from w2c_tui.services.critictool_agreement import CriticToolAgreement


def _value(value: float | None, reason: str | None = None) -> str:
    return "—" if value is None else f"{value:.3f}"


@critictool_app.command("agreement")
def agreement(
    ctx: typer.Context,
    dataset: Annotated[str, typer.Option(help="CriticTool dataset.")],
    target_model: Annotated[str | None, typer.Option(help="Only this model's predictions.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
) -> None:
    """Krippendorff's α, percent agreement and pairwise Cohen's κ on detect (error in the last
    step: yes/no) and category, between the annotators, the model's own self-critique (read
    from its parsed reply) and any other rater of the dataset's CriticTool labels."""
    with services(ctx) as svc:
        results = svc.critictool_agreement.compute(dataset, target_model)
    print_critictool_agreement(dataset, results, json_out)


def print_critictool_agreement(
    dataset: str, results: list[CriticToolAgreement], json_out: bool
) -> None:
    """The agreement of a CriticTool dataset: one JSON document, or a line and a table per
    label."""
    if json_out:
        print_json(
            {
                "dataset": dataset,
                "kind": "critictool",
                "labels": [r.document().to_json() for r in results],
            }
        )
        return
    from rich.table import Table

    for result in results:
        console().print(
            f"{result.label}: raters {', '.join(result.raters) or 'none'}; "
            f"{result.units} units with ≥ 2 ratings; α = {_value(result.alpha.value)}"
            + (f" ({result.alpha.reason})" if result.alpha.reason else "")
            + f"; agreement = {_value(result.percent.value)}"
        )
        if result.pairs:
            table = Table("rater", "rater", "n", "κ", "agreement")
            for pair in result.pairs:
                table.add_row(
                    pair.a,
                    pair.b,
                    str(pair.n),
                    _value(pair.cohen_kappa.value),
                    _value(pair.percent_agreement.value),
                )
            console().print(table)
