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


def test_a_sample_over_the_imports_leaves_out_this_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sample runs while this process imports torch: its own CPU time is not others'."""
    clock = iter([10.0, 12.0, 12.0])  # made; read 2 s later (no wait: longer than SAMPLE_S)
    monkeypatch.setattr(threads.time, "monotonic", lambda: next(clock))
    cpus = iter([[100.0, 50.0], [101.5, 52.5]])  # 4 busy CPU-seconds in the 2 s
    monkeypatch.setattr(threads, "_busy_times", lambda: next(cpus))
    own = iter([3.0, 5.0])  # 2 of them this process's
    monkeypatch.setattr(threads, "_own_cpu", lambda: next(own))
    monkeypatch.setattr(threads.time, "sleep", lambda _s: pytest.fail("waited"))
    assert threads.BusySample().busy() == pytest.approx(1.0)


def test_a_short_sample_is_waited_out(monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []
    clock = iter([10.0, 10.1, 10.25])
    monkeypatch.setattr(threads.time, "monotonic", lambda: next(clock))
    monkeypatch.setattr(threads.time, "sleep", slept.append)
    monkeypatch.setattr(threads, "_busy_times", lambda: [1.0])
    monkeypatch.setattr(threads, "_own_cpu", lambda: 0.0)
    assert threads.BusySample().busy() == 0.0 and slept == [pytest.approx(0.15)]


def test_the_plan_reads_a_running_sample(machine: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Sample:
        def busy(self, ours: object = ()) -> float:
            return 1.2

    monkeypatch.setattr(threads, "busy_cores", lambda: pytest.fail("slept for a sample"))
    plan = threads.plan_threads(sample=Sample())  # type: ignore[arg-type]
    assert plan.threads == 3 and "1.2 busy now" in plan.reason


def test_a_real_sample_reads_a_number_of_cores() -> None:
    busy = threads.BusySample().busy(0.05)
    assert busy is not None and 0.0 <= busy <= (threads.os.cpu_count() or 1)
