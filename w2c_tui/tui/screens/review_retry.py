"""The review screen's unsaved label, tried again in the background: when the next try is due
(backing off while the database refuses it), the try off the UI thread, and its outcome."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from textual.screen import Screen

from w2c_tui.domain.errors import WriteError
from w2c_tui.domain.models import LabelChange
from w2c_tui.lost_labels import LostLabel
from w2c_tui.tui.review_state import Notice, PendingLabel
from w2c_tui.tui.review_views import ReviewController

RETRY_TICK_S = 0.25
"""How often the screen looks whether an unsaved label is due for another try."""
RETRY_FIRST_S = 1.0
RETRY_MAX_S = 5.0
"""An unsaved label is tried again after 1 s, then 2, 4, then every 5 s until saved."""
RETRY_WAIT_S = 0.5
"""How long one background retry waits for a busy database (off the UI thread: the screen
never waits; a discard at quit waits for it to end)."""


RETRY_GROUP = "retry-label"
"""The workers' group of background retries (the app waits for them before a discard)."""
R = TypeVar("R")


def write_in_background(
    screen: Screen[None],
    write: Callable[[], R],
    done: Callable[[R | WriteError], None],
    closed: Callable[[], None],
) -> None:
    """Run `write` in a thread worker of `screen` and hand its result, or the WriteError that
    refused it, to `done` on the UI thread; `closed` when the app is closing meanwhile."""

    def attempt() -> None:
        outcome: R | WriteError
        try:
            outcome = write()
        except WriteError as error:
            outcome = error
        try:
            screen.app.call_from_thread(done, outcome)
        except RuntimeError:  # the app is closing
            closed()

    screen.run_worker(attempt, thread=True, group=RETRY_GROUP, exit_on_error=False)


class LabelRetry:
    """Tries the unsaved label again in the background: first after RETRY_FIRST_S, then backing
    off to RETRY_MAX_S while the database refuses it; the screen never waits for it."""

    def __init__(
        self,
        screen: Screen[None],
        state: ReviewController,
        *,
        act: Callable[[Notice | None], None],
        repaint: Callable[[], None],
    ) -> None:
        self.screen = screen
        self.state = state
        self.act = act
        self.repaint = repaint
        """Repaint the header (NOT SAVED stays) after a try the database refused."""
        self.delay = RETRY_FIRST_S
        self.at = 0.0
        """When the next try is due (monotonic seconds; 0: not scheduled yet)."""
        self.busy = False
        """A try is running in its worker."""

    def tick(self) -> None:
        """Try an unsaved label again when it is due (backing off while the database refuses
        it); the NOT SAVED marker clears itself once it is saved."""
        pending = self.state.unsaved
        if pending is None or not pending.retryable:
            self.delay, self.at = RETRY_FIRST_S, 0.0
            return
        now = time.monotonic()
        if self.at == 0.0:  # just failed: the first try again is a second away
            self.at = now + self.delay
        if now >= self.at:
            self.now()

    def now(self, wait_s: float = RETRY_WAIT_S) -> bool:
        """Try the unsaved label again off the UI thread (the screen never waits for the
        database); True when nothing is unsaved."""
        pending = self.state.unsaved
        if pending is None:
            return True
        if self.busy:
            return False
        self.busy = True
        self.at = time.monotonic() + 3600  # the worker's outcome sets the next try

        def done(outcome: LabelChange | WriteError | None) -> None:
            self._done(pending, outcome)

        write_in_background(
            self.screen, lambda: self.state.labels.store(pending, wait_s), done, self._closed
        )
        return False

    def _closed(self) -> None:
        self.busy = False

    def lost(self) -> list[LostLabel]:
        """The label not saved yet, if any (the app asks before quitting)."""
        lost = self.state.labels.lost_label()
        return [] if lost is None else [lost]

    def drop(self) -> None:
        """Forget it (the app wrote it to the unsaved-labels log)."""
        self.state.labels.unsaved = None

    def _done(self, pending: PendingLabel, outcome: LabelChange | WriteError | None) -> None:
        """A background retry's outcome, on the UI thread."""
        self.busy = False
        if isinstance(outcome, WriteError):
            if self.state.unsaved is pending:
                self.state.labels.not_stored(pending, outcome)
            self.delay = min(self.delay * 2, RETRY_MAX_S)
            self.at = time.monotonic() + self.delay
            self.repaint()
            return
        self.delay, self.at = RETRY_FIRST_S, 0.0
        if self.state.unsaved is not pending:  # discarded while the database took it
            if outcome is not None:
                self.state.undo_stack.append(outcome)
            self.state.reload()
            self.act(Notice("The label you discarded had been saved already; u undoes it."))
            return
        self.act(self.state.labels.stored(pending, outcome) or Notice("Saved.", title="Saved"))
