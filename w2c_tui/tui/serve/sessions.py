"""One browser session of `w2c serve`: its websocket and invitation, the app process started
for it (with the invited annotator in its environment), and how many this machine carries."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from textual_serve.app_service import AppService

SESSION_MB = 160
"""About how much memory one session's app process takes, with room (measured: ~100 MB RSS on the
demo; larger datasets cache more rows)."""


def default_max_sessions() -> int:
    """How many apps this machine carries at once: 4 per CPU core, and no more than half of
    its memory at `SESSION_MB` each (at least 2)."""
    cores = os.cpu_count() or 2
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        memory = 4 * 1024**3
    return max(2, min(4 * cores, int(memory * 0.5 / (SESSION_MB * 1024**2))))


class InvitedAppService(AppService):
    """One session's app, started with its invited annotator in the environment."""

    def __init__(self, annotator: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.annotator = annotator

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width, height)
        environment["W2C_ANNOTATOR"] = self.annotator
        return environment


@dataclass
class Session:
    """An open websocket and the invitation that let it in."""

    invite_id: int
    annotator: str
    websocket: web.WebSocketResponse
    key: str = field(default_factory=lambda: secrets.token_hex(8))
