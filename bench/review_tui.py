"""The benchmark's Textual part: opening the review screen, next item, label keys, the floor."""

from __future__ import annotations

import asyncio
import gc
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from review_data import ANNOTATOR, DATASET
from review_figures import SLOWED, Report, machine_probe, median_ms, percentile, stopwatch
from textual import events
from textual.app import App
from textual.pilot import Pilot

from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.review import ReviewScreen

SIZE = (160, 45)
OPEN_REPEATS = 5
TARGET_OPEN_S = 1.0
TARGET_NEXT_P95_MS = 50.0


async def settle(pilot: Pilot[None]) -> None:
    """Let every queued message run, then paint the screen (no idle-detection sleep)."""
    await pilot._wait_for_screen()
    pilot.app.screen._on_timer_update()
    await pilot._wait_for_screen()


async def wait_until(pilot: Pilot[None], ready: Callable[[], bool], limit_s: float = 60) -> None:
    """Yield to the app until `ready()` holds."""
    deadline = time.perf_counter() + limit_s
    while not ready():
        if time.perf_counter() > deadline:
            raise TimeoutError("the app did not reach the expected state")
        await asyncio.sleep(0)


def shows_item(app: App[None]) -> bool:
    """True once the review screen is current and shows an item."""
    return isinstance(app.screen, ReviewScreen) and app.screen.state.detail is not None


def review_screen(app: W2CApp) -> ReviewScreen:
    """The app's review screen (asserting it is the current one)."""
    screen = app.screen
    assert isinstance(screen, ReviewScreen), screen
    return screen


def new_app(services: Services) -> W2CApp:
    """A fresh app on the benchmark dataset, as `w2c --annotator bench` opens it."""
    return W2CApp(services, annotator=ANNOTATOR, dataset=DATASET, remember_annotator=False)


async def bench_open(report: Report, services: Services) -> None:
    """Section 3: constructing the app until the review screen shows its first item."""
    samples: list[float] = []
    paused: list[float] = []
    for _ in range(OPEN_REPEATS):
        start = time.perf_counter()
        app = new_app(services)
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: shows_item(pilot.app))
            await settle(pilot)
            samples.append(time.perf_counter() - start)
            while not shows_item(app):  # the brief's loop; here it only adds the idle wait
                await pilot.pause()
            await pilot.pause()
            paused.append(time.perf_counter() - start)
    ordered = sorted(samples)
    report.add("open", "review screen open min", ordered[0], "s")
    report.add("open", "review screen open median", statistics.median(ordered), "s", TARGET_OPEN_S)
    report.add("open", "review screen open max", ordered[-1], "s")
    report.add("open", "open incl. pilot.pause() median", statistics.median(paused), "s")
    # What the open does against the store, piece by piece (one call each, warm cache).
    review = services.review
    flt = ItemFilter()
    mode = ReviewMode.RESPONSES
    pieces: list[tuple[str, Callable[[], object]]] = [
        ("datasets.all (called twice on open)", services.datasets.all),
        ("review.count", lambda: review.count(DATASET, flt, mode, ANNOTATOR)),
        ("review.window(0, 200)", lambda: review.window(DATASET, flt, mode, ANNOTATOR, 0, 200)),
        ("review.progress", lambda: review.progress(DATASET, mode, ANNOTATOR)),
    ]
    first = review.window(DATASET, flt, mode, ANNOTATOR, 0, 1)[0]
    pieces.append(("review.detail", lambda: review.detail(first.id, ANNOTATOR)))
    for name, call in pieces:
        value, _ = median_ms(call)
        report.add("open", f"  part: {name}", value, "ms")


@dataclass
class Steps:
    """Per-step seconds: until painted, the synchronous part, and including `pilot.pause()`."""

    work: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    ui_cpu: list[float] = field(default_factory=list)
    """CPU time of the UI thread alone (`cpu` also counts the screen's read-ahead thread)."""
    sync: list[float] = field(default_factory=list)
    paused: list[float] = field(default_factory=list)
    gc_pauses: list[float] = field(default_factory=list)
    gc_idle: list[float] = field(default_factory=list)
    """Full collections between the steps (outside the figures)."""
    probe: list[float] = field(default_factory=list)
    """The machine probe beside each step (the slower of one just before and one just after)."""

    def slowed(self) -> list[bool]:
        """Per step: it ran on a slowed machine (a probe beside it over SLOWED × the median)."""
        usual = statistics.median(self.probe)
        return [p > SLOWED * usual for p in self.probe]

    def quiet(self) -> list[float]:
        """The steps' seconds, less those that ran on a slowed machine."""
        return [w for w, slow in zip(self.work, self.slowed(), strict=True) if not slow]

    def report(self, report: Report, section: str, name: str, target: float | None) -> None:
        """Add the step figures to `report`."""
        report.add_spread(section, name, self.work, target, cpu_s=self.cpu, ui_cpu_s=self.ui_cpu)
        report.add_spread(section, f"{name}: sync part", self.sync, with_max=False)
        ms = sorted(self.paused)
        report.add(section, f"{name} incl. pilot.pause() p50", percentile(ms, 50) * 1000, "ms")
        total = sum(self.gc_pauses) * 1000
        report.add(
            section,
            f"{name}: gen-2 GC pauses",
            len(self.gc_pauses),
            "count",
            note=f"{total:.0f} ms in all, longest {max(self.gc_pauses, default=0) * 1000:.0f} ms; "
            f"{len(self.gc_idle)} more between steps",
        )
        quiet = sorted(self.quiet())
        report.add(
            section,
            f"{name}: steps on a slowed machine",
            len(self.work) - len(quiet),
            "count",
            note=f"the others: p50 {percentile(quiet, 50) * 1000:.1f} ms, "
            f"p95 {percentile(quiet, 95) * 1000:.1f} ms",
        )


