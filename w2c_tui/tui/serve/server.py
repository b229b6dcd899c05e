"""`w2c serve`'s web server: textual-serve's `Server` with invitations, an Origin check, a
session cap and our page (the package docstring says what each adds)."""

from __future__ import annotations

import asyncio
import html
import logging
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

import textual_serve.server
from aiohttp import web
from textual_serve.server import Server, to_int

from w2c_tui.domain.roles import Invite, InviteRefused
from w2c_tui.tui.serve.pages import PAGE, full_page, page, secure_headers
from w2c_tui.tui.serve.sessions import InvitedAppService, Session

log = logging.getLogger("w2c-serve")

COOKIE = "w2c_invite"
"""The cookie holding the invitation token after the first page load."""
WATCH_S = 3.0
"""How often open sessions' invitations are checked again (revoked or expired: closed)."""
STATIC = Path(textual_serve.server.__file__).parent / "static"
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}
TOKEN = re.compile(r"token=[^\s&\"']+")


def is_local(host: str) -> bool:
    """Whether `host` listens on this machine only."""
    return host in LOCAL_HOSTS or host.startswith("127.")


class RedactTokens(logging.Filter):
    """Keep invitation tokens out of the access log (the first request carries one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "token=" in message:
            record.msg, record.args = TOKEN.sub("token=[redacted]", message), None
        return True


class InvitedServer(Server):
    """textual-serve's server with invitations, an Origin check, a session cap and our page."""

    def __init__(
        self,
        command: str,
        *,
        admit: Callable[[str], Invite],
        still_valid: Callable[[int], bool],
        host: str,
        port: int,
        max_sessions: int,
        public_url: str | None = None,
        title: str = "w2c-tui",
    ) -> None:
        super().__init__(
            command,
            host=host,
            port=port,
            title=title,
            public_url=public_url,
            statics_path=STATIC,
            templates_path=PAGE.parent,
        )
        self.given_public_url = public_url.rstrip("/") if public_url else None
        self.admit = admit
        self.still_valid = still_valid
        self.max_sessions = max_sessions
        self.sessions: dict[str, Session] = {}
        self.reserved = 0
        """Sessions being started (counted against the cap before the first await)."""
        self.page_template = PAGE.read_text(encoding="utf-8")
        self._watcher: asyncio.Task[None] | None = None

    def initialize_logging(self) -> None:
        super().initialize_logging()
        logging.getLogger("aiohttp.access").addFilter(RedactTokens())

    # -- the application ----------------------------------------------------------------
    async def _make_app(self) -> web.Application:
        app = web.Application()
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_guarded_download, name="download"),
                web.static("/static", self.statics_path, show_index=False, name="static"),
            ]
        )
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def on_startup(self, app: web.Application) -> None:
        self._watcher = asyncio.create_task(self.watch_invites())

    async def on_shutdown(self, app: web.Application) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
        for session in list(self.sessions.values()):
            await session.websocket.close()

    @property
    def open_sessions(self) -> int:
        """Apps running or starting."""
        return len(self.sessions) + self.reserved

    # -- who is asking ------------------------------------------------------------------
    async def invited(self, token: str | None) -> tuple[Invite | None, str]:
        """The invitation `token` opens (None, with why not)."""
        if not token:
            return None, ""
        try:
            return await asyncio.to_thread(self.admit, token), ""
        except InviteRefused as error:
            return None, str(error)
        except Exception as error:  # the database is gone or locked: say so, let nobody in
            log.error("checking an invitation failed: %s", error)
            return None, "the invitation could not be checked (database error); try again"

    def origin_of(self, request: web.Request) -> str:
        """This server's origin as the browser sees it."""
        if self.given_public_url:
            parts = urlsplit(self.given_public_url)
            return f"{parts.scheme}://{parts.netloc}"
        return f"{request.scheme}://{request.host}"

    def secure(self, request: web.Request) -> bool:
        return self.origin_of(request).startswith("https://")

    # -- the page -----------------------------------------------------------------------
    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        query_token = request.query.get("token")
        if query_token is not None:
            invite, why = await self.invited(query_token)
            if invite is None:
                return page("Invitation refused", why or "no valid invitation token", 403)
            rest = {k: v for k, v in request.query.items() if k == "fontsize"}
            target = "/" + ("?fontsize=" + str(to_int(rest["fontsize"], 16)) if rest else "")
            response = web.Response(status=303, headers={"Location": target})
            remaining = (invite.expires_at - _now(invite)).total_seconds()
            response.set_cookie(
                COOKIE,
                query_token,
                max_age=max(1, int(remaining)),
                path="/",
                httponly=True,
                samesite="Strict",
                secure=self.secure(request),
            )
            secure_headers(response)
            return response
        invite, why = await self.invited(request.cookies.get(COOKIE))
        if invite is None:
            if why:
                response = page("Invitation refused", why, 403)
                response.del_cookie(COOKIE, path="/")
                return response
            return page(
                "Invitation needed",
                "This w2c-tui server lets in invited annotators only. Open the link a lead "
                "made for you with `w2c team invite NAME`.",
                401,
            )
        if self.open_sessions >= self.max_sessions:
            return full_page(self.max_sessions)
        origin = self.origin_of(request)
        ws_url = ("wss:" if origin.startswith("https") else "ws:") + origin.split(":", 1)[1] + "/ws"
        text = (
            self.page_template.replace("{{ title }}", html.escape(self.title))
            .replace("{{ annotator }}", html.escape(invite.name))
            .replace("{{ ws_url }}", html.escape(ws_url))
            .replace("{{ font_size }}", str(to_int(request.query.get("fontsize", "16"), 16)))
        )
        response = web.Response(text=text, content_type="text/html")
        secure_headers(response, connect=ws_url)
        return response

    # -- the session --------------------------------------------------------------------
    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        origin = request.headers.get("Origin")
        if origin != self.origin_of(request):
            log.warning("websocket refused: Origin %r is not %r", origin, self.origin_of(request))
            return web.Response(status=403, text="forbidden: foreign or missing Origin")
        if self.open_sessions >= self.max_sessions:
            return web.Response(status=503, text="the server is full")
        self.reserved += 1  # before any await: the cap holds under concurrent connects
        started = False
        try:
            invite, why = await self.invited(request.cookies.get(COOKIE))
            if invite is None:
                status = 403 if why else 401
                return web.Response(status=status, text=why or "an invitation is needed")
            websocket = web.WebSocketResponse(heartbeat=15)
            await websocket.prepare(request)
            session = Session(invite.id, invite.name, websocket)
            self.sessions[session.key] = session
            self.reserved -= 1
            started = True
            try:
                await self.run_session(request, session)
            finally:
                self.sessions.pop(session.key, None)
            return websocket
        finally:
            if not started:
                self.reserved -= 1

    async def run_session(self, request: web.Request, session: Session) -> None:
        """Start the invited person's app and pass messages until either side closes."""
        websocket = session.websocket
        width = max(20, min(to_int(request.query.get("width", "80"), 80), 500))
        height = max(10, min(to_int(request.query.get("height", "24"), 24), 300))
        service = InvitedAppService(
            session.annotator,
            self.command,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
            debug=self.debug,
        )
        log.info("session for %r started (%d open)", session.annotator, len(self.sessions))
        try:
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # one session's failure never stops the server
            log.exception(error)
        finally:
            await service.stop()
            log.info("session for %r ended", session.annotator)

    async def watch_invites(self) -> None:
        """Close sessions whose invitation was revoked or has expired."""
        while True:
            await asyncio.sleep(WATCH_S)
            for session in list(self.sessions.values()):
                try:
                    valid = await asyncio.to_thread(self.still_valid, session.invite_id)
                except Exception as error:  # a busy database: look again next time
                    log.warning("checking an invitation failed: %s", error)
                    continue
                if not valid:
                    log.info("invitation of %r withdrawn: closing its session", session.annotator)
                    await session.websocket.close()

    async def handle_guarded_download(self, request: web.Request) -> web.StreamResponse:
        """A file the app delivers, for an invited browser only."""
        invite, why = await self.invited(request.cookies.get(COOKIE))
        if invite is None:
            return web.Response(status=403 if why else 401, text=why or "an invitation is needed")
        return await self.handle_download(request)


def _now(invite: Invite) -> datetime:
    """Now, in the invitation's time zone."""
    return datetime.now(invite.expires_at.tzinfo)
