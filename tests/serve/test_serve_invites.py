"""`w2c serve` lets in invited annotators only, checked with a client that speaks
textual-serve's websocket protocol: no invitation → 401 and no app process; a made-up,
revoked or expired token → 403; a foreign or missing Origin → 403 before anything starts; the
cap answers 503 with a page that says so; the page loads nothing from the internet; an invited
annotator labels as the invitation's name; revoking closes an open session."""

from __future__ import annotations

import asyncio
import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from serving import Client, Served, labels_by, serve

from w2c_tui.db.team import RoleStore
from w2c_tui.services import open_services
from w2c_tui.services.roles import token_hash

pytestmark = pytest.mark.slow

EXTERNAL = re.compile(r"(https?:)?//(?!127\.0\.0\.1)[a-z0-9.-]+\.[a-z]{2,}", re.I)
"""A URL to another host (// protocol-relative ones too)."""


async def until(condition: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"timed out after {timeout} s: {what}"
        await asyncio.sleep(0.1)


async def label_until_stored(client: Client, db_url: str, name: str) -> None:
    """Press 1 (direct) until `name` has a label (the app may still be opening)."""
    deadline = time.monotonic() + 60
    while name not in labels_by(db_url):
        assert time.monotonic() < deadline, f"{name}'s label never arrived"
        await client.key("1")
        await asyncio.sleep(0.5)


def invitations(db_url: str) -> dict[str, str]:
    """The demo, valid invitations for alice and bob, a revoked one (carol), an expired one
    (dave); name → token."""
    svc = open_services(db_url)
    try:
        svc.imports.import_demo()
        tokens = {name: svc.roles.invite(None, name)[1] for name in ("alice", "bob", "carol")}
        svc.roles.revoke(None, "carol")
        tokens["dave"] = "expired-" + "x" * 40
        RoleStore(svc.store.engine).add_invite(
            "dave", token_hash(tokens["dave"]), datetime.now(UTC) - timedelta(seconds=1)
        )
        return tokens
    finally:
        svc.close()


async def refused_everywhere(served: Served, tokens: dict[str, str]) -> None:
    stranger = Client(served)
    try:
        status, body = await stranger.get("/")
        assert status == 401 and "invited annotators only" in body
        assert await stranger.connect() == 401  # no cookie: the websocket starts nothing
        assert await stranger.open("made-up-token-" + "y" * 30) == 403
        for name in ("carol", "dave"):
            status, body = await stranger.get(f"/?token={tokens[name]}")
            assert status == 403, (name, status)
            assert ("revoked" if name == "carol" else "expired") in body
        # a revoked token put into the cookie by hand is refused at the websocket too
        stranger.http.cookie_jar.update_cookies({"w2c_invite": tokens["carol"]})
        assert await stranger.connect() == 403
    finally:
        await stranger.close()


async def test_only_invited_annotators_get_an_app(db_url: str, tmp_path: Path) -> None:
    tokens = invitations(db_url)
    with serve(db_url, tmp_path, "--max-sessions", "1") as served:
        await refused_everywhere(served, tokens)
        alice, bob = Client(served), Client(served)
        try:
            assert await alice.open(tokens["alice"]) == 200
            # the page and its stylesheet name no other host (air-gapped), and say so in CSP
            async with alice.http.get(served.origin + "/") as response:
                page = await response.text()
                policy = response.headers["Content-Security-Policy"]
            async with alice.http.get(served.origin + "/static/css/xterm.css") as response:
                css = re.sub(r"/\*.*?\*/", "", await response.text(), flags=re.S)  # licences
            assert not EXTERNAL.search(page) and not EXTERNAL.search(css), EXTERNAL.findall(page)
            assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
            assert "alice" in page
            # another web site's page in alice's browser: its Origin is refused
            assert await alice.connect(origin="http://evil.example") == 403
            assert await alice.connect(origin=None) == 403
            assert served.apps() == []  # nothing refused so far started an app
            assert await alice.connect() == 101
            await alice.wait_output()
            await label_until_stored(alice, db_url, "alice")
            assert set(labels_by(db_url)) == {"alice"}  # not the server's W2C_ANNOTATOR
            assert len(served.apps()) == 1
            # the cap (1): bob's page says the server is full, his websocket is refused
            status, body = await bob.get(f"/?token={tokens['bob']}")
            assert status == 503 and "full" in body
            assert await bob.connect() == 503
            # revoking alice ends her open session and her link
            svc = open_services(db_url)
            try:
                assert svc.roles.revoke(None, "alice") == 1
            finally:
                svc.close()
            await until(lambda: alice.closed and not served.apps(), 30, "alice's session ends")
            again = Client(served)
            try:
                assert await again.open(tokens["alice"]) == 403
            finally:
                await again.close()
            # a place is free again (once the server has finished closing alice's session):
            # bob labels, as bob
            deadline = time.monotonic() + 30
            while (status := await bob.connect()) == 503 and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            assert status == 101
            await bob.wait_output()
            await label_until_stored(bob, db_url, "bob")
            assert set(labels_by(db_url)) == {"alice", "bob"}
        finally:
            await alice.close()
            await bob.close()
    assert "token=" not in served.log.read_text() or "token=[redacted]" in served.log.read_text()
    assert tokens["alice"] not in served.log.read_text()


async def test_a_public_host_is_warned_about(db_url: str, tmp_path: Path) -> None:
    with serve(db_url, tmp_path, "--host", "0.0.0.0") as served:
        pass
    assert "TLS and a reverse proxy" in served.log.read_text()


async def test_behind_a_proxy_only_the_public_origin_is_accepted(
    db_url: str, tmp_path: Path
) -> None:
    tokens = invitations(db_url)
    public = "http://label.example:9000"
    with serve(db_url, tmp_path, "--public-url", public) as served:
        alice = Client(served)
        try:
            assert await alice.open(tokens["alice"]) == 200
            status, page = await alice.get("/")
            assert status == 200 and "ws://label.example:9000/ws" in page
            assert await alice.connect() == 403  # the server's own address is not the origin
            assert served.apps() == []
            assert await alice.connect(origin=public) == 101
            await alice.wait_output()
        finally:
            await alice.close()
