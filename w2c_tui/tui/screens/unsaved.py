"""Quitting while a label is not saved: save and wait, discard it (written to a log), or stay."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, Static

from w2c_tui.lost_labels import LostLabel
from w2c_tui.tui.screens.base import OnceModalScreen

SAVE_EVERY_S = 0.5
"""How often "save and wait" tries the label again."""

TrySave = Callable[[], Sequence[LostLabel]]
"""Try every unsaved label once; the ones still not saved."""


def describe(labels: Sequence[LostLabel]) -> str:
    """The unsaved labels, one line each, with why the database did not take them."""
    return "\n".join(
        f"{lost.label} on {lost.uuid} ({lost.unit}), not saved: {lost.reason}" for lost in labels
    )


class UnsavedQuitDialog(OnceModalScreen[str]):
    """Asked by q / ctrl+c while a label is not saved; dismisses with "saved", "discard" or
    "stay". "Save and wait" keeps trying and closes once the database takes the label."""

    BINDINGS = [
        Binding("s", "save", "save and wait"),
        Binding("d", "discard", "discard this label and quit"),
        Binding("escape,n", "stay", "stay"),
    ]

    def __init__(self, labels: Sequence[LostLabel], try_save: TrySave) -> None:
        super().__init__()
        self.labels = list(labels)
        self.try_save = try_save
        self.waiting = False
        self.attempts = 0

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="unsaved-dialog"):
            yield Label("Your label is not saved yet", classes="dialog--title")
            yield Static(describe(self.labels), id="unsaved-labels", markup=False)
            yield Static(
                "s  save and wait (quits once it is saved)\n"
                "d  discard this label and quit (it is written to a log)\n"
                "esc  stay (it keeps being retried)",
                id="unsaved-keys",
                markup=False,
            )
            yield Static("", id="unsaved-wait", markup=False)

    def action_save(self) -> None:
        """Keep trying; quit as soon as the database takes the label."""
        if self.waiting:
            return
        self.waiting = True
        self._attempt()
        if self.is_attached and not self._saved:
            self.set_interval(SAVE_EVERY_S, self._attempt)

    _saved = False

    def _attempt(self) -> None:
        if self._saved:
            return
        self.attempts += 1
        left = list(self.try_save())
        if not left:
            self._saved = True
            self.dismiss("saved")
            return
        self.labels = left
        self.query_one("#unsaved-labels", Static).update(describe(left))
        waited = self.attempts * SAVE_EVERY_S
        self.query_one("#unsaved-wait", Static).update(
            f"Saving… not saved yet after {waited:.0f} s; still trying. "
            "d discards it and quits, esc stays."
        )

    def action_discard(self) -> None:
        """Quit without the label (the app writes it to the unsaved-labels log)."""
        self.dismiss("discard")

    def action_stay(self) -> None:
        """Back to labelling; the label keeps being retried."""
        self.dismiss("stay")
