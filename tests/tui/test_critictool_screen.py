"""The CriticTool review screen, driven from the keyboard on both databases.

Blind means blind (no error type, gold or model before the blind answers are saved), every
answer is in the database before the screen moves on, undo is saved too, and the screen is
reachable from the datasets screen and readable at 100x30.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Static

from w2c_tui.domain.critictool_labels import CriticToolLabel, ErrorCategory, Policy
from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.critictool import CriticToolReviewScreen
from w2c_tui.tui.screens.datasets import DatasetsScreen

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool" / "predictions"
INTERNAL = CT / "interal_base_data_wo_cot.json"
EXTERNAL = CT / "external_skip_base_data_wo_cot.json"


def screen_text(app: W2CApp) -> str:
    """The content of every Static of the screen on top, and every notification."""
    console = Console(width=200, record=True, color_system=None)
    parts: list[str] = []
    for widget in app.screen.query(Static):
        with console.capture() as capture:
            console.print(widget.content)
        parts.append(capture.get())
    parts.extend(f"{n.title} {n.message}" for n in app._notifications)
    return "\n".join(parts)


def register(services: Services) -> None:
    services.critictool.import_file(INTERNAL, dataset="ct-internal", target_model="tiny")
    services.critictool.import_file(EXTERNAL, dataset="ct-external", target_model="tiny")


async def critictool_screen(app: W2CApp, pilot: Any) -> CriticToolReviewScreen:
    await app.workers.wait_for_complete()
    for _ in range(50):
        await pilot.pause()
        if isinstance(app.screen, CriticToolReviewScreen):
            return app.screen
    raise AssertionError(f"CriticTool screen did not open; screen is {app.screen!r}")


def saved(services: Services, screen: CriticToolReviewScreen) -> CriticToolLabel | None:
    return services.critictool_review.current(screen.rater_id, screen.unit)


async def test_blind_internal_labels_are_saved_before_moving_on(services: Services) -> None:
    register(services)
    app = W2CApp(services, annotator="ann", dataset="ct-internal")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await critictool_screen(app, pilot)
        sample, rounds = screen.unit.sample, screen.unit.rounds
        assert rounds and sample.error_type
        before = screen_text(app)
        for secret in ("parameter value", "Gold next step", "model reply", rounds[0], "tiny"):
            assert secret not in before, secret
        await pilot.press("1")  # error: yes — saved at once, still blind
        assert saved(services, screen) == CriticToolLabel(error=True)
        assert "Gold next step" not in screen_text(app)
        await pilot.press("4")  # parameter value: the blind part is done and saved
        assert saved(services, screen) == CriticToolLabel(
            error=True, category=ErrorCategory.PARAMETERS_VALUE
        )
        shown = screen_text(app)
        assert "Gold next step" in shown and "parse: as python" in shown
        await pilot.press("1", "1", "2")
        full = CriticToolLabel(
            error=True,
            category=ErrorCategory.PARAMETERS_VALUE,
            critique_right=True,
            tool_right=True,
            args_right=False,
        )
        assert saved(services, screen) == full
        await pilot.press("u")  # undo is saved too
        assert saved(services, screen) == CriticToolLabel(
            error=True,
            category=ErrorCategory.PARAMETERS_VALUE,
            critique_right=True,
            tool_right=True,
        )
        await pilot.press("u", "u", "u")  # back to the bare error answer: not blind again
        assert saved(services, screen) == CriticToolLabel(error=True)
        assert "Gold next step" in screen_text(app)
        await pilot.press("4", "1", "1", "2")
        await pilot.press("j")
        assert screen.index == 1
        assert "Gold next step" not in screen_text(app)  # the next trajectory is blind again
        await pilot.press("k")
        assert screen.label == full and "Gold next step" in screen_text(app)
    ratings = services.critictool_review.ratings("ct-internal")
    assert [(r.sample_id, r.rater.name, r.label) for r in ratings] == [
        (sample.sample_id, "ann", full)
    ]


async def test_external_policies_and_note(services: Services) -> None:
    register(services)
    app = W2CApp(services, annotator="ann", dataset="ct-external")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await critictool_screen(app, pilot)
        assert screen.unit.sample.source == "external"
        await pilot.press("1", "5", "2")  # yes, environment, expected: skip
        assert saved(services, screen) == CriticToolLabel(
            error=True, category=ErrorCategory.ENVIRONMENT, expected_policy=Policy.SKIP
        )
        assert "environment failure" in screen_text(app)
        await pilot.press("1", "1", "1", "1")  # …, observed: retry
        await pilot.press("e")
        await pilot.press(*"kept retrying", "enter")
        label = saved(services, screen)
        assert label is not None and label.observed_policy is Policy.RETRY
        assert label.note == "kept retrying"
        await pilot.press("question_mark")
        assert "answer the current question" in screen_text(app)
        await pilot.press("escape", "a")  # blind: no agreement
        assert "turn blind mode off" in screen_text(app)
        await pilot.press("b", "a")
        await pilot.pause()
        shown = screen_text(app)
        assert "CriticTool agreement — ct-external" in shown
        assert "Observed policy" in shown and "self-critique" in shown


async def test_reached_from_the_datasets_screen(services: Services) -> None:
    services.imports.import_demo()
    register(services)
    app = W2CApp(services, annotator="ann", dataset="demo")
    async with app.run_test(size=(160, 45)) as pilot:
        await app.workers.wait_for_complete()
        for _ in range(20):
            await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, DatasetsScreen)
        datasets = [d.name for d in services.datasets.all()]
        offset = datasets.index("ct-external") - datasets.index("demo")  # the cursor is on demo
        for _ in range(abs(offset)):
            await pilot.press("down" if offset > 0 else "up")
        await pilot.press("enter")
        screen = await critictool_screen(app, pilot)
        assert screen.opened.name == "ct-external"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, CriticToolReviewScreen)


@pytest.mark.parametrize("size", [(160, 45), (100, 30)])
async def test_readable_sizes(services: Services, size: tuple[int, int]) -> None:
    register(services)
    app = W2CApp(services, annotator="ann", dataset="ct-internal")
    async with app.run_test(size=size) as pilot:
        screen = await critictool_screen(app, pilot)
        await pilot.press("1", "4")
        form = screen.query_one("#critic-form")
        assert form.region.width >= 40 and form.region.right <= size[0]
        trajectory = screen.query_one("#critic-trajectory")
        assert trajectory.region.width >= size[0] - 50
        text = screen_text(app)
        assert "Is the model's critique right?" in text and "1  yes" in text
