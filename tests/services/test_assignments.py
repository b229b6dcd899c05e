"""Assignment plans: exactly K annotators per unit, loads within ±1, reproducible, extendable."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest

from w2c_tui.domain.errors import W2CError
from w2c_tui.domain.labels import Label
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.domain.team import AssignUnits, Selection
from w2c_tui.services import Services, open_services

ITEMS = Selection(units=AssignUnits.ITEMS, per_label=20)


def _plan(svc: Services, dataset: str) -> dict[str, list[str]]:
    """annotator → uuids in queue order."""
    out: dict[str, list[str]] = {}
    for row in svc.assignments.show(dataset):
        out.setdefault(row.annotator, []).append(row.item_uuid)
    return out


def test_real_items_per_label_overlap_two(services: Services, judge_file: Path) -> None:
    services.imports.import_path(judge_file, dataset="real")
    assert services.assignments.default_units("real") is AssignUnits.ITEMS  # no responses
    report = services.assignments.assign(
        "real", ["a", "b", "c"], overlap=2, seed=1, selection=ITEMS
    )
    assert (report.selected, report.new_assignments) == (60, 120)
    assert report.loads == {"a": 40, "b": 40, "c": 40} and report.balanced
    rows = services.assignments.show("real")
    per_item = Counter(r.item_uuid for r in rows)
    assert len(per_item) == 60 and set(per_item.values()) == {2}
    gold = {r.item_uuid: services.review.find("real", r.item_uuid).gold for r in rows}
    assert Counter(gold[u] for u in per_item) == {
        Label.TOOL_CALL: 20,
        Label.REQUEST_FOR_INFO: 20,
        Label.CANNOT_ANSWER: 20,
    }
    again = services.assignments.assign("real", ["a", "b", "c"], overlap=2, seed=1, selection=ITEMS)
    assert not again.changed and again.new_assignments == 0
    assert len(services.assignments.show("real")) == 120
    queues = _plan(services, "real")
    assert len({tuple(q) for q in queues.values()}) == 3  # every queue in its own order
    for queue in queues.values():
        labels = [gold[u] for u in queue]
        changes = sum(1 for x, y in pairwise(labels) if x != y)
        assert changes > 10  # sorted by gold would change label twice


def test_same_seed_same_plan_and_a_larger_selection_extends(
    services: Services, judge_file: Path, tmp_path: Path
) -> None:
    services.imports.import_path(judge_file, dataset="real")
    services.assignments.assign("real", ["a", "b", "c"], overlap=2, seed=7, selection=ITEMS)
    first = {(r.annotator, r.item_uuid) for r in services.assignments.show("real")}
    other = open_services(f"sqlite:///{tmp_path / 'other.db'}")
    try:
        other.imports.import_path(judge_file, dataset="real")
        other.assignments.assign("real", ["a", "b", "c"], overlap=2, seed=7, selection=ITEMS)
        assert _plan(other, "real") == _plan(services, "real")
    finally:
        other.close()
    bigger = Selection(units=AssignUnits.ITEMS, per_label=30)
    report = services.assignments.assign(
        "real", ["a", "b", "c"], overlap=2, seed=7, selection=bigger
    )
    assert (report.selected, report.new_units, report.new_assignments) == (90, 30, 60)
    after = {(r.annotator, r.item_uuid) for r in services.assignments.show("real")}
    assert first <= after and len(after) == 180
    assert report.balanced and set(report.loads.values()) == {60}


def test_responses_plan_on_the_demo(demo: Services) -> None:
    report = demo.assignments.assign(
        "demo", ["ann", "ben", "cat", "dan"], overlap=3, seed=0, selection=Selection()
    )
    assert report.selected == 60 and report.new_assignments == 180
    assert max(report.loads.values()) - min(report.loads.values()) <= 1
    units = Counter((r.item_uuid, r.target_model) for r in demo.assignments.show("demo"))
    assert set(units.values()) == {3} and all(model for _, model in units)
    queue = demo.assignments.queue("demo", "ann", AssignUnits.RESPONSES)
    assert queue is not None and (queue.done, queue.total) == (0, report.loads["ann"])
    flt = ItemFilter(queue=True)
    items = demo.review.count("demo", flt, ReviewMode.RESPONSES, "ann")
    assert 0 < items <= 30


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"overlap": 4}, "needs at least 4 annotators"),
        ({"overlap": 0}, "at least 1"),
        ({"selection": Selection(sample=5, per_label=2)}, "cannot be combined"),
        ({"selection": Selection(sample=0)}, "--sample must be at least 1"),
    ],
)
def test_bad_plans_are_refused(demo: Services, kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"overlap": 2, "seed": 0, "selection": Selection()}
    args.update(kwargs)
    with pytest.raises(W2CError, match=message):
        demo.assignments.assign("demo", ["a", "b", "c"], **args)  # type: ignore[arg-type]


def test_a_plan_keeps_its_overlap_and_seed_and_clear_removes_it(demo: Services) -> None:
    demo.assignments.assign("demo", ["a", "b"], overlap=1, seed=0, selection=Selection(sample=10))
    with pytest.raises(W2CError, match="already has a plan of responses"):
        demo.assignments.assign("demo", ["a", "b"], overlap=2, seed=0, selection=Selection())
    assert demo.assignments.clear("demo", "a") == 5
    assert {r.annotator for r in demo.assignments.show("demo")} == {"b"}
    assert demo.assignments.clear("demo") == 5
    assert demo.assignments.show("demo") == []
    demo.assignments.assign("demo", ["a", "b"], overlap=2, seed=3, selection=Selection(sample=4))
    assert len(demo.assignments.show("demo")) == 8
