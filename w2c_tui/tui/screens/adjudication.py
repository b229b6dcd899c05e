"""The adjudication queue: units the humans disagree on, resolved from the keyboard."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from w2c_tui.domain.errors import W2CError, WriteError
from w2c_tui.domain.labels import LABELS, Label
from w2c_tui.domain.names import printable
from w2c_tui.domain.review import UnitKind
from w2c_tui.domain.roles import LeadAction
from w2c_tui.tui.screens.dialogs import NoteDialog

if TYPE_CHECKING:
    from w2c_tui.services import Services
    from w2c_tui.services.adjudication import Case


SHORT = {
    Label.DIRECT: "DA",
    Label.TOOL_CALL: "TC",
    Label.REQUEST_FOR_INFO: "RI",
    Label.CANNOT_ANSWER: "CA",
}
"""Two-letter labels for the queue's humans column (as in the items list)."""


def case_view(case: Case) -> Group:
    """Everything about one case: every human by name, the machines, gold, the response."""
    head = Text()
    head.append(f"item {case.position + 1} · {case.uuid}", style="bold")
    if case.target_model:
        head.append(f" · model {printable(case.target_model)}")
    humans = Text("humans: ", style="dim")
    for index, (name, label) in enumerate(case.humans):
        humans.append(", " if index else "")
        humans.append(f"{printable(name)} ", style="")
        humans.append(label.value, style="bold")
    humans.append(f"   (split {case.split:.2f})", style="dim")
    machines = Text("judges and scorers: ", style="dim")
    machines.append(", ".join(f"{printable(k)} {v}" for k, v in case.others) or "none")
    facts = Text("gold ", style="dim")
    facts.append(case.gold.value if case.gold else "—", style="bold")
    facts.append("   human majority ", style="dim")
    facts.append(case.majority.value if case.majority else "tie")
    decision = Text("decision: ", style="dim")
    if case.decision is not None:
        decision.append(case.decision.value, style="bold reverse")
        decision.append(f"  by {printable(case.adjudicator or '')}")
        if case.note:
            decision.append(f"  note: {printable(case.note, multiline=True)}", style="italic")
    else:
        decision.append("none yet — 1–4 decides, e adds a note", style="italic")
    parts = [head, Text(case.question), humans, machines, facts, decision]
    if case.target_model is not None:
        parts.append(Text("response:", style="dim"))
        parts.append(Text(case.response_text or "(empty response)"))
    return Group(*[p for part in parts for p in (part, Text(""))])


