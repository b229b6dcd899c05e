"""Importing through the services into a real store: real data, bad data, re-imports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dbfixtures import row_counts as table_rows

from w2c_tui.domain.errors import InputError, NotFoundError, StrictImportError
from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.review import ItemFilter, ReviewMode, ToolCount
from w2c_tui.services import Services

QA = ReviewMode.ITEM_QA


def row_counts(services: Services) -> dict[str, int]:
    """Rows per table, read on a connection of its own."""
    return table_rows(services.url)


def test_real_judge_file_imports_300_items(services: Services, judge_file: Path) -> None:
    report = services.imports.import_path(judge_file)
    assert (report.items_new, report.items_unchanged, report.dataset) == (
        300,
        0,
        "when2call_test_llm_judge",
    )
    name = report.dataset
    for label in (Label.TOOL_CALL, Label.REQUEST_FOR_INFO, Label.CANNOT_ANSWER):
        assert services.review.count(name, ItemFilter(gold=label), QA, None) == 100
    assert services.review.count(name, ItemFilter(gold=Label.DIRECT), QA, None) == 0
    no_tools = ItemFilter(tools=ToolCount.NONE)
    assert services.review.count(name, no_tools, QA, None) == 17
    assert services.review.count(name, no_tools.with_(gold=Label.CANNOT_ANSWER), QA, None) == 17
    first = services.review.window(name, ItemFilter(), QA, None, 0, 1)[0]
    assert first.uuid == "276e4475-e087-4660-9a3a-1fe295fa452c"


def test_reimporting_the_same_file_changes_nothing(services: Services, judge_file: Path) -> None:
    services.imports.import_path(judge_file)
    before = row_counts(services)
    again = services.imports.import_path(judge_file)
    assert (again.items_new, again.items_unchanged, again.items_changed) == (0, 300, ())
    assert again.changed_nothing
    assert row_counts(services) == before


def test_malformed_third_line_is_refused_and_nothing_is_stored(
    services: Services, judge_file: Path, tmp_path: Path
) -> None:
    lines = judge_file.read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        "\n".join([lines[0], lines[1], lines[2][:-40], *lines[3:10]]) + "\n", encoding="utf-8"
    )
    before = row_counts(services)
    with pytest.raises(InputError) as caught:
        services.imports.import_path(bad)
    assert caught.value.line == 3
    assert "bad.jsonl:3" in str(caught.value)
    assert row_counts(services) == before
    assert services.datasets.all() == []


def test_changed_item_is_reported_not_merged(
    services: Services, judge_file: Path, tmp_path: Path
) -> None:
    services.imports.import_path(judge_file, dataset="j")
    lines = judge_file.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["question"] = "A different question"
    changed = tmp_path / "changed.jsonl"
    changed.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    report = services.imports.import_path(changed, dataset="j")
    assert report.items_changed == (first["uuid"],)
    assert report.items_new == 0
    stored = services.review.find("j", first["uuid"])
    assert stored.question != "A different question"
    with pytest.raises(StrictImportError):
        services.imports.import_path(changed, dataset="j", strict=True)


def test_api_suite_run_attaches_four_and_reports_eleven(
    services: Services, judge_file: Path, api_suite_run: Path
) -> None:
    services.imports.import_path(judge_file)
    report = services.imports.import_path(api_suite_run)
    assert report.responses_new == 4
    assert len(report.unknown_uuids) == 11
    assert report.unknown_records > 0
    attached = 0
    for uuid in _suite_uuids(api_suite_run):
        try:
            item = services.review.find("when2call_test_llm_judge", uuid)
        except NotFoundError:
            continue
        attached += 1
        detail = services.review.detail(item.id, None)
        judges = [
            v for r in detail.responses for v in r.verdicts if v.rater.kind is RaterKind.JUDGE
        ]
        assert judges, f"no judge verdict on {uuid}"
        for verdict in judges:
            # the suite forced every unparsable judge output to cannot_answer: we keep it invalid
            assert verdict.status is VerdictStatus.INVALID
            assert verdict.label is None
            assert verdict.raw and "classification" in verdict.raw
    assert attached == 4
    again = services.imports.import_path(api_suite_run)
    assert again.changed_nothing


def test_strict_refuses_unknown_uuids_and_stores_nothing(
    services: Services, judge_file: Path, api_suite_run: Path
) -> None:
    services.imports.import_path(judge_file)
    before = row_counts(services)
    with pytest.raises(StrictImportError):
        services.imports.import_path(api_suite_run, strict=True)
    assert row_counts(services) == before


def test_dry_run_writes_nothing(services: Services, judge_file: Path) -> None:
    report = services.imports.import_path(judge_file, dry_run=True)
    assert report.items_new == 300 and report.dry_run
    assert services.datasets.all() == []


def test_results_need_a_dataset(services: Services, api_suite_run: Path) -> None:
    with pytest.raises(NotFoundError, match="no datasets"):
        services.imports.import_path(api_suite_run)


def test_demo_import(demo: Services) -> None:
    [dataset] = demo.datasets.all()
    assert (dataset.name, dataset.n_items, dataset.n_responses) == ("demo", 30, 60)
    assert demo.review.count("demo", ItemFilter(tools=ToolCount.NONE), QA, None) == 4
    invalid = 0
    kinds: set[RaterKind] = set()
    for row in demo.review.window("demo", ItemFilter(), QA, None, 0, 30):
        detail = demo.review.detail(row.id, None)
        assert {p.target_model for p in detail.models} == {"acme-7b-instruct", "tiny-tools-1b"}
        for panel in detail.models:
            for verdict in panel.model_verdicts:
                kinds.add(verdict.rater.kind)
                assert len(verdict.scores["loglikelihoods"]) == 4
            for response in panel.responses:
                for verdict in response.verdicts:
                    kinds.add(verdict.rater.kind)
                    invalid += verdict.status is VerdictStatus.INVALID
    assert kinds == {RaterKind.JUDGE, RaterKind.MCQ_LOGPROB}
    assert invalid == 2
    assert all(r.changed_nothing for r in demo.imports.import_demo())


def _suite_uuids(run: Path) -> list[str]:
    path = run / "checkpoints" / "llm_judge" / "target_responses.jsonl"
    return [json.loads(line)["uuid"] for line in path.read_text().splitlines() if line.strip()]
