"""`w2c serve`'s web server: textual-serve's, letting in invited annotators only (server.py,
sessions.py, pages.py).

What it adds to `textual_serve.server.Server` (docs/team.md, "Serving to browsers"):

- **Invitations.** `GET /?token=T` checks T against the database (`w2c team invite`: only its
  SHA-256 is stored), sets it as an HttpOnly, SameSite=Strict cookie and redirects to `/`, so
  the token leaves the address bar and the history. Every page and websocket request checks
  the cookie again (a revoked or expired invitation stops working at once); without one the
  answer is 401 (no invitation) or 403 (an invitation that lets nobody in), and no app process
  is started. Open sessions of a revoked invitation are closed within `WATCH_S` seconds.
- **The person comes from the invitation.** Each session's app runs `w2c tui --invited` with
  W2C_ANNOTATOR set to the invited name (in its environment, never asked, never typed);
  `U`, `A` and the other lead's work need that person to be a lead.
- **Origin.** The websocket is refused (403, before anything starts) unless its Origin is the
  page's own origin (or `--public-url`'s): another web site open in the annotator's browser
  cannot drive their session.
- **A cap.** At most `max_sessions` apps at once; the page says so when the server is full.
- **Air-gapped.** The page is ours (page/index.html): textual-serve's JavaScript, its
  xterm CSS and its bundled Roboto Mono, all from `/static`; nothing from the internet, which
  the Content-Security-Policy also enforces.
"""
