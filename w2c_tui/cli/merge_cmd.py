"""`w2c merge`: per-annotator databases brought into one."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from w2c_tui.cli.context import echo, print_json, services, state


def merge(
    ctx: typer.Context,
    files: Annotated[
        list[Path], typer.Argument(help="w2c databases (.db files) to bring in", show_default=False)
    ],
    into: Annotated[
        str | None,
        typer.Option(
            "--into", help="the database to merge into (default: --db / W2C_DB / annotations/)"
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="count what would change; write nothing")
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="the report as JSON")] = False,
) -> None:
    """Bring labels (When2Call, CriticTool and label schemas' answers), label schemas,
    adjudications, flags, notes, assignments and guidelines from other w2c databases (each
    annotator's laptop, say) into one: datasets matched by name and content (a
    file whose items differ is refused, naming them), items by uuid, annotators by name,
    responses by model and text; history is kept; merging a file twice changes nothing; when one
    annotator labelled a unit differently in two places, the later label wins and the conflict
    is reported. A label schema that differs other than by added questions or options is
    refused, naming both files. All files go in one transaction (a refused file leaves the
    target as it was); the files are only read.
    """
    if into is not None:
        state(ctx).db = into
    with services(ctx) as svc:
        if not dry_run:  # other annotators' labels are a lead's to record, once there is one
            from w2c_tui.cli.acting import acting_person
            from w2c_tui.domain.roles import LeadAction

            svc.roles.require(acting_person(ctx), LeadAction.OTHERS_LABELS)
        counts = svc.merge.merge(files, dry_run=dry_run)
        if json_out:
            print_json(
                {"into": svc.public_url, "dry_run": dry_run, "sources": [asdict(c) for c in counts]}
            )
            return
        verb = "would add" if dry_run else "added"
        for c in counts:
            echo(
                f"{c.source} → {svc.public_url}: {verb} {c.verdicts} label(s) "
                f"({c.verdicts_known} already there), {c.schema_labels} schema answer(s) "
                f"({c.schema_labels_known} already there), {c.schemas} label schema(s), "
                f"{c.flags} flag(s), {c.notes} note(s), "
                f"{c.assignments} assignment(s), {c.guidelines} guideline version(s), "
                f"{c.raters} annotator(s)"
            )
            for conflict in c.conflicts:
                unit = conflict.uuid + (f" ({conflict.model})" if conflict.model else "")
                echo(
                    f"  conflict: {conflict.rater} on {unit}: kept {conflict.kept} "
                    f"({conflict.kept_at:%Y-%m-%d %H:%M:%S}, from {conflict.kept_from}), "
                    f"over {conflict.lost} ({conflict.lost_at:%Y-%m-%d %H:%M:%S}, "
                    f"from {conflict.lost_from}; kept as history)"
                )
            for line in c.skipped:
                echo(f"  not merged: {line}")
        if dry_run:
            typer.echo("dry run: nothing was written")
