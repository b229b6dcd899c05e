"""A CriticTool sample is its file's id within its dataset (issue 19): two ids with identical
content and different predictions import (dry run on an empty database too), as two samples
with their own predictions; importing the file again is a no-op, and a stored id with other
content is still refused whole (both databases)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from critic_twins import COPY, COPY_REPLY, FIXTURES, PRED_INTERNAL, TWIN, twin_file
from dbfixtures import row_counts
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.critictool import SampleError
from w2c_tui.io.importers.critictool import read_critictool
from w2c_tui.services import Services

INTERNAL = FIXTURES / "dataset" / "internal_error" / "base_data_wo_cot.json"


def test_the_twin_file_has_two_ids_of_one_content(tmp_path: Path) -> None:
    samples = {s.sample_id: s for s in read_critictool(twin_file(tmp_path)).samples}
    assert samples[TWIN].item_sha256 == samples[COPY].item_sha256
    assert samples[TWIN].predictions != samples[COPY].predictions


def test_a_dry_run_on_an_empty_database_accepts_both_ids(
    services: Services, tmp_path: Path
) -> None:
    path = twin_file(tmp_path)
    before = row_counts(services.url)
    report = services.critictool.import_file(path, target_model="m", dry_run=True)
    assert (report.items_new, report.responses_new, report.dry_run) == (22, 22, True)
    assert row_counts(services.url) == before


def test_both_ids_are_samples_with_their_own_predictions(
    services: Services, tmp_path: Path
) -> None:
    path = twin_file(tmp_path)
    report = services.critictool.import_file(path, target_model="m")
    assert (report.items_new, report.responses_new) == (22, 22)
    stored = {s.sample.sample_id: s for s in services.critictool.samples("critictool")}
    assert len(stored) == 22 and stored[TWIN].item_id != stored[COPY].item_id
    rounds = {
        sid: [p.rounds for p in services.critictool.predictions(s.item_id, "m")]
        for sid, s in stored.items()
    }
    assert rounds[COPY] == [(COPY_REPLY,)]
    assert rounds[TWIN] != rounds[COPY] and len(rounds[TWIN]) == 1

    before = row_counts(services.url)  # the same file again: nothing new
    again = services.critictool.import_file(path, target_model="m")
    assert (again.items_new, again.items_unchanged) == (0, 22)
    assert (again.responses_new, again.responses_unchanged) == (0, 22)
    assert row_counts(services.url) == before
    # the dataset file (no predictions) finds its dataset and samples by id and content
    plain = services.imports.import_path(INTERNAL)
    assert (plain.dataset, plain.items_new, plain.items_unchanged) == ("critictool", 0, 21)


def test_a_stored_id_with_other_content_is_refused_whole(
    services: Services, tmp_path: Path
) -> None:
    services.critictool.import_file(twin_file(tmp_path), target_model="m")
    data = json.loads(twin_file(tmp_path).read_text(encoding="utf-8"))
    data[COPY]["query_prompt"][1]["content"] += " (edited)"
    data["another"] = copy.deepcopy(data[TWIN])
    changed = tmp_path / PRED_INTERNAL.name
    changed.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    before = row_counts(services.url)
    with pytest.raises(SampleError) as caught:
        services.critictool.import_file(changed, target_model="m")
    assert (caught.value.sample_id, caught.value.field) == (COPY, "(sample id)")
    assert str(changed) in str(caught.value) and caught.value.line is not None
    assert row_counts(services.url) == before


def test_cli_dry_run_imports_the_twin_file(db_url: str, tmp_path: Path) -> None:
    args = ["--db", db_url, "import", str(twin_file(tmp_path)), "--target-model", "m"]
    result = CliRunner().invoke(app, [*args, "--dry-run", "--json"])
    assert result.exit_code == 0, result.stderr
    [report] = json.loads(result.stdout)
    assert (report["items_new"], report["responses_new"]) == (22, 22)
    assert row_counts(db_url)["item"] == 0
