"""How many threads the local backend computes with: the cores this process may use (its CPU
affinity and cgroup quota) less what other processes keep busy now, at least one; and OpenMP
threads that sleep while they wait instead of spinning.

"Busy now" is a short sample of the usable CPUs' busy time (SAMPLE_S, from /proc/stat through
psutil), taken while this process waits. The 1-minute load average, used before, still holds
processes that have finished, our own included: right after a run an idle machine read 0.9 and
the next run got 1 thread of 2 (33 s instead of 29 s). The load average remains the fallback
where the CPU times cannot be read.

Why: torch starts one OpenMP thread per core and, by default, its threads spin at every barrier.
Our log-prob passes are many small kernels, so on a 2-core machine shared with other work a
second thread mostly spins while its sibling is descheduled (bench/README.md measured runs 3-4x
slower than alone). `--threads N` or OMP_NUM_THREADS decide instead; the plan is recorded in the
run's description.
"""

from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import psutil

CGROUP_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")
SAMPLE_S = 0.25
"""How long the CPUs are watched before the plan (once per run, before the model loads)."""


@dataclass(frozen=True)
class ThreadPlan:
    """The threads to use and why."""

    threads: int
    reason: str


def usable_cores() -> int:
    """CPUs this process may run on: its affinity, capped by a cgroup (v2) CPU quota."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        quota, period = CGROUP_CPU_MAX.read_text().split()[:2]
        if quota != "max":
            cores = min(cores, max(1, math.floor(int(quota) / int(period))))
    except (OSError, ValueError):
        pass
    return max(1, cores)


def plan_threads(requested: int | None = None) -> ThreadPlan:
    """The plan: `requested` (--threads), else OMP_NUM_THREADS, else the free usable cores."""
    if requested:
        return ThreadPlan(requested, "--threads")
    env = os.environ.get("OMP_NUM_THREADS", "")
    if env.isdigit() and int(env) > 0:
        return ThreadPlan(int(env), "OMP_NUM_THREADS")
    cores = usable_cores()
    busy = busy_cores()
    if busy is not None:
        free = max(1, min(cores, math.floor(cores - busy + 0.5)))
        return ThreadPlan(free, f"{cores} usable core(s), {busy:.1f} busy now")
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = 0.0
    free = max(1, min(cores, math.floor(cores - load + 0.5)))
    return ThreadPlan(free, f"{cores} usable core(s), load average {load:.1f}")


def busy_cores(sample_s: float = SAMPLE_S) -> float | None:
    """How many of this process's CPUs other processes keep busy now: the busy share of each
    CPU in the affinity mask over `sample_s` seconds, summed (None where it cannot be read).
    This process sleeps meanwhile, so its own work is not counted."""
    try:
        allowed = os.sched_getaffinity(0)
    except (AttributeError, OSError):
        allowed = None
    try:
        shares = psutil.cpu_percent(interval=sample_s, percpu=True)
    except (OSError, RuntimeError, NotImplementedError):
        return None
    if not shares:
        return None
    picked = [p for i, p in enumerate(shares) if allowed is None or i in allowed]
    return float(sum(picked or shares)) / 100.0


def passive_waits() -> bool:
    """Make OpenMP threads sleep while they wait (only before torch is imported: OpenMP reads
    the setting when it starts); True when the setting is in force."""
    if "torch" not in sys.modules:
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    return os.environ.get("OMP_WAIT_POLICY", "").upper() == "PASSIVE"


def apply(plan: ThreadPlan) -> None:
    """Set torch's intra-op threads to the plan."""
    import torch

    if torch.get_num_threads() != plan.threads:
        torch.set_num_threads(plan.threads)
