"""The importers on the real shared data: the 300-item judge file and an API-suite run."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.records import ImportBundle
from w2c_tui.io.importers import detect_kind, read_bundle

JUDGE_FILE = "when2call/when2call_test_llm_judge.jsonl"
JUDGE_FILE_SHA256 = "0b710578e3b02479e5acf5688140ec5edf71383fa5c093481c7536b57fd13b25"
RUN = "api-eval-suite-run"
CANONICAL = ["direct", "tool_call", "request_for_info", "cannot_answer"]


@pytest.fixture
def items_bundle(shared_data: Path) -> ImportBundle:
    return read_bundle(shared_data / JUDGE_FILE)


@pytest.fixture
def run_bundle(shared_data: Path) -> ImportBundle:
    return read_bundle(shared_data / RUN)


def test_judge_file_items(items_bundle: ImportBundle) -> None:
    assert items_bundle.kind == "when2call_test"
    assert items_bundle.sha256 == JUDGE_FILE_SHA256
    assert items_bundle.default_dataset == "when2call_test_llm_judge"
    assert items_bundle.notes == ()
    items = items_bundle.items
    assert len(items) == 300
    assert len({i.uuid for i in items}) == 300
    assert [i.line for i in items] == list(range(1, 301))
    assert Counter(i.gold for i in items) == {
        Label.TOOL_CALL: 100,
        Label.REQUEST_FOR_INFO: 100,
        Label.CANNOT_ANSWER: 100,
    }


def test_judge_file_tools(items_bundle: ImportBundle) -> None:
    no_tools = [i for i in items_bundle.items if not i.tools]
    assert len(no_tools) == 17
    assert {i.gold for i in no_tools} == {Label.CANNOT_ANSWER}
    tools = [t for i in items_bundle.items for t in i.tools]
    assert len(tools) == 978
    assert all(json.dumps(json.loads(t)) == t for t in tools)


def test_judge_file_answers_and_optional_fields(items_bundle: ImportBundle) -> None:
    items = items_bundle.items
    assert all([name for name, _ in i.answers] == CANONICAL for i in items)
    by_gold = {label: [i for i in items if i.gold is label] for label in Label}
    # Key sets depend on the label in this file: the optional fields must be optional.
    tool_call = by_gold[Label.TOOL_CALL]
    assert all(i.orig_question is None and i.held_out_param is None for i in tool_call)
    assert all("orig_tools" not in i.extra for i in tool_call)
    assert all(i.target_tool is not None for i in tool_call)
    request = by_gold[Label.REQUEST_FOR_INFO]
    assert all(i.held_out_param and i.orig_question is not None for i in request)
    cannot = by_gold[Label.CANNOT_ANSWER]
    assert all(i.target_tool is None for i in cannot)
    assert all(len(i.extra["orig_tools"]) == len(i.tools) + 1 for i in cannot)


def test_api_suite_run_counts(run_bundle: ImportBundle) -> None:
    assert run_bundle.kind == "api_suite"
    assert run_bundle.default_dataset is None
    assert len(run_bundle.responses) == 15
    assert {r.target_model for r in run_bundle.responses} == {"gpt-oss-120b"}
    assert all(r.meta == {"temperature": 0.0, "api_seed": 25} for r in run_bundle.responses)
    kinds = Counter(v.rater.kind for v in run_bundle.verdicts)
    assert kinds == {RaterKind.JUDGE: 15, RaterKind.MCQ_INDEX: 15, RaterKind.MCQ_LOGPROB: 15}


def test_api_suite_judge_fallbacks_are_invalid(run_bundle: ImportBundle) -> None:
    judged = [v for v in run_bundle.verdicts if v.rater.kind is RaterKind.JUDGE]
    assert all(v.status is VerdictStatus.INVALID and v.label is None for v in judged)
    assert all(v.raw is not None and "classification" in v.raw for v in judged)
    # The raw replies are valid JSON with real labels, although the suite forced them all.
    assert all(Label.parse(json.loads(v.raw or "")["classification"]) for v in judged)
    assert all(v.scores["suite_fallback"] is True for v in judged)
    assert all(v.scores["suite_label"] == "cannot_answer" for v in judged)
    assert not [v for v in run_bundle.verdicts if v.scores.get("suite_fallback") and v.label]
    for verdict in judged:
        assert verdict.response_index is not None
        assert run_bundle.responses[verdict.response_index].uuid == verdict.uuid
        assert verdict.rater.name == "gpt-oss-120b"
        assert verdict.target_model == "gpt-oss-120b"


def test_api_suite_mcq_index_labels_follow_predicted_index(
    run_bundle: ImportBundle, shared_data: Path
) -> None:
    path = shared_data / RUN / "checkpoints" / "mcq" / "mcq_predictions.jsonl"
    expected = {}
    for text in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(text)
        expected[row["uuid"]] = row["predicted_index"]
    mcq = [v for v in run_bundle.verdicts if v.rater.kind is RaterKind.MCQ_INDEX]
    assert len(mcq) == 15
    for verdict in mcq:
        index = expected[verdict.uuid]
        if index == -1:
            assert verdict.status is VerdictStatus.INVALID and verdict.label is None
        else:
            assert verdict.status is VerdictStatus.OK
            assert verdict.label is Label.from_index(index)
    assert sum(v.status is VerdictStatus.INVALID for v in mcq) == 2


def test_api_suite_logprob_verdicts_and_note(run_bundle: ImportBundle) -> None:
    scored = [v for v in run_bundle.verdicts if v.rater.kind is RaterKind.MCQ_LOGPROB]
    assert all(v.status is VerdictStatus.OK and v.label is not None for v in scored)
    assert all(v.scores["pred_raw"] == v.label for v in scored)
    assert all(len(v.scores["scores_raw"]) == 4 for v in scored)
    assert {v.rater.config["delimiter"] for v in scored} == {"' '"}
    notes = [n for n in run_bundle.notes if "not choice likelihoods" in n]
    assert len(notes) == 1
    assert any("audit" in n and "15 of them forced" in n for n in run_bundle.notes)


def test_api_suite_folder_hash_is_stable(shared_data: Path, run_bundle: ImportBundle) -> None:
    assert read_bundle(shared_data / RUN).sha256 == run_bundle.sha256


def test_detect_real_files_and_folder(shared_data: Path) -> None:
    assert detect_kind(shared_data / JUDGE_FILE) == "when2call_test"
    assert detect_kind(shared_data / RUN) == "api_suite"
    files = sorted((shared_data / RUN / "checkpoints").rglob("*.jsonl"))
    assert len(files) == 6
    assert {detect_kind(f) for f in files} == {"api_suite"}


def test_single_checkpoint_files(shared_data: Path) -> None:
    folder = shared_data / RUN / "checkpoints"
    judged = read_bundle(folder / "llm_judge" / "judge_decisions.jsonl")
    assert len(judged.verdicts) == 15 and not judged.responses
    # Alone, the decisions have no responses; the run's manifest still names the target model.
    assert all(v.response_index is None for v in judged.verdicts)
    assert {v.target_model for v in judged.verdicts} == {"gpt-oss-120b"}
    assert any("no target response" in n for n in judged.notes)
    responses = read_bundle(folder / "llm_judge" / "target_responses.jsonl")
    assert len(responses.responses) == 15 and not responses.verdicts
