"""The CriticTool trajectory view from the datasets screen: blind hides the error type, where
the error is, the gold step and the model's output until `b`; `m` switches models."""

from __future__ import annotations

import io
import json
from collections.abc import Awaitable, Callable
from pathlib import Path

from rich.console import Console
from textual.widgets import OptionList, Static

from w2c_tui.io.options import ReadOptions
from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.critictool import CriticToolScreen
from w2c_tui.tui.screens.review import ReviewScreen

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool"
Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


def shown(screen: CriticToolScreen) -> str:
    console = Console(width=150, record=True, file=io.StringIO())
    console.print(screen.query_one("#critic-body", Static).content)
    return console.export_text()


async def test_trajectories_blind_then_revealed_with_two_models(
    demo: Services, wait_review: Review, tmp_path: Path
) -> None:
    imports = demo.imports
    imports.import_path(CT / "dataset" / "internal_error" / "base_data_wo_cot.json")
    alpha = CT / "predictions" / "interal_base_data_wo_cot.json"
    imports.import_path(alpha, options=ReadOptions(target_model="alpha"))
    records = json.loads(alpha.read_text(encoding="utf-8"))  # another model's output file
    for record in records.values():
        record["predictions"] = json.dumps({"name": "Clock.now", "args": {}})
    beta = tmp_path / "interal_base_data_wo_cot.json"
    beta.write_text(json.dumps(records), encoding="utf-8")
    imports.import_path(beta, options=ReadOptions(target_model="beta"))
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_review(app, pilot)
        await pilot.press("d")
        await pilot.pause()
        table = app.screen.query_one("DataTable")
        names = [str(key.value) for key in table.rows]  # type: ignore[attr-defined]
        table.move_cursor(row=names.index("critictool_internal_base_data_wo_cot"))  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CriticToolScreen)
        assert screen.query_one(OptionList).option_count == 21
        text = shown(screen)
        assert "error type: hidden" in text and "select1" in text
        assert "gold next step:" not in text and "parse:" not in text and "← the error" not in text
        await pilot.press("b")
        await pilot.pause()
        text = shown(screen)
        assert "tool_select_error" in text and "gold next step: WeatherAPI.get_weather" in text
        assert "← the error" in text and "alpha:" in text and "parse:" in text
        await pilot.press("m")
        await pilot.pause()
        assert "beta:" in shown(screen) and "Clock.now" in shown(screen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, CriticToolScreen)
