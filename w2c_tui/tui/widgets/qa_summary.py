"""The QA summary (the paper's Table 6 per gold class) as Rich renderables: the dashboard's
tab and `w2c qa summary` show the same."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from w2c_tui.domain.labels import Label
from w2c_tui.domain.qa_summary import QACount, QARow, QASummary, QATable

SHORT = {
    Label.DIRECT.value: "direct",
    Label.TOOL_CALL.value: "tool call",
    Label.REQUEST_FOR_INFO.value: "req. info",
    Label.CANNOT_ANSWER.value: "can't answer",
}


def _cell(count: QACount) -> Text:
    if count.pct is None:
        return Text("—", style="dim")
    text = Text(f"{count.count:>3} ")
    text.append(f"{count.pct:5.1f}%", style="bold" if count.count else "dim")
    return text


def _add(table: Table, row: QARow, *, style: str = "") -> None:
    table.add_row(Text(row.text, style=style), *(_cell(c) for c in row.cells))


def render_table(doc: QATable) -> Table:
    """One Table 6: issue rows by group, a column per gold class and `all`."""
    who = doc.annotator if doc.annotator is not None else "everyone (flagged by anyone)"
    table = Table(
        title=Text(
            f"{who}: reviewed "
            + ", ".join(
                f"{SHORT.get(c, c)} {r}/{n}"
                for c, r, n in zip(doc.columns, doc.reviewed, doc.items, strict=True)
            )
        ),
        title_justify="left",
        expand=False,
        show_edge=False,
        pad_edge=False,
    )
    table.add_column("issue (count, % of reviewed)", ratio=1, overflow="fold", min_width=24)
    for column in doc.columns:
        table.add_column(SHORT.get(column, column), justify="right", no_wrap=True, min_width=10)
    for group in doc.groups:
        table.add_row(Text(group.name, style="bold underline"), *("" for _ in doc.columns))
        for row in group.rows:
            _add(table, row)
        _add(table, group.total, style="italic")
    table.add_section()
    _add(table, doc.any_issue, style="bold")
    return table


def render_qa_summary(doc: QASummary, *, per_annotator: bool = True) -> RenderableType:
    """The whole summary: a header, the overall table, then one per annotator."""
    header = Text.assemble(
        (f"QA summary of {doc.dataset}: ", "bold"),
        f"{doc.n_reviewed} of {doc.n_items} items reviewed in item QA",
    )
    rule = Text(f"Reviewed: {doc.rule}.", style="dim")
    parts: list[RenderableType] = [header, rule, Text(""), render_table(doc.overall)]
    if per_annotator:
        for table in doc.annotators:
            parts += [Text(""), render_table(table)]
    return Group(*parts)
