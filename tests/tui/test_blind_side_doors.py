"""Side doors stay shut while blind: filters, the disagreement queue, the dashboard, adjudication
and the spot check say nothing of gold or of other raters about units I have not labelled.

On the demo, bob labels every response and flags every item; alice has finished three items.
Each door is opened as alice, blind, and every widget on screen is rendered: only her finished
items appear in a list that gold or other raters decide, and the screens that show every
unit's readings stay closed, saying why, until her queue is done.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from rich.console import Console
from rich.text import Text
from textual.content import Content
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Select, Static

from w2c_tui.domain.labels import LABELS, Label
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.domain.team import AssignUnits, Seen, Selection
from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.agreement import AgreementScreen
from w2c_tui.tui.screens.filter_dialog import FilterDialog
from w2c_tui.tui.screens.review import ReviewScreen
from w2c_tui.tui.widgets.items_list import ItemsList
from w2c_tui.tui.widgets.lines_pane import LinesPane

SIZE = (160, 45)
Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


def screen_text(app: W2CApp) -> str:
    """Every visible widget as drawn (its lines on screen, borders and titles included), the
    whole content of every Static and every pane of lines (scrolled out of view too), and
    every notification."""
    console = Console(width=200, record=True, color_system=None)
    parts: list[str] = []
    for widget in app.screen.query(Widget):
        if not widget.display or not widget.size.area:
            continue
        region = Region(0, 0, widget.size.width, widget.size.height)
        parts.extend(strip.text for strip in widget.render_lines(region))
        if isinstance(widget, LinesPane):
            parts.append(widget.text())
            for source in widget.sources():
                with console.capture() as capture:
                    console.print(source)
                parts.append(capture.get())
        if isinstance(widget, Static):
            content = widget.content
            if isinstance(content, str | Content | Text):
                parts.append(str(content) if isinstance(content, str) else content.plain)
            else:
                with console.capture() as capture:
                    console.print(content)
                parts.append(capture.get())
    parts.extend(f"{n.title} {n.message}" for n in app._notifications)
    return "\n".join(parts)


def list_questions(app: W2CApp) -> list[str]:
    """The question previews the items list draws now."""
    items = app.screen.query_one(ItemsList)
    out = []
    for y in range(items.size.height):
        row = items.row(items.scroll_offset.y + y)
        if row is not None:
            out.append(" ".join(row.question.split())[:20])
    return out


def setup(demo: Services) -> tuple[set[int], dict[int, str]]:
    """bob labels every response (direct), flags every item; alice finishes three items
    (tool call); returns alice's finished item ids and every item's question start."""
    rows = demo.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 30)
    finished = set()
    for n, row in enumerate(rows):
        detail = demo.review.detail(row.id, None)
        demo.review.set_flag("bob", row.id, "qca_vague", True)
        for response in detail.responses:
            assert response.id is not None
            demo.review.label_response("bob", row.id, response.id, Label.DIRECT)
            if n % 10 == 3:
                demo.review.label_response("alice", row.id, response.id, Label.TOOL_CALL)
        if n % 10 == 3:
            finished.add(row.id)
    questions = {row.id: " ".join(row.question.split())[:20] for row in rows}
    return finished, questions


def only_finished(app: W2CApp, finished: set[int], questions: dict[int, str]) -> None:
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    state = screen.state
    shown = {state.rows.row(i).id for i in range(state.rows.count)}  # type: ignore[union-attr]
    assert shown <= finished, state.filter.describe()
    unfinished = {questions[i] for i in questions if i not in finished}
    drawn = set(list_questions(app))
    assert not drawn & unfinished
    text = screen_text(app)
    assert "only items you finished" in text  # the header says why the list is short


async def test_filters_and_the_disagreement_queue_keep_to_finished_items(
    demo: Services, wait_review: Review
) -> None:
    finished, questions = setup(demo)
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        state = screen.state
        assert state.is_blind
        await pilot.press("f")  # the dialog says what blind does to its filters
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, FilterDialog)
        assert "keep only items you finished" in screen_text(app)
        dialog.query_one("#gold", Select).value = Label.DIRECT.value
        await pilot.click("#apply")
        await pilot.pause()
        assert app.screen is screen and state.filter.gold is Label.DIRECT
        for label in LABELS:
            screen.act(state.set_filter(ItemFilter(gold=label)))
            await pilot.pause()
            only_finished(app, finished, questions)
        for flt in (ItemFilter(disagree=True), ItemFilter(flag="qca_vague"), ItemFilter()):
            screen.act(state.set_filter(flt))
            if flt == ItemFilter():
                assert state.rows.count == 30  # no filter that reads others: every item
                continue
            await pilot.pause()
            assert state.rows.count > 0  # bob's readings do keep some finished items
            only_finished(app, finished, questions)
        await pilot.press("r")  # the disagreement queue
        await pilot.pause()
        assert state.filter.ranked and 0 < state.rows.count <= len(finished)
        only_finished(app, finished, questions)
        assert any("only items you have finished" in n.message for n in app._notifications)
        await pilot.press("r", "b")  # blind off: the whole dataset again
        await pilot.pause()
        screen.act(state.set_filter(ItemFilter(gold=Label.TOOL_CALL)))
        assert state.rows.count > len(finished) or state.rows.count > 0


async def test_dashboard_adjudication_and_spot_check_wait_for_the_queue(
    demo: Services, wait_review: Review
) -> None:
    setup(demo)
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        assert screen.state.is_blind and screen.state.gold_hidden
        for key in ("a", "A", "S"):
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.screen is screen, key
            text = screen_text(app)
            assert "Closed while blind" in text, key
            assert "bob" not in text and "◀ gold" not in text  # no other rater, no gold
        assert any("b" in n.message and "blind" in n.message for n in app._notifications)


async def test_the_dashboard_opens_once_the_queue_is_done(
    demo: Services, wait_review: Review
) -> None:
    setup(demo)
    demo.assignments.assign(
        "demo",
        ["alice", "bob"],
        overlap=2,
        seed=1,
        selection=Selection(units=AssignUnits.RESPONSES, sample=4),
    )
    queue = demo.assignments.show("demo", "alice")
    for unit in queue[:-1]:
        assert unit.response_id is not None
        demo.review.label_response("alice", unit.item_id, unit.response_id, Label.CANNOT_ANSWER)
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        assert screen.state.filter.queue and screen.state.is_blind
        await pilot.press("a")
        await pilot.pause()
        assert app.screen is screen
        assert "(3/4)" in screen_text(app)  # how far the queue is
        last = queue[-1]
        assert last.response_id is not None
        demo.review.label_response("alice", last.item_id, last.response_id, Label.DIRECT)
        await pilot.press("a")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, AgreementScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("Q", "space")  # out of the queue, to a unit nobody gave alice
        await pilot.pause()
        state = screen.state
        assert state.is_blind and state.card is not None and state.card.response is not None
        response = state.card.response.id
        await pilot.press("4")  # after the dashboard: not a blind label
        await pilot.pause()
    events = [e for e in demo.store.team.history("demo") if e.annotator == "alice"]
    assert [e.seen for e in events if e.response_id == response] == [Seen.GOLD]


async def test_blind_on_after_gold_was_on_screen_records_seen(
    demo: Services, wait_review: Review
) -> None:
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        state = screen.state
        assert state.is_blind
        await pilot.press("2")  # a blind label, nothing revealed
        await pilot.pause()
        await pilot.press("b")  # blind off: gold and the gold column on screen
        await pilot.pause()
        exposed_item = state.detail.item.id if state.detail else None
        await pilot.press("b")  # blind on again, straight away
        await pilot.pause()
        assert state.is_blind and state.detail is not None
        assert state.detail.item.id == exposed_item
        await pilot.press("2")  # its gold was on screen a moment ago
        await pilot.pause()
        await pilot.press("u", "u")  # undo both: the undo labels record what was seen too
        await pilot.pause()
    events = demo.store.team.history("demo")
    mine = [e for e in events if e.annotator == "alice"]
    assert [e.seen for e in mine[:2]] == [Seen.BLIND, Seen.GOLD]
    assert all(e.seen is not None for e in mine)
    later = [e for e in mine[1:] if e.item_id == exposed_item]  # after its gold was shown
    assert later and all(e.seen is not Seen.BLIND for e in later)
