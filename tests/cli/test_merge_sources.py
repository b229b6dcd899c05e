"""`w2c merge` reads exactly the named file, all of it, or refuses it by name: names with `%`
and `#`, labels still in an older file's WAL, a truncated file, and which file each side of a
conflict came from."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from dbfixtures import WHEN2CALL
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool
from test_merge import humans, laptop, w2c

from w2c_tui.db.migrate import alembic_config
from w2c_tui.domain.labels import Label
from w2c_tui.services import Services


def test_a_name_with_percent_or_hash_opens_exactly_that_file(
    services: Services, tmp_path: Path
) -> None:
    made = laptop(tmp_path / "made.db", "ben", [Label.DIRECT])
    decoy = laptop(tmp_path / "xA.db", "ann", [Label.TOOL_CALL, Label.CANNOT_ANSWER])
    percent = tmp_path / "x%41.db"  # %41 is "A": an unescaped URI opened xA.db
    hashed = tmp_path / "ann#1.db"  # "#" starts a URI fragment: an unescaped URI opened "ann"
    shutil.copyfile(made, percent)
    shutil.copyfile(made, hashed)
    services.imports.import_demo()

    code, out, err = w2c(services.url, "merge", str(percent), "--json")
    assert code == 0, err
    [source] = json.loads(out)["sources"]
    assert source["source"] == str(percent) and source["verdicts"] == 2  # ben's, not xA's 3
    assert {r.rater.name for r in humans(services)} == {"ben"}

    code, out, err = w2c(services.url, "merge", str(hashed), "--json")
    assert code == 0, err
    assert json.loads(out)["sources"][0]["verdicts_known"] == 2
    assert not (tmp_path / "ann").exists()
    assert decoy.exists() and {r.rater.name for r in humans(services)} == {"ben"}


def test_labels_still_in_an_older_files_wal_are_merged(services: Services, tmp_path: Path) -> None:
    old = laptop(tmp_path / "old.db", "ann", [Label.TOOL_CALL])
    engine = create_engine(f"sqlite:///{old}", poolclass=NullPool)
    with engine.begin() as connection:  # the schema as the previous release wrote it
        from alembic import command

        command.downgrade(alembic_config(connection), "-1")
    engine.dispose()
    # carol's labels are committed but still in the WAL: her w2c was killed before a
    # checkpoint (this connection stays open and never checkpoints)
    holder = sqlite3.connect(old, isolation_level=None)
    try:
        holder.execute("PRAGMA wal_autocheckpoint=0")
        holder.execute("BEGIN")
        holder.execute(
            "INSERT INTO rater (key, kind, name, config_json, created_at) "
            "SELECT replace(key, ':ann:', ':carol:'), kind, 'carol', config_json, created_at "
            "FROM rater WHERE name = 'ann'"
        )
        holder.execute(
            "INSERT INTO label (rater_id, item_id, target_model_id, response_id, schema_name, "
            "question, value, status, scores_json, source, is_current, created_at, seen) SELECT "
            "(SELECT id FROM rater WHERE name = 'carol'), item_id, target_model_id, response_id, "
            "schema_name, question, 'direct', status, scores_json, source, is_current, "
            "created_at, seen FROM label WHERE rater_id = (SELECT id FROM rater WHERE name = "
            f"'ann') AND is_current AND {WHEN2CALL}"
        )
        holder.execute("COMMIT")
        wal = Path(f"{old}-wal")
        assert wal.exists() and wal.stat().st_size > 0
        services.imports.import_demo()

        code, out, err = w2c(services.url, "merge", str(old), "--json")
        assert code == 0, err
        [source] = json.loads(out)["sources"]
        assert source["verdicts"] == 4 and source["raters"] == 2
        carol = [r for r in humans(services) if r.rater.name == "carol"]
        assert len(carol) == 2 and {r.label for r in carol} == {Label.DIRECT}
    finally:
        holder.close()


def test_a_truncated_or_corrupt_file_is_refused_by_name(services: Services, tmp_path: Path) -> None:
    good = laptop(tmp_path / "good.db", "ann", [Label.TOOL_CALL])
    services.imports.import_demo()
    whole = good.read_bytes()
    truncated = tmp_path / "truncated.db"
    truncated.write_bytes(whole[: len(whole) // 3])
    scrambled = tmp_path / "scrambled.db"
    scrambled.write_bytes(whole[:4096] + bytes(range(256)) * ((len(whole) - 4096) // 256))
    for bad in (truncated, scrambled):
        code, out, err = w2c(services.url, "merge", str(good), str(bad))
        assert code == 2, (bad, out, err)
        assert f"{bad}:" in err and "not a w2c database / corrupt" in err, err
        assert "unexpected" not in err.lower()
    assert humans(services) == []  # the good file of the same command is not half-merged


def test_a_conflict_names_the_file_each_side_came_from(services: Services, tmp_path: Path) -> None:
    first = laptop(tmp_path / "first.db", "ann", [Label.TOOL_CALL])
    second = laptop(tmp_path / "second.db", "ann", [Label.CANNOT_ANSWER])  # later
    services.imports.import_demo()

    code, out, err = w2c(services.url, "merge", str(first), str(second))
    assert code == 0, err
    [line] = [line for line in out.splitlines() if "conflict:" in line]
    assert "kept cannot_answer" in line and f"from {second})" in line, line
    assert "over tool_call" in line and f"from {first};" in line, line
    assert "the target" not in line

    code, out, err = w2c(services.url, "merge", str(first), str(second), "--json")  # again
    assert code == 0, err
    assert all(not s["conflicts"] for s in json.loads(out)["sources"])

    third = laptop(tmp_path / "third.db", "ann", [Label.DIRECT])
    code, out, err = w2c(services.url, "merge", str(third), "--json")
    [conflict] = json.loads(out)["sources"][0]["conflicts"]
    assert conflict["kept_from"] == str(third) and conflict["lost_from"] == "the target"
