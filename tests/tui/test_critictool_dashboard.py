"""The dashboard's metrics tab on a CriticTool dataset: the official metrics per setting."""

from __future__ import annotations

import io
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Static, TabbedContent

from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.agreement import AgreementScreen
from w2c_tui.tui.screens.review import ReviewScreen

Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]
PRED = Path(__file__).parents[1] / "io" / "fixtures" / "critictool" / "predictions"


@pytest.fixture
def similarity_dir(monkeypatch: pytest.MonkeyPatch) -> Path:
    sys.path.insert(0, str(Path(__file__).parents[1] / "runs"))
    from tiny_similarity import tiny_similarity_dir

    folder = tiny_similarity_dir()
    monkeypatch.setenv("W2C_SIMILARITY_MODEL", str(folder))
    return folder


async def test_metrics_tab_shows_critictool_metrics(
    services: Services, wait_review: Review, similarity_dir: Path
) -> None:
    services.critictool.import_file(
        PRED / "interal_evol_data_w_cot.json", dataset="ct", target_model="m"
    )
    services.critictool.import_file(
        PRED / "external_skip_evol_data_w_cot.json", dataset="ct", target_model="m"
    )
    services.imports.import_demo()  # the review screen opens on the demo
    app = W2CApp(services, annotator="alice")
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_review(app, pilot)
        await app.push_screen(AgreementScreen(services, "ct", bootstrap=10))
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AgreementScreen) and screen.document is not None
        entry = screen.document.critictool
        assert entry is not None and entry.metrics is not None
        await pilot.press("5")
        assert screen.query_one(TabbedContent).active == "tab-metrics"
        console = Console(width=160, record=True, file=io.StringIO())
        console.print(screen.query_one("#panel-metrics", Static).content)
        shown = console.export_text()
        assert "m · internal · CoT" in shown and "m · external skip · CoT" in shown
        assert "overall score m (CoT, skip)" in shown
        assert "labels · detect" in shown and "labels · category" in shown  # label agreement
