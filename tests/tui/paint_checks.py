"""Helpers for the paint tests (test_panes.py, test_items_list_paint.py): the review screen
opened on a services' data, and a count of the calls an object's method gets."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from textual.pilot import Pilot

from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.review import ReviewScreen

SIZE = (160, 45)
Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


@contextmanager
def calls(owner: object, name: str) -> Iterator[list[int]]:
    """Count the calls `owner.name` gets while the block runs (`count[0]`; it may be reset)."""
    count = [0]
    real = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return real(*args, **kwargs)

    setattr(owner, name, counted)
    try:
        yield count
    finally:
        setattr(owner, name, real)


@asynccontextmanager
async def opened(
    services: Services, wait_review: Review, size: tuple[int, int] = SIZE
) -> AsyncIterator[tuple[Pilot[None], ReviewScreen]]:
    """The app on alice's review screen, showing an item."""
    app = W2CApp(services, annotator="alice", remember_annotator=False)
    async with app.run_test(size=size) as pilot:
        screen = await wait_review(app, pilot)
        await pilot.pause()
        yield pilot, screen
