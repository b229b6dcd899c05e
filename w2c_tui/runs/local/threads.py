"""How many threads the local backend computes with: the cores this process may use (its CPU
affinity and cgroup quota) less what other processes keep busy (the 1-minute load average), at
least one; and OpenMP threads that sleep while they wait instead of spinning.

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

CGROUP_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")


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
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = 0.0
    free = max(1, min(cores, math.floor(cores - load + 0.5)))
    return ThreadPlan(free, f"{cores} usable core(s), load average {load:.1f}")


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
