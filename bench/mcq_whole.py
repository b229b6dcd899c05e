"""bench_mcq.py --whole: the whole `w2c run start --wait` command, as issue 21 states its goal
(the run's process from start to exit: the CLI, the database, the worker, the executor)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

Timed = Callable[[list[str], dict[str, str], Path], dict[str, float]]


def whole_command(
    model: Path,
    data: Path,
    limit: int | None,
    work: Path,
    env: dict[str, str],
    k: int,
    timed: Timed,
) -> dict[str, Any]:
    """Import `data` into a new database (not timed), then time `w2c run start --wait` on it
    (mcq_logprob, transformers, `model`, the first `limit` items); its wall and CPU seconds,
    and the run's result line."""
    w2c = str(Path(sys.executable).with_name("w2c"))
    db = work / f"whole-{k}.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    env = dict(env, W2C_CONFIG=str(work / "whole-config.toml"))
    subprocess.run(
        [w2c, "--db", str(db), "import", str(data)], env=env, check=True, capture_output=True
    )
    log = work / f"whole-{k}.log"
    figures = timed(
        [
            w2c,
            "--db",
            str(db),
            "run",
            "start",
            "--method",
            "mcq_logprob",
            "--backend",
            "transformers",
            "--model",
            str(model),
            "--wait",
            *(["--limit", str(limit)] if limit is not None else []),
        ],
        env,
        log,
    )
    done = [line for line in log.read_text(encoding="utf-8").splitlines() if ": done (" in line]
    if not done or ", 0 errors" not in done[-1]:
        raise SystemExit(f"the whole command did not finish cleanly: see {log}")
    return {**figures, "result": done[-1]}
