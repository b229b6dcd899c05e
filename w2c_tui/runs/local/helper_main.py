"""A helper process of a log-prob MCQ run (`helpers.py`), started as
`python -m w2c_tui.runs.local.helper_main`.

It speaks JSON lines. On stdin: the settings first (model, dtype, template, bos), then
`{"threads": n}`, `{"items": [[key, answer names, prompt, choices], ...]}` chunks and
`{"end": true}`. On stdout: `{"ready": true}` once the model is loaded (`{"failed": why}` if it
cannot be), then `{"key": k, "result": {...}}` per item, in the order received. Anything else
that writes to stdout (a library's print) goes to stderr instead, so the replies stay readable.
It reads no database and writes nothing else; stdin closing (its parent gone) ends it.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import IO, Any

from w2c_tui.domain.runs import RunStartError, Task, TaskResult
from w2c_tui.runs.local.helper_process import Rendered
from w2c_tui.runs.local.loading import load, resolve_dtype
from w2c_tui.runs.local.mcq import McqRunner


def payload(result: TaskResult) -> dict[str, Any]:
    """What the parent needs to rebuild the result (`helpers.result_of`)."""
    return {
        "label": result.label.value if result.label is not None else None,
        "status": result.status.value if result.status is not None else None,
        "scores": result.scores,
        "error": result.error,
        "meta": result.meta,
    }


def stub(key: int, names: list[str]) -> Task:
    """A task that carries the key and the answer names (all the scorer reads of a task once
    the prompt is rendered)."""
    return Task(
        item_id=key,
        uuid=str(key),
        question="",
        tools=(),
        answers=tuple((name, "") for name in names),
        gold=None,
    )


def serve(settings: dict[str, Any], lines: IO[str], out: IO[str]) -> None:
    """Load the model, then score what arrives until `end` or the end of the input."""

    def send(message: dict[str, Any]) -> None:
        out.write(json.dumps(message) + "\n")
        out.flush()

    try:
        loaded = load(settings["model"], "cpu", resolve_dtype(settings["dtype"], "cpu"))
    except RunStartError as exc:
        send({"failed": str(exc)})
        return
    runner = McqRunner(loaded, settings["template"], bool(settings["bos"]), 1)
    send({"ready": True})
    for line in lines:
        message = json.loads(line)
        if message.get("end"):
            return
        if "threads" in message:
            import torch

            torch.set_num_threads(max(1, int(message["threads"])))
            continue
        rendered: list[Rendered] = [
            (stub(int(key), list(names)), str(prompt), list(choices))
            for key, names, prompt, choices in message["items"]
        ]
        for result in runner.score_rendered(rendered):
            send({"key": result.task.item_id, "result": payload(result)})


def main() -> None:
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # a library's print must not break the replies
    sys.stdout = sys.stderr
    settings = json.loads(sys.stdin.readline() or "{}")
    if not settings:
        return
    with contextlib.suppress(BrokenPipeError):  # the parent is gone
        serve(settings, sys.stdin, out)


if __name__ == "__main__":
    main()
