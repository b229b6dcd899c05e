"""Team progress: per annotator assigned / done / pace / last active; complete units; human α."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static
from textual.worker import Worker, WorkerState

from w2c_tui.domain.names import printable
from w2c_tui.domain.team import TeamStatus

if TYPE_CHECKING:
    from w2c_tui.services import Services

REFRESH_S = 10.0


def ago(when: datetime | None, now: datetime | None = None) -> str:
    """'3 min ago', '2.5 h ago', or '—'."""
    if when is None:
        return "—"
    stamp = when if when.tzinfo else when.replace(tzinfo=UTC)
    seconds = ((now or datetime.now(UTC)) - stamp).total_seconds()
    if seconds < 90:
        return "just now"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min ago"
    if seconds < 172_800:
        return f"{seconds / 3600:.1f} h ago"
    return f"{seconds / 86400:.0f} days ago"


class TeamScreen(Screen[None]):
    """Refreshes every few seconds while open, so labels show up as they come."""

    BINDINGS = [
        Binding("escape,T", "close", "back", id="team-close"),
        Binding("r", "refresh", "refresh", id="team-refresh"),
    ]

    @dataclass
    class Computed(Message):
        """A new team status is ready."""

        status: TeamStatus

    def __init__(self, services: Services, dataset: str) -> None:
        super().__init__()
        self.services = services
        self.dataset = dataset
        self.status: TeamStatus | None = None

    def compose(self) -> ComposeResult:
        yield Static("Team progress · computing…", id="team-head", markup=False)
        yield DataTable(cursor_type="row", zebra_stripes=True, id="team-table")
        yield Static(
            "rate = labels per hour of active time (a pause over 5 min does not count) · "
            "α: Krippendorff, nominal, 95% bootstrap interval · refreshes every 10 s",
            id="team-hint",
        )
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(
            "annotator",
            "role",
            "assigned",
            "done",
            "done %",
            "labels",
            "rate /h",
            "active",
            "last active",
        )
        self.action_refresh()
        self.set_interval(REFRESH_S, self.action_refresh)

    def action_refresh(self) -> None:
        """Recompute (in a thread: the α interval is a bootstrap)."""
        self.compute()

    @work(thread=True, exclusive=True, name="team-status", exit_on_error=False)
    def compute(self) -> TeamStatus:
        """Team status of this dataset."""
        return self.services.team.status(self.dataset)

    @on(Worker.StateChanged)
    def computed(self, event: Worker.StateChanged) -> None:
        if event.worker.name != "team-status":
            return
        if event.state is WorkerState.SUCCESS and isinstance(event.worker.result, TeamStatus):
            self.show(event.worker.result)
        elif event.state is WorkerState.ERROR:
            self.notify(str(event.worker.error), severity="error", title="Team", markup=False)

    def show(self, status: TeamStatus) -> None:
        """Fill the table (names shown literally)."""
        self.status = status
        roles = {m.name: m.role.value for m in self.services.roles.members()}
        leads = [name for name, role in roles.items() if role == "lead"]
        who = f"leads: {', '.join(leads)}" if leads else "solo database (no lead)"
        head = printable(f"Team progress · {status.headline()} · {who}", multiline=True)
        self.query_one("#team-head", Static).update(head)
        table = self.query_one(DataTable)
        table.clear()
        for row in status.annotators:
            share = f"{row.done / row.assigned:.0%}" if row.assigned else "—"
            table.add_row(
                Text(printable(row.annotator)),
                roles.get(row.annotator, "—"),
                str(row.assigned),
                str(row.done),
                share,
                str(row.labels),
                f"{row.per_hour:.0f}" if row.per_hour is not None else "—",
                f"{row.active_minutes:.0f} min",
                ago(row.last_active),
            )

    def action_close(self) -> None:
        self.dismiss(None)
