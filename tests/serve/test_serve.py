"""`w2c serve` in a real browser: headless Chromium types an annotator's name and labels an
item with the keyboard in each of two sessions; the labels are in the database."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from cdp import Chromium, Page
from dbfixtures import unavailable

from w2c_tui.services import open_services

FIRST_BYTE = "document.body && document.body.classList.contains('-first-byte')"


@pytest.fixture
def chromium() -> str:
    """Headless Chromium (./scripts/test installs Debian's package where it can)."""
    path = os.environ.get("W2C_TEST_CHROMIUM") or shutil.which("chromium")
    if not path:
        unavailable("Chromium", "no chromium on PATH and W2C_TEST_CHROMIUM is not set")
    assert path is not None
    return path


@pytest.fixture
def served(db_url: str) -> Iterator[str]:
    """`w2c serve` on a free port, with the database URL in its environment only."""
    pytest.importorskip("textual_serve", reason="the serve extra (textual-serve) is needed")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "w2c_tui", "serve", "--port", str(port)],
        env={**os.environ, "W2C_DB": db_url},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.communicate()[0].decode(errors="replace")
            try:
                urllib.request.urlopen(url, timeout=2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "w2c serve did not answer in 60 s"
                time.sleep(0.2)
        yield url
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def session_command_lines() -> list[str]:
    """The command lines of the served apps' processes, as `ps` shows them to every user."""
    lines = []
    for entry in Path("/proc").iterdir():
        try:
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if "--ask-annotator" in line:
            lines.append(line)
    return lines


def labels_by(db_url: str) -> dict[str, list[str]]:
    """Annotator → the labels they have recorded."""
    services = open_services(db_url)
    try:
        found: dict[str, list[str]] = {}
        for record in services.labels.export():
            found.setdefault(record.annotator, []).append(str(record.label))
        return found
    finally:
        services.close()


async def label_as(page: Page, url: str, name: str, db_url: str, shots: Path) -> None:
    """Open the served app, give `name`, and press 1 (direct) until the label is stored."""
    await page.send("Page.navigate", url=url)
    await page.wait_for(FIRST_BYTE, 60, "the app's first screen")
    await asyncio.sleep(1.5)  # the annotator dialog mounts and takes the focus
    await page.screenshot(shots / f"serve-{name}-1-prompt.png")
    await page.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
    await page.type(name)
    await page.enter()
    for _ in range(10):
        await asyncio.sleep(1.0)
        if name in labels_by(db_url):
            break
        await page.key("1", code="Digit1", key_code=49)  # label: direct
    await asyncio.sleep(0.5)
    await page.screenshot(shots / f"serve-{name}-2-labelled.png")


@pytest.mark.slow
async def test_two_browser_sessions_label_into_one_database(
    served: str, db_url: str, chromium: str, tmp_path: Path
) -> None:
    shots = Path(os.environ.get("W2C_TEST_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    with Chromium(chromium, tmp_path / "profile") as browser:
        alice = await Page.open(browser.endpoint)
        bob = await Page.open(browser.endpoint)
        try:
            await label_as(alice, served, "alice", db_url, shots)
            await label_as(bob, served, "bob", db_url, shots)
            commands = session_command_lines()
        finally:
            await alice.close()
            await bob.close()
    labels = labels_by(db_url)
    assert labels.get("alice") == ["direct"], labels
    assert labels.get("bob") == ["direct"], labels
    assert len(commands) >= 2, commands  # one app process per browser session
    assert all(db_url not in line for line in commands), commands
