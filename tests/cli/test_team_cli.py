"""The team workflow from the shell: assign, team status, guidelines, adjudications, labels."""

from __future__ import annotations

import json
from pathlib import Path

from team_data import load_secret
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.labels import Label
from w2c_tui.domain.roles import Role
from w2c_tui.services import open_services

runner = CliRunner()


def w2c(db_url: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", db_url, *args])
    return result.exit_code, result.stdout, result.stderr


def test_assign_on_the_real_items(db_url: str, judge_file: Path) -> None:
    w2c(db_url, "import", str(judge_file))
    args = ("assign", "--annotators", "a,b,c", "--overlap", "2", "--per-label", "20", "--seed", "1")
    code, out, err = w2c(db_url, *args, "--json")
    assert code == 0, err
    plan = json.loads(out)
    assert (plan["units"], plan["selected_units"], plan["new_assignments"]) == ("items", 60, 120)
    assert plan["loads"] == {"a": 40, "b": 40, "c": 40} and plan["changed"]
    code, out, _ = w2c(db_url, *args)
    assert code == 0 and "nothing changed" in out
    code, out, _ = w2c(db_url, "assign", "show", "--annotator", "b", "--json")
    rows = json.loads(out)
    assert len(rows) == 40 and [r["order"] for r in rows] == list(range(1, 41))
    code, out, _ = w2c(db_url, "team", "status", "--json", "--bootstrap", "100")
    status = json.loads(out)
    assert (status["units"], status["units_assigned"], status["units_complete"]) == ("items", 60, 0)
    assert status["alpha"]["value"] is None and "no unit" in status["alpha"]["reason"]
    code, _, err = w2c(db_url, "assign", "--annotators", "a,a")
    assert code == 2 and "more than once" in err
    code, _, err = w2c(db_url, "assign", "--annotators", "a,b", "--overlap", "3")
    assert code == 2 and "needs at least 3 annotators" in err


def test_guidelines_and_adjudications_export(db_url: str, tmp_path: Path) -> None:
    svc = open_services(db_url)
    try:
        load_secret(svc)
        detail = svc.review.detail(svc.review.find("secret", "item-000").id, None)
        response = detail.responses[0]
        assert response.id is not None
        for name, label in (("a", Label.TOOL_CALL), ("b", Label.TOOL_CALL), ("c", Label.DIRECT)):
            svc.review.label_response(name, response.item_id, response.id, label)
        [case] = svc.adjudication.queue("secret")
        svc.adjudication.decide(case, "judge-person", Label.DIRECT, "=HYPERLINK(x)")
    finally:
        svc.close()
    guide = tmp_path / "guide.md"
    guide.write_text("# Guide\nLabel what the reply does.\n")
    code, out, _ = w2c(db_url, "guidelines", "set", "secret", str(guide))
    assert code == 0 and "version 1 stored" in out
    code, out, _ = w2c(db_url, "guidelines", "set", "secret", str(guide))
    assert "nothing changed" in out
    code, out, _ = w2c(db_url, "guidelines", "show", "secret")
    assert out.startswith("# Guide")
    code, _, err = w2c(db_url, "guidelines", "set", "secret", str(tmp_path / "missing.md"))
    assert code == 2 and "missing.md" in err
    code, out, _ = w2c(db_url, "adjudications", "export", "--format", "csv")
    lines = out.splitlines()
    assert lines[0].startswith("dataset,unit_kind,uuid,target_model,label,adjudicator,note")
    assert "'=HYPERLINK(x)" in lines[1] and "a:tool_call;b:tool_call;c:direct" in lines[1]


def test_names_from_data_print_literally(db_url: str) -> None:
    svc = open_services(db_url)
    try:
        load_secret(svc, dataset="[/oops]")
        item = svc.review.find("[/oops]", "item-000")
        response = svc.review.detail(item.id, None).responses[0]
        assert response.id is not None
        svc.review.label_response("[b]x", item.id, response.id, Label.DIRECT)
    finally:
        svc.close()
    for args in (
        ("datasets", "list"),
        ("items", "show", "item-000"),
        ("agreement", "--bootstrap", "0"),
        ("metrics",),
        ("team", "status", "--bootstrap", "0"),
    ):
        code, out, err = w2c(db_url, *args)
        assert code == 0, (args, err)
    code, out, _ = w2c(db_url, "datasets", "list")
    assert "[/oops]" in out


def test_roles_a_solo_database_until_its_first_lead(db_url: str, tmp_path: Path) -> None:
    import hashlib

    from sqlalchemy import text

    svc = open_services(db_url)
    try:
        load_secret(svc)
    finally:
        svc.close()
    guide = tmp_path / "guide.md"
    guide.write_text("# Guide\n")
    plan = ("assign", "--annotators", "a,b", "--overlap", "1")
    # solo: whoever runs it may do a lead's work, as before
    assert w2c(db_url, "--annotator", "bob", *plan)[0] == 0
    code, out, _ = w2c(db_url, "team", "list")
    assert code == 0 and "solo" in out
    assert w2c(db_url, "--annotator", "alice", "team", "add", "alice", "--role", "lead")[0] == 0
    # from now on bob (or nobody in particular) is refused, told who the leads are and how
    for who in (("--annotator", "bob"), ()):
        for args in (
            plan,
            ("assign", "clear"),
            ("guidelines", "set", "secret", str(guide)),
            ("team", "add", "bob", "--role", "lead"),
            ("team", "invite", "bob"),
            ("team", "revoke", "alice"),
            ("team", "remove", "alice"),
        ):
            code, _, err = w2c(db_url, *who, *args)
            assert code == 2, (who, args, err)
            assert "only a lead may" in err and "alice" in err and "team add" in err, err
    assert w2c(db_url, "--annotator", "bob", *plan, "--dry-run")[0] == 0  # writes nothing
    # the lead may; W2C_ANNOTATOR names the acting person like --annotator
    result = runner.invoke(
        app,
        ["--db", db_url, "team", "add", "bob"],
        env={"W2C_ANNOTATOR": "alice"},
    )
    assert result.exit_code == 0 and "bob added as annotator" in result.stdout
    assert w2c(db_url, "--annotator", "alice", "guidelines", "set", "secret", str(guide))[0] == 0
    code, out, _ = w2c(db_url, "team", "list", "--json")
    listed = json.loads(out)
    assert not listed["solo"]
    assert [(m["name"], m["role"]) for m in listed["members"]] == [
        ("alice", "lead"),
        ("bob", "annotator"),
    ]
    # an invitation: a link with a token that only its hash stores
    code, out, err = w2c(
        db_url, "--annotator", "alice", "team", "invite", "bob", "--base-url", "http://h:9/"
    )
    assert code == 0, err
    link = out.strip()
    assert link.startswith("http://h:9/?token=") and "revoke" in err
    token = link.split("token=", 1)[1]
    svc = open_services(db_url)
    try:
        with svc.store.engine.connect() as connection:
            rows = connection.execute(text("SELECT * FROM invite")).all()
        assert svc.roles.admit(token).name == "bob"
    finally:
        svc.close()
    assert len(rows) == 1 and token not in repr(rows)
    assert hashlib.sha256(token.encode()).hexdigest() in repr(rows)
    for bad in ("0m", "7x", "9999d"):
        code, _, err = w2c(
            db_url, "--annotator", "alice", "team", "invite", "bob", f"--expires={bad}"
        )
        assert code == 2 and "--expires" in err
    code, out, _ = w2c(db_url, "--annotator", "alice", "team", "revoke", "bob")
    assert code == 0 and "1 invitation(s) revoked" in out
    svc = open_services(db_url)
    try:
        assert svc.roles.invites("bob")[0].revoked_at is not None
    finally:
        svc.close()
    # removing the last lead makes the database solo again
    assert w2c(db_url, "--annotator", "alice", "team", "remove", "alice")[0] == 0
    assert w2c(db_url, "--annotator", "bob", *plan)[0] == 0
    code, _, err = w2c(db_url, "--annotator", "bob", "team", "remove", "nobody")
    assert code == 2 and "no role" in err


def test_other_annotators_labels_are_a_leads_to_import(db_url: str, tmp_path: Path) -> None:
    svc = open_services(db_url)
    try:
        load_secret(svc)
        svc.roles.add(None, "alice", Role.LEAD)
    finally:
        svc.close()
    mine, theirs = tmp_path / "bob.csv", tmp_path / "carol.csv"
    mine.write_text("uuid,annotator,label\nitem-000,bob,direct\n")
    theirs.write_text("uuid,annotator,label\nitem-001,carol,direct\n")
    assert w2c(db_url, "--annotator", "bob", "labels", "import", str(mine))[0] == 0
    code, _, err = w2c(db_url, "--annotator", "bob", "labels", "import", str(theirs))
    assert code == 2 and "only a lead may record other annotators' labels" in err, err
    assert w2c(db_url, "--annotator", "bob", "labels", "import", str(theirs), "--dry-run")[0] == 0
    assert w2c(db_url, "--annotator", "alice", "labels", "import", str(theirs))[0] == 0
    code, _, err = w2c(db_url, "--annotator", "bob", "merge", str(tmp_path / "other.db"))
    assert code == 2 and "only a lead" in err and "alice" in err, err
