"""`--schema` of `w2c labels import|export` and `w2c agreement`: labels of any schema."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from w2c_tui.cli.acting import acting_person
from w2c_tui.cli.context import checked_name, echo, print_json, services
from w2c_tui.cli.output import write_output
from w2c_tui.domain.schema_labels import SchemaAgreement


def import_answers(
    ctx: typer.Context,
    schema: str,
    path: Path,
    dataset: str | None,
    json_out: bool,
    *,
    replace: bool = True,
    dry_run: bool = False,
) -> None:
    """Answers to a schema's questions from a CSV file (whole or nothing), each reported as
    new, unchanged, replaced or kept (`--no-replace`); `--dry-run` writes nothing."""
    schema = checked_name(schema, "--schema")
    with services(ctx) as svc:
        if not dry_run:  # other annotators' answers are a lead's to record, once there is one
            svc.roles.require_only(acting_person(ctx), svc.schemas.annotators_in(path, schema))
        report = svc.schemas.import_file(path, schema, dataset, replace=replace, dry_run=dry_run)
    changes = [
        {
            "line": c.line,
            "annotator": c.annotator,
            "item": c.item_uuid,
            "response": c.response_id,
            "question": c.question,
            "old": c.old,
            "new": c.new,
        }
        for c in report.changes
    ]
    if json_out:
        print_json(
            {
                "path": report.path,
                "schema": report.schema,
                "dataset": report.dataset,
                "rows": report.rows,
                "answers_new": report.new,
                "answers_unchanged": report.unchanged,
                "answers_replaced": report.replaced,
                "answers_kept": report.kept,
                "annotators": list(report.annotators),
                "replaced" if replace else "kept": changes,
                "replace": replace,
                "dry_run": dry_run,
            }
        )
        return
    verb = "would record" if dry_run else "recorded"
    kept = f", {report.kept} kept" if not replace else ""
    echo(
        f"{report.path} → {report.schema} on {report.dataset}: {report.rows} row(s); {verb} "
        f"answers: {report.new} new, {report.unchanged} unchanged, {report.replaced} "
        f"replaced{kept}; annotators: {', '.join(report.annotators) or '—'}"
    )
    what = ("would replace" if dry_run else "replaced") if replace else "kept (--no-replace)"
    for c in report.changes:
        unit = c.item_uuid + (f" (response {c.response_id})" if c.response_id else "")
        change = f"{c.old} → {c.new}" if replace else f"kept {c.old}, file has {c.new}"
        echo(f"  {what}: line {c.line}: {c.annotator} on {unit}: {c.question} {change}")
    if dry_run:
        echo("dry run: nothing was written")


def export_answers(
    ctx: typer.Context, schema: str, dataset: str | None, output: Path | None, fmt: str = "csv"
) -> None:
    """Every rater's current answers of a schema as CSV (what `import_answers` reads) or JSON
    lines."""
    schema = checked_name(schema, "--schema")
    with services(ctx) as svc:
        if dataset is not None:
            dataset = svc.datasets.resolve(checked_name(dataset, "--dataset"))
        text = svc.schemas.export(schema, dataset, fmt)
        database = svc.database_file()
    if output is None:
        sys.stdout.write(text)
        return
    write_output(output, text, database)
    rows = text.count("\n") - (1 if fmt == "csv" else 0)
    typer.echo(f"wrote {rows} row(s) to {output}", err=True)


def schema_agreement(ctx: typer.Context, schema: str, dataset: str | None, json_out: bool) -> None:
    """Krippendorff's α per question of a schema, at each question's level."""
    schema = checked_name(schema, "--schema")
    with services(ctx) as svc:
        if dataset is not None:
            dataset = svc.datasets.resolve(checked_name(dataset, "--dataset"))
        found = svc.schemas.get(schema)
        result = svc.schema_agreement.compute(found, dataset)
    if json_out:
        print_json(result.as_json())
        return
    print_agreement(result)


def print_agreement(result: SchemaAgreement) -> None:
    """One line per question: α (or why none), its level, units and values."""
    where = f" on {result.dataset}" if result.dataset else ""
    echo(f"{result.schema}{where}: raters {', '.join(result.raters) or '—'}")
    for q in result.questions:
        value = f"α = {q.alpha:.3f}" if q.alpha is not None else f"α {q.reason}"
        level = q.level or "text"
        echo(f"  {q.question} ({level}): {value}; {q.n_units} unit(s), {q.n_values} value(s)")
