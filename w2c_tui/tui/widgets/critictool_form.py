"""The CriticTool screen's form: the answers so far (the current question highlighted), then
its choices, or whether the complete label is saved."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from w2c_tui.domain.critictool_labels import (
    QUESTION_TITLES,
    CriticToolLabelForm,
    Question,
    options,
)
from w2c_tui.tui.widgets.schema_views import complete_line

QUESTION_SHORT: dict[Question, str] = {
    Question.ERROR: "error in last step",
    Question.CATEGORY: "which error",
    Question.EXPECTED_POLICY: "expected policy",
    Question.CRITIQUE: "critique right",
    Question.TOOL: "corrected tool right",
    Question.ARGS: "corrected args right",
    Question.OBSERVED_POLICY: "observed policy",
}
"""Each question in a few words, for the answers table."""


def critictool_form_view(form: CriticToolLabelForm, *, hidden: bool, unsaved: bool) -> Group:
    """The form; `hidden`: gold and the model are kept back; `unsaved`: the database has not
    taken the answers on screen yet."""
    table = Table.grid(padding=(0, 1))
    table.add_column()
    table.add_column()
    current = form.current
    for question in form.questions():
        answer = dict(options(question)).get(form.label.get(question) or "", "—")
        style = "bold reverse" if question is current else ""
        table.add_row(Text(QUESTION_SHORT[question], style), Text(answer, "bold"))
    body = Text()
    if current is None:
        body.append_text(complete_line(unsaved, " j: next, u: undo."))
    else:
        body.append(f"{QUESTION_TITLES[current]}\n", "bold")
        for key, (_, title) in enumerate(options(current), start=1):
            body.append(f"  {key} ", "bold reverse")
            body.append(f" {title}\n")
    if hidden:
        body.append("\nBlind: gold and the model appear once these are saved.", "dim")
    if form.label.note:
        body.append(f"\nnote: {form.label.note}", "italic")
    return Group(table, Text(""), body)
