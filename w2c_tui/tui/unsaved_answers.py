"""Answers a labelling screen could not save: kept on screen, tried again, never let go.

The schema and CriticTool screens save every answer at once (`AnswerSaver.save`). When the
database refuses it (locked past the key's wait, read-only, gone), the answers stay in the
screen's form, the screen says NOT SAVED, moving to another unit or leaving is refused, and the
write is tried again in the background (after 1 s, then 2, 4, then every 5 s; ctrl+s at once)
until it is saved. Quitting with answers unsaved asks first, as the review screen does; what is
discarded goes to the unsaved-labels log (`lost_labels`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol, runtime_checkable

from textual.screen import Screen

from w2c_tui.domain.errors import WriteError
from w2c_tui.lost_labels import LostLabel, LostLog
from w2c_tui.tui.screens.review_retry import (
    RETRY_FIRST_S,
    RETRY_MAX_S,
    RETRY_TICK_S,
    RETRY_WAIT_S,
    write_in_background,
)

KEY_WAIT_S = 2.0
"""How long an answer key waits for a busy database before the answer shows as not saved."""

Write = Callable[[float], object]
"""Writes the unit's answers as they are on screen, waiting at most the given seconds."""
Describe = Callable[[str, datetime], LostLabel]
"""The unsaved answers as the unsaved-labels log names them (reason, when entered)."""


@runtime_checkable
class KeepsUnsaved(Protocol):
    """What holds a screen's labels the database has not taken, as the screen's `keeper`
    (the app asks before quitting, and logs what is discarded)."""

    def lost(self) -> list[LostLabel]:
        """The labels not saved yet (empty when all are saved)."""
        ...

    def now(self, wait_s: float) -> object:
        """Try them again now, in the background."""
        ...

    def drop(self) -> None:
        """Forget them (they have been written to the unsaved-labels log)."""
        ...


def keeper_of(screen: object) -> KeepsUnsaved | None:
    """The screen's keeper of unsaved labels, if it has one."""
    keeper = getattr(screen, "keeper", None)
    return keeper if isinstance(keeper, KeepsUnsaved) else None


def log_unsaved(app: object, keeper: KeepsUnsaved, why: str) -> None:
    """A screen closes holding labels the database never took (the app did not ask: a crash,
    an exit): take them off `keeper` and write them to the app's unsaved-labels log."""
    lost = keeper.lost()
    keeper.drop()
    log = getattr(app, "lost_log", None)
    if lost and isinstance(log, LostLog):
        log.write(lost, why, unasked=True)


@dataclass
class _Pending:
    write: Write
    describe: Describe
    reason: str
    entered_at: datetime


class AnswerSaver:
    """Saves one screen's answers, and keeps the ones the database refused until it takes them."""

    def __init__(self, screen: Screen[None], repaint: Callable[[], None]) -> None:
        self.screen = screen
        self.repaint = repaint
        self.pending: _Pending | None = None
        self.delay = RETRY_FIRST_S
        self.at = 0.0
        """When the next background try is due (monotonic seconds)."""
        self.busy = False

    def start(self) -> None:
        """Look for a due retry every RETRY_TICK_S (call once the screen is mounted)."""
        self.screen.set_interval(RETRY_TICK_S, self.tick)

    @property
    def unsaved(self) -> bool:
        """Answers on screen are not in the database."""
        return self.pending is not None

    def save(self, write: Write, describe: Describe) -> bool:
        """Write the answers now (waiting at most KEY_WAIT_S); False, with the answers kept
        and the annotator told, when the database did not take them."""
        try:
            write(KEY_WAIT_S)
        except WriteError as error:
            told = self.pending is not None  # said once; the head keeps saying NOT SAVED
            entered = self.pending.entered_at if self.pending else datetime.now(UTC)
            self.pending = _Pending(write, describe, error.reason, entered)
            self.at = time.monotonic() + self.delay
            if told:
                return False
            self.screen.notify(
                f"Not saved: {error.reason}. Your answers stay on screen and are tried again "
                "every few seconds (ctrl+s: now); this screen keeps them until they are saved.",
                severity="error",
                title="Answers not saved",
                timeout=10,
            )
            return False
        self.pending = None
        self.delay, self.at = RETRY_FIRST_S, 0.0
        return True

    def blocked(self) -> bool:
        """Moving on is refused (and the annotator told why) while answers are unsaved."""
        if self.pending is None:
            return False
        self.screen.notify(
            f"Your answers are not saved yet ({self.pending.reason}): ctrl+s tries again "
            "(also every few seconds); q asks before quitting.",
            severity="warning",
            title="Not saved",
        )
        return True

    def try_now(self) -> None:
        """ctrl+s: try the unsaved answers again now (saying so)."""
        if self.pending is not None:
            self.screen.notify("Trying again…")
            self.now()

    def tick(self) -> None:
        """Try the unsaved answers again when due."""
        if self.pending is not None and not self.busy and time.monotonic() >= self.at:
            self.now()

    def now(self, wait_s: float = RETRY_WAIT_S) -> None:
        """Try the unsaved answers again off the UI thread (the screen never waits)."""
        pending = self.pending
        if pending is None or self.busy:
            return
        self.busy = True

        def done(outcome: object) -> None:
            self._done(pending, outcome if isinstance(outcome, WriteError) else None)

        write_in_background(self.screen, lambda: pending.write(wait_s), done, self._closed)

    def _closed(self) -> None:
        self.busy = False

    def _done(self, pending: _Pending, error: WriteError | None) -> None:
        self.busy = False
        if self.pending is not pending:
            return  # a newer write (a key) or a discard took over
        if error is not None:
            pending.reason = error.reason
            self.delay = min(self.delay * 2, RETRY_MAX_S)
            self.at = time.monotonic() + self.delay
            self.repaint()
            return
        self.pending = None
        self.delay, self.at = RETRY_FIRST_S, 0.0
        self.screen.notify("Saved.", title="Saved")
        self.repaint()

    def drop(self) -> None:
        """Forget the unsaved answers (the app wrote them to the unsaved-labels log)."""
        self.pending = None

    def lost(self) -> list[LostLabel]:
        """The unsaved answers as the unsaved-labels log names them."""
        pending = self.pending
        return [] if pending is None else [pending.describe(pending.reason, pending.entered_at)]
