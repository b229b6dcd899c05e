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
    ctx: typer.Context, schema: str, path: Path, dataset: str | None, json_out: bool
) -> None:
    """Answers to a schema's questions from a CSV file (whole or nothing)."""
    schema = checked_name(schema, "--schema")
    with services(ctx) as svc:
        svc.roles.require_only(acting_person(ctx), svc.schemas.annotators_in(path, schema))
        report = svc.schemas.import_file(path, schema, dataset)
    if json_out:
        print_json(
            {
                "path": report.path,
                "schema": report.schema,
                "dataset": report.dataset,
                "rows": report.rows,
                "answers_new": report.new,
                "answers_changed": report.changed,
                "answers_unchanged": report.unchanged,
                "annotators": list(report.annotators),
            }
        )
        return
    echo(
        f"{report.path} → {report.schema} on {report.dataset}: {report.rows} row(s); answers: "
        f"{report.new} new, {report.changed} changed, {report.unchanged} unchanged; "
        f"annotators: {', '.join(report.annotators) or '—'}"
    )


def export_answers(
    ctx: typer.Context, schema: str, dataset: str | None, output: Path | None
) -> None:
    """Every rater's current answers of a schema as CSV (what `import_answers` reads)."""
    schema = checked_name(schema, "--schema")
    with services(ctx) as svc:
        if dataset is not None:
            dataset = svc.datasets.resolve(checked_name(dataset, "--dataset"))
        text = svc.schemas.export_csv(schema, dataset)
        database = svc.database_file()
    if output is None:
        sys.stdout.write(text)
        return
    write_output(output, text, database)
    typer.echo(f"wrote {text.count(chr(10)) - 1} row(s) to {output}", err=True)


def schema_agreement(ctx: typer.Context, schema: str, dataset: str | None, json_out: bool) -> None:
    """Krippendorff's α per question of a schema, at each question's level."""
    schema = checked_name(schema, "--schema")
    with services(ctx) as svc:
        if dataset is not None:
            dataset = svc.datasets.resolve(checked_name(dataset, "--dataset"))
        found = svc.schemas.in_store(schema, "--schema")
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
