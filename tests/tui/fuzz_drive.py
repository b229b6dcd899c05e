"""The key fuzz test's driver: it presses keys on one case as a terminal would send them, in
batches, reopens the case's screen when a key left it, and keeps the last keys for the failure
report."""

from __future__ import annotations

import os
import random
import unicodedata
from collections import deque
from dataclasses import dataclass, field

from fuzzing import Case
from textual import events
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot
from textual.worker import WorkerCancelled

from w2c_tui.domain.review import ReviewMode
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.review import ReviewScreen

BATCH = int(os.environ.get("W2C_FUZZ_BATCH", "10"))
"""Keys sent at once before waiting for the app to handle them."""
PAUSE_EVERY = 200
"""Keys between two `pilot.pause()` (a repaint forced, whatever the refresh timer says)."""


def key_event(app: W2CApp, key: str) -> events.Key:
    """The key event a terminal would send for `key` (as Pilot.press builds it)."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char: str | None = unicodedata.lookup(
            _get_unicode_name_from_key(REPLACED_KEYS.get(key, key))
        )
    except KeyError:
        char = key if len(key) == 1 else None
    event = events.Key(key, char)
    event.set_sender(app)
    return event


class Stopped(Exception):
    """The app stopped (an exception, or an exit) while keys were being pressed."""


@dataclass
class Drive:
    """Presses keys on one case and keeps what a failure report needs."""

    app: W2CApp
    pilot: Pilot[None]
    case: Case
    last: deque[str] = field(default_factory=lambda: deque(maxlen=30))
    pressed: int = 0
    on_target: int = 0
    reopened: int = 0

    def check(self) -> None:
        app = self.app
        if app._exception is not None:
            raise Stopped(f"exception: {app._exception!r}") from app._exception
        if app.return_code is not None or not app.is_running:
            raise Stopped(f"the app exited (return code {app.return_code})")

    async def press(self, *keys: str, note: str = "") -> None:
        """Send `keys` at once, as a fast typist or key repeat does, then let the app catch
        up: it handles them in order and repaints when its refresh timer says so, not after
        every key (that is what makes thousands of keys affordable)."""
        for key in keys:
            self.last.append(key + note)
            self.app.post_message(key_event(self.app, key))
        await self.settle()

    async def settle(self) -> None:
        """Wait until the app and the screen on top have handled what was sent (twice: a key
        the app forwards to a widget lands in that widget's queue after the first wait)."""
        for _ in range(2):
            await self.pilot._wait_for_screen()
        self.check()

    def here(self) -> bool:
        return any(type(s).__name__ == self.case.screen for s in self.app.screen_stack)

    async def to_review(self) -> ReviewScreen:
        for _ in range(10):
            if isinstance(self.app.screen, ReviewScreen):
                return self.app.screen
            await self.press("escape", note=" (reopening)")
        while len(self.app.screen_stack) > 2 and not isinstance(self.app.screen, ReviewScreen):
            self.app.pop_screen()
            await self.pilot.pause()
        assert isinstance(self.app.screen, ReviewScreen), self.app.screen
        return self.app.screen

    async def open(self) -> None:
        review = await self.to_review()
        state = review.state
        wanted = self.case.review
        if "mode" in wanted and (state.mode is ReviewMode.ITEM_QA) != (wanted["mode"] == "qa"):
            await self.press("m", note=" (reopening)")
        if wanted.get("seeing"):
            for _ in ReviewMode:
                if state.is_blind:
                    await self.press("b", note=" (reopening)")
                await self.press("m", note=" (reopening)")
        if "blind" in wanted and state.is_blind != wanted["blind"]:
            await self.press("b", note=" (reopening)")
        self.last.append(f"<open {self.case.name}>")
        await self.case.opener(self.app, self.pilot)
        await self.pilot.pause()
        self.check()

    async def run(self, count: int, rng: random.Random, keys: list[str]) -> None:
        await self.open()
        while self.pressed < count:
            if not self.here():
                self.reopened += 1
                await self.open()
            batch = [rng.choice(keys) for _ in range(min(BATCH, count - self.pressed))]
            self.on_target += len(batch) * self.here()
            await self.press(*batch)
            self.pressed += len(batch)
            if self.pressed % PAUSE_EVERY < BATCH:
                await self.pilot.pause()
                self.check()
        await self.workers_done()
        await self.pilot.pause()
        self.check()

    async def workers_done(self) -> None:
        """Wait for the app's workers. An exclusive worker cancelled by its successor (the
        dashboard recomputing on a later key) is the app working as designed, not a failure:
        its error state, if any, is what `check` reads."""
        for _ in range(20):
            try:
                await self.app.workers.wait_for_complete()
                return
            except WorkerCancelled:
                continue


async def burst(app: W2CApp, pilot: Pilot[None], *keys: str) -> None:
    """Send `keys` at once (typed faster than the app handles them), then wait for the app."""
    for key in keys:
        app.post_message(key_event(app, key))
    for _ in range(3):
        await pilot._wait_for_screen()
    await pilot.pause()
