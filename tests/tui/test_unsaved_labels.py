"""No label lost: a label the database did not take keeps being retried and saves itself once
the database takes writes again (a lock released, a read-only file made writable: no
restart); q / ctrl+c ask first (save and wait / discard / stay); a discarded label, or one a
crash left unsaved, is named in the unsaved-labels log."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import ExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from dbfixtures import PgServer, unavailable, write_lock_held
from sqlalchemy.engine import make_url
from textual.pilot import Pilot

from w2c_tui.services import Services, open_services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens import review_retry
from w2c_tui.tui.screens.review import ReviewScreen
from w2c_tui.tui.screens.unsaved import UnsavedQuitDialog

SIZE = (160, 45)
Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


async def until(pilot: Pilot[None], done: Callable[[], bool], timeout_s: float = 30.0) -> None:
    """Let the app run until `done()` (fails after `timeout_s`)."""
    deadline = time.monotonic() + timeout_s
    while not done():
        assert time.monotonic() < deadline, "the condition never came true"
        await pilot.pause(0.05)


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The background retry's backoff, shortened (1 s doubling to 5 s in use)."""
    monkeypatch.setattr(review_retry, "RETRY_FIRST_S", 0.2)
    monkeypatch.setattr(review_retry, "RETRY_MAX_S", 0.4)


def on_top(app: W2CApp) -> object:
    """The screen on top (typed loosely: the checks above narrowed `app.screen`)."""
    return app.screen


def labels_of(services: Services, who: str) -> list[str]:
    return [r.label.value for r in services.labels.export() if r.annotator == who and r.label]


async def refused_label(pilot: Pilot[None], screen: ReviewScreen, why: str = "") -> None:
    """Press 3 (request for info): the database does not take it, the label stays on screen as
    not saved, to be retried (its reason naming `why`)."""
    await pilot.press("3")
    await pilot.pause()
    pending = screen.state.unsaved
    assert pending is not None and why in pending.reason and pending.retryable, pending


async def unsaved_label(
    app: W2CApp, pilot: Pilot[None], wait_review: Review, lock: ExitStack, url: str
) -> ReviewScreen:
    """The review screen with a label NOT SAVED: another connection holds the write lock."""
    screen = await wait_review(app, pilot)
    lock.enter_context(write_lock_held(url))
    await refused_label(pilot, screen)
    return screen


@dataclass
class Held:
    """An app whose review screen shows a label NOT SAVED while `lock` holds the database's
    write lock (closing `lock` releases it)."""

    app: W2CApp
    pilot: Pilot[None]
    screen: ReviewScreen
    lock: ExitStack


