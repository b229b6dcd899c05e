"""`w2c serve` in a subprocess for tests, and a client that speaks textual-serve's websocket
protocol (what textual.js sends: ["stdin", text], ["resize", {...}], ["ping", x])."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from w2c_tui.services import open_services


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Served:
    """A running `w2c serve`."""

    process: subprocess.Popen[bytes]
    url: str
    """http://127.0.0.1:PORT/"""
    log: Path

    @property
    def origin(self) -> str:
        return self.url.rstrip("/")

    def apps(self) -> list[int]:
        """Pids of the session apps this server started (its descendants running the TUI, not
        the shell textual-serve starts each through)."""
        return [
            pid
            for pid in descendants(self.process.pid)
            if "--invited" in (line := cmdline(pid)) and not line.startswith("/bin/sh")
        ]


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def descendants(root: int) -> list[int]:
    """Every live process below `root` (from /proc's parent links)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


@contextmanager
def serve(db_url: str, tmp: Path, *args: str) -> Iterator[Served]:
    """`w2c serve` on a free port of 127.0.0.1 with the database URL in its environment only;
    yields once it answers HTTP, stops it (and its sessions) afterwards."""
    port = free_port()
    log = tmp / f"serve-{port}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "w2c_tui", "serve", "--port", str(port), *args],
            env={**os.environ, "W2C_DB": db_url, "W2C_ANNOTATOR": "not-the-session"},
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, log.read_text(errors="replace")
            try:
                urllib.request.urlopen(url, timeout=2).close()
            except urllib.error.HTTPError:
                break  # 401: it answers
            except OSError:
                assert time.monotonic() < deadline, "w2c serve did not answer in 60 s"
                time.sleep(0.1)
            else:
                break
        yield Served(process, url, log)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


class Client:
    """One browser's worth of HTTP state (the invitation cookie) without a browser."""

    def __init__(self, served: Served) -> None:
        self.served = served
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.received = 0
        self._reader: asyncio.Task[None] | None = None

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self.socket is not None:
            await self.socket.close()
        await self.http.close()

    async def get(self, path_and_query: str) -> tuple[int, str]:
        """(status, body) of a page, following the redirect that drops the token."""
        async with self.http.get(self.served.origin + path_and_query) as response:
            return response.status, await response.text()

    async def open(self, token: str) -> int:
        """Load the invitation link: the status of the page it lands on."""
        status, _ = await self.get(f"/?token={token}")
        return status

    async def connect(self, origin: str | None = "", size: tuple[int, int] = (120, 40)) -> int:
        """Open the session's websocket (Origin: the page's own unless given; None sends
        none); 101 when it opened, else the HTTP status it was refused with."""
        headers = {} if origin is None else {"Origin": origin or self.served.origin}
        width, height = size
        url = self.served.origin.replace("http", "ws", 1) + f"/ws?width={width}&height={height}"
        try:
            self.socket = await self.http.ws_connect(url, headers=headers, max_msg_size=0)
        except aiohttp.WSServerHandshakeError as error:
            return error.status
        self._reader = asyncio.create_task(self._read())
        return 101

    async def _read(self) -> None:
        assert self.socket is not None
        async for message in self.socket:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.received += len(message.data)

    async def wait_output(self, timeout: float = 60) -> None:
        """Until the app has drawn its first screen."""
        deadline = time.monotonic() + timeout
        while self.received < 1000:
            assert time.monotonic() < deadline, "the session drew nothing"
            await asyncio.sleep(0.05)

    async def key(self, text: str) -> None:
        """Keys as textual.js sends them (the terminal's bytes)."""
        assert self.socket is not None
        await self.socket.send_str(json.dumps(["stdin", text]))

    @property
    def closed(self) -> bool:
        return self.socket is None or self.socket.closed


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
