"""A run's log: stdlib logging to `annotations/runs/<database>-<hash>-run-<id>.log`, secrets
scrubbed from every line, library warnings included.

The file is named per database and run (two databases' run 3 are two files): the database's
file or name, then 8 hex of the sha256 of its URL without the password. Every line goes
through `Redacting`, which replaces the database password and the API key wherever they occur.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

LOGGER = "w2c"
FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
QUIET = ("httpx", "httpx2", "httpcore", "httpcore2", "openai", "urllib3", "filelock", "asyncio")
"""Libraries that log every request at INFO: only their warnings reach a run's log."""
SECRET_KEYS = re.compile(r"pass|pwd|secret|token|key", re.IGNORECASE)
UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def url_secrets(url: str) -> list[str]:
    """The password of a database URL and the values of query parameters named like secrets."""
    parts = urlsplit(url)
    found = [parts.password] if parts.password else []
    found += [v for k, v in parse_qsl(parts.query) if SECRET_KEYS.search(k) and v]
    return [s for s in found if len(s) >= 3]


def public_db_url(url: str) -> str:
    """The URL with its password and secret-looking query values replaced by ***."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password:
        user, _, host = netloc.rpartition("@")
        name = user.split(":", 1)[0]
        netloc = f"{name}:***@{host}"
    query = urlencode(
        [(k, "***" if SECRET_KEYS.search(k) else v) for k, v in parse_qsl(parts.query)],
        safe="*",
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def log_file_name(db_url: str, run_id: int) -> str:
    """`<database>-<hash8>-run-<id>.log`: one name per database and run."""
    parts = urlsplit(db_url)
    stem = Path(parts.path).stem or parts.hostname or "db"
    stem = UNSAFE.sub("_", stem).strip("._") or "db"
    digest = hashlib.sha256(public_db_url(db_url).encode("utf-8")).hexdigest()[:8]
    return f"{stem[:40]}-{digest}-run-{run_id}.log"


class Redacting(logging.Formatter):
    """A formatter that replaces every secret in the finished line (tracebacks included)."""

    def __init__(self, secrets: Sequence[str]) -> None:
        super().__init__(FORMAT)
        self._secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        """The line, secrets scrubbed."""
        return self.scrub(super().format(record))

    def scrub(self, text: str) -> str:
        """`text` with every secret replaced by ***."""
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text


@contextmanager
def run_logging(path: Path, secrets: Sequence[str]) -> Iterator[logging.Logger]:
    """Log everything (our `w2c.*` loggers at INFO, libraries' warnings, `warnings.warn`) to
    `path` while the block runs; the run's logger is yielded."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(Redacting(secrets))
    root = logging.getLogger()
    before = root.level
    quiet = {name: logging.getLogger(name).level for name in QUIET}
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    for name in QUIET:
        logging.getLogger(name).setLevel(logging.WARNING)
    logging.captureWarnings(True)
    try:
        yield logging.getLogger(f"{LOGGER}.run")
    finally:
        logging.captureWarnings(False)
        root.removeHandler(handler)
        root.setLevel(before)
        for name, level in quiet.items():
            logging.getLogger(name).setLevel(level)
        handler.close()
