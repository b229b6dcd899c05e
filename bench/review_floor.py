"""Section 4b: the floor app (floor_app.py) over the same items, and the ratio to w2c-tui."""

from __future__ import annotations

import time
from collections.abc import Callable

from floor_app import BareApp, FloorApp, FloorItem
from review_data import ANNOTATOR, DATASET
from review_figures import Report, percentile
from review_tui import SIZE, Steps, settle, timed_steps

from w2c_tui.domain.review import ItemFilter, ListOrder, ReviewMode
from w2c_tui.services import Services

RATIO_TARGET = 1.25
BARE_TARGET = 1.5
"""Issue 21: the review screen's next item and label key, p95, within 1.5× of the bare app's
next item."""


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
            )
        )
    return out


async def bench_floor(report: Report, services: Services, moves: int, ours: Steps) -> None:
    """Next item in the floor app, measured as the review screen's next item is."""
    app = FloorApp(floor_items(services, moves + 1))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.pause()

        async def next_item() -> float:
            return _timed(app.next_item)

        floor = await timed_steps(pilot, moves, next_item)
    floor.report(report, "floor", "floor app: next item", None)
    for pct in (50, 95):
        mine = percentile(sorted(ours.work), pct)
        base = percentile(sorted(floor.work), pct)
        report.add(
            "floor",
            f"next item p{pct}: w2c-tui / floor",
            mine / base,
            "×",
            RATIO_TARGET if pct == 95 else None,
            note=f"{mine * 1000:.1f} ms / {base * 1000:.1f} ms",
        )


async def bench_bare(
    report: Report, services: Services, moves: int, ours: Steps, keys: Steps | None
) -> None:
    """Next item in the bare floor (floor_app.BareApp), measured as the review screen's is,
    and the review screen's next item and label key against it."""
    app = BareApp(floor_items(services, moves + 1))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.pause()

        async def next_item() -> float:
            return _timed(app.next_item)

        bare = await timed_steps(pilot, moves, next_item)
    bare.report(report, "floor", "bare app: next item", None)
    for pct in (50, 95):
        base = percentile(sorted(bare.work), pct)
        mine = percentile(sorted(ours.work), pct)
        report.add(
            "floor",
            f"next item p{pct}: w2c-tui / bare app",
            mine / base,
            "×",
            BARE_TARGET if pct == 95 else None,
            note=f"{mine * 1000:.1f} ms / {base * 1000:.1f} ms",
        )
        if keys is not None and pct == 95:
            key = percentile(sorted(keys.work), pct)
            report.add(
                "floor",
                "label key 1 p95: w2c-tui / bare app's next item",
                key / base,
                "×",
                BARE_TARGET,
                note=f"{key * 1000:.1f} ms / {base * 1000:.1f} ms",
            )


def _timed(step: Callable[[], None]) -> float:
    start = time.perf_counter()
    step()
    return time.perf_counter() - start
