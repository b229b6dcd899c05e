"""How many threads the local backend computes with: the cores this process may use (its CPU
affinity and cgroup quota) less what other processes keep busy now, at least one; and OpenMP
threads that sleep while they wait instead of spinning.

"Busy now" is a sample of the usable CPUs' busy time (from /proc/stat through psutil) less this
process's own CPU time: it starts when the executor is made and is read when the model is about
to load, so the imports of torch and transformers (seconds) are the window and nothing waits for
it; a window shorter than SAMPLE_S is waited out. (Before, the process slept SAMPLE_S to take
the sample: 0.25 s of every run.) The 1-minute load average, used before, still holds
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
import time
from collections.abc import Sequence
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


def decided(requested: int | None = None) -> ThreadPlan | None:
    """The plan when the user decides it: `requested` (--threads), else OMP_NUM_THREADS."""
    if requested:
        return ThreadPlan(requested, "--threads")
    env = os.environ.get("OMP_NUM_THREADS", "")
    if env.isdigit() and int(env) > 0:
        return ThreadPlan(int(env), "OMP_NUM_THREADS")
    return None


def plan_threads(
    requested: int | None = None, sample: BusySample | None = None, ours: Sequence[int] = ()
) -> ThreadPlan:
    """The plan: `requested` (--threads), else OMP_NUM_THREADS, else the free usable cores
    (other processes' busy share from `sample` where given, else from a SAMPLE_S wait; the
    processes `ours`, this run's helpers, are not other processes)."""
    plan = decided(requested)
    if plan is not None:
        return plan
    cores = usable_cores()
    busy = sample.busy(ours=ours) if sample is not None else busy_cores()
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


class BusySample:
    """How many of this process's CPUs other processes keep busy from now until `busy()`: the
    usable CPUs' busy time over the window less this process's own CPU time (all its threads),
    so the process can work meanwhile (import torch) instead of sleeping through the sample."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.own = _own_cpu()
        self.cpus = _busy_times()

    def busy(self, min_s: float = SAMPLE_S, ours: Sequence[int] = ()) -> float | None:
        """Busy cores (None where the CPU times cannot be read); waits out a window shorter
        than `min_s`. `ours`: processes started within the window whose CPU time is this
        run's own (its helpers), not other processes' demand."""
        left = min_s - (time.monotonic() - self.started)
        if left > 0:
            time.sleep(left)
        now = _busy_times()
        wall = time.monotonic() - self.started
        if self.cpus is None or now is None or wall <= 0:
            return None
        others = sum(now) - sum(self.cpus) - (_own_cpu() - self.own) - _cpu_of(ours)
        return max(0.0, others / wall)


def _own_cpu() -> float:
    times = os.times()
    return times.user + times.system


def _cpu_of(pids: Sequence[int]) -> float:
    """The CPU seconds the processes `pids` have used (those already gone count nothing)."""
    total = 0.0
    for pid in pids:
        try:
            times = psutil.Process(pid).cpu_times()
        except (psutil.Error, OSError):
            continue
        total += times.user + times.system
    return total


def _busy_times() -> list[float] | None:
    """Busy seconds so far of each CPU in the affinity mask (psutil's busy: all but idle and
    iowait, guest time counted once)."""
    try:
        allowed = os.sched_getaffinity(0)
    except (AttributeError, OSError):
        allowed = None
    try:
        per_cpu = psutil.cpu_times(percpu=True)
    except (OSError, RuntimeError, NotImplementedError):
        return None
    busy = []
    for i, cpu in enumerate(per_cpu):
        if allowed is not None and i not in allowed:
            continue
        fields = cpu._asdict()
        total = sum(fields.values()) - fields.get("guest", 0.0) - fields.get("guest_nice", 0.0)
        busy.append(total - fields.get("idle", 0.0) - fields.get("iowait", 0.0))
    return busy or None


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
