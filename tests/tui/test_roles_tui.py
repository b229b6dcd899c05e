"""Roles in the TUI: once a database has a lead, `U` (label as someone else) and `A`
(adjudicate) are a lead's; a `w2c serve` session (invited) is never solo."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from w2c_tui.domain.labels import Label
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.domain.roles import Role
from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.adjudication import AdjudicationScreen
from w2c_tui.tui.screens.dialogs import AnnotatorSwitchDialog
from w2c_tui.tui.screens.review import ReviewScreen

SIZE = (160, 45)
Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


def notices(app: W2CApp) -> str:
    return " ".join(str(n.message) for n in app._notifications)


def disputed(demo: Services) -> None:
    """One response the humans disagree on (an adjudication case)."""
    row = demo.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 1)[0]
    response = demo.review.detail(row.id, None).responses[0]
    assert response.id is not None
    for name, label in (("ann", Label.TOOL_CALL), ("ben", Label.DIRECT)):
        demo.review.label_response(name, row.id, response.id, label)


async def test_u_and_a_are_a_leads_once_there_is_one(demo: Services, wait_review: Review) -> None:
    disputed(demo)
    demo.roles.add(None, "alice", Role.LEAD)
    demo.roles.add("alice", "bob", Role.ANNOTATOR)
    app = W2CApp(demo, annotator="bob")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        await pilot.press("U")
        await pilot.pause()
        assert app.screen is screen and screen.state.annotator == "bob"
        assert "only a lead may label as someone else" in notices(app)
        assert "alice" in notices(app)
        await pilot.press("b", "A")
        await pilot.pause()
        assert app.screen is screen and "only a lead may adjudicate" in notices(app)
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        await pilot.press("U")
        assert isinstance(app.screen, AnnotatorSwitchDialog)
        await pilot.press(*"carol", "enter")
        await pilot.pause()
        assert screen.state.annotator == "carol"
        await pilot.press("b", "A")  # alice, labelling as carol, adjudicates as alice
        adjudication = app.screen
        assert isinstance(adjudication, AdjudicationScreen)
        assert adjudication.adjudicator == "alice" and len(adjudication.cases) == 1
        # the role taken away while the screen is open: the decision is refused
        demo.roles.add("alice", "dora", Role.LEAD)
        demo.roles.remove("dora", "alice")
        await pilot.press("1")
        await pilot.pause()
        assert adjudication.cases[0].decision is None
        assert "only a lead may adjudicate" in notices(app)


async def test_a_served_session_is_never_solo(demo: Services, wait_review: Review) -> None:
    app = W2CApp(demo, annotator="bob", invited=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        await pilot.press("U")
        await pilot.pause()
        assert app.screen is screen and "no lead yet" in notices(app)
    demo.roles.add(None, "alice", Role.LEAD)
    app = W2CApp(demo, annotator="alice", invited=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_review(app, pilot)
        await pilot.press("U")
        assert isinstance(app.screen, AnnotatorSwitchDialog)


async def test_team_progress_shows_roles(demo: Services, wait_review: Review) -> None:
    from textual.widgets import DataTable, Static

    from w2c_tui.tui.screens.team import TeamScreen

    disputed(demo)
    demo.roles.add(None, "ann", Role.LEAD)
    app = W2CApp(demo, annotator="ann")
    async with app.run_test(size=SIZE) as pilot:
        await wait_review(app, pilot)
        await pilot.press("T")
        assert isinstance(app.screen, TeamScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        rows = {str(table.get_row_at(i)[0]): table.get_row_at(i)[1] for i in range(table.row_count)}
        assert rows == {"ann": "lead", "ben": "—"}
        assert "leads: ann" in str(app.screen.query_one("#team-head", Static).render())


async def test_a_served_annotator_cannot_start_runs(demo: Services, wait_review: Review) -> None:
    """A run uses the server's keys and hardware: in a served session `n` in the runs panel is
    a lead's; a terminal session is not gated."""
    from w2c_tui.tui.screens.run_form import RunForm
    from w2c_tui.tui.screens.runs import RunsScreen

    demo.roles.add(None, "alice", Role.LEAD)
    for name, invited, opens in (("bob", True, False), ("alice", True, True), ("bob", False, True)):
        app = W2CApp(demo, annotator=name, invited=invited)
        async with app.run_test(size=SIZE) as pilot:
            await wait_review(app, pilot)
            await pilot.press("R")
            assert isinstance(app.screen, RunsScreen)
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, RunForm) is opens, (name, invited)
            if not opens:
                assert "only a lead may start, resume or cancel" in notices(app)
