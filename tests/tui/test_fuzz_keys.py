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

import random
import shutil
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fuzz_drive import Drive, burst
from fuzz_seed import seed_database
from fuzzing import (
    BOOTSTRAP,
    CASES,
    NEVER,
    SEED,
    SIZES,
    Case,
    Review,
    case_seed,
    key_count,
    own_keys,
    pool,
    screen_class,
)
from stand_in_backend import Labeller
from textual.widgets import SelectionList, TabbedContent

from w2c_tui.runs import backends
from w2c_tui.services import Services, open_services
from w2c_tui.services import runs as runs_module
from w2c_tui.services.spot import SpotSession
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.agreement import AgreementScreen
from w2c_tui.tui.screens.review import ReviewScreen

pytestmark = pytest.mark.sqlite_only


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


async def test_page_down_on_the_dashboard_at_100_columns(
    demo: Services, wait_review: Review
) -> None:
    """`a`, `2`, PageDown at 100×30 stopped the app (KeyError in OptionList): the raters list,
    hidden below 120 columns, kept the focus, and its page keys read a layout it never had."""
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
