"""`w2c assign`: plan who labels which unit (K-fold overlap), show and clear the plan."""

from __future__ import annotations

from typing import Annotated

import typer

from w2c_tui.cli.acting import require_lead
from w2c_tui.cli.context import (
    COUNT_MAX,
    EXIT_BAD_INPUT,
    SEED_MAX,
    checked_name,
    echo,
    fail,
    print_json,
    services,
)
from w2c_tui.cli.context import console as make_console
from w2c_tui.domain.blind import BlindPolicy
from w2c_tui.domain.roles import LeadAction
from w2c_tui.domain.team import AssignUnits, PlanReport, Selection

assign_app = typer.Typer(
    help="Assignments: which annotator labels which unit, with K-fold overlap.\n\n"
    "`w2c assign --dataset D --annotators a,b,c --overlap 2 --per-label 20 --seed 1` gives every "
    "selected unit exactly 2 annotators, each annotator's load within ±1 of the others'. The "
    "same arguments give the same plan; a larger selection with the same seed extends it "
    "without moving what exists. Annotators with assignments open the TUI on their queue, "
    "in an order shuffled per annotator.",
    invoke_without_command=True,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")]
DatasetOpt = Annotated[
    str | None, typer.Option(help="Dataset name (may be left out when the store has one).")
]


def _report_json(report: PlanReport, dry_run: bool) -> dict[str, object]:
    return {
        "dataset": report.dataset,
        "units": report.units.value,
        "overlap": report.overlap,
        "seed": report.seed,
        "selection": report.selection,
        "selected_units": report.selected,
        "new_units": report.new_units,
        "new_assignments": report.new_assignments,
        "loads": report.loads,
        "balanced": report.balanced,
        "changed": report.changed and not dry_run,
        "dry_run": dry_run,
        "notes": list(report.notes),
    }


@assign_app.callback()
def assign(
    ctx: typer.Context,
    dataset: DatasetOpt = None,
    annotators: Annotated[
        str | None, typer.Option(help="Comma-separated annotator names, e.g. a,b,c.")
    ] = None,
    overlap: Annotated[int, typer.Option(help="Annotators per unit (K).", max=COUNT_MAX)] = 2,
    seed: Annotated[
        int,
        typer.Option(help="Seed of the selection and of the queue order.", min=0, max=SEED_MAX),
    ] = 0,
    units: Annotated[
        AssignUnits | None,
        typer.Option(
            help="responses (behaviour labels) or items (item QA); default: responses when "
            "the dataset has any, else items."
        ),
    ] = None,
    sample: Annotated[int | None, typer.Option(help="N units at random.", max=COUNT_MAX)] = None,
    per_label: Annotated[
        int | None, typer.Option(help="N units per gold label.", max=COUNT_MAX)
    ] = None,
    per_tools: Annotated[
        int | None,
        typer.Option(help="N units per tool bucket (0 / 1 / 2+ tools).", max=COUNT_MAX),
    ] = None,
    source: Annotated[str | None, typer.Option(help="Only items of this source.")] = None,
    dry_run: Annotated[bool, typer.Option(help="Show the plan without writing it.")] = False,
    blind: Annotated[
        BlindPolicy | None,
        typer.Option(
            help="Blind mode of the plan's annotators: required (on, cannot be switched off), "
            "default (on; item QA: on with overlap 2 or more), off. Default: keep the plan's "
            "(a new plan: default)."
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Create or extend the assignment plan (without a sub-command)."""
    if ctx.invoked_subcommand is not None:
        return
    if not annotators:
        typer.echo(ctx.get_help())
        raise fail("--annotators is required to make a plan", EXIT_BAD_INPUT)
    from w2c_tui.services.assignments import parse_annotators

    with services(ctx) as svc:
        if not dry_run:
            require_lead(ctx, svc, LeadAction.ASSIGN)
        names = [checked_name(n, "--annotators") for n in parse_annotators(annotators)]
        name = svc.datasets.resolve(dataset)
        if units is None:
            units = svc.assignments.default_units(name)
        report = svc.assignments.assign(
            name,
            names,
            overlap=overlap,
            seed=seed,
            selection=Selection(
                units=units,
                sample=sample,
                per_label=per_label,
                per_tools=per_tools,
                source=source,
            ),
            dry_run=dry_run,
        )
        if blind is not None and not dry_run:
            svc.assignments.set_blind(name, units, blind)
        plan = svc.assignments.blind(name, units)
    policy = blind if plan is None or dry_run else plan.policy
    if json_out:
        print_json({**_report_json(report, dry_run), "blind": (policy or "default")})
        return
    verb = "would add" if dry_run else "added"
    if not report.changed:
        typer.echo(
            f"{report.dataset}: {report.selected} {report.units.value} selected "
            f"({report.selection}); every one already has {report.overlap} annotators — "
            "nothing changed"
        )
    else:
        typer.echo(
            f"{report.dataset}: {report.selected} {report.units.value} selected "
            f"({report.selection}), {report.new_units} new; {verb} {report.new_assignments} "
            f"assignments (overlap {report.overlap}, seed {report.seed})"
        )
    echo("loads: " + ", ".join(f"{a} {n}" for a, n in report.loads.items()))
    typer.echo(f"blind: {policy or 'default'}")
    for note in report.notes:
        typer.echo(f"note: {note}", err=True)


@assign_app.command("show")
def show(
    ctx: typer.Context,
    dataset: DatasetOpt = None,
    annotator: Annotated[str | None, typer.Option(help="Only this annotator's queue.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Assigned units in each annotator's queue order, with what is done."""
    from rich.table import Table

    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        rows = svc.assignments.show(name, annotator)
        plans = {u: svc.assignments.blind(name, u) for u in AssignUnits}
    policies = {u: p.policy.value for u, p in plans.items() if p is not None}

    def policy_of(response_id: int | None) -> str | None:
        return policies.get(AssignUnits.ITEMS if response_id is None else AssignUnits.RESPONSES)

    if json_out:
        print_json(
            [
                {
                    "annotator": r.annotator,
                    "order": r.order,
                    "uuid": r.item_uuid,
                    "target_model": r.target_model,
                    "response_id": r.response_id,
                    "done": r.done,
                    "label": r.label.value if r.label else None,
                    "blind": policy_of(r.response_id),
                }
                for r in rows
            ]
        )
        return
    if not rows:
        typer.echo(f"no assignments in {name}")
        return
    for units, plan in plans.items():
        if plan is not None:
            typer.echo(f"plan of {units.value}: overlap {plan.overlap}, blind {plan.policy.value}")
    table = Table("annotator", "#", "uuid", "target model", "done", "label")
    for r in rows:
        table.add_row(
            r.annotator,
            str(r.order),
            r.item_uuid,
            r.target_model or "(item)",
            "yes" if r.done else "",
            r.label.value if r.label else "",
        )
    make_console().print(table)


@assign_app.command("clear")
def clear(
    ctx: typer.Context,
    dataset: DatasetOpt = None,
    annotator: Annotated[str | None, typer.Option(help="Only this annotator's units.")] = None,
) -> None:
    """Remove assignments (labels are kept)."""
    with services(ctx) as svc:
        require_lead(ctx, svc, LeadAction.ASSIGN)
        name = svc.datasets.resolve(dataset)
        removed = svc.assignments.clear(name, annotator)
    typer.echo(f"removed {removed} assignment(s) from {name}; labels are kept")
