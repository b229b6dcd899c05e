"""The local backend's thread plan: the free usable cores, or what the user asked for."""

from __future__ import annotations

from pathlib import Path

import pytest

from w2c_tui.runs.local import threads


@pytest.fixture
def machine(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Four cores in the affinity mask, no cgroup quota, no OMP_NUM_THREADS."""
    monkeypatch.setattr(threads.os, "sched_getaffinity", lambda _pid: {0, 1, 2, 3})
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    quota = tmp_path / "cpu.max"
    quota.write_text("max 100000\n")
    monkeypatch.setattr(threads, "CGROUP_CPU_MAX", quota)
    return quota


@pytest.mark.parametrize(("load", "expected"), [(0.0, 4), (0.6, 3), (1.4, 3), (3.5, 1), (9.0, 1)])
def test_free_cores_from_the_load_average_where_cpu_times_are_unreadable(
    machine: Path, monkeypatch: pytest.MonkeyPatch, load: float, expected: int
) -> None:
    monkeypatch.setattr(threads, "busy_cores", lambda: None)
    monkeypatch.setattr(threads.os, "getloadavg", lambda: (load, 0.0, 0.0))
    plan = threads.plan_threads()
    assert plan.threads == expected and f"load average {load:.1f}" in plan.reason


@pytest.mark.parametrize(
    ("shares", "expected"),
    [([0, 0, 0, 0], 4), ([30, 30, 0, 0], 3), ([100, 40, 0, 0], 3), ([100, 100, 90, 0], 1)],
)
def test_free_cores_from_what_the_cpus_do_now(
    machine: Path, monkeypatch: pytest.MonkeyPatch, shares: list[float], expected: int
) -> None:
    # the load average still says busy (finished processes, ours too): it is not asked
    monkeypatch.setattr(threads.os, "getloadavg", lambda: (0.9 * 4, 0.0, 0.0))
    asked: list[float] = []

    def percent(interval: float, percpu: bool) -> list[float]:
        asked.append(interval)
        return [*shares, 100.0, 100.0]  # CPUs 4 and 5 are outside the affinity mask

    monkeypatch.setattr(threads.psutil, "cpu_percent", percent)
    plan = threads.plan_threads()
    assert plan.threads == expected and asked == [threads.SAMPLE_S]
    assert f"{sum(shares) / 100:.1f} busy now" in plan.reason


def test_an_idle_cpu_reads_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real sample on this machine: a number of busy cores between 0 and the CPUs."""
    busy = threads.busy_cores(0.05)
    assert busy is not None and 0.0 <= busy <= (threads.os.cpu_count() or 1)


def test_a_cgroup_quota_caps_the_cores(machine: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threads, "busy_cores", lambda: 0.0)
    machine.write_text("200000 100000\n")
    assert threads.usable_cores() == 2 and threads.plan_threads().threads == 2
    machine.write_text("50000 100000\n")
    assert threads.usable_cores() == 1


def test_the_user_decides_first(machine: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threads, "busy_cores", lambda: 9.0)
    assert threads.plan_threads(3) == threads.ThreadPlan(3, "--threads")
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    assert threads.plan_threads() == threads.ThreadPlan(2, "OMP_NUM_THREADS")
