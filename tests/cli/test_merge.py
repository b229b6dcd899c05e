"""`w2c merge`: two annotators' SQLite files brought into one database (SQLite or PostgreSQL),
twice with the same counts, a conflict reported, a differing dataset refused, a dry run."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.labels import Label, RaterKind
from w2c_tui.domain.models import Rating
from w2c_tui.domain.qa import QA_FLAGS
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.domain.team import AssignUnits, Selection
from w2c_tui.services import Services, open_services

runner = CliRunner()
QA = ReviewMode.ITEM_QA
RESP = ReviewMode.RESPONSES


def laptop(path: Path, who: str, labels: list[Label], guide: Path | None = None) -> Path:
    """A per-annotator database: the demo, `who`'s labels on the first responses, one item-QA
    label, a flag and a note."""
    svc = open_services(f"sqlite:///{path}")
    try:
        svc.imports.import_demo()
        rows = svc.review.window("demo", ItemFilter(), RESP, who, 0, len(labels))
        for row, label in zip(rows, labels, strict=True):
            response = svc.review.detail(row.id, who).models[0].responses[0]
            assert response.id is not None
            svc.review.label_response(who, row.id, response.id, label)
        first = rows[0].id
        svc.review.label_item(who, first, Label.TOOL_CALL)
        svc.review.set_flag(who, first, QA_FLAGS[0].code, True)
        svc.review.set_note(who, first, "", f"{who} was here")
        if guide is not None:
            svc.guidelines.set("demo", guide)
            svc.assignments.assign(
                "demo", ["ann", "ben"], overlap=2, seed=7, selection=Selection(sample=5)
            )
    finally:
        svc.close()
    return path


def humans(svc: Services) -> list[Rating]:
    """The current human labels of the demo."""
    return [r for r in svc.store.ratings.ratings("demo") if r.rater.kind is RaterKind.HUMAN]


def w2c(url: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", url, *args])
    return result.exit_code, result.stdout, result.stderr


def test_two_laptops_merge_twice_the_same_and_a_conflict_is_reported(
    services: Services, tmp_path: Path
) -> None:
    guide = tmp_path / "guide.md"
    guide.write_text("# Label the behaviour the item calls for\n", encoding="utf-8")
    ann = laptop(
        tmp_path / "ann.db", "ann", [Label.TOOL_CALL, Label.DIRECT, Label.CANNOT_ANSWER], guide
    )
    ben = laptop(tmp_path / "ben.db", "ben", [Label.REQUEST_FOR_INFO, Label.DIRECT])
    services.imports.import_demo()

    code, out, err = w2c(services.url, "merge", str(ann), str(ben), "--dry-run", "--json")
    assert code == 0, err
    dry = json.loads(out)
    assert dry["dry_run"] and [s["verdicts"] for s in dry["sources"]] == [4, 3]
    assert not [
        r for r in services.store.ratings.ratings("demo") if r.rater.kind is RaterKind.HUMAN
    ]

    code, out, err = w2c(services.url, "merge", str(ann), str(ben), "--json")
    assert code == 0, err
    first = json.loads(out)["sources"]
    assert [(s["verdicts"], s["flags"], s["notes"], s["guidelines"]) for s in first] == [
        (4, 1, 1, 1),
        (3, 1, 1, 0),
    ]
    assert [s["assignments"] for s in first] == [10, 0]  # 5 units × overlap 2, from ann.db
    queue = services.assignments.queue("demo", "ben", AssignUnits.RESPONSES)
    assert queue is not None and queue.total == 5
    assert len(humans(services)) == 7
    assert {r.rater.name for r in humans(services)} == {"ann", "ben"}

    code, out, err = w2c(services.url, "merge", str(ann), str(ben), "--json")  # again
    again = json.loads(out)["sources"]
    assert [
        (s["verdicts"], s["verdicts_known"], s["flags"], s["notes"], s["assignments"])
        for s in again
    ] == [(0, 4, 0, 0, 0), (0, 3, 0, 0, 0)]
    assert (
        len([r for r in services.store.ratings.ratings("demo") if r.rater.kind is RaterKind.HUMAN])
        == 7
    )

    # ann labels her first response again on another laptop, differently, later: a conflict.
    other = laptop(tmp_path / "ann2.db", "ann", [Label.CANNOT_ANSWER])
    code, out, err = w2c(services.url, "merge", str(other))
    assert code == 0, err
    assert "conflict: ann on" in out and "kept cannot_answer" in out and "over tool_call" in out
    current = {
        (r.item_uuid, r.response_id): r.label
        for r in services.store.ratings.ratings("demo")
        if r.rater.name == "ann" and r.response_id is not None
    }
    assert Label.CANNOT_ANSWER in current.values() and len(current) == 3


def test_a_differing_dataset_or_a_foreign_file_is_refused_and_nothing_is_written(
    services: Services, tmp_path: Path
) -> None:
    ann = laptop(tmp_path / "ann.db", "ann", [Label.TOOL_CALL])
    services.imports.import_demo()
    with sqlite3.connect(ann) as connection:
        uuid = connection.execute("SELECT uuid FROM item ORDER BY position LIMIT 1").fetchone()[0]
        connection.execute("UPDATE item SET question = 'changed' WHERE uuid = ?", (uuid,))
    before = ann.read_bytes()
    code, _, err = w2c(services.url, "merge", str(ann))
    assert code == 2 and "differs in content" in err and uuid in err and "nothing was merged" in err
    assert ann.read_bytes() == before  # the source is only read
    assert not [
        r for r in services.store.ratings.ratings("demo") if r.rater.kind is RaterKind.HUMAN
    ]
    junk = tmp_path / "notes.db"
    junk.write_text("hello", encoding="utf-8")
    code, _, err = w2c(services.url, "merge", str(junk))
    assert code == 2 and "not an SQLite database" in err and str(junk) in err


CRITIC = (
    Path(__file__).resolve().parents[1]
    / "io"
    / "fixtures"
    / "critictool"
    / "predictions"
    / "interal_base_data_wo_cot.json"
)


def critictool_laptop(
    path: Path, who: str, categories: list[str], undo_first: bool = False
) -> Path:
    """A per-annotator database with the CriticTool fixture and `who`'s labels on the first
    predictions (one edited first, so history travels too)."""
    from w2c_tui.domain.critictool_labels import CriticToolLabel, ErrorCategory

    svc = open_services(f"sqlite:///{path}")
    try:
        svc.critictool.import_file(CRITIC, dataset="ct", target_model="tiny")
        review = svc.critictool_review
        rater = review.rater(who)
        units = review.open("ct").units
        for unit, category in zip(units, categories, strict=False):
            cat = ErrorCategory(category)
            if undo_first:
                first = CriticToolLabel(error=True, category=ErrorCategory.TOOL_SELECT)
                svc.store.critictool_labels.set_label(rater, unit.item_id, unit.response_id, first)
                undo_first = False
            label = CriticToolLabel(error=cat is not ErrorCategory.NONE, category=cat)
            svc.store.critictool_labels.set_label(rater, unit.item_id, unit.response_id, label)
    finally:
        svc.close()
    return path


def test_critictool_labels_merge_with_history_once_and_conflicts_reported(
    services: Services, tmp_path: Path
) -> None:
    ann = critictool_laptop(
        tmp_path / "ann.db", "ann", ["parameters_value_error", "none"], undo_first=True
    )
    ben = critictool_laptop(
        tmp_path / "ben.db", "ben", ["parameters_value_error", "tool_select_error"]
    )
    services.critictool.import_file(CRITIC, dataset="ct", target_model="tiny")

    code, out, err = w2c(services.url, "merge", str(ann), str(ben), "--json")
    assert code == 0, err
    first = json.loads(out)["sources"]
    # answers, one per question a write set: ann 2 + 1 (the edit) + 2, ben 2 + 2
    assert [(s["schema_labels"], s["schema_labels_known"]) for s in first] == [(5, 0), (4, 0)]
    ratings = services.critictool_review.ratings("ct")
    current = {(r.rater.name, r.item_id, r.response_id): r.label for r in ratings}
    assert len(current) == 4
    assert {d.name: d.n_human_labels for d in services.datasets.all()}["ct"] == 4
    units = services.critictool_review.open("ct").units
    unit = units[0]
    ann_id = services.critictool_review.rater("ann")
    history = services.store.critictool_labels.history(ann_id, unit.item_id, unit.response_id)
    assert [h.category.value for h in history if h.category] == [
        "tool_select_error",
        "parameters_value_error",
    ]
    assert current[("ann", unit.item_id, unit.response_id)].category.value == (  # type: ignore[union-attr]
        "parameters_value_error"
    )
    agreement = {a.label: a for a in services.critictool_agreement.compute("ct")}
    assert ("ann", "ben") in {(p.a, p.b) for p in agreement["category"].pairs}

    code, out, err = w2c(services.url, "merge", str(ann), str(ben), "--json")  # again
    again = json.loads(out)["sources"]
    assert [(s["schema_labels"], s["schema_labels_known"]) for s in again] == [(0, 5), (0, 4)]
    assert len(services.critictool_review.ratings("ct")) == 4

    later = critictool_laptop(tmp_path / "ann2.db", "ann", ["environment_error"])
    code, out, err = w2c(services.url, "merge", str(later))
    assert code == 0, err
    assert "conflict: ann on" in out and "environment_error" in out, out
    current = {
        (r.rater.name, r.item_id, r.response_id): r.label
        for r in services.critictool_review.ratings("ct")
    }
    assert current[("ann", unit.item_id, unit.response_id)].category.value == "environment_error"  # type: ignore[union-attr]
    assert len(current) == 4
