"""Option lists and drop-downs survive page keys pressed before they are laid out (the fuzz
test's find in CI: KeyError in Textual's OptionList._move_page)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.widgets._select import SelectOverlay

import w2c_tui
from w2c_tui.tui.widgets.select import OptionList, RaterList, Select


class OneSelect(App[None]):
    def compose(self) -> ComposeResult:
        yield Select([(str(i), i) for i in range(40)], value=1)


@pytest.mark.parametrize("action", ["action_page_up", "action_page_down"])
async def test_a_page_key_before_the_first_layout_is_ignored_then_pages(action: str) -> None:
    app = OneSelect()
    async with app.run_test(size=(60, 20)) as pilot:
        select = app.query_one(Select)
        select.focus()
        overlay = select.query_one(SelectOverlay)
        select.expanded = True
        before = overlay.highlighted
        assert before is not None and before > 0
        getattr(overlay, action)()  # Textual's own overlay raises KeyError here
        assert overlay.highlighted == before
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        getattr(overlay, action)()
        after = overlay.highlighted
        assert after is not None
        assert after < before if action == "action_page_up" else after > before


class HiddenList(App[None]):
    CSS = "OptionList, RaterList { display: none; }"

    def compose(self) -> ComposeResult:
        yield OptionList(*[str(i) for i in range(30)])
        yield RaterList(*[(str(i), str(i)) for i in range(30)])


@pytest.mark.parametrize("kind", [OptionList, RaterList])
@pytest.mark.parametrize("action", ["action_page_up", "action_page_down"])
async def test_a_list_not_laid_out_ignores_page_keys(
    action: str, kind: type[OptionList] | type[RaterList]
) -> None:
    app = HiddenList()
    async with app.run_test(size=(60, 20)):
        options = app.query_one(kind)
        options.highlighted = 3
        getattr(options, action)()  # Textual's own list raises KeyError: 3 here
        assert options.highlighted == 3


def test_no_screen_uses_textuals_lists_directly() -> None:
    """Every drop-down and option list in the app is the guarded one."""
    package = Path(w2c_tui.__file__).parent / "tui"
    offenders = []
    for path in package.rglob("*.py"):
        if path.name == "select.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.ImportFrom)
                and (node.module or "").startswith("textual")
                and any(alias.name in {"Select", "OptionList"} for alias in node.names)
            ):
                offenders.append(str(path.relative_to(package)))
    assert offenders == []
