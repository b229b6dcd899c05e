"""Random keys on every screen and dialog: nothing the keyboard does may stop the app.

Each case opens the app on one seeded database (the demo, three annotators' labels, an
assignment plan, guidelines, a finished run, two CriticTool datasets), goes to one screen or
dialog at one terminal size and presses a seeded stream of random keys: that screen's own keys
(often), navigation and editing keys, printable characters. Whenever the keys leave the screen
it is opened again, so most keys land on it. Any exception fails the case and names the seed
and the last 30 keys (workers run in threads, so a replay can interleave differently; the
keys are the same).

Never pressed: `q`, ctrl+c, ctrl+q (quit), ctrl+z (suspend), ctrl+p (the command palette, whose
first entry can quit). Runs and spot checks are stubbed to refuse (no worker process, no model
load), so the keys that start them run the screens' code up to the service, and the refusal
path after it.

`W2C_FUZZ_KEYS=N` presses N keys in every case; `W2C_FUZZ_SEED=S` changes the base seed.
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import string
import time
import unicodedata
import zlib
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from schema_data import write_schema
from stand_in_backend import Labeller
from textual import events
from textual.binding import Binding
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot
from textual.screen import Screen
from textual.worker import WorkerCancelled

from w2c_tui.domain.labels import Label
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.domain.roles import Role
from w2c_tui.domain.runs import Backend, Method, RunConfig
from w2c_tui.domain.team import Selection
from w2c_tui.runs import backends
from w2c_tui.services import Services, open_services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.agreement import AgreementScreen
from w2c_tui.tui.screens.review import ReviewScreen

pytestmark = pytest.mark.sqlite_only

SIZES = [(80, 24), (100, 30), (160, 45)]
FULL = 2000
"""Keys on the agreement dashboard at 100×30, where the issue found its crash."""
KEYS = 100
"""Keys per screen and size elsewhere, so that the file stays within a few minutes of one core
(about 28 ms of CPU a key on average, 60 on the dashboard, 1 s to start each case's app);
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
BATCH = int(os.environ.get("W2C_FUZZ_BATCH", "10"))
"""Keys sent at once before waiting for the app to handle them."""
PAUSE_EVERY = 200
"""Keys between two `pilot.pause()` (a repaint forced, whatever the refresh timer says)."""
CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool" / "predictions"


# ---- the database ---------------------------------------------------------------------------


def seed_database(services: Services, folder: Path) -> None:
    """Everything a screen can show: labels that disagree (adjudication, queue, dashboard),
    assignments (my queue, team), guidelines, a finished run (log, metrics), CriticTool data,
    a label schema."""
    services.imports.import_demo()
    rows = services.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 30)
    for n, row in enumerate(rows):
        detail = services.review.detail(row.id, None)
        gold = detail.item.gold
        assert gold is not None
        for response in detail.responses[:2]:
            assert response.id is not None
            services.review.label_response("ann", row.id, response.id, gold)
            other = Label.DIRECT if n % 3 else gold
            services.review.label_response("ben", row.id, response.id, other)
        if n % 2:
            services.review.label_item("ann", row.id, gold)
    services.roles.add(None, "fuzz", Role.LEAD)  # a team database: the lead gate is open
    services.assignments.assign(
        "demo", ["fuzz", "ann", "ben"], overlap=2, seed=3, selection=Selection(sample=12)
    )
    guide = folder / "guide.md"
    guide.write_text("# How to label\n\n* **tool call**: the reply calls a tool.\n" * 20)
    services.guidelines.set("demo", guide)
    run = services.runs.create(
        RunConfig(
            method=Method.MCQ_INDEX,
            backend=Backend.TRANSFORMERS,
            model="m0",
            dataset="demo",
            limit=6,
        )
    )
    services.runs.execute(run)
    services.critic.import_file(
        CT / "interal_base_data_wo_cot.json", dataset="ct-internal", target_model="tiny"
    )
    services.critic.import_file(
        CT / "external_skip_base_data_wo_cot.json", dataset="ct-external", target_model="tiny"
    )
    services.schemas.add(write_schema(folder))  # a users' label schema, `bar`


