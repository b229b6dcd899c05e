"""The item-QA pane: the annotator's correct behaviour, the checklist flags, the note."""

from __future__ import annotations

from itertools import groupby

from rich.text import Text
from textual.widgets import Static

from w2c_tui.domain.models import ItemQA
from w2c_tui.domain.qa import QA_FLAGS
from w2c_tui.tui.widgets.same_size import update_same_size


class QAPanel(Static):
    """Shows the QA state of the current item for this annotator."""

    DEFAULT_CSS = """
    QAPanel { padding: 0 1; border: round $primary; height: auto; }
    """

    def show(self, qa: ItemQA) -> None:
        """Render the label, every checklist entry (on or off) and the note."""
        if self.border_title != "Item QA":
            self.border_title = "Item QA"
        text = Text()
        text.append("correct behaviour: ", style="dim")
        if qa.label is not None:
            text.append(f"[{qa.label.option + 1}] {qa.label.display_name}", style="bold")
        else:
            text.append("not labelled (press 1–4)", style="italic")
        text.append(
            f"\n\nquality flags ({len(qa.flags)} of {len(QA_FLAGS)} checks; "
            "c opens the checklist)\n",
            style="dim",
        )
        active = [spec for spec in QA_FLAGS if spec.code in qa.flags]
        if not active:
            text.append("  none\n", style="italic")
        for group, specs in groupby(active, key=lambda spec: spec.group):
            text.append(f"{group}\n", style="bold")
            for spec in specs:
                text.append(f"  ✗ {spec.text}\n")
        text.append("\nnote (e to edit): ", style="dim")
        text.append(qa.note or "—")
        update_same_size(self, text)
