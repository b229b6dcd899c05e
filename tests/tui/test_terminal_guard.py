"""No byte of stored text reaches the terminal as a control sequence: names with ESC, BEL, C1
and bidi characters (from a database older than the name check) are shown escaped on every
screen, and whatever is missed is dropped by the app's line filter."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from rich.segment import Segment
from sqlalchemy import text
from textual._compositor import CompositorUpdate
from textual.color import Color
from textual.widgets import Input

from w2c_tui.db.engine import make_engine
from w2c_tui.domain.labels import Label
from w2c_tui.domain.team import Selection
from w2c_tui.services import Services, open_services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.dialogs import AnnotatorDialog, AnnotatorSwitchDialog
from w2c_tui.tui.screens.review import ReviewScreen
from w2c_tui.tui.screens.team import TeamScreen
from w2c_tui.tui.terminal_guard import CONTROL_FILTER

Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]
SIZE = (160, 45)
OWN_SEQUENCES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
"""What Textual itself writes: SGR colours, cursor moves."""
TITLE = "\x1b]0;pwned\x07"


def _legacy(services: Services) -> str:
    """Give ann and a model names with control characters, as an old database could hold."""
    services.assignments.assign(
        "demo", ["ann", "ben"], overlap=2, seed=0, selection=Selection(sample=4)
    )
    for unit in services.assignments.show("demo", "ben"):
        assert unit.response_id is not None
        services.review.label_response("ben", unit.item_id, unit.response_id, Label.DIRECT)
    url = services.url
    services.close()
    engine = make_engine(url)
    nul = "\x00" if url.startswith("sqlite") else ""
    with engine.begin() as db:
        db.execute(
            text("UPDATE rater SET name = :n WHERE name = 'ben'"), {"n": TITLE + "ben" + nul}
        )
        db.execute(
            text("UPDATE target_model SET name = :n WHERE id = (SELECT MIN(id) FROM target_model)"),
            {"n": "model\x9b2J\u202e"},
        )
    engine.dispose()
    return url


def _terminal_text(app: W2CApp) -> str:
    """What the terminal would be sent for the whole screen, Textual's own sequences removed."""
    update = app.screen._compositor.render_update(full=True)
    assert isinstance(update, CompositorUpdate)
    return OWN_SEQUENCES.sub("", update.render_segments(app.console))


def test_the_filter_drops_control_characters_and_keeps_widths() -> None:
    segments = [Segment("a\x1b]0;x\x07b"), Segment("\x1b"), Segment("ok é")]
    out = CONTROL_FILTER.apply(segments, Color(0, 0, 0))
    assert [s.text for s in out] == ["a]0;xb", "ok é"]
    clean = [Segment("plain")]
    assert CONTROL_FILTER.apply(clean, Color(0, 0, 0)) is clean


async def test_no_screen_sends_a_stored_control_character(
    demo: Services, wait_review: Review
) -> None:
    url = _legacy(demo)
    services = open_services(url)
    try:
        app = W2CApp(services, annotator="ann", dataset="demo")
        async with app.run_test(size=SIZE) as pilot:
            screen = await wait_review(app, pilot)
            await pilot.press("b")  # blind off: every name on screen
            for key in ("T", "d", "a", "A", "U"):
                await pilot.press(key)
                await app.workers.wait_for_complete()
                await pilot.pause()
                shown = _terminal_text(app)
                assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]", shown), key
                if isinstance(app.screen, TeamScreen):
                    assert "\\x1b]0;pwned\\x07ben" in shown
                await pilot.press("escape")
                await pilot.pause()
            assert app.screen is screen
    finally:
        services.close()


async def test_the_name_prompts_refuse_control_characters(
    demo: Services, wait_review: Review
) -> None:
    app = W2CApp(demo, annotator=None, dataset="demo", remember_annotator=False)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, AnnotatorDialog):
                break
        assert isinstance(app.screen, AnnotatorDialog)
        app.screen.query_one(Input).value = "ann\x1b]0;x\x07"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, AnnotatorDialog)  # refused, still asking
        assert any("holds control character(s)" in n.message for n in app._notifications)
        app.screen.query_one(Input).value = "  Jose\u0301  "
        await pilot.press("enter")
        screen = await wait_review(app, pilot)
        assert screen.state.annotator == "Jos\u00e9"  # trimmed, NFC
        await pilot.press("U")
        assert isinstance(app.screen, AnnotatorSwitchDialog)
        app.screen.query_one(Input).value = "x" * 201
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, AnnotatorSwitchDialog)
        assert any("more than 200" in n.message for n in app._notifications)
        await pilot.press("escape")
        await pilot.pause()
        assert screen.state.annotator == "Jos\u00e9"
        assert isinstance(app.screen, ReviewScreen)
