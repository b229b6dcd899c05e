"""`w2c labels`: export what the annotators recorded, import labels made elsewhere (of the
When2Call labels, or with `--schema` of any label schema)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from w2c_tui.cli.choices import ExportFormat as Format
from w2c_tui.cli.context import checked_name, services
from w2c_tui.cli.output import write_output
from w2c_tui.cli.schema_labels_cmd import export_answers, import_answers
from w2c_tui.io.exporters.records import records_text

labels_app = typer.Typer(help="Human labels.", no_args_is_help=True)

FIELDS = (
    "annotator",
    "dataset",
    "item_uuid",
    "target_model",
    "label",
    "status",
    "flags",
    "note",
    "created_at",
    "first_labelled_at",
    "n_edits",
    "guideline_version",
    "seen",
    "gold",
    "question",
    "response",
    "flag_names",
)


@labels_app.command("export")
def export(
    ctx: typer.Context,
    fmt: Annotated[
        Format | None,
        typer.Option("--format", help="jsonl or csv (default: jsonl; with --schema csv)."),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write here instead of stdout.")
    ] = None,
    dataset: Annotated[str | None, typer.Option(help="Only this dataset.")] = None,
    schema: Annotated[
        str | None,
        typer.Option(
            help="The answers of this label schema instead (`w2c schemas list`): annotator, "
            "dataset, item, response, one field per question (--format csv or jsonl)."
        ),
    ] = None,
) -> None:
    """Human labels with annotator, item uuid, target model (empty for item QA), label, QA
    flags (codes and wording), note, timestamps, the item's gold and question and the
    response labelled: one record per annotator and labelled unit. With --schema: that
    schema's current answers, one record per annotator and unit; as CSV, `labels import
    --schema` reads them back unchanged."""
    if schema is not None:
        export_answers(ctx, schema, dataset, output, (fmt or Format.CSV).value)
        return
    with services(ctx) as svc:
        records = svc.labels.export(dataset)
        database = svc.database_file()
    rows = [
        {
            "annotator": r.annotator,
            "dataset": r.dataset,
            "item_uuid": r.item_uuid,
            "target_model": r.target_model,
            "label": r.label.value if r.label else None,
            "status": r.status.value,
            "flags": list(r.flags),
            "note": r.note,
            "created_at": r.created_at.isoformat(),
            "first_labelled_at": r.first_labelled_at.isoformat(),
            "n_edits": r.n_edits,
            "guideline_version": r.guideline_version,
            "seen": r.seen,
            "gold": r.gold.value if r.gold else None,
            "question": r.question,
            "response": r.response,
            "flag_names": list(r.flag_names),
        }
        for r in records
    ]
    # CSV cells that could run as formulas are defused
    text = records_text(rows, (fmt or Format.JSONL).value, FIELDS)
    if output is None:
        sys.stdout.write(text)
        return
    write_output(output, text, database)
    typer.echo(f"wrote {len(rows)} label record(s) to {output}", err=True)


@labels_app.command("import")
def import_labels(
    ctx: typer.Context,
    path: Annotated[Path, typer.Argument(help="A CSV or JSONL file of human labels.")],
    dataset: Annotated[
        str | None, typer.Option(help="Dataset (default: the file's dataset column).")
    ] = None,
    dry_run: Annotated[bool, typer.Option(help="Validate and report; write nothing.")] = False,
    replace: Annotated[
        bool,
        typer.Option(
            "--replace/--no-replace",
            help="Replace an annotator's current label (and note) that the file changes "
            "(default; the old one stays as history), or keep every existing one.",
        ),
    ] = True,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
    schema: Annotated[
        str | None,
        typer.Option(
            help="Answers to this label schema's questions (CSV: annotator, item, response, "
            "one column per question; optional dataset; or a .jsonl file of objects with "
            "those keys)."
        ),
    ] = None,
) -> None:
    """Human labels made elsewhere (a spreadsheet, Label Studio) become labels of those
    annotators. Columns: uuid, annotator, label; optional target_model, response_id, note,
    flags (a;b), dataset, status. A row with a target model labels that model's response;
    without one it is an item-QA label. Reports each row as new, unchanged, replaced (old →
    new, listed) or kept (--no-replace). Bad rows refuse the whole file with file:line:field,
    each named, and nothing written; importing the same file again (or a `labels export
    --format csv` of this database) changes nothing. With --schema: answers to that schema's
    questions, checked against its options (file:line:field, exit 2, nothing written), each
    answer reported as new, unchanged, replaced or kept (--no-replace)."""
    if schema is not None:
        if dataset is not None:
            dataset = checked_name(dataset, "--dataset")
        import_answers(ctx, schema, path, dataset, json_out, replace=replace, dry_run=dry_run)
        return
    from w2c_tui.cli.context import print_json
    from w2c_tui.domain.names import printable

    with services(ctx) as svc:
        if dataset is not None:
            dataset = checked_name(dataset, "--dataset")
        if not dry_run:  # other annotators' labels are a lead's to record, once there is one
            from w2c_tui.cli.acting import acting_person

            svc.roles.require_own_labels(acting_person(ctx), path)
        report = svc.labels.import_file(path, dataset, dry_run=dry_run, replace=replace)
    changes = [
        {
            "line": r.line,
            "annotator": r.annotator,
            "uuid": r.uuid,
            "target_model": r.target_model,
            "old": r.old.value if r.old else None,
            "new": r.new.value if r.new else None,
        }
        for r in report.replaced
    ]
    if json_out:
        print_json(
            {
                "path": report.path,
                "dataset": report.dataset,
                "rows": report.rows,
                "labels_new": report.labels_new,
                "labels_unchanged": report.labels_unchanged,
                "labels_replaced": report.labels_replaced,
                "labels_kept": report.labels_kept,
                "notes_new": report.notes_new,
                "notes_replaced": report.notes_replaced,
                "notes_kept": report.notes_kept,
                "flags_new": report.flags_new,
                "annotators": report.annotators,
                "replaced" if replace else "kept": changes,
                "replace": replace,
                "dry_run": report.dry_run,
                "changed": report.changed,
            }
        )
        return
    verb = "would record" if dry_run else "recorded"
    kept = f", {report.labels_kept} kept" if not replace else ""
    notes = f"{report.notes_new} new, {report.notes_replaced} replaced" + (
        f", {report.notes_kept} kept" if not replace else ""
    )
    typer.echo(
        printable(
            f"{report.path} → {report.dataset}: {report.rows} row(s); {verb} labels: "
            f"{report.labels_new} new, {report.labels_unchanged} unchanged, "
            f"{report.labels_replaced} replaced{kept}; notes: {notes}; "
            f"{report.flags_new} flag(s) switched on; annotators: "
            f"{', '.join(report.annotators) or '—'}"
        )
    )
    what = ("would replace" if dry_run else "replaced") if replace else "kept (--no-replace)"
    for r in report.replaced:
        unit = r.uuid + (f" ({r.target_model})" if r.target_model else "")
        old = r.old.value if r.old else "no label"
        new = r.new.value if r.new else "withdrawn"
        change = f"{old} → {new}" if replace else f"kept {old}, file has {new}"
        typer.echo(printable(f"  {what}: line {r.line}: {r.annotator} on {unit}: {change}"))
