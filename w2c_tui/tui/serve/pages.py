"""The pages `w2c serve` answers with itself: the app page (page/index.html, filled in), small
refusal pages, and the security headers every answer carries."""

from __future__ import annotations

import html
from pathlib import Path

from aiohttp import web

PAGE = Path(__file__).with_name("page") / "index.html"
"""The app page: textual-serve's JavaScript, its xterm CSS and font, all from `/static`."""


def page(title: str, message: str, status: int) -> web.Response:
    """A small self-contained HTML page (no script, no external asset)."""
    body = (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>body{{background:#0c181f;color:#eee;"
        "font-family:monospace;max-width:46em;margin:4em auto;line-height:1.5}</style>"
        f"</head><body><h1>{html.escape(title)}</h1><p>{html.escape(message)}</p></body></html>"
    )
    response = web.Response(text=body, status=status, content_type="text/html")
    secure_headers(response)
    return response


def secure_headers(response: web.StreamResponse, connect: str = "") -> None:
    """No framing (a foreign page cannot overlay the app and catch keys), no referrer (the
    first URL carries the token), nothing cached, and assets from this server only."""
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        f"connect-src 'self' {connect}; frame-ancestors 'none'; base-uri 'none'; "
        "form-action 'self'"
    ).replace("  ", " ")
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "no-store"


def full_page(limit: int) -> web.Response:
    """The answer while `limit` sessions are open."""
    return page(
        "The server is full",
        f"{limit} sessions are open, the most this server runs at once. Close another tab or "
        "try again in a minute (a lead can raise `w2c serve --max-sessions`).",
        503,
    )
