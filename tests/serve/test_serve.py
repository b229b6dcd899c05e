"""`w2c serve` in a real browser: headless Chromium opens two invitation links and labels an
item with the keyboard in each session; the labels carry the invited names, the token left
the address bar into an HttpOnly cookie, and the page asked for nothing but the server."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from cdp import Chromium, Page
from dbfixtures import require_module, unavailable
from serving import Served, labels_by, serve

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
def served(db_url: str, tmp_path: Path) -> Iterator[tuple[Served, dict[str, str]]]:
    """`w2c serve` on a free port (the database URL in its environment only), with the demo
    and invitation links for alice and bob."""
    require_module("textual_serve", "serve")
    svc = open_services(db_url)
    try:
        svc.imports.import_demo()
        tokens = {name: svc.roles.invite(None, name)[1] for name in ("alice", "bob")}
    finally:
        svc.close()
    with serve(db_url, tmp_path) as server:
        yield server, {name: f"{server.url}?token={token}" for name, token in tokens.items()}


def session_command_lines(server: Served) -> list[str]:
    """The command lines of the served apps' processes, as `ps` shows them to every user."""
    return [Path(f"/proc/{pid}/cmdline").read_bytes().decode() for pid in server.apps()]


async def label_as(page: Page, link: str, name: str, db_url: str, shots: Path) -> None:
    """Open the invitation link and press 1 (direct) until the label is stored."""
    await page.send("Network.enable")
    await page.send("Page.navigate", url=link)
    await page.wait_for(FIRST_BYTE, 60, "the app's first screen")
    assert "token" not in await page.evaluate("location.href")  # redirected without it
    assert await page.evaluate("document.cookie") == ""  # HttpOnly: scripts cannot read it
    await page.screenshot(shots / f"serve-{name}-1-open.png")
    await page.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
    for _ in range(30):
        await asyncio.sleep(1.0)
        if name in labels_by(db_url):
            break
        await page.key("1", code="Digit1", key_code=49)  # label: direct
    await asyncio.sleep(0.5)
    await page.screenshot(shots / f"serve-{name}-2-labelled.png")


@pytest.mark.slow
async def test_two_invited_browsers_label_as_themselves(
    served: tuple[Served, dict[str, str]], db_url: str, chromium: str, tmp_path: Path
) -> None:
    server, links = served
    shots = Path(os.environ.get("W2C_TEST_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    with Chromium(chromium, tmp_path / "profile") as browser:
        alice = await Page.open(browser.endpoint)
        bob = await Page.open(browser.endpoint)
        try:
            await label_as(alice, links["alice"], "alice", db_url, shots)
            await label_as(bob, links["bob"], "bob", db_url, shots)
            commands = session_command_lines(server)
            requested = alice.requested_urls() + bob.requested_urls()
        finally:
            await alice.close()
            await bob.close()
    labels = labels_by(db_url)
    # a key pressed while the app was still opening may land late: one label or more, each
    # of them direct and under the invited name
    assert labels.get("alice") and set(labels["alice"]) == {"direct"}, labels
    assert labels.get("bob") and set(labels["bob"]) == {"direct"}, labels
    assert set(labels) == {"alice", "bob"}, labels
    assert len(commands) == 2, commands  # one app process per browser session
    assert all(db_url not in line for line in commands), commands
    foreign = [u for u in requested if not u.startswith((server.origin, "data:"))]
    assert requested and not foreign, foreign  # air-gapped: fonts and scripts come from us
