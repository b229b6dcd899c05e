"""Spot check from the review screen: a tiny local model answers the current item now, a local
judge reads the answer, the log-prob MCQ scores the item, all beside the annotator's label."""

from __future__ import annotations

import io
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from rich.console import Console

pytest.importorskip("torch")
pytest.importorskip("transformers")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runs"))
from textual.widgets import Button, Input, Select, Static
from tiny_models import tiny_model_dir

from w2c_tui.domain.labels import LABELS
from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.review import ReviewScreen
from w2c_tui.tui.screens.spot_check import SpotCheckDialog

Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


async def test_spot_check_shows_answer_judge_and_mcq_beside_my_label(
    demo: Services, wait_review: Review
) -> None:
    model = str(tiny_model_dir("qwen2"))
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await wait_review(app, pilot)
        assert screen.state.detail is not None
        await pilot.press("S")  # blind, nothing labelled: a judge's reading would be a cue
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("b", "S")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, SpotCheckDialog)
        dialog.query_one("#model", Input).value = model
        dialog.query_one("#judge-backend", Select).value = "transformers"
        dialog.query_one("#judge", Input).value = model
        dialog.query_one("#ask", Button).press()
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        console = Console(width=150, record=True, file=io.StringIO())
        console.print(dialog.query_one("#spot-result", Static).content)
        shown = console.export_text()
        assert "answered:" in shown and "you:" in shown
        labels = {label.value for label in LABELS}
        judge_part = shown.split("judge: ")[1].split()[0]
        mcq_part = shown.split("log-prob MCQ: ")[1].split()[0]
        assert judge_part in labels  # constrained local judge: always one of the four
        assert mcq_part in labels
        assert dialog.session.loads == 1  # answer, judge and MCQ share one loaded model
        dialog.query_one("#ask", Button).press()  # a second look: nothing loads again
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert dialog.session.loads == 1
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
