"""What a crash leaves behind: the traceback in a log file (secrets scrubbed) and one short line
for the user that names it."""

from __future__ import annotations

import os
import traceback
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from w2c_tui.domain.names import printable
from w2c_tui.paths import annotations_dir


def crash_log_path() -> Path:
    """`annotations/logs/crash-<UTC time>.log` (W2C_ANNOTATIONS_DIR moves it)."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    return annotations_dir() / "logs" / f"crash-{stamp}.log"


def _secrets(extra: Sequence[str]) -> list[str]:
    from w2c_tui.runs.runlog import url_secrets

    found = [s for url in (os.environ.get("W2C_DB"), *extra) if url for s in url_secrets(url)]
    return sorted(set(found), key=len, reverse=True)


def write_crash_log(error: BaseException, db_urls: Sequence[str | None] = ()) -> Path | None:
    """Write the traceback to a new crash log; its path (None if it could not be written)."""
    text = "".join(traceback.format_exception(error))
    for secret in _secrets([u for u in db_urls if u]):
        text = text.replace(secret, "***")
    path = crash_log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError:
        return None
    return path


def crash_message(error: BaseException, path: Path | None) -> str:
    """One line: what went wrong and where the details are."""
    where = f"details in {path}" if path else "the details could not be written to a log"
    first = printable(str(error).splitlines()[0][:200]) if str(error) else ""
    return f"w2c stopped on an unexpected error: {type(error).__name__}: {first} ({where})"
