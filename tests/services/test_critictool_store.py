"""CriticTool samples and predictions in the store (both databases): import, re-import,
refusals that leave nothing written, and the service the trajectory view reads."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from dbfixtures import row_counts as table_rows
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.critictool import SampleError
from w2c_tui.domain.errors import InputError, NotFoundError
from w2c_tui.io.importers.critictool import read_critictool
from w2c_tui.runs.critictool.parse import parse_reply
from w2c_tui.services import Services

FIXTURES = Path(__file__).parents[1] / "io" / "fixtures" / "critictool"
INTERNAL = FIXTURES / "dataset" / "internal_error" / "base_data_wo_cot.json"
EXTERNAL = FIXTURES / "dataset" / "external_error" / "evol_data_w_cot.json"
PRED_INTERNAL = FIXTURES / "predictions" / "interal_base_data_wo_cot.json"
PRED_SKIP = FIXTURES / "predictions" / "external_skip_evol_data_w_cot.json"
PRED_FINISH = FIXTURES / "predictions" / "external_finish_evol_data_w_cot.json"


def counts(services: Services) -> dict[str, int]:
    return table_rows(services.url)


def test_samples_round_trip_with_item_ids(services: Services) -> None:
    report = services.imports.import_path(INTERNAL)
    assert (report.kind, report.dataset, report.items_new) == ("critictool", "critictool", 21)
    assert services.imports.import_path(EXTERNAL).items_new == 4
    stored = services.critictool.samples("critictool")
    originals = [*read_critictool(INTERNAL).samples, *read_critictool(EXTERNAL).samples]
    assert [s.sample.sample_id for s in stored] == [s.sample_id for s in originals]
    for got, want in zip(stored, originals, strict=True):
        one = services.critictool.sample(got.item_id)
        assert one == got
        assert got.sample.original_turns == want.original_turns
        assert (got.sample.gold, got.sample.tools) == (want.gold, want.tools)
        assert (got.sample.error_type, got.sample.source) == (want.error_type, want.source)
        assert (got.sample.item_sha256, got.sample.raw_json) == (want.item_sha256, want.raw_json)
        assert got.sample.line == want.line
    external = [s for s in stored if s.sample.source == "external"]
    assert {(s.variant, s.cot) for s in external} == {("evol", True)}
    assert services.critictool.datasets() == ["critictool"]
    [dataset] = services.datasets.all()
    assert (dataset.kind, dataset.n_items) == ("critictool", 25)


def test_same_file_twice_changes_nothing(services: Services) -> None:
    services.imports.import_path(INTERNAL)
    before = counts(services)
    again = services.imports.import_path(INTERNAL)
    assert (again.items_new, again.items_unchanged) == (0, 21)
    assert counts(services) == before


def test_predictions_attach_to_the_same_samples(services: Services) -> None:
    services.imports.import_path(EXTERNAL)
    skip = services.critictool.import_file(PRED_SKIP, target_model="m1")
    finish = services.critictool.import_file(PRED_FINISH, target_model="m1")
    assert (skip.kind, skip.items_new, skip.items_unchanged, skip.responses_new) == (
        "critictool_predictions",
        0,
        4,
        4,
    )
    assert finish.responses_new == 4
    by_id = {s.sample_id: s for s in read_critictool(PRED_SKIP).samples}
    for stored in services.critictool.samples("critictool"):
        preds = services.critictool.predictions(stored.item_id)
        assert [(p.target_model, p.mode, p.cot) for p in preds] == [
            ("m1", "finish", True),
            ("m1", "skip", True),
        ]
        skip_pred = preds[1]
        assert skip_pred.rounds == by_id[stored.sample.sample_id].predictions
        assert [r["name"] for r in skip_pred.parsed] == [
            parse_reply(r).name for r in skip_pred.rounds
        ]
        assert len({p.response_id for p in preds}) == 2
    before = counts(services)
    again = services.critictool.import_file(PRED_SKIP, target_model="m1")
    assert (again.responses_new, again.responses_unchanged) == (0, 4)
    assert counts(services) == before
    assert len(services.critictool.dataset_predictions("critictool", target_model="m1")) == 8
    assert services.critictool.dataset_predictions("critictool", target_model="other") == []


def test_a_predictions_file_brings_its_samples_and_the_dataset_then_matches(
    services: Services,
) -> None:
    first = services.critictool.import_file(PRED_INTERNAL, dataset="ct", target_model="m1")
    assert (first.dataset, first.items_new, first.responses_new) == ("ct", 21, 21)
    dataset = services.imports.import_path(INTERNAL)  # no --dataset: found by content
    assert (dataset.dataset, dataset.items_new, dataset.items_unchanged) == ("ct", 0, 21)
    stored = services.critictool.samples("ct")
    assert all(s.sample.instruction is None for s in stored)
    assert [len(services.critictool.predictions(s.item_id, "m1")) for s in stored] == [1] * 21


@pytest.fixture
def imported_internal(services: Services) -> Services:
    services.imports.import_path(INTERNAL)
    return services


def test_predictions_need_a_target_model_and_leave_nothing(imported_internal: Services) -> None:
    before = counts(imported_internal)
    with pytest.raises(InputError, match="--target-model"):
        imported_internal.critictool.import_file(PRED_INTERNAL)
    assert counts(imported_internal) == before


def test_different_predictions_for_the_same_model_are_refused_whole(
    imported_internal: Services, tmp_path: Path
) -> None:
    imported_internal.critictool.import_file(PRED_INTERNAL, target_model="m1")
    data = json.loads(PRED_INTERNAL.read_text(encoding="utf-8"))
    last = list(data)[-1]
    data[last]["predictions"] = data[last]["predictions"] + " changed"
    changed = tmp_path / "interal_base_data_wo_cot.json"
    changed.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    before = counts(imported_internal)
    with pytest.raises(SampleError) as caught:
        imported_internal.critictool.import_file(changed, target_model="m1")
    assert caught.value.sample_id == last and caught.value.field == "predictions"
    assert counts(imported_internal) == before
    other = imported_internal.critictool.import_file(changed, target_model="m2")
    assert (other.responses_new, other.items_unchanged) == (21, 21)


def test_a_clashing_sample_id_is_refused_whole(imported_internal: Services, tmp_path: Path) -> None:
    data = json.loads(INTERNAL.read_text(encoding="utf-8"))
    first, last = next(iter(data)), list(data)[-1]
    data["brand_new"] = data.pop(first)
    data[last]["query_prompt"][1]["content"] += " (edited)"
    path = tmp_path / "internal_error" / "base_data_wo_cot.json"
    path.parent.mkdir()
    path.write_text(json.dumps(data), encoding="utf-8")
    before = counts(imported_internal)
    with pytest.raises(SampleError) as caught:
        imported_internal.imports.import_path(path)
    assert caught.value.sample_id == last and caught.value.field == "(sample id)"
    assert counts(imported_internal) == before


def test_a_bad_record_names_file_sample_and_field(services: Services, tmp_path: Path) -> None:
    data = json.loads(INTERNAL.read_text(encoding="utf-8"))
    second = list(data)[1]
    del data[second]["query_prompt"]
    path = tmp_path / "base_data_wo_cot.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    with pytest.raises(SampleError) as caught:
        services.imports.import_path(path)
    assert (caught.value.sample_id, caught.value.field) == (second, "query_prompt")
    assert str(path) in str(caught.value)
    assert counts(services)["item"] == 0 and services.critictool.datasets() == []


def test_dry_run_writes_nothing(services: Services) -> None:
    report = services.imports.import_path(INTERNAL, dry_run=True)
    assert report.items_new == 21 and report.dry_run
    assert counts(services)["item"] == 0


def test_when2call_and_critictool_datasets_stay_apart(
    imported_internal: Services, judge_file: Path, tmp_path: Path
) -> None:
    with pytest.raises(InputError, match="CriticTool samples"):
        imported_internal.imports.import_path(judge_file, dataset="critictool")
    imported_internal.imports.import_path(judge_file)
    with pytest.raises(InputError, match="not CriticTool samples"):
        imported_internal.imports.import_path(EXTERNAL, dataset="when2call_test_llm_judge")
    with pytest.raises(NotFoundError):
        imported_internal.critictool.samples("when2call_test_llm_judge")
    with pytest.raises(NotFoundError):
        imported_internal.critictool.sample(10**6)


def test_cli_imports_by_content(db_url: str, tmp_path: Path) -> None:
    runner = CliRunner()
    renamed = tmp_path / "anything.json"  # no telling name: detected from the content
    shutil.copy(PRED_INTERNAL, renamed)
    result = runner.invoke(app, ["--db", db_url, "import", str(renamed)])
    assert result.exit_code != 0 and "--target-model" in result.stderr
    result = runner.invoke(
        app, ["--db", db_url, "import", str(renamed), "--target-model", "m1", "--json"]
    )
    assert result.exit_code == 0, result.stderr
    [report] = json.loads(result.stdout)
    assert (report["kind"], report["items_new"], report["responses_new"]) == (
        "critictool_predictions",
        21,
        21,
    )
