"""Adjudication for any label schema: the cases people disagree on, a lead's decision with its
note (refused for someone who is not a lead once the database has one), the export, and the
schema's agreement leaving the adjudicator out."""

from __future__ import annotations

import json
from pathlib import Path

import krippendorff
import numpy as np
import pytest
from schema_data import write_schema
from typer.testing import CliRunner

from w2c_tui.cli.app import app
from w2c_tui.domain.labels import RaterKind
from w2c_tui.domain.roles import Role
from w2c_tui.domain.schema_labels import Unit
from w2c_tui.services import Services

runner = CliRunner()


def w2c(db_url: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", db_url, *args])
    return result.exit_code, result.stdout, result.stderr


OK = {"ann": ["yes", "yes", "yes"], "ben": ["yes", "no", "yes"]}
QUALITY = {"ann": ["3", "3", "2"], "ben": ["3", "1", "2"]}


def test_cases_decisions_and_the_lead_gate(demo: Services, tmp_path: Path) -> None:
    demo.schemas.add(write_schema(tmp_path))
    schema = demo.schemas.get("bar")
    units = [r.unit for r in demo.schemas.unit_refs("bar", "demo")[:3]]
    for who in OK:
        for index, unit in enumerate(units):
            answers = {"ok": OK[who][index], "quality": QUALITY[who][index]}
            demo.schemas.label(who, "bar", unit, answers)
    cases = demo.schema_adjudication.cases(schema, "demo")
    assert [(c.unit, c.question, c.answers, c.split, c.majority) for c in cases] == [
        (units[1], "ok", (("ann", "yes"), ("ben", "no")), 0.5, None),
        (units[1], "quality", (("ann", "3"), ("ben", "1")), 0.5, None),
    ]
    demo.roles.add(None, "lee", Role.LEAD)
    uuid = cases[0].item_uuid
    where = ["--schema", "bar", "--item", uuid, "--response", str(units[1].response_id)]
    code, _, err = w2c(demo.url, "--annotator", "ann", "adjudications", "decide", *where,
                       "--question", "ok", "no")  # fmt: skip
    assert code == 2 and "only a lead may adjudicate" in err
    code, out, err = w2c(demo.url, "--annotator", "lee", "adjudications", "decide", *where,
                         "--question", "ok", "no", "--note", "rude reply")  # fmt: skip
    assert code == 0 and "recorded: ok=no by lee" in out, err
    code, out, err = w2c(demo.url, "--annotator", "lee", "adjudications", "decide", *where,
                         "--question", "ok", "maybe")  # fmt: skip
    assert code == 2 and "maybe" in err  # not an option of the question: nothing written
    code, out, err = w2c(demo.url, "--annotator", "lee", "adjudications", "decide", *where,
                         "--question", "nope", "no")  # fmt: skip
    assert code == 2 and "no question 'nope': ok, tone, quality" in err
    code, out, err = w2c(demo.url, "adjudications", "cases", "--schema", "bar", "--json")
    assert code == 0, err
    first = json.loads(out)["cases"][0]
    assert (first["question"], first["decision"], first["adjudicator"], first["note"]) == (
        "ok",
        "no",
        "lee",
        "rude reply",
    )
    assert first["overrides_majority"] is True  # a tie has no majority
    # the decision is a reference, not a rating: α stays the two annotators'
    [ok, _tone, _quality] = demo.schema_agreement.compute(schema, "demo").questions
    data = np.array([[0.0 if v == "yes" else 1.0 for v in OK[who]] for who in OK])
    assert ok.alpha == pytest.approx(
        krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"), abs=1e-12
    )
    decided = demo.store.schema_reads.answers("bar", "demo", (RaterKind.ADJUDICATOR,))
    assert [(r.annotator, r.unit, r.answers) for r in decided] == [
        ("lee", Unit(units[1].item_id, units[1].response_id), {"ok": "no"})
    ]
