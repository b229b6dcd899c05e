"""The CriticTool screen's form: the answers so far (the current question highlighted), then
its choices, or whether the complete label is saved. The form is the schema core's
(`SchemaForm` over the built-in `critictool` schema); the note is written with `e`."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from w2c_tui.domain.critictool_labels import NOTE, Question
from w2c_tui.domain.schema_form import SchemaForm
from w2c_tui.tui.widgets.schema_views import complete_line

QUESTION_SHORT: dict[str, str] = {
    Question.ERROR: "error in last step",
    Question.CATEGORY: "which error",
    Question.EXPECTED_POLICY: "expected policy",
    Question.CRITIQUE: "critique right",
    Question.TOOL: "corrected tool right",
    Question.ARGS: "corrected args right",
    Question.OBSERVED_POLICY: "observed policy",
}
"""Each question in a few words, for the answers table."""


def critictool_form_view(form: SchemaForm, *, hidden: bool, unsaved: bool) -> Group:
    """The form; `hidden`: gold and the model are kept back; `unsaved`: the database has not
    taken the answers on screen yet."""
    table = Table.grid(padding=(0, 1))
    table.add_column()
    table.add_column()
    current = form.current
    for question in form.questions():
        if question.name == NOTE:
            continue
        value = form.answers.get(question.name)
        option = question.option(value) if value is not None else None
        style = "bold reverse" if question is current else ""
        shown = option.title if option is not None else "—"
        table.add_row(Text(QUESTION_SHORT[question.name], style), Text(shown, "bold"))
    body = Text()
    if current is None:
        body.append_text(complete_line(unsaved, " j: next, u: undo."))
    else:
        body.append(f"{current.title}\n", "bold")
        for option in current.options:
            body.append(f"  {option.key} ", "bold reverse")
            body.append(f" {option.title}\n")
    if hidden:
        body.append("\nBlind: gold and the model appear once these are saved.", "dim")
    note = form.answers.get(NOTE)
    if note:
        body.append(f"\nnote: {note}", "italic")
    return Group(table, Text(""), body)
