"""Start several Python processes, wait until each says `ready`, then release them at once."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any


def run_together(commands: list[list[str]], timeout: float = 300) -> list[Any]:
    """Run each command (argv after the interpreter); returns each one's last stdout line as
    JSON (or None). A process that fails raises AssertionError with its stderr."""
    processes = [
        subprocess.Popen(
            [sys.executable, *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for argv in commands
    ]
    for process in processes:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.strip() == "ready", process.communicate(timeout=timeout)[1]
    for process in processes:  # release them as close together as possible
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()
    results = []
    for process in processes:
        out, err = process.communicate(timeout=timeout)
        assert process.returncode == 0, err
        last = out.strip().splitlines()[-1] if out.strip() else ""
        results.append(json.loads(last) if last.startswith(("{", "[")) else None)
    return results
