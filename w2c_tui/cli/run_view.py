"""How `w2c run` shows runs: the JSON of one run, and a foreground run's progress bar."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from w2c_tui.domain.runs import RunInfo


def info_json(info: RunInfo) -> dict[str, object]:
    """One run as `--json` prints it (no secret: the key's variable name, never the key)."""
    return {
        "run_id": info.id,
        "status": info.status.value,
        "status_text": info.status_text,
        "method": info.config.method.value,
        "backend": info.config.backend.value,
        "model": info.config.model,
        "dataset": info.config.dataset,
        "target_model": info.config.target_model,
        "n_total": info.n_total,
        "n_done": info.n_done,
        "n_error": info.n_error,
        "fingerprint": info.fingerprint,
        "rater": info.rater,
        "error": info.error,
        "pid": info.pid,
        "log": info.log_path,
        "created_at": info.created_at.isoformat(),
        "started_at": info.started_at.isoformat() if info.started_at else None,
        "finished_at": info.finished_at.isoformat() if info.finished_at else None,
    }


def foreground(svc: object, run_id: int) -> RunInfo:
    """Execute the run here with a progress bar on stderr (when it is a terminal)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from w2c_tui.services import Services

    assert isinstance(svc, Services)
    bar = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not sys.stderr.isatty(),
    )
    with bar:
        task = bar.add_task(f"run {run_id}", total=None)

        def progress(info: RunInfo) -> None:
            bar.update(task, completed=info.n_done + info.n_error, total=info.n_total)

        return svc.runs.execute(run_id, progress)
