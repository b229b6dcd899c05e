"""`w2c next` through the services on the demo: the queue, the estimate in its order, the
stopping rule, and what an annotator may see."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.labels import Label, RaterKind
from w2c_tui.domain.models import Response
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services
from w2c_tui.services.next_units import NextOptions, plan


def responses(services: Services) -> dict[tuple[str, str], tuple[int, Response]]:
    """(item uuid, target model) → (item row id, response) on the demo."""
    out = {}
    rows = services.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 30)
    for row in rows:
        detail = services.review.detail(row.id, None)
        for response in detail.responses:
            out[(detail.item.uuid, response.target_model)] = (row.id, response)
    return out


def judge_label(response: Response) -> Label | None:
    return next(
        (v.label for v in response.verdicts if v.rater.kind is RaterKind.JUDGE and v.label), None
    )


def test_labels_in_queue_order_make_the_estimate_and_the_decision(demo: Services) -> None:
    first = plan(demo.store, "demo", NextOptions(k=60, bar=0.5))
    assert first.estimate.ci is None and first.estimate.n_labelled == 0
    assert first.decision.startswith("no labels yet")
    # 58 valid judge readings: the 2 invalid ones can never agree, and need no label
    assert len(first.next) == 58
    assert [u.rank for u in first.next] == list(range(1, 59))
    units = responses(demo)
    agreed = []
    for unit in first.next[:25]:
        item_id, response = units[(unit.item_uuid, unit.target_model or "")]
        label = judge_label(response)
        assert label is not None and response.id is not None
        if unit.rank % 5 == 0:  # every fifth label disagrees with the judge
            label = Label.DIRECT if label is not Label.DIRECT else Label.TOOL_CALL
        agreed.append(unit.rank % 5 != 0)
        demo.review.label_response("alice", item_id, response.id, label)
    after = plan(demo.store, "demo", NextOptions(k=5, bar=0.5))
    est = after.estimate
    assert est.n_labelled == 25 and est.n_prefix == 25 and est.ci is not None
    assert est.ci[0] <= est.value <= est.ci[1]  # type: ignore[operator]
    assert after.stop and after.decision.startswith("decided after 25 labels: can stand in")
    # the queue goes on where the labels stopped, in the same order
    assert [(u.item_uuid, u.target_model) for u in after.next] == [
        (u.item_uuid, u.target_model) for u in first.next[25:30]
    ]
    # a stricter bar than the data can meet
    strict = plan(demo.store, "demo", NextOptions(k=5, bar=0.99))
    assert strict.stop and "cannot stand in" in strict.decision
    assert np.mean(agreed) == pytest.approx(0.8)


def test_an_annotator_sees_neither_priors_nor_units_she_labelled(demo: Services) -> None:
    first = plan(demo.store, "demo", NextOptions(k=3))
    units = responses(demo)
    head = first.next[0]
    item_id, response = units[(head.item_uuid, head.target_model or "")]
    assert response.id is not None
    demo.review.label_response("bob", item_id, response.id, Label.CANNOT_ANSWER)
    mine = plan(demo.store, "demo", NextOptions(k=3, annotator="carol"))
    theirs = plan(demo.store, "demo", NextOptions(k=3, annotator="bob"))
    assert (head.item_uuid, head.target_model) not in {
        (u.item_uuid, u.target_model) for u in mine.next
    }  # labelled by someone: the reference exists
    doc = theirs.as_json()
    assert all(set(u) == {"rank", "item_uuid", "position", "target_model"} for u in doc["next"])  # type: ignore[union-attr]
    assert "prior" in plan(demo.store, "demo", NextOptions(k=1)).as_json()["next"][0]  # type: ignore[index]


def test_the_command_line_names_what_is_wrong(demo: Services, db_url: str) -> None:
    with pytest.raises(NotFoundError, match="no judge 'judge:nobody'"):
        plan(demo.store, "demo", NextOptions(judge="judge:nobody"))
    runner = CliRunner()
    result = runner.invoke(app, ["--db", db_url, "next", "--k", "2", "--json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["judge"] == "judge:demo-judge" and len(doc["next"]) == 2
    assert doc["bar"]["source"].startswith("the default 0.80")
    result = runner.invoke(app, ["--db", db_url, "next", "--judge", "nobody"])
    assert result.exit_code != 0 and "no judge 'nobody'" in result.stderr
