"""`w2c agreement`: how far raters agree, with bootstrap intervals (a contract for scripts)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from w2c_tui.cli.context import console as make_console
from w2c_tui.cli.context import print_json, services


def split_raters(values: list[str] | None) -> list[str] | None:
    """`--raters a,b --raters c` → [a, b, c]."""
    if not values:
        return None
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


def agreement(
    ctx: typer.Context,
    dataset: Annotated[
        str | None, typer.Option(help="Dataset (may be left out when the store has one).")
    ] = None,
    raters: Annotated[
        list[str] | None,
        typer.Option(
            help="Rater keys, comma-separated or repeated (default: humans and every judge and "
            "scorer). `w2c agreement --list-raters` shows them."
        ),
    ] = None,
    units: Annotated[
        str, typer.Option(help="behaviour: (item, target model) pairs; item: item-QA labels.")
    ] = "behaviour",
    invalid: Annotated[
        str,
        typer.Option(help="Invalid outputs as 'missing', or 'wrong' (a category of their own)."),
    ] = "missing",
    ratings: Annotated[
        Path | None,
        typer.Option(
            help="Any long-format ratings table instead of a dataset: CSV or JSONL with fields "
            "item, rater, label (an empty label is missing); any category names."
        ),
    ] = None,
    bootstrap: Annotated[int, typer.Option(help="Bootstrap resamples (0: no intervals).")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap.")] = 0,
    list_raters: Annotated[
        bool, typer.Option("--list-raters", help="List the dataset's rater keys.")
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
) -> None:
    """Krippendorff's α, Fleiss' κ, Gwet's AC1 and percent agreement with 95% unit-bootstrap
    intervals, every pair's Cohen κ on its overlap, and per-category agreement.

    The JSON document (`--json`) has n_items, n_raters, categories, krippendorff_alpha,
    fleiss_kappa, gwet_ac1, percent_agreement ({"value", "ci"}), pairwise and per_category.
    """
    from w2c_tui.domain.errors import InputError
    from w2c_tui.services.agreement import AgreementService
    from w2c_tui.services.readings import UnitKind
    from w2c_tui.stats.metrics import InvalidMode

    if bootstrap < 0:
        raise typer.BadParameter("must be 0 or more", param_hint="--bootstrap")
    if ratings is not None:
        try:
            doc = AgreementService.summary_file(ratings, bootstrap=bootstrap, seed=seed)
        except InputError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(2) from error
        except ValueError as error:
            typer.echo(f"error: {ratings}: {error}", err=True)
            raise typer.Exit(2) from error
        _output(doc, json_out)
        return
    try:
        kind, mode = UnitKind(units), InvalidMode(invalid)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from error
    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        if list_raters:
            readings = svc.agreement.readings(name, kind)
            for rater in readings.raters:
                typer.echo(f"{rater.key}\t{rater.kind.value}")
            return
        doc = svc.agreement.summary(
            name,
            raters=split_raters(raters),
            kind=kind,
            bootstrap=bootstrap,
            seed=seed,
            invalid_mode=mode,
        )
    _output(doc, json_out)


def _output(doc: dict[str, Any], json_out: bool) -> None:
    if json_out:
        print_json(doc)
        return
    from rich.table import Table

    from w2c_tui.io.report import est

    console = make_console()
    boot = doc.get("bootstrap", {})
    head = Table(
        "statistic",
        "value [95% CI]",
        title=f"{doc['n_items']} units, "
        f"{doc['n_raters']} raters, categories: {', '.join(doc['categories'])}; "
        f"bootstrap B={boot.get('B')} seed={boot.get('seed')}",
    )
    for key in ("krippendorff_alpha", "fleiss_kappa", "gwet_ac1", "percent_agreement"):
        head.add_row(key, est(doc[key]))
    console.print(head)
    pairs = Table("a", "b", "n", "Cohen κ", "percent agreement", title="pairs (on their overlap)")
    for pair in doc["pairwise"]:
        pairs.add_row(
            pair["a"],
            pair["b"],
            str(pair["n"]),
            est(pair["cohen_kappa"]),
            est(pair["percent_agreement"]),
        )
    console.print(pairs)
    per = Table("category", "specific agreement", "α one-vs-rest", title="per category")
    for category, values in doc["per_category"].items():
        per.add_row(category, est(values["specific_agreement"]), est(values["alpha"]))
    console.print(per)
