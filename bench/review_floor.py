"""Section 4b: the floor apps (floor_app.py, bare_app.py) over the same items, and the ratios
of the review screen's figures to theirs."""

from __future__ import annotations

import time
from collections.abc import Callable

from bare_app import BareApp, bare_item
from floor_app import FloorApp, FloorItem
from review_data import ANNOTATOR, DATASET
from review_figures import Report, percentile
from review_tui import SIZE, Steps, settle, timed_steps
from textual.app import App

from w2c_tui.domain.review import ItemFilter, ListOrder, ReviewMode
from w2c_tui.services import Services

RATIO_TARGET = 1.25
"""The review screen's next item against the floor app's (p95)."""
BARE_RATIO_TARGET = 1.5
"""The review screen's next item and label key against the bare app's next item (p95)."""


def floor_items(services: Services, n: int) -> list[FloorItem]:
    """The first `n` items of the review list, in the order the review screen shows them in
    response labelling (blind: shuffled per annotator), with the texts the screen shows."""
    review = services.review
    flt = ItemFilter().with_(order=ListOrder.SHUFFLED)
    rows = review.window(DATASET, flt, ReviewMode.RESPONSES, ANNOTATOR, 0, n)
    out = []
    for row in rows:
        detail = review.detail(row.id, ANNOTATOR)
        item = detail.item
        responses = tuple(
            r.text for panel in detail.models for r in panel.responses if r.text is not None
        )
        out.append(
            FloorItem(
                uuid=item.uuid,
                question=item.question,
                tools=tuple(tool.signature for tool in item.tools),
                answers=tuple((name, text) for name, text in item.answers),
                responses=responses,
                tool_names=tuple(tool.name for tool in item.tools),
            )
        )
    return out


async def _next_items(app: App[None], step: Callable[[], None], moves: int) -> Steps:
    """`moves` next-item steps of a floor app, measured as the review screen's are."""
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.pause()

        async def next_item() -> float:
            return _timed(step)

        return await timed_steps(pilot, moves, next_item)


async def bench_floor(report: Report, services: Services, moves: int, ours: Steps) -> Steps:
    """Next item in the floor app and in the bare app, measured as the review screen's next
    item is (returns the bare app's steps)."""
    items = floor_items(services, moves + 1)
    floor_app = FloorApp(items)
    floor = await _next_items(floor_app, floor_app.next_item, moves)
    floor.report(report, "floor", "floor app: next item", None)
    ratios(report, "floor", "next item", ours, floor, "floor", RATIO_TARGET, both=True)
    bare_app = BareApp([bare_item(item, item.tool_names) for item in items])
    bare = await _next_items(bare_app, bare_app.next_item, moves)
    bare.report(report, "floor", "bare app: next item", None)
    return bare


def ratios(
    report: Report,
    section: str,
    name: str,
    ours: Steps,
    base: Steps,
    base_name: str,
    target: float,
    *,
    both: bool,
) -> None:
    """Our p95 (and p50 when `both`) over the base's, the p95 held to `target`."""
    for pct in (50, 95) if both else (95,):
        mine = percentile(sorted(ours.work), pct)
        theirs = percentile(sorted(base.work), pct)
        report.add(
            section,
            f"{name} p{pct}: w2c-tui / {base_name}",
            mine / theirs,
            "×",
            target if pct == 95 else None,
            note=f"{mine * 1000:.1f} ms / {theirs * 1000:.1f} ms",
        )


def report_goals(
    report: Report, moves: dict[str, Steps], keys: dict[str, Steps], bare: Steps
) -> None:
    """The goals against the bare app: next item p50 / p95 (p95 ≤ 1.5× the bare app's next
    item) and each place's label key p95 (≤ 1.5× the bare app's next item p95)."""
    for place, steps in moves.items():
        ratios(
            report,
            "goals",
            f"next item, {place},",
            steps,
            bare,
            "bare",
            BARE_RATIO_TARGET,
            both=True,
        )
    for place, steps in keys.items():
        mine = percentile(sorted(steps.work), 95)
        theirs = percentile(sorted(bare.work), 95)
        report.add(
            "goals",
            f"key 1, {place}, p95 / bare next p95",
            mine / theirs,
            "×",
            BARE_RATIO_TARGET,
            note=f"{mine * 1000:.1f} ms / {theirs * 1000:.1f} ms",
        )
    # The same ratios over the steps that ran while the machine was at its usual speed (both
    # sides; review_figures.machine_probe): what the code costs, without the VM's bursts.
    theirs = percentile(sorted(bare.quiet()), 95)
    for name, places in (("next item", moves), ("key 1", keys)):
        for place, steps in places.items():
            mine = percentile(sorted(steps.quiet()), 95)
            report.add(
                "goals",
                f"{name}, {place}, p95 / bare next p95, usual-speed steps",
                mine / theirs,
                "×",
                note=f"{mine * 1000:.1f} ms / {theirs * 1000:.1f} ms",
            )


def _timed(step: Callable[[], None]) -> float:
    start = time.perf_counter()
    step()
    return time.perf_counter() - start
