"""`w2c metrics`: When2Call metrics of every rater, the table people paste into papers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from w2c_tui.cli.context import console as make_console
from w2c_tui.cli.context import print_json, services
from w2c_tui.domain.dashboard import Against, SliceBy
from w2c_tui.domain.labels import InvalidMode
from w2c_tui.present.numbers import STABILITY_HEADERS, stability_cells

if TYPE_CHECKING:
    from w2c_tui.services.rater_metrics import RaterMetrics


def pct(value: object) -> str:
    """A share as a percentage with one decimal, '—' when undefined."""
    return f"{100 * value:.1f}" if isinstance(value, float | int) else "—"


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
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
) -> None:
    """Accuracy, length-normalised accuracy, macro-F1 (reference-compatible, over 4 labels,
    without direct), hallucination rates and invalid rate, per rater and target model.

    Against gold, a judge's reading of a model's responses gives that model's When2Call score
    as the judge sees it; a log-prob scorer's gives the MCQ score. Against humans, each
    automated rater is scored on the units with a human consensus label.
    """
    mode, ref = invalid, against
    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        if by is not None:
            parts = svc.metrics.sliced(
                name, by, raters=rater, against=ref, min_humans=min_humans, invalid_mode=mode
            )
            _print_slices(name, by, parts, json_out)
            return
        rows = svc.metrics.metrics(
            name, raters=rater, against=ref, min_humans=min_humans, invalid_mode=mode
        )
        reference = svc.metrics.reference(name, ref, min_humans)
    if json_out:
        print_json(
            {
                "dataset": name,
                "against": ref.value,
                "reference": reference.to_json(),
                "invalid_mode": mode.value,
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
        "n",
        "macro-F1 ×100",
        "Acc",
        "Acc-Norm",
        "Tool-Hall%",
        "Answer-Hall%",
        "Param-Hall%",
        "invalid%",
        title=f"{dataset}: metrics against {against} (macro-F1 reference-compatible)",
    )
    for row in rows:
        m = row.metrics
        f1 = f"{100 * m.macro_f1_ref:.1f}" if m.macro_f1_ref is not None else "—"
        table.add_row(
            row.rater.key,
            row.target_model or "all",
            str(m.n_scored),
            f1,
            pct(m.accuracy),
            pct(m.accuracy_norm),
            pct(m.tool_hallucination["rate"]),
            pct(m.answer_hallucination["rate"]),
            pct(m.parameter_hallucination["rate"]),
            pct(m.invalid_rate),
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
