"""CPU hogs that keep the machine busy while a benchmark runs (`--busy N`): N processes that
spin, started before the first timed run and stopped after the last."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

SPIN = "while True: pass"


@contextmanager
def busy(n: int) -> Iterator[None]:
    """Run `n` spinning processes while the block runs."""
    hogs = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(n)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.terminate()
        for hog in hogs:
            hog.wait(timeout=10)
