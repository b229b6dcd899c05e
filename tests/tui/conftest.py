"""Helpers for driving the app with Textual's Pilot."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.review import ReviewScreen


async def review(app: W2CApp, pilot: object) -> ReviewScreen:
    """Wait until the review screen is up and return it."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    await app.workers.wait_for_complete()
    for _ in range(50):
        await pilot.pause()
        if isinstance(app.screen, ReviewScreen) and app.screen.state.detail is not None:
            return app.screen
    raise AssertionError(f"review screen did not open; screen is {app.screen!r}")


@pytest.fixture
def wait_review() -> Callable[[W2CApp, object], Awaitable[ReviewScreen]]:
    """`await wait_review(app, pilot)` → the review screen once it shows an item."""
    return review