class GcWatch:
    """Records how long each full (generation 2) garbage collection takes: those inside a
    measured step, and those between steps (the review screen collects while idle)."""

    def __init__(self, into: list[float], idle: list[float]) -> None:
        self._into = into
        self._idle = idle
        self._started = 0.0
        self.measuring = False

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            took = time.perf_counter() - self._started
            (self._into if self.measuring else self._idle).append(took)

    def __enter__(self) -> GcWatch:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self._callback)


async def timed_steps(
    pilot: Pilot[None], steps: int, step: Callable[[], Awaitable[float]]
) -> Steps:
    """Run `step` (which returns its synchronous seconds) `steps` times, timing each."""
    out = Steps()
    with GcWatch(out.gc_pauses, out.gc_idle) as watch:
        for _ in range(steps):
            before = machine_probe()
            watch.measuring = True
            start = time.perf_counter()
            cpu_start, ui_start = time.process_time(), time.thread_time()
            out.sync.append(await step())
            await settle(pilot)
            out.work.append(time.perf_counter() - start)
            out.cpu.append(time.process_time() - cpu_start)
            out.ui_cpu.append(time.thread_time() - ui_start)
            watch.measuring = False
            out.probe.append(max(before, machine_probe()))
            await pilot.pause()
            out.paused.append(time.perf_counter() - start)
    return out


async def bench_moves(
    report: Report, services: Services, moves: int, deep: int
) -> dict[str, Steps]:
    """Section 4: next item, at the top of the list and deep down (the steps by place)."""
    app = new_app(services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: shows_item(app))
        await pilot.pause()
        screen = review_screen(app)

        async def next_item() -> float:
            start = time.perf_counter()
            screen.action_move(1)
            return time.perf_counter() - start

        top = await timed_steps(pilot, moves, next_item)
        top.report(report, "next", "top: next item", TARGET_NEXT_P95_MS)
        took: list[float] = []
        with stopwatch(took):
            screen.action_move(deep - screen.state.index)
            await settle(pilot)
        report.add("next", f"jump {deep} rows down", took[-1] * 1000, "ms")
        await pilot.pause()
        steps = await timed_steps(pilot, moves, next_item)
        steps.report(report, "next", f"deep (row {deep}+): next item", TARGET_NEXT_P95_MS)
    return {"top": top, f"row {deep}+": steps}


async def bench_label_keys(
    report: Report, services: Services, keys: int, deep: int
) -> dict[str, Steps]:
    """Section 5b: the whole keypress "1" (label, commit, reload, move on) in the TUI (the
    steps by place)."""
    out: dict[str, Steps] = {}
    app = new_app(services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: shows_item(app))
        await pilot.pause()
        screen = review_screen(app)

        async def press_one() -> float:
            before = len(screen.state.undo_stack)
            start = time.perf_counter()
            app.post_message(events.Key("1", "1"))
            await wait_until(pilot, lambda: len(screen.state.undo_stack) > before)
            return time.perf_counter() - start

        steps = out["responses, top"] = await timed_steps(pilot, keys, press_one)
        steps.report(report, "keypress", "responses mode, top: key 1", None)
        screen.action_toggle_mode()
        await pilot.pause()
        assert screen.mode is ReviewMode.ITEM_QA
        screen.action_move(keys * 2 - screen.state.index)
        await pilot.pause()
        steps = out["item QA, top"] = await timed_steps(pilot, keys, press_one)
        steps.report(report, "keypress", "item QA, top: key 1", None)
        screen.action_move(deep - screen.state.index)
        await pilot.pause()
        steps = out[f"item QA, row {deep}"] = await timed_steps(pilot, keys, press_one)
        steps.report(report, "keypress", f"item QA, deep (row {deep}): key 1", None)
    return out
