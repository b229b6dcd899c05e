"""Benchmark figures: each measured number, the report table, and the machine it ran on."""

from __future__ import annotations

import math
import os
import platform
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

# ---- figures ------------------------------------------------------------------------------


@dataclass
class Figure:
    """One measured number, with its unit and (optionally) the target it is held to."""

    section: str
    name: str
    value: float
    unit: str
    target: float | None = None
    note: str = ""

    @property
    def met(self) -> bool | None:
        """True/False against the target (lower is better); None when there is none."""
        return None if self.target is None else self.value <= self.target


@dataclass
class Report:
    """Every figure of a run, plus the machine and the parameters."""

    machine: dict[str, Any]
    params: dict[str, Any]
    figures: list[Figure] = field(default_factory=list)

    def add(
        self,
        section: str,
        name: str,
        value: float,
        unit: str,
        target: float | None = None,
        note: str = "",
    ) -> None:
        """Record one figure (and show progress on stderr)."""
        self.figures.append(Figure(section, name, value, unit, target, note))
        print(f"  {section}: {name} = {value:.3f} {unit}", file=sys.stderr, flush=True)

    def add_spread(
        self,
        section: str,
        name: str,
        samples_s: list[float],
        target_p95_ms: float | None = None,
        *,
        cpu_s: list[float] | None = None,
        ui_cpu_s: list[float] | None = None,
        with_max: bool = True,
    ) -> None:
        """p50 / p95 (/ max) in ms of durations in seconds; CPU-time percentiles (the process's,
        and the UI thread's alone) as notes."""
        ms = sorted(s * 1000 for s in samples_s)
        cpu = sorted(s * 1000 for s in cpu_s) if cpu_s else None
        ui = sorted(s * 1000 for s in ui_cpu_s) if ui_cpu_s else None
        notes = [
            (f"cpu {percentile(cpu, pct):.1f} ms" if cpu else "")
            + (f", UI thread {percentile(ui, pct):.1f} ms" if ui else "")
            for pct in (50, 95)
        ]
        self.add(section, f"{name} p50", percentile(ms, 50), "ms", note=notes[0])
        self.add(section, f"{name} p95", percentile(ms, 95), "ms", target_p95_ms, note=notes[1])
        if with_max:
            self.add(section, f"{name} max", ms[-1], "ms", note=f"n={len(ms)}")

    def as_json(self) -> dict[str, Any]:
        """The report as one JSON-able document."""
        return {
            "machine": self.machine,
            "params": self.params,
            "figures": [
                {
                    "section": f.section,
                    "name": f.name,
                    "value": round(f.value, 4),
                    "unit": f.unit,
                    "target": f.target,
                    "met": f.met,
                    "note": f.note,
                }
                for f in self.figures
            ],
        }

    def table(self) -> str:
        """The figures as a plain-text table."""
        lines = [
            "machine: " + ", ".join(f"{k}={v}" for k, v in self.machine.items()),
            "params:  " + ", ".join(f"{k}={v}" for k, v in self.params.items()),
            "",
            f"{'section':<10} {'figure':<46} {'value':>12} {'unit':<7} {'target':<10} note",
        ]
        for f in self.figures:
            target = "" if f.target is None else f"≤ {f.target:g} " + ("ok" if f.met else "MISS")
            lines.append(
                f"{f.section:<10} {f.name:<46} {f.value:>12.3f} {f.unit:<7} {target:<10} {f.note}"
            )
        return "\n".join(lines)


PROBE_LOOPS = 20_000
"""Iterations of the machine probe's loop (~1 ms on the 2-core VM)."""
SLOWED = 1.3
"""A step ran on a slowed machine when a probe beside it took this many times its run's median."""


def machine_probe() -> float:
    """Seconds a fixed pure-Python loop takes now: how fast the machine is at this moment. On
    the shared 2-core VM it has bursts of 0.1-0.4 s in which every thread runs ~1.4x slower
    (the same loop, with nothing of ours running); a step in a burst is slow for no fault of
    the code, and a p95 of 200 steps is decided by how many bursts fell in the run."""
    start = time.perf_counter()
    total = 0
    for i in range(PROBE_LOOPS):
        total += i * i % 7
    return time.perf_counter() - start


def percentile(sorted_values: list[float], pct: float) -> float:
    """Nearest-rank percentile of an already sorted list."""
    rank = max(1, math.ceil(pct / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


@contextmanager
def stopwatch(out: list[float]) -> Iterator[None]:
    """Append the seconds the block took to `out`."""
    start = time.perf_counter()
    try:
        yield
    finally:
        out.append(time.perf_counter() - start)


def machine_info(workdir: Path) -> dict[str, Any]:
    """What the figures depend on: cores, Python, SQLite, the folder's file system."""
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu_model(),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "textual": version("textual"),
        "platform": platform.platform(terse=True),
        "workdir_fs": filesystem_type(workdir),
        "load_at_start": load_average(),
    }


def peak_rss_mib() -> float:
    """This process's peak resident memory in MiB (0 where the platform does not say)."""
    try:
        import resource
    except ImportError:
        return 0.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo; the platform's answer elsewhere)."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def load_average() -> str:
    """The 1-minute load average (other work on the machine skews the latencies)."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "unknown"


def filesystem_type(path: Path) -> str:
    """The file system holding `path` (from /proc/mounts; 'unknown' elsewhere)."""
    best, kind = "", "unknown"
    try:
        mounts = Path("/proc/mounts").read_text(encoding="utf-8").splitlines()
    except OSError:
        return kind
    resolved = str(path.resolve())
    for line in mounts:
        parts = line.split()
        if len(parts) >= 3 and resolved.startswith(parts[1]) and len(parts[1]) > len(best):
            best, kind = parts[1], parts[2]
    return kind


QUERY_REPEATS = 5


def median_ms(call: Callable[[], object], repeats: int = QUERY_REPEATS) -> tuple[float, str]:
    """(median milliseconds of `repeats` calls, a note with the first call's time)."""
    took: list[float] = []
    for _ in range(repeats):
        with stopwatch(took):
            call()
    return statistics.median(took) * 1000, f"first call {took[0] * 1000:.1f} ms"
