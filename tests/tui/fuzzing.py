"""The key fuzz test's table: the cases (which screen, how to reach it), the key pools drawn
from and how many keys each case gets (tests/tui/test_fuzz_keys.py runs them with the driver in
fuzz_drive.py)."""

from __future__ import annotations

import importlib
import os
import pkgutil
import string
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from textual.binding import Binding
from textual.pilot import Pilot
from textual.screen import Screen

import w2c_tui.tui.screens as screens
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.dialogs import AnnotatorDialog
from w2c_tui.tui.screens.review import ReviewScreen

SIZES = [(80, 24), (100, 30), (160, 45)]
FULL = 2000
"""Keys on the agreement dashboard at 100×30, where the issue found its crash."""
KEYS = 45
"""Keys per screen and size elsewhere, so that the file stays within a few minutes of one core
(about 28 ms of CPU a key on average, 60 on the dashboard, 1 s to start each case's app; 100,
then 60, until the suite neared CI's 25 minutes with 33 cases);
`W2C_FUZZ_KEYS=2000` runs the issue's full 2,000 everywhere (about 25 minutes of one core)."""
FULL_AT = (100, 30)
BOOTSTRAP = 50
SEED = int(os.environ.get("W2C_FUZZ_SEED", "17"))
NEVER = {"q", "ctrl+c", "ctrl+q", "ctrl+p", "ctrl+z"}
NAVIGATION = [
    "up",
    "down",
    "left",
    "right",
    "pageup",
    "pagedown",
    "home",
    "end",
    "tab",
    "shift+tab",
    "enter",
    "space",
    "backspace",
    "delete",
]
EDITING = ["ctrl+a", "ctrl+e", "ctrl+k", "ctrl+u", "ctrl+w", "shift+left", "shift+right"]
PRINTABLE = [c for c in string.ascii_letters + string.digits + "-_.,:;/?[]()'\"!@#=+<>" if c != "q"]

Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]
Opener = Callable[[W2CApp, Pilot[None]], Awaitable[None]]


def keys(*pressed: str) -> Opener:
    """An opener that presses `pressed` on the review screen."""

    async def press(app: W2CApp, pilot: Pilot[None]) -> None:
        await pilot.press(*pressed)

    return press


def critic(dataset: str, *pressed: str) -> Opener:
    """An opener that opens the CriticTool screen on `dataset`, then presses `pressed`."""

    async def open_it(app: W2CApp, pilot: Pilot[None]) -> None:
        app.open_critictool(dataset)
        await pilot.pause()
        await pilot.press(*pressed)

    return open_it


async def annotator_prompt(app: W2CApp, pilot: Pilot[None]) -> None:
    await app.push_screen(AnnotatorDialog(remembered=False))


@dataclass(frozen=True)
class Case:
    """One screen or dialog: how to reach it from the review screen, and how to know it."""

    name: str
    screen: str
    """The class name of the screen or dialog (on top, or under a dialog it opened)."""
    opener: Opener
    review: dict[str, Any] = field(default_factory=dict)
    """The review state to open it from: `mode` (qa), `blind` (in that mode), `seeing`
    (blind off in both modes: the screens that show other raters are closed while blind)."""
    full: bool = False


SEEING = {"seeing": True}
CASES = [
    Case("review", "ReviewScreen", keys(), {"blind": False}),
    Case("review-blind", "ReviewScreen", keys(), {"blind": True}),
    Case("review-qa", "ReviewScreen", keys(), {"mode": "qa", "blind": False}),
    Case("review-qa-blind", "ReviewScreen", keys(), {"mode": "qa", "blind": True}),
    Case("disagreement-queue", "ReviewScreen", keys("r")),
    Case("guidelines", "ReviewScreen", keys("G")),
    Case("datasets", "DatasetsScreen", keys("d")),
    Case("schema-pick", "SchemaPickDialog", keys("d", "s")),
    Case("schema-label", "SchemaLabelScreen", keys("d", "s", "end", "enter")),
    Case("runs", "RunsScreen", keys("R")),
    Case("run-form", "RunForm", keys("R", "n")),
    Case("run-log", "LogDialog", keys("R", "l")),
    Case("run-metrics", "RunMetricsDialog", keys("R", "m")),
    Case("agreement", "AgreementScreen", keys("a"), SEEING, full=True),
    Case("agreement-keys", "KeysDialog", keys("a", "question_mark"), SEEING),
    Case("team", "TeamScreen", keys("T")),
    Case("adjudication", "AdjudicationScreen", keys("A"), SEEING),
    Case("adjudication-note", "NoteDialog", keys("A", "e"), SEEING),
    Case("help", "HelpScreen", keys("question_mark")),
    Case("filter", "FilterDialog", keys("f")),
    Case("search", "FilterDialog", keys("slash")),
    Case("goto", "JumpDialog", keys("g")),
    Case("checklist", "ChecklistDialog", keys("c")),
    Case("note", "NoteDialog", keys("e")),
    Case("spot-check", "SpotCheckDialog", keys("S"), SEEING),
    Case("whole-text", "FullTextDialog", keys("v")),
    Case("switch-annotator", "AnnotatorSwitchDialog", keys("U")),
    Case("annotator-prompt", "AnnotatorDialog", annotator_prompt),
    Case("critictool", "CriticToolReviewScreen", critic("ct-internal")),
    Case("critictool-external", "CriticToolReviewScreen", critic("ct-external")),
    Case("critictool-agreement", "CriticToolAgreementDialog", critic("ct-internal", "b", "a")),
    Case("critictool-note", "NoteDialog", critic("ct-internal", "e")),
    Case("critictool-help", "KeysDialog", critic("ct-internal", "question_mark")),
]


def own_keys(screen: type[Screen[Any]]) -> list[str]:
    """Every key a screen binds (its class and its bases), but the ones never pressed."""
    found: list[str] = []
    for cls in screen.__mro__:
        for binding in getattr(cls, "BINDINGS", []) if "BINDINGS" in vars(cls) else []:
            key = binding.key if isinstance(binding, Binding) else binding[0]
            found += [k.strip() for k in key.split(",") if k.strip() not in NEVER]
    return found


def pool(screen: type[Screen[Any]]) -> list[str]:
    """The keys drawn from: the screen's own four times, navigation twice, then the rest."""
    own = [k for k in own_keys(screen) if k != "escape"]
    return own * 4 + NAVIGATION * 2 + EDITING + PRINTABLE + ["escape"]


def screen_class(name: str) -> type[Screen[Any]]:
    """The screen or dialog class called `name`, from the app's screen modules."""
    for module in pkgutil.iter_modules(screens.__path__):
        found = getattr(importlib.import_module(f"{screens.__name__}.{module.name}"), name, None)
        if isinstance(found, type) and issubclass(found, Screen):
            return found
    raise LookupError(name)


def key_count(case: Case, size: tuple[int, int]) -> int:
    """How many keys this case presses at this size."""
    if "W2C_FUZZ_KEYS" in os.environ:
        return int(os.environ["W2C_FUZZ_KEYS"])
    return FULL if case.full and size == FULL_AT else KEYS


def case_seed(case: Case, size: tuple[int, int]) -> int:
    """The seed of one case: the base seed and the case's name and size."""
    return SEED ^ zlib.crc32(f"{case.name}@{size[0]}x{size[1]}".encode())