@asynccontextmanager
async def label_not_saved(services: Services, url: str, wait_review: Review) -> AsyncIterator[Held]:
    """Alice's app, a label pressed while another connection holds the write lock; the lock
    is released when the block ends (or earlier, by `held.lock.close()`), then the app stops."""
    app = W2CApp(services, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        with ExitStack() as lock:
            screen = await unsaved_label(app, pilot, wait_review, lock, url)
            yield Held(app, pilot, screen, lock)


async def saves_once_writable(
    services: Services, wait_review: Review, writable: Callable[[], object]
) -> None:
    """A label refused by a read-only database saves itself once `writable()` has made the
    database take writes again: the same app and engine, no restart, no key pressed."""
    app = W2CApp(services, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        await refused_label(pilot, screen, "read-only")
        writable()  # the retry runs on a fresh connection
        await until(pilot, lambda: screen.state.unsaved is None)
        assert app.is_running
    assert labels_of(services, "alice") == ["request_for_info"]


async def test_the_label_saves_itself_once_the_lock_is_released(
    demo: Services, db_url: str, wait_review: Review
) -> None:
    async with label_not_saved(demo, db_url, wait_review) as held:
        app, pilot, screen = held.app, held.pilot, held.screen
        await pilot.press("q")  # asks
        assert isinstance(app.screen, UnsavedQuitDialog)
        await pilot.press("escape")  # stay
        assert on_top(app) is screen and screen.state.unsaved is not None
        await pilot.press("ctrl+c")  # asks as well
        assert isinstance(app.screen, UnsavedQuitDialog)
        await pilot.press("n")
        assert on_top(app) is screen and app.return_code is None
        held.lock.close()  # the lock is gone: the background retry saves it, no key pressed
        await until(pilot, lambda: screen.state.unsaved is None)
        assert app.is_running
    assert labels_of(demo, "alice") == ["request_for_info"]


async def test_save_and_wait_quits_once_the_label_is_saved(
    demo: Services, db_url: str, wait_review: Review
) -> None:
    async with label_not_saved(demo, db_url, wait_review) as held:
        app, pilot = held.app, held.pilot
        await pilot.press("q", "s")
        await pilot.pause(0.3)
        dialog = app.screen
        assert isinstance(dialog, UnsavedQuitDialog) and dialog.waiting
        assert app.return_code is None  # still waiting for the database
        held.lock.close()
        await until(pilot, lambda: app.return_code is not None)
    assert app.return_code == 0 and app.lost_log.count == 0
    assert labels_of(demo, "alice") == ["request_for_info"]


async def test_discard_quits_and_the_log_names_the_label(
    demo: Services, db_url: str, wait_review: Review, tmp_path: Path
) -> None:
    async with label_not_saved(demo, db_url, wait_review) as held:
        app, pilot = held.app, held.pilot
        detail = held.screen.state.detail
        assert detail is not None
        uuid = detail.item.uuid
        await pilot.press("q", "d")
        await until(pilot, lambda: app.return_code is not None)
    assert app.return_code == 0 and app.lost_log.count == 1 and not app.lost_log.unasked
    [log] = (tmp_path / "annotations" / "logs").glob("unsaved-labels-*.log")
    assert app.lost_log.logs == [log]
    [line] = [line for line in log.read_text("utf-8").splitlines() if not line.startswith("#")]
    for part in ("annotator: alice", "dataset: demo", f"uuid: {uuid}", "label: request_for_info"):
        assert part in line, line
    assert "unit: response " in line and "time: 20" in line and "busy" in line
    assert labels_of(demo, "alice") == []


async def test_a_crash_with_an_unsaved_label_names_it_and_fails(
    demo: Services,
    db_url: str,
    wait_review: Review,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    app = W2CApp(demo, annotator="alice", remember_annotator=False)
    with pytest.raises(ZeroDivisionError), ExitStack() as lock:
        async with app.run_test(size=SIZE) as pilot:
            await unsaved_label(app, pilot, wait_review, lock, db_url)
            app.call_later(lambda: 1 / 0)
            await pilot.pause()
    assert app.return_code == 1 and app.lost_log.count == 1 and app.lost_log.unasked
    [log] = (tmp_path / "annotations" / "logs").glob("unsaved-labels-*.log")
    assert "label: request_for_info" in log.read_text("utf-8")
    err = "".join(capsys.readouterr().err.split())  # the terminal wraps the long line
    assert "1label(s)werenotsaved" in err and str(log) in err


async def test_an_exit_that_does_not_ask_still_logs_the_label_and_fails(
    demo: Services, db_url: str, wait_review: Review, tmp_path: Path
) -> None:
    async with label_not_saved(demo, db_url, wait_review) as held:
        app = held.app
        app.exit()  # not through q: e.g. a browser session closed under `w2c serve`
        await until(held.pilot, lambda: app.return_code is not None)
    assert app.lost_log.count == 1 and app.lost_log.unasked and not app.lost_log.told
    [log] = (tmp_path / "annotations" / "logs").glob("unsaved-labels-*.log")
    assert "annotator: alice" in log.read_text("utf-8")


@contextmanager
def read_only_file(path: Path) -> Iterator[None]:
    """`path` cannot be opened for writing, as a file another user owns or a read-only mount:
    chmod 0444 for a normal user; as root (who writes anyway) the immutable attribute."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    chattr = shutil.which("chattr") or "chattr"
    if subprocess.run([chattr, "+i", str(path)], check=False).returncode:
        unavailable("a read-only file as root", "chattr +i is missing or not permitted here")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)


@pytest.mark.sqlite_only
async def test_a_read_only_file_made_writable_saves_without_a_restart(
    demo: Services, db_url: str, wait_review: Review
) -> None:
    path = Path(make_url(db_url).database or "")
    demo.close()  # the file is made read-only before w2c opens it
    read_only = ExitStack()
    read_only.enter_context(read_only_file(path))
    services = open_services(db_url)
    try:
        await saves_once_writable(services, wait_review, read_only.close)
    finally:
        read_only.close()
        services.close()


async def test_a_read_only_postgresql_database_taken_out_of_read_only_saves_without_a_restart(
    pg_server: PgServer, wait_review: Review
) -> None:
    url = pg_server.fresh()
    name = make_url(url).database
    try:
        seed = open_services(url)
        seed.imports.import_demo()
        seed.close()
        pg_server._execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
        services = open_services(url)
        try:
            await saves_once_writable(
                services,
                wait_review,
                lambda: pg_server._execute(
                    f'ALTER DATABASE "{name}" SET default_transaction_read_only = off'
                ),
            )
        finally:
            services.close()
    finally:
        pg_server.drop(url)
