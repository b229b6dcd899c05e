"""A blind label is blind: after the first response's label, nothing on screen gives away the
gold label, the other response's model, or any rater's verdict of the unlabelled response."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from team_data import MODELS, load_secret
from test_blind_side_doors import screen_text

from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.review import ReviewScreen

SIZE = (160, 45)
Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


async def test_first_label_reveals_only_its_own_response(
    services: Services, wait_review: Review
) -> None:
    load_secret(services)
    app = W2CApp(services, annotator="alice", dataset="secret")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        state = screen.state
        assert state.is_blind
        first = state.card
        assert first is not None and first.response is not None
        before = screen_text(app)
        for secret in (*MODELS, "JUDGE-RAW", "◀ gold", "request_for_info", "log-prob MCQ"):
            assert secret not in before, secret
        await pilot.press("2")  # label the first response: tool call
        await pilot.pause()
        # still on the same item, now on the other response
        assert state.detail is not None and state.detail.item.id == first.response.item_id
        second = state.card
        assert second is not None and second.response is not None
        assert second.response.id != first.response.id
        other_model = second.target_model
        text = screen_text(app)
        assert first.target_model in text  # its own reveal, shown inside its card
        assert other_model not in text
        assert f"JUDGE-RAW-{other_model}" not in text  # the other response's judge verdict
        assert "◀ gold" not in text and "gold request_for_info" not in text
        assert "log-prob MCQ" not in text  # item-level scores wait for the whole item
        assert state.gold_hidden
        assert not any("gold" in n.message for n in app._notifications)
        # the second label completes the item: now gold and scores may be shown
        await pilot.press("3")
        await pilot.pause()
        assert state.previous is not None and "gold request_for_info" in state.previous


async def test_order_is_shuffled_per_annotator_when_blind(
    demo: Services, wait_review: Review
) -> None:
    orders = {}
    for name in ("alice", "bob"):
        app = W2CApp(demo, annotator=name)
        async with app.run_test(size=SIZE) as pilot:
            screen = await wait_review(app, pilot)
            rows = [screen.state.rows.row(i) for i in range(screen.state.rows.count)]
            orders[name] = [r.position for r in rows if r is not None]
    assert sorted(orders["alice"]) == list(range(30))
    assert orders["alice"] != list(range(30))
    assert orders["alice"] != orders["bob"]