@pytest.fixture(scope="session")
def seeded_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The seeded database, built once per test process (each case works on a copy)."""
    folder = tmp_path_factory.mktemp("fuzz-seed")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("W2C_ANNOTATIONS_DIR", str(folder / "annotations"))
        patch.setenv("W2C_EXPORTS_DIR", str(folder / "exports"))
        patch.setattr(backends, "make_executor", Labeller)
        services = open_services(f"sqlite:///{folder / 'seed.db'}")
        try:
            seed_database(services, folder)
        finally:
            services.close()
    yield folder / "seed.db"


@pytest.fixture
def fuzz_services(
    seeded_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Services]:
    """A copy of the seeded database; runs and spot checks refuse to start anything."""
    target = tmp_path / "fuzz.db"
    with sqlite3.connect(seeded_file) as source, sqlite3.connect(target) as copy:
        source.backup(copy)
    shutil.copy(seeded_file.parent / "guide.md", tmp_path / "guide.md")

    def no_process(*_: object, **__: object) -> None:
        raise RuntimeError("the key fuzz test starts no worker process")

    def no_model(*_: object, **__: object) -> None:
        raise RuntimeError("the key fuzz test loads no model")

    from w2c_tui.services import runs as runs_module
    from w2c_tui.services.spot import SpotSession

    monkeypatch.setattr(runs_module, "launch_worker", no_process)
    monkeypatch.setattr(SpotSession, "check", no_model)
    # the dashboard's bootstrap at B=50, not 1000 (2 s of CPU per recompute on the demo; its
    # statistics are tested elsewhere, here only what the keys do to its screens)
    defaults = AgreementScreen.__init__.__kwdefaults__
    assert defaults is not None
    monkeypatch.setitem(defaults, "bootstrap", BOOTSTRAP)
    services = open_services(f"sqlite:///{target}")
    yield services
    services.close()


# ---- the cases ------------------------------------------------------------------------------

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
    from w2c_tui.tui.screens.dialogs import AnnotatorDialog

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
    Case("critictool", "CriticReviewScreen", critic("ct-internal")),
    Case("critictool-external", "CriticReviewScreen", critic("ct-external")),
    Case("critictool-agreement", "CriticAgreementDialog", critic("ct-internal", "b", "a")),
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
    import importlib
    import pkgutil

    import w2c_tui.tui.screens as screens

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


# ---- driving --------------------------------------------------------------------------------


def key_event(app: W2CApp, key: str) -> events.Key:
    """The key event a terminal would send for `key` (as Pilot.press builds it)."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char: str | None = unicodedata.lookup(
            _get_unicode_name_from_key(REPLACED_KEYS.get(key, key))
        )
    except KeyError:
        char = key if len(key) == 1 else None
    event = events.Key(key, char)
    event.set_sender(app)
    return event


class Stopped(Exception):
    """The app stopped (an exception, or an exit) while keys were being pressed."""


@dataclass
class Drive:
    """Presses keys on one case and keeps what a failure report needs."""

    app: W2CApp
    pilot: Pilot[None]
    case: Case
    last: deque[str] = field(default_factory=lambda: deque(maxlen=30))
    pressed: int = 0
    on_target: int = 0
    reopened: int = 0

    def check(self) -> None:
        app = self.app
        if app._exception is not None:
            raise Stopped(f"exception: {app._exception!r}") from app._exception
        if app.return_code is not None or not app.is_running:
            raise Stopped(f"the app exited (return code {app.return_code})")

    async def press(self, *keys: str, note: str = "") -> None:
        """Send `keys` at once, as a fast typist or key repeat does, then let the app catch
        up: it handles them in order and repaints when its refresh timer says so, not after
        every key (that is what makes thousands of keys affordable)."""
        for key in keys:
            self.last.append(key + note)
            self.app.post_message(key_event(self.app, key))
        await self.settle()

    async def settle(self) -> None:
        """Wait until the app and the screen on top have handled what was sent (twice: a key
        the app forwards to a widget lands in that widget's queue after the first wait)."""
        for _ in range(2):
            await self.pilot._wait_for_screen()
        self.check()

    def here(self) -> bool:
        return any(type(s).__name__ == self.case.screen for s in self.app.screen_stack)

    async def to_review(self) -> ReviewScreen:
        for _ in range(10):
            if isinstance(self.app.screen, ReviewScreen):
                return self.app.screen
            await self.press("escape", note=" (reopening)")
        while len(self.app.screen_stack) > 2 and not isinstance(self.app.screen, ReviewScreen):
            self.app.pop_screen()
            await self.pilot.pause()
        assert isinstance(self.app.screen, ReviewScreen), self.app.screen
        return self.app.screen

    async def open(self) -> None:
        review = await self.to_review()
        state = review.state
        wanted = self.case.review
        if "mode" in wanted and (state.mode is ReviewMode.ITEM_QA) != (wanted["mode"] == "qa"):
            await self.press("m", note=" (reopening)")
        if wanted.get("seeing"):
            for _ in ReviewMode:
                if state.is_blind:
                    await self.press("b", note=" (reopening)")
                await self.press("m", note=" (reopening)")
        if "blind" in wanted and state.is_blind != wanted["blind"]:
            await self.press("b", note=" (reopening)")
        self.last.append(f"<open {self.case.name}>")
        await self.case.opener(self.app, self.pilot)
        await self.pilot.pause()
        self.check()

    async def run(self, count: int, rng: random.Random, keys: list[str]) -> None:
        await self.open()
        while self.pressed < count:
            if not self.here():
                self.reopened += 1
                await self.open()
            batch = [rng.choice(keys) for _ in range(min(BATCH, count - self.pressed))]
            self.on_target += len(batch) * self.here()
            await self.press(*batch)
            self.pressed += len(batch)
            if self.pressed % PAUSE_EVERY < BATCH:
                await self.pilot.pause()
                self.check()
        await self.workers_done()
        await self.pilot.pause()
        self.check()

    async def workers_done(self) -> None:
        """Wait for the app's workers. An exclusive worker cancelled by its successor (the
        dashboard recomputing on a later key) is the app working as designed, not a failure:
        its error state, if any, is what `check` reads."""
        for _ in range(20):
            try:
                await self.app.workers.wait_for_complete()
                return
            except WorkerCancelled:
                continue


