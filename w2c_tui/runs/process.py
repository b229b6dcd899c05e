"""Run worker processes: started with the database URL in their environment (never on the
command line, where `ps` and /proc/PID/cmdline show it to every user), and known alive from the
process itself — the `Popen` the launcher holds, or psutil with the process's start time (a
pid alone may have been reused; a killed child that nobody reaped is a zombie, not alive)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

DB_ENV = "W2C_DB"
"""The variable the worker reads its database URL from (the CLI's `--db` falls back to it)."""
START_TOLERANCE_S = 1.0
"""How far a process's start time may differ from the recorded one and still be the worker."""


def worker_command(run_id: int) -> list[str]:
    """The worker's argv: no database URL, no secret."""
    return [sys.executable, "-m", "w2c_tui", "run", "worker", str(run_id)]


def launch_worker(run_id: int, db_url: str, log_path: Path) -> subprocess.Popen[bytes]:
    """Start the worker in its own session (closing the terminal or the TUI does not stop it);
    its stdout and stderr go to the run's log (a crash before logging starts lands there)."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, DB_ENV: db_url}
    with open(log_path, "ab") as log:
        return subprocess.Popen(
            worker_command(run_id),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=env,
        )


def start_time(pid: int) -> float | None:
    """The process's start time (seconds since the epoch), None when it is gone."""
    import psutil

    try:
        return float(psutil.Process(pid).create_time())
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return None


def alive(pid: int | None, started: float | None) -> bool:
    """Whether the process `pid` (started at `started`, when known) still runs on this machine:
    False for no such process, a zombie (killed, not yet reaped), or another process that got
    the same pid later."""
    import psutil

    if not pid:
        return False
    try:
        process = psutil.Process(pid)
        if process.status() in (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD):
            return False
        if started is not None and abs(process.create_time() - started) > START_TOLERANCE_S:
            return False
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return False
    except psutil.AccessDenied:
        return True  # another user's process exists: the best we can tell
    return True
