"""`w2c assign --blind required|default|off`: the plan's blind policy, shown by `assign show`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.blind import BlindPolicy
from w2c_tui.domain.team import AssignUnits
from w2c_tui.services import open_services

runner = CliRunner()


def w2c(db_url: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", db_url, *args])
    return result.exit_code, result.stdout, result.stderr


def test_blind_policy_is_set_kept_and_shown(db_url: str, judge_file: Path) -> None:
    w2c(db_url, "import", str(judge_file))
    plan = (
        "assign",
        "--units",
        "items",
        "--annotators",
        "a,b,c",
        "--overlap",
        "2",
        "--sample",
        "9",
    )
    code, out, err = w2c(db_url, *plan, "--json")
    assert code == 0, err
    assert json.loads(out)["blind"] == "default"
    code, out, err = w2c(db_url, *plan, "--blind", "required")  # nothing new: policy only
    assert code == 0, err
    assert "nothing changed" in out and "blind: required" in out
    code, out, _ = w2c(db_url, *plan, "--json")  # left out: the plan keeps its policy
    assert json.loads(out)["blind"] == "required"
    code, out, _ = w2c(db_url, "assign", "show")
    assert code == 0 and "plan of items: overlap 2, blind required" in out
    code, out, _ = w2c(db_url, "assign", "show", "--annotator", "a", "--json")
    rows = json.loads(out)
    assert rows and {r["blind"] for r in rows} == {"required"}
    svc = open_services(db_url)
    try:
        dataset = svc.datasets.resolve(None)
        found = svc.assignments.blind(dataset, AssignUnits.ITEMS, "a")
        assert found is not None and found.policy is BlindPolicy.REQUIRED
        assert svc.assignments.blind(dataset, AssignUnits.ITEMS, "nobody") is None
    finally:
        svc.close()
    code, _, err = w2c(db_url, *plan, "--blind", "sometimes")
    assert code == 2 and "sometimes" in err