class AdjudicationScreen(Screen[int | None]):
    """Returns an item id to open on the review screen (Enter), or None."""

    BINDINGS = [
        Binding("escape,A", "close", "back", id="adjudication-close"),
        Binding("1", "decide(1)", "direct", id="adjudicate-1"),
        Binding("2", "decide(2)", "tool call", id="adjudicate-2"),
        Binding("3", "decide(3)", "req. info", id="adjudicate-3"),
        Binding("4", "decide(4)", "cannot", id="adjudicate-4"),
        Binding("e", "note", "note", id="adjudicate-note"),
        Binding("u", "units", "responses / items", id="adjudicate-units"),
        Binding("f", "against", "vs judge", id="adjudicate-against"),
        Binding("o", "open", "open item", id="adjudicate-open"),
    ]

    def __init__(self, services: Services, dataset: str, adjudicator: str) -> None:
        super().__init__()
        self.services = services
        self.dataset = dataset
        self.adjudicator = adjudicator
        self.kind = UnitKind.BEHAVIOUR
        self.against: str | None = None
        self.cases: list[Case] = []
        self.pending_note = ""

    def compose(self) -> ComposeResult:
        yield Static("", id="adjudication-head", markup=False)
        with Horizontal():
            yield DataTable(cursor_type="row", zebra_stripes=True, id="adjudication-table")
            with VerticalScroll(id="adjudication-side"):
                yield Static("", id="adjudication-case")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("#", "split", "decision", "model", "humans", "uuid")
        self.reload()
        table.focus()

    def reload(self, keep: str | None = None) -> None:
        """Rebuild the queue (decided cases sink to the bottom)."""
        try:
            self.cases = self.services.adjudication.queue(self.dataset, self.kind, self.against)
        except W2CError as error:
            self.notify(str(error), severity="error", markup=False)
            self.cases = []
        open_ = sum(1 for c in self.cases if c.decision is None)
        what = "responses" if self.kind is UnitKind.BEHAVIOUR else "items (item QA)"
        versus = (
            f"; also where the human majority differs from {self.against}" if self.against else ""
        )
        self.query_one("#adjudication-head", Static).update(
            printable(
                f"Adjudication · {self.dataset} · {what}: {len(self.cases)} unit(s) where the "
                f"humans disagree{versus}; {open_} undecided · you decide as {self.adjudicator}"
            )
        )
        table = self.query_one(DataTable)
        table.clear()
        for case in self.cases:
            table.add_row(
                str(case.position + 1),
                f"{case.split:.2f}",
                Text(case.decision.value if case.decision else "—"),
                Text(printable(case.target_model or "(item)")),
                Text(printable(" ".join(f"{n}:{SHORT[lab]}" for n, lab in case.humans))),
                Text(case.uuid[:8]),
                key=case.unit,
            )
        if keep is not None and any(c.unit == keep for c in self.cases):
            table.move_cursor(row=next(i for i, c in enumerate(self.cases) if c.unit == keep))
        self.show_case()

    @property
    def case(self) -> Case | None:
        """The case under the cursor."""
        row = self.query_one(DataTable).cursor_row
        return self.cases[row] if 0 <= row < len(self.cases) else None

    @on(DataTable.RowHighlighted)
    def show_case(self) -> None:
        case = self.case
        self.query_one("#adjudication-case", Static).update(
            case_view(case) if case else Text("Nothing to adjudicate: the humans agree.")
        )

    def action_decide(self, number: int) -> None:
        """Record the decision (1–4) with the note, then go to the next undecided case."""
        case = self.case
        if case is None:
            return
        note = self.pending_note or case.note
        why = self.services.roles.refusal(
            self.adjudicator,
            LeadAction.ADJUDICATE,
            invited=bool(getattr(self.app, "invited", False)),
        )
        if why is not None:  # a lead's role taken away while the screen was open
            self.notify(why, title="A lead's work", severity="error", markup=False)
            return
        try:
            self.services.adjudication.decide(case, self.adjudicator, LABELS[number - 1], note)
        except WriteError as error:
            self.notify(f"Decision not saved: {error.reason}", severity="error", markup=False)
            return
        self.pending_note = ""
        undecided = [c.unit for c in self.cases if c.decision is None and c.unit != case.unit]
        self.reload(keep=undecided[0] if undecided else case.unit)

    def action_note(self) -> None:
        """Write a note for the decision (kept with it, in its history)."""
        case = self.case
        if case is None:
            return

        def save(text: str | None) -> None:
            if text is None:
                return
            if case.decision is not None:
                try:
                    self.services.adjudication.decide(case, self.adjudicator, case.decision, text)
                except WriteError as error:
                    self.notify(f"Note not saved: {error.reason}", severity="error", markup=False)
                    return
                self.reload(keep=case.unit)
            else:
                self.pending_note = text
                self.notify("Note kept: it is saved with your decision (1–4).", markup=False)

        self.app.push_screen(NoteDialog(self.pending_note or case.note), save)

    def action_units(self) -> None:
        """Switch between response units and item-QA units."""
        self.kind = UnitKind.ITEM if self.kind is UnitKind.BEHAVIOUR else UnitKind.BEHAVIOUR
        self.against = None
        self.reload()

    def action_against(self) -> None:
        """Also list units where the human majority differs from a judge (cycles the judges)."""
        readings = self.services.adjudication.readings(self.dataset, self.kind)
        keys = [None, *[r.key for r in readings.automated() if r.reading == "label"]]
        self.against = keys[(keys.index(self.against) + 1) % len(keys)]
        self.reload()

    def action_open(self) -> None:
        """Open the case's item on the review screen."""
        if self.case is not None:
            self.dismiss(self.case.item_id)

    def action_close(self) -> None:
        self.dismiss(None)