def case_seed(case: Case, size: tuple[int, int]) -> int:
    """The seed of one case: the base seed and the case's name and size."""
    return SEED ^ zlib.crc32(f"{case.name}@{size[0]}x{size[1]}".encode())


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, id=c.name, marks=pytest.mark.slow(minutes=3 if c.full else 1)) for c in CASES],
)
async def test_random_keys_never_stop_the_app(case: Case, fuzz_services: Services) -> None:
    """One app per case, at each size in turn (the terminal resized, the screen opened anew)."""
    keys = pool(ReviewScreen if case.screen == "ReviewScreen" else screen_class(case.screen))
    app = W2CApp(fuzz_services, annotator="fuzz", dataset="demo", remember_annotator=False)
    drive: Drive | None = None
    seed, size = 0, SIZES[0]
    figures: list[str] = []
    try:
        async with app.run_test(size=size) as pilot:
            for _ in range(100):
                await pilot.pause()
                if isinstance(app.screen, ReviewScreen) and app.screen.state.detail is not None:
                    break
            for size in SIZES:
                started, cpu = time.perf_counter(), time.process_time()
                seed, count = case_seed(case, size), key_count(case, size)
                drive = Drive(app, pilot, case)
                await drive.to_review()
                await pilot.resize_terminal(*size)
                await drive.run(count, random.Random(seed), keys)
                seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
                figures.append(
                    f"{case.name} {size[0]}x{size[1]}: {drive.pressed} keys in {seconds:.1f} s "
                    f"(CPU {cpu:.1f} s), {drive.on_target} on the screen, reopened "
                    f"{drive.reopened}x"
                )
                assert drive.on_target >= count // 2, "the keys should mostly land on the screen"
    except Exception as error:
        last = " ".join(drive.last) if drive else "(none)"
        raise AssertionError(
            f"{case.name} at {size[0]}x{size[1]}: {error!r}\n"
            f"seed {seed} (W2C_FUZZ_SEED={SEED}), after {drive.pressed if drive else 0} "
            f"keys at this size; the last 30: {last}"
        ) from error
    print("\n" + "\n".join(figures))


def test_the_keys_never_quit_suspend_or_open_the_palette() -> None:
    """Every case's pool: the screen's own keys and the rest, none of the keys never pressed."""
    for case in CASES:
        drawn = set(
            pool(ReviewScreen if case.screen == "ReviewScreen" else screen_class(case.screen))
        )
        assert not drawn & NEVER, case.name
        assert (
            set(own_keys(screen_class(case.screen)) if case.screen != "ReviewScreen" else [])
            <= drawn
        )


# ---- what the fuzzing found (each fixed at its cause) ---------------------------------------


async def burst(app: W2CApp, pilot: Pilot[None], *keys: str) -> None:
    """Send `keys` at once (typed faster than the app handles them), then wait for the app."""
    for key in keys:
        app.post_message(key_event(app, key))
    for _ in range(3):
        await pilot._wait_for_screen()
    await pilot.pause()


async def test_page_down_on_the_dashboard_at_100_columns(
    demo: Services, wait_review: Review
) -> None:
    """`a`, `2`, PageDown at 100×30 stopped the app (KeyError in OptionList): the raters list,
    hidden below 120 columns, kept the focus, and its page keys read a layout it never had."""
    from textual.widgets import SelectionList, TabbedContent

    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_review(app, pilot)
        await pilot.press("b", "a")  # blind off: alice has labelled nothing yet
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AgreementScreen)
        await pilot.press("2", "pagedown", "pagedown", "pageup", "down", "space")
        await pilot.pause()
        assert app._exception is None and app.screen is screen
        assert screen.query_one(TabbedContent).active == "tab-judges"
        raters = screen.query_one("#agreement-raters", SelectionList)
        assert not raters.has_focus and screen.focused is not None
        await pilot.press("f")  # the list shown: the keyboard goes to it
        assert raters.has_focus
        await pilot.press("pagedown", "pagedown", "f")  # hidden again: the keyboard leaves it
        assert not raters.has_focus and screen.focused is not None
        assert app._exception is None


async def test_a_double_enter_on_the_datasets_list_keeps_the_review_screen(
    demo: Services, wait_review: Review
) -> None:
    """Two Enters typed at once on the datasets list dismissed it twice: the second dismiss
    popped the review screen too, and left a blank app."""
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_review(app, pilot)
        await pilot.press("d")
        await burst(app, pilot, "enter", "enter")
        assert app.screen is screen and len(app.screen_stack) == 2
