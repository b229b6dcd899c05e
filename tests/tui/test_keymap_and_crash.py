"""`[keys]` remaps that name no binding or take a key in use are reported at start (and left
out); a crash inside the TUI leaves one line naming the crash log, not a traceback."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from w2c_tui.config import Settings
from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.keymap import check_keymap
from w2c_tui.tui.screens.review import ReviewScreen

Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


def test_check_keymap() -> None:
    keys = {"undo": "z", "skip": "j", "no-such-binding": "x", "help": "", "runs-log": "L"}
    valid, problems = check_keymap(keys)
    assert valid == {"undo": "z", "runs-log": "L"}
    text = "\n".join(problems)
    assert "'no-such-binding' names no binding" in text
    assert "'skip' = 'j': key 'j' is already used by 'next-item' on the review screen" in text
    assert "'help' gives no key" in text
    # moving a key away frees it for another binding
    valid, problems = check_keymap({"next-item": "n,down", "skip": "j"})
    assert problems == [] and valid == {"next-item": "n,down", "skip": "j"}


async def test_problems_are_shown_at_start(demo: Services, wait_review: Review) -> None:
    settings = Settings(annotator="alice", keys={"undo": "z", "skip": "j", "bogus": "x"})
    app = W2CApp(demo, annotator="alice", settings=settings, remember_annotator=False)
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_review(app, pilot)
        shown = [n.message for n in app._notifications]
        assert any("'bogus' names no binding" in m for m in shown)
        assert any("key 'j' is already used by 'next-item'" in m for m in shown)
        assert app.keymap == {"undo": "z"}


async def test_a_crash_leaves_one_line_and_a_log(
    demo: Services, wait_review: Review, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    app = W2CApp(demo, annotator="alice", remember_annotator=False)
    with pytest.raises(ZeroDivisionError):
        async with app.run_test(size=(160, 45)) as pilot:
            await wait_review(app, pilot)
            app.call_later(lambda: 1 / 0)
            await pilot.pause()
    assert app.return_code == 1
    err = " ".join(capsys.readouterr().err.split())
    assert err.startswith("w2c stopped on an unexpected error: ZeroDivisionError")
    assert "Traceback" not in err and "details in" in err
    [log] = (tmp_path / "annotations" / "logs").glob("crash-*.log")
    assert "Traceback" in log.read_text("utf-8") and "ZeroDivisionError" in log.read_text("utf-8")
