"""`o` on the review screen: most informative first, in `w2c next`'s order, and not while blind."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from w2c_tui.services import Services
from w2c_tui.services.next_units import NextOptions, plan
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.review import ReviewScreen

SIZE = (160, 45)
Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


async def test_o_lists_the_items_in_the_queue_order_and_back(
    demo: Services, wait_review: Review
) -> None:
    queue = plan(demo.store, "demo", NextOptions(k=60)).next
    uuids: list[str] = []
    for unit in queue:
        if unit.item_uuid not in uuids:
            uuids.append(unit.item_uuid)
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        state = screen.state
        assert state.is_blind
        await pilot.press("o")  # blind: refused, and says why
        await pilot.pause()
        assert not state.filter.informative
        assert any("turn blind mode off" in n.message for n in app._notifications)
        await pilot.press("b", "o")
        await pilot.pause()
        assert state.filter.informative and state.rows.count == 30
        listed = [state.rows.row(i).uuid for i in range(len(uuids))]
        assert listed == uuids
        assert state.detail is not None and state.detail.item.uuid == uuids[0]
        assert "most informative first" in state.filter.describe()
        await pilot.press("r")  # the disagreement queue replaces it
        await pilot.pause()
        assert state.filter.ranked and not state.filter.informative
        await pilot.press("r", "o", "o")  # and back to the list's own order
        await pilot.pause()
        assert not state.filter.informative and not state.filter.ranked
        assert state.rows.count == 30
