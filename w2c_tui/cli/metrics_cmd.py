"""`w2c metrics`: When2Call metrics of every rater, the table people paste into papers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from w2c_tui.cli.context import BOOTSTRAP_MAX, SEED_MAX, print_json, services
from w2c_tui.cli.context import console as make_console
from w2c_tui.domain.dashboard import MIN_UNITS, Against, SliceBy
from w2c_tui.domain.labels import InvalidMode
from w2c_tui.present.numbers import (
    METRICS_HEADERS,
    STABILITY_HEADERS,
    metrics_cells,
    stability_cells,
)

if TYPE_CHECKING:
    from w2c_tui.services.metrics_compare import Comparison
    from w2c_tui.services.rater_metrics import RaterMetrics


def metrics(
    ctx: typer.Context,
    dataset: Annotated[
        str | None, typer.Option(help="Dataset (may be left out when the store has one).")
    ] = None,
    rater: Annotated[
        list[str] | None,
        typer.Option("--rater", help="Rater key, e.g. judge:gpt-4o (repeatable; default: all)."),
    ] = None,
    against: Annotated[
        Against,
        typer.Option(help="gold, or humans (adjudicated labels first, then the majority)."),
    ] = Against.GOLD,
    min_humans: Annotated[int, typer.Option(help="Humans needed for a consensus label.")] = 1,
    invalid: Annotated[
        InvalidMode, typer.Option(help="Invalid outputs as missing (dropped) or wrong.")
    ] = InvalidMode.MISSING,
    by: Annotated[
        SliceBy | None,
        typer.Option(help="Per slice: gold class, tools (0/1/2+), source or model, each with n."),
    ] = None,
    confusion: Annotated[
        bool, typer.Option("--confusion", help="Print each 4×4 confusion matrix too.")
    ] = False,
    compare: Annotated[
        tuple[str, str] | None,
        typer.Option(
            "--compare",
            metavar="A B",
            help="Two raters, or one rater on two models (RATER@MODEL), on the same items: "
            "each side's metrics and the paired difference A − B with its interval.",
        ),
    ] = None,
    bootstrap: Annotated[
        int,
        typer.Option(
            help="Bootstrap resamples over items (0: no intervals).", min=0, max=BOOTSTRAP_MAX
        ),
    ] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap.", min=0, max=SEED_MAX)] = 0,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
) -> None:
    """Accuracy, length-normalised accuracy, macro-F1 (reference-compatible, over 4 labels,
    without direct), hallucination rates and invalid rate, per rater and target model.

    Against gold, a judge's reading of a model's responses gives that model's When2Call score
    as the judge sees it; a log-prob scorer's gives the MCQ score. Against humans, each
    automated rater is scored on the units with a human consensus label.

    Every metric comes with a 95% percentile interval, bootstrapped over items (--bootstrap B,
    --seed; the same draws for all metrics of a rater), and its n; a metric on fewer than 5
    units reads "too few". In --json each is {"value", "ci", "n", "reason"} under
    `intervals`, beside the point values.
    """
    mode, ref = invalid, against
    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        if compare is not None:
            result = svc.metrics.compare(
                name,
                *compare,
                against=ref,
                min_humans=min_humans,
                invalid_mode=mode,
                bootstrap=bootstrap,
                seed=seed,
            )
            _print_comparison(name, ref, result, json_out)
            return
        if by is not None:
            parts = svc.metrics.sliced(
                name,
                by,
                raters=rater,
                against=ref,
                min_humans=min_humans,
                invalid_mode=mode,
                bootstrap=bootstrap,
                seed=seed,
            )
            _print_slices(name, by, parts, json_out)
            return
        rows = svc.metrics.metrics(
            name,
            raters=rater,
            against=ref,
            min_humans=min_humans,
            invalid_mode=mode,
            bootstrap=bootstrap,
            seed=seed,
        )
        reference = svc.metrics.reference(name, ref, min_humans)
    if json_out:
        print_json(
            {
                "dataset": name,
                "against": ref.value,
                "reference": reference.to_json(),
                "invalid_mode": mode.value,
                "bootstrap": {"B": bootstrap, "seed": seed, "level": 0.95},
                "min_units": MIN_UNITS,
                "raters": [r.as_json() for r in rows],
            }
        )
        return
    against_text = ref.value
    if reference.adjudicated is not None:
        against_text += (
            f" ({reference.n} units: {reference.adjudicated} adjudicated, "
            f"{reference.majority} by majority)"
        )
    _print(name, against_text, rows, confusion)


def _print_slices(
    dataset: str, by: SliceBy, parts: list[tuple[str, int, list[RaterMetrics]]], json_out: bool
) -> None:
    """One table per slice (or one JSON document), each slice with its n."""
    if json_out:
        print_json(
            {
                "dataset": dataset,
                "by": by.value,
                "slices": [
                    {"name": name, "n_units": n, "raters": [r.as_json() for r in rows]}
                    for name, n, rows in parts
                ],
            }
        )
        return
    for name, n, rows in parts:
        _print(dataset, f"gold, slice {by.value} = {name} ({n} units)", rows, False)


def _print(dataset: str, against: str, rows: list[RaterMetrics], confusion: bool) -> None:
    from rich.table import Table

    from w2c_tui.domain.labels import LABELS

    console = make_console()
    if not rows:
        console.print(f"no rater has readings with a {against} reference in {dataset!r}")
        return
    table = Table(
        "rater",
        "target model",
        *METRICS_HEADERS,
        title=f"{dataset}: metrics against {against} (macro-F1 reference-compatible; under each "
        f'value its 95% bootstrap interval over items; "too few" below {MIN_UNITS} units)',
    )
    for row in rows:
        table.add_row(
            row.rater.key, row.target_model or "all", *metrics_cells(row.document(), sep="\n")
        )
    console.print(table)
    stable = [row for row in rows if row.stability]
    if stable:
        repeats = Table(
            "rater",
            "target model",
            *STABILITY_HEADERS,
            title="stability over k repeats (--repeats) or k responses per unit",
        )
        for row in stable:
            assert row.stability is not None
            cells = stability_cells(row.stability.document())
            repeats.add_row(row.rater.key, row.target_model or "all", *cells)
        console.print(repeats)
    if not confusion:
        return
    for row in rows:
        grid = Table(
            f"{against} ↓ / rater →",
            *[label.value for label in LABELS],
            title=f"{row.rater.key} · {row.target_model or 'all'}",
        )
        for label, counts in zip(LABELS, row.metrics.confusion, strict=True):
            grid.add_row(label.value, *[str(c) for c in counts])
        console.print(grid)


COMPARED = {
    "macro_f1_ref": "macro-F1 ×100",
    "macro_f1_no_direct": "macro-F1 without direct ×100",
    "accuracy": "Acc",
    "tool_hallucination": "Tool-Hall",
    "answer_hallucination": "Answer-Hall",
    "parameter_hallucination": "Param-Hall",
    "invalid_rate": "invalid",
}


def _print_comparison(dataset: str, against: Against, result: Comparison, json_out: bool) -> None:
    """A − B per metric with the paired interval (or the JSON document)."""
    from rich.table import Table

    from w2c_tui.domain.dashboard import EstimateDoc
    from w2c_tui.present.numbers import interval_text

    if json_out:
        print_json({"dataset": dataset, "against": against.value, **result.as_json()})
        return
    s = result.settings
    table = Table(
        "metric",
        f"A = {result.a.name}",
        f"B = {result.b.name}",
        "A − B, points ×100 (paired)",
        title=f"{dataset}: {result.n_items} items with a {against.value} reference in both; "
        f"95% bootstrap intervals over items (B={s.B}, seed {s.seed}, the same draws for A, B "
        "and A − B)",
    )
    for key, label in COMPARED.items():
        a, b, d = result.metrics[key]
        percent = not key.startswith("macro_f1")
        table.add_row(
            label,
            *(
                interval_text(EstimateDoc.of(e.as_json()), percent=percent and e is not d)
                for e in (a, b, d)
            ),
        )
    make_console().print(table)
