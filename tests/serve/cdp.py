"""A small Chrome DevTools Protocol client over aiohttp's websocket, and headless Chromium."""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import aiohttp

LISTENING = re.compile(r"DevTools listening on (ws://\S+)")


class Chromium:
    """Headless Chromium with remote debugging on a free port; stops with the context."""

    def __init__(self, executable: str, profile: Path, size: tuple[int, int] = (1400, 900)) -> None:
        self.executable = executable
        self.profile = profile
        self.size = size
        self.process: subprocess.Popen[str] | None = None
        self.endpoint = ""

    def __enter__(self) -> Chromium:
        width, height = self.size
        self.process = subprocess.Popen(
            [
                self.executable,
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--hide-scrollbars",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                f"--user-data-dir={self.profile}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stderr is not None
        for line in self.process.stderr:
            found = LISTENING.search(line)
            if found:
                browser = found.group(1)
                self.endpoint = browser.split("/devtools/")[0].replace("ws://", "http://")
                return self
        raise RuntimeError(f"{self.executable} did not start its DevTools endpoint")

    def __exit__(self, *_: object) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Page:
    """One page (tab) driven over its DevTools websocket."""

    def __init__(
        self, http: aiohttp.ClientSession, socket: aiohttp.ClientWebSocketResponse
    ) -> None:
        self.http = http
        self.socket = socket
        self.ids = itertools.count(1)
        self.events: list[dict[str, Any]] = []
        """Events that arrived while waiting for replies (e.g. Network.requestWillBeSent)."""

    @classmethod
    async def open(cls, endpoint: str) -> Page:
        """A new page (tab) of the browser at `endpoint` (http://127.0.0.1:PORT)."""
        http = aiohttp.ClientSession()
        async with http.put(f"{endpoint}/json/new?about:blank") as response:
            page = await response.json(content_type=None)
        socket = await http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        return cls(http, socket)

    async def close(self) -> None:
        await self.socket.close()
        await self.http.close()

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        """Call a DevTools method and return its result (events in between are skipped)."""
        call_id = next(self.ids)
        await self.socket.send_str(json.dumps({"id": call_id, "method": method, "params": params}))
        while True:
            message = json.loads((await self.socket.receive()).data)
            if "method" in message:
                self.events.append(message)
            if message.get("id") == call_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    async def wait_for(self, expression: str, timeout: float, what: str) -> Any:
        """Poll until the expression is truthy; its value."""
        deadline = asyncio.get_running_loop().time() + timeout
        while asyncio.get_running_loop().time() < deadline:
            value = await self.evaluate(expression)
            if value:
                return value
            await asyncio.sleep(0.2)
        raise AssertionError(f"timed out after {timeout} s waiting for {what}")

    async def key(self, text: str, code: str | None = None, key_code: int = 0) -> None:
        """Press one key, as a person would (keyDown with its text, then keyUp)."""
        common = {"key": text, "code": code or "", "windowsVirtualKeyCode": key_code}
        await self.send("Input.dispatchKeyEvent", type="keyDown", text=text, **common)
        await self.send("Input.dispatchKeyEvent", type="keyUp", **common)

    async def type(self, text: str) -> None:
        """Type the characters one key at a time."""
        for char in text:
            await self.key(char, key_code=ord(char.upper()))

    async def enter(self) -> None:
        await self.key("\r", code="Enter", key_code=13)

    def requested_urls(self) -> list[str]:
        """Every URL the page asked for since `Network.enable` (as far as events arrived)."""
        return [
            e["params"]["request"]["url"]
            for e in self.events
            if e.get("method") == "Network.requestWillBeSent"
        ]

    async def screenshot(self, path: Path) -> None:
        """A PNG of the page as shown."""
        shot = await self.send("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))
