"""Section 4b: the floor app (floor_app.py) over the same items, and the ratio to w2c-tui."""

from __future__ import annotations

import time
from collections.abc import Callable

from floor_app import FloorApp, FloorItem
from review_data import ANNOTATOR, DATASET
from review_figures import Report, percentile
from review_tui import SIZE, Steps, settle, timed_steps

from w2c_tui.domain.review import ItemFilter, ListOrder, ReviewMode
from w2c_tui.services import Services

RATIO_TARGET = 1.25


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


def _timed(step: Callable[[], None]) -> float:
    start = time.perf_counter()
    step()
    return time.perf_counter() - start
