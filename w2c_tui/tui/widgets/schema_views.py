"""What the schema labelling screen shows: one unit (the task, its tools, the response, the
fields the schema keeps back until the reveal) and the form (answers so far, the current
question's options)."""

from __future__ import annotations

from datetime import datetime

from rich.console import Group
from rich.table import Table
from rich.text import Text

from w2c_tui.domain.schema_form import SchemaForm
from w2c_tui.domain.schema_labels import SchemaUnit
from w2c_tui.domain.schemas import LabelSchema, QuestionKind
from w2c_tui.lost_labels import LostLabel


def unit_view(unit: SchemaUnit, schema: LabelSchema, hidden: bool) -> Text:
    """The unit; while `hidden`, without what the schema keeps back (its item id, hidden
    fields, and the prediction or model where the schema names them)."""
    body = Text()
    if hidden:
        body.append("item id shown once the blind questions are saved\n", "dim")
    else:
        body.append(f"item {unit.item_uuid}\n", "dim")
    body.append(f"{unit.question}\n")
    if unit.tools:
        body.append(f"\nTools ({len(unit.tools)})\n", "bold")
        for tool in unit.tools:
            body.append(f"  {tool}\n")
    else:
        body.append("\nNo tools offered.\n", "dim")
    if unit.response is not None and hidden and "prediction" in schema.blind_hidden:
        body.append(
            "\nThe model's prediction is shown once the blind questions are saved.\n", "dim"
        )
    elif unit.response is not None:
        model = (
            ""
            if hidden and "target_model" in schema.blind_hidden
            else (f" ({unit.target_model})" if unit.target_model else "")
        )
        body.append(f"\nresponse{model}\n", "bold")
        body.append(f"{unit.response}\n")
    if unit.hidden and not hidden:
        body.append("\n")
        for name, value in unit.hidden.items():
            body.append(f"{name}: ", "bold")
            body.append(f"{value}\n")
    return body


def complete_line(unsaved: bool, then: str = "") -> Text:
    """What a form with every question answered says: saved (and `then`, what keys go on), or
    NOT SAVED yet while the database has not taken it."""
    if unsaved:
        return Text("Label complete, NOT SAVED yet: tried again every few seconds.\n", "red")
    return Text(f"Label complete and saved.{then}\n", "green")


def form_view(form: SchemaForm, schema: LabelSchema, *, hidden: bool, unsaved: bool) -> Group:
    """The answers so far (the current question highlighted), then its options, or whether
    the complete label is saved."""
    table = Table.grid(padding=(0, 1))
    table.add_column()
    table.add_column()
    current = form.current
    for question in form.questions():
        value = form.answers.get(question.name)
        option = question.option(value) if value is not None else None
        shown = option.title if option is not None else (value or "—")
        style = "bold reverse" if question is current else ""
        table.add_row(Text(question.name, style), Text(shown, "bold"))
    body = Text()
    if current is None:
        body.append_text(complete_line(unsaved))
    else:
        body.append(f"{current.title}\n", "bold")
        if not current.required:
            how = "Enter on nothing" if current.kind is QuestionKind.TEXT else "s"
            body.append(f"  optional: {how} skips it, S every optional one left\n", "dim")
        for option in current.options:
            body.append(f"  {option.key} ", "bold reverse")
            body.append(f" {option.title}\n")
    if hidden and schema.blind_hidden:
        fields = ", ".join(schema.blind_hidden)
        body.append(f"\nBlind: {fields} shown once these are saved.", "dim")
    return Group(table, Text(""), body)


def head_view(place: str, order: str, who: str, *, complete: bool, unsaved: bool) -> Text:
    """The labelling screen's head: where in which order, who, and the label's state (NOT
    SAVED while the database has not taken the answers)."""
    head = Text(f"{place} {order} · {who} · your label: {'complete' if complete else 'open'}")
    if unsaved:
        head.append("  NOT SAVED (ctrl+s)", "bold white on red")
    return head


def lost_answers(
    place: tuple[str, str, str],
    unit: SchemaUnit,
    stored: dict[str, str | None],
    reason: str,
    entered_at: datetime,
) -> LostLabel:
    """How the unsaved-labels log names answers that were never saved: (annotator, dataset,
    schema), the unit, each answer."""
    annotator, dataset, schema = place
    where = f"response {unit.unit.response_id}" if unit.unit.response_id else "item"
    if unit.target_model:
        where += f" (model {unit.target_model})"
    answers = "; ".join(f"{q}={v or '(cleared)'}" for q, v in stored.items())
    return LostLabel(
        annotator, dataset, unit.item_uuid, f"{schema}: {where}",
        answers or "(cleared)", entered_at, reason,
    )  # fmt: skip
