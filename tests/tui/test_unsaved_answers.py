"""No answer lost on the schema and CriticTool screens: answers the database refuses (another
connection holds its write lock) stay on screen marked NOT SAVED, reveal nothing, keep the
screen where it is, make q ask first, and save themselves once the lock is released."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from dbfixtures import write_lock_held
from rich.console import Console
from schema_data import BAR_TOML, write_schema
from test_critictool_screen import INTERNAL, critictool_screen
from test_critictool_screen import screen_text as critictool_text
from test_schema_label_screen import answers, schema_screen, screen_text

from w2c_tui.domain.critictool_labels import CriticToolLabel, ErrorCategory, unit_facts
from w2c_tui.domain.schema_builtins import CRITICTOOL
from w2c_tui.domain.schema_form import SchemaForm
from w2c_tui.services import Services
from w2c_tui.tui import unsaved_answers
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.unsaved import UnsavedQuitDialog
from w2c_tui.tui.widgets.critictool_form import critictool_form_view


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A key waits 0.3 s for the lock (2 s in use); retries after 0.2 s, at most 0.4 s."""
    monkeypatch.setattr(unsaved_answers, "KEY_WAIT_S", 0.3)
    monkeypatch.setattr(unsaved_answers, "RETRY_FIRST_S", 0.2)
    monkeypatch.setattr(unsaved_answers, "RETRY_MAX_S", 0.4)


async def until(pilot: Any, done: Callable[[], bool], timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not done():
        assert time.monotonic() < deadline, "the condition never came true"
        await pilot.pause(0.05)


async def test_schema_answers_the_database_refuses_stay_until_saved(
    demo: Services, tmp_path: Path
) -> None:
    demo.schemas.add(write_schema(tmp_path, BAR_TOML))
    app = W2CApp(demo, annotator="ann", dataset="demo", schema="bar")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await schema_screen(app, pilot)
        first = screen.units[0].unit
        with write_lock_held(demo.url):
            await pilot.press("1", "3", "2")  # a complete label, none of it taken
            await until(pilot, lambda: screen.keeper.unsaved and screen.form.complete)
            shown = screen_text(app)
            assert "NOT SAVED" in shown and "gold:" not in shown  # nothing revealed
            assert answers(demo, "bar", first) == {}
            await pilot.press("j")
            assert screen.index == 0  # the screen does not move on
            await pilot.press("escape")
            assert app.screen is screen
            await pilot.press("q")
            assert isinstance(app.screen, UnsavedQuitDialog)  # quitting asks first
            await pilot.press("n")
            assert app.screen is screen
        await until(pilot, lambda: not screen.keeper.unsaved)  # the retry saved it
        assert answers(demo, "bar", first) == {"ok": "yes", "tone": "rude", "quality": "2"}
        assert "NOT SAVED" not in screen_text(app) and "gold:" in screen_text(app)
        await pilot.press("j")
        assert screen.index == 1


async def test_critictool_answers_the_database_refuses_stay_until_saved(
    services: Services,
) -> None:
    services.critictool.import_file(INTERNAL, dataset="ct", target_model="tiny")
    app = W2CApp(services, annotator="ann", dataset="ct")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await critictool_screen(app, pilot)
        unit = screen.unit
        with write_lock_held(services.url):
            await pilot.press("2")  # no error: the blind part is complete, but not saved
            await until(pilot, lambda: screen.keeper.unsaved)
            assert screen.hidden and "NOT SAVED" in critictool_text(app)
            assert services.critictool_review.current(screen.rater_id, unit) is None
            await pilot.press("j")
            assert screen.unit == unit
            await pilot.press("1")  # the model's questions wait for the blind answers
            assert screen.label.critique_right is None
        await until(pilot, lambda: not screen.keeper.unsaved)
        assert services.critictool_review.current(screen.rater_id, unit) == CriticToolLabel(
            error=False, category=ErrorCategory.NONE
        )
        assert not screen.hidden


async def test_discarded_critictool_answers_are_named_in_the_log(
    services: Services, tmp_path: Path
) -> None:
    services.critictool.import_file(INTERNAL, dataset="ct", target_model="tiny")
    app = W2CApp(services, annotator="ann", dataset="ct")
    with ExitStack() as lock:
        async with app.run_test(size=(160, 45)) as pilot:
            screen = await critictool_screen(app, pilot)
            sample = screen.unit.sample.sample_id
            lock.enter_context(write_lock_held(services.url))
            await pilot.press("2")
            await until(pilot, lambda: screen.keeper.unsaved)
            await pilot.press("q", "d")  # discard and quit
            await until(pilot, lambda: app.return_code is not None)
    assert app.lost_log.count == 1 and not app.lost_log.unasked
    [log] = (tmp_path / "annotations" / "logs").glob("unsaved-labels-*.log")
    [line] = [line for line in log.read_text("utf-8").splitlines() if not line.startswith("#")]
    for part in ("annotator: ann", "dataset: ct", f"uuid: {sample}", "unit: critictool: response"):
        assert part in line, line
    assert '"error": "no"' in line and "busy" in line
    assert services.critictool_review.current(screen.rater_id, screen.unit) is None


def test_a_complete_critictool_label_not_saved_never_says_saved() -> None:
    form = SchemaForm(CRITICTOOL, facts=unit_facts("internal", has_model=False))
    form.skipped.add("note")
    form.press("2")  # no error: category none, the label is complete
    assert form.complete
    console = Console(width=80, record=True, color_system=None)
    console.print(critictool_form_view(form, hidden=False, unsaved=True))
    shown = console.export_text()
    assert "NOT SAVED" in shown and "saved." not in shown
    console.print(critictool_form_view(form, hidden=False, unsaved=False))
    assert "Label complete and saved." in console.export_text()
