"""The judge lab (J on the agreement screen): two prompt versions side by side on dev, the
flips, the test result only after t twice (and counted), Enter opening a flipped unit."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from judge_lab_data import setup
from textual.widgets import DataTable, Static

from w2c_tui.services import Services, splits
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.agreement import AgreementScreen
from w2c_tui.tui.screens.judge_lab import JudgeLabScreen
from w2c_tui.tui.screens.review import ReviewScreen

Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


def text(screen: JudgeLabScreen) -> str:
    head = screen.query_one("#lab-head", Static).content
    return str(head)


async def test_the_lab_compares_on_dev_and_test_only_when_asked(
    demo: Services, wait_review: Review
) -> None:
    setup(demo)
    splits.draw(demo.store, "demo", test_share=0.3, seed=5)
    app = W2CApp(demo, annotator="carol")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await wait_review(app, pilot)
        await pilot.press("b", "a")
        await pilot.pause()
        assert isinstance(app.screen, AgreementScreen)
        await pilot.press("J")
        await pilot.pause()
        lab = app.screen
        assert isinstance(lab, JudgeLabScreen)
        assert "on dev (test used 0 times)" in text(lab)
        flips = lab.query_one(DataTable)
        assert flips.row_count == len(lab.units) > 0
        await pilot.press("t")  # armed only: nothing counted yet
        await pilot.pause()
        assert lab.part == "dev" and demo.store.splits.get("demo").test_uses == 0  # type: ignore[union-attr]
        await pilot.press("t")
        await pilot.pause()
        assert lab.part == "test" and "test used 1 times" in text(lab)
        first = lab.units[0]
        flips.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        assert screen.state.detail is not None
        assert screen.state.detail.item.uuid == first.split("@")[0]
