"""The API suite's run folders and checkpoint files, on small runs written here."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.io.importers import detect_kind, read_bundle
from w2c_tui.io.options import ReadOptions

NAMES = ["direct", "tool_call", "request_for_info", "cannot_answer"]


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _judge(uuid: str, label: str, raw: str, fallback: bool) -> dict[str, Any]:
    return {
        "uuid": uuid,
        "predicted_label": label,
        "judge_raw": raw,
        "judge_rationale": None,
        "judge_model": "judge-m",
        "judge_parse_failed_first": fallback,
        "judge_parse_failed_second": fallback,
        "judge_fallback_to_cannot_answer": fallback,
        "judge_exception_second": "boom" if fallback else None,
    }


def _mcq(uuid: str, index: int, label: str) -> dict[str, Any]:
    return {
        "uuid": uuid,
        "answer_names": NAMES,
        "predicted_index": index,
        "predicted_label": label,
        "raw_mcq_output": str(index),
        "target_model": "target-m",
    }


def _logprob(uuid: str, label: str, mode: str = "llama_scoring") -> dict[str, Any]:
    row: dict[str, Any] = {
        "uuid": uuid,
        "predicted_label_raw": label,
        "predicted_label_norm_chars": label,
        "mode": mode,
        "target_model": "target-m",
        "effective_delimiter": "' '",
    }
    if mode == "llama_scoring":
        for key in ("scores_raw", "scores_norm_bytes", "scores_norm_tokens", "scores_norm_chars"):
            row[key] = [-1.0, -0.5, -2.0, -3.0]
    else:
        row.update(fallback_trigger="all_-inf", string_fallback_raw_output="1")
    return row


@pytest.fixture
def run(tmp_path: Path) -> Path:
    folder = tmp_path / "session"
    config = {"target_model": "target-m", "judge_model": "judge-m"}
    folder.mkdir()
    (folder / "manifest.json").write_text(json.dumps({"fingerprint": "f", "config": config}))
    checkpoints = folder / "checkpoints"
    _write(
        checkpoints / "llm_judge" / "target_responses.jsonl",
        [
            {"uuid": "a", "raw_text": "old", "target_model": "target-m"},
            {"uuid": "b", "raw_text": "Which city?", "target_model": "target-m", "api_seed": 1},
            {"uuid": "a", "raw_text": "new", "target_model": "target-m", "temperature": 0.0},
        ],
    )
    _write(
        checkpoints / "llm_judge" / "judge_decisions.jsonl",
        [
            _judge("a", "tool_call", '{"classification": "tool_call"}', False),
            _judge("b", "cannot_answer", '{"classification": "request_for_info"}', True),
            _judge("c", "direct", '{"classification": "direct"}', False),
        ],
    )
    _write(
        checkpoints / "mcq" / "mcq_predictions.jsonl",
        [_mcq("a", 1, "tool_call"), _mcq("b", -1, "invalid")],
    )
    _write(
        checkpoints / "mcq_logprob" / "mcq_logprob_predictions.jsonl",
        [_logprob("a", "tool_call"), _logprob("b", "tool_call", "string_fallback")],
    )
    _write(
        checkpoints / "llm_judge" / "audit_fallbacks.jsonl",
        [
            {
                "uuid": "b",
                "pipeline": "llm_judge",
                "fallback_type": "judge_json_parse_failed_first",
            },
            {
                "uuid": "b",
                "pipeline": "llm_judge",
                "fallback_type": "judge_json_parse_failed_second_fallback_to_cannot_answer",
            },
        ],
    )
    _write(checkpoints / "other" / "stability.jsonl", [{"k": 1}])
    (checkpoints / "llm_judge" / "_DONE.json").write_text("{}")
    return folder


def test_run_folder(run: Path) -> None:
    assert detect_kind(run) == "api_suite"
    bundle = read_bundle(run)
    assert bundle.kind == "api_suite" and bundle.path == str(run)
    # Last write wins per uuid, as the suite reads its checkpoints.
    assert [(r.uuid, r.text, r.line) for r in bundle.responses] == [
        ("b", "Which city?", 2),
        ("a", "new", 3),
    ]
    assert bundle.responses[1].meta == {"temperature": 0.0}
    assert any("1 record(s) superseded" in n for n in bundle.notes)
    assert any("other/stability.jsonl: not a checkpoint file" in n for n in bundle.notes)
    assert any("read 2 audit event(s), 1 of them forced" in n for n in bundle.notes)


def test_judge_decisions(run: Path) -> None:
    bundle = read_bundle(run)
    judged = [v for v in bundle.verdicts if v.rater.kind is RaterKind.JUDGE]
    ok, fallback, orphan = judged
    assert ok.status is VerdictStatus.OK and ok.label is Label.TOOL_CALL
    assert ok.response_index is not None and bundle.responses[ok.response_index].uuid == "a"
    assert ok.rater.name == "judge-m"
    assert ok.rater.config == {
        "source": "when2call-api-eval-suite",
        "prompt": "api-suite judge prompt",
    }
    assert fallback.status is VerdictStatus.INVALID and fallback.label is None
    assert fallback.raw == '{"classification": "request_for_info"}'
    assert fallback.scores == {
        "suite_label": "cannot_answer",
        "suite_fallback": True,
        "suite_exception": "boom",
    }
    assert orphan.response_index is None and orphan.label is Label.DIRECT
    assert orphan.target_model == "target-m"
    assert any("1 judge decision(s) have no target response" in n for n in bundle.notes)


def test_mcq_and_logprob_verdicts(run: Path) -> None:
    bundle = read_bundle(run)
    mcq = [v for v in bundle.verdicts if v.rater.kind is RaterKind.MCQ_INDEX]
    assert [(v.label, v.status, v.raw) for v in mcq] == [
        (Label.TOOL_CALL, VerdictStatus.OK, "1"),
        (None, VerdictStatus.INVALID, "-1"),
    ]
    assert mcq[0].rater.name == "api-suite mcq-index"
    scored, fallback = [v for v in bundle.verdicts if v.rater.kind is RaterKind.MCQ_LOGPROB]
    assert scored.label is Label.TOOL_CALL and scored.status is VerdictStatus.OK
    assert scored.rater.config["delimiter"] == "' '"
    assert scored.scores["scores_raw"] == [-1.0, -0.5, -2.0, -3.0]
    assert scored.scores["pred_raw"] == "tool_call" and scored.scores["mode"] == "llama_scoring"
    # The string classifier, not the scores, chose this label: not this rater's verdict.
    assert fallback.status is VerdictStatus.INVALID and fallback.label is None
    assert fallback.scores["scores_raw"] is None
    assert sum("not choice likelihoods" in n for n in bundle.notes) == 1


def test_target_model_option_overrides(run: Path) -> None:
    bundle = read_bundle(run, options=ReadOptions(target_model="override", judge="j2"))
    assert {r.target_model for r in bundle.responses} == {"override"}
    assert {v.target_model for v in bundle.verdicts} == {"override"}
    assert {v.rater.name for v in bundle.verdicts if v.rater.kind is RaterKind.JUDGE} == {"j2"}


def test_folder_hash_follows_the_files(run: Path) -> None:
    before = read_bundle(run).sha256
    assert read_bundle(run).sha256 == before
    path = run / "checkpoints" / "mcq" / "mcq_predictions.jsonl"
    path.write_text(path.read_text() + "\n")
    assert read_bundle(run).sha256 != before


def test_a_single_checkpoint_file_hashes_its_bytes(run: Path) -> None:
    path = run / "checkpoints" / "mcq" / "mcq_predictions.jsonl"
    bundle = read_bundle(path)
    assert bundle.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert len(bundle.verdicts) == 2


def test_mcq_label_must_match_index(run: Path) -> None:
    path = run / "checkpoints" / "mcq" / "mcq_predictions.jsonl"
    _write(path, [_mcq("a", 1, "tool_call"), _mcq("b", 2, "tool_call")])
    with pytest.raises(InputError) as caught:
        read_bundle(run)
    assert (caught.value.line, caught.value.field) == (2, "predicted_label")
    assert "does not match predicted_index 2" in caught.value.message


@pytest.mark.parametrize(
    ("name", "row", "field"),
    [
        ("mcq/mcq_predictions.jsonl", _mcq("a", 7, "tool_call"), "predicted_index"),
        (
            "mcq/mcq_predictions.jsonl",
            {**_mcq("a", 1, "tool_call"), "predicted_index": "1"},
            "predicted_index",
        ),
        (
            "mcq_logprob/mcq_logprob_predictions.jsonl",
            {**_logprob("a", "direct"), "scores_raw": [1]},
            "scores_raw",
        ),
        ("llm_judge/target_responses.jsonl", {"uuid": "a", "raw_text": 5}, "raw_text"),
        (
            "llm_judge/judge_decisions.jsonl",
            {**_judge("a", "direct", "{}", False), "judge_raw": 1},
            "judge_raw",
        ),
    ],
)
def test_bad_checkpoint_records(run: Path, name: str, row: dict[str, Any], field: str) -> None:
    _write(run / "checkpoints" / name, [row])
    with pytest.raises(InputError) as caught:
        read_bundle(run)
    assert caught.value.field == field
    assert caught.value.path.endswith(name)


def test_a_record_without_any_target_model(tmp_path: Path) -> None:
    path = tmp_path / "mcq_predictions.jsonl"
    row = _mcq("a", 1, "tool_call")
    del row["target_model"]
    _write(path, [row])
    with pytest.raises(InputError, match="cannot tell the target model"):
        read_bundle(path)
    bundle = read_bundle(path, options=ReadOptions(target_model="m"))
    assert bundle.verdicts[0].target_model == "m"


def test_a_folder_without_checkpoints(tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text(json.dumps({"fingerprint": "f", "config": {}}))
    assert detect_kind(tmp_path) == "api_suite"
    with pytest.raises(InputError, match="no checkpoints"):
        read_bundle(tmp_path)


def test_a_broken_manifest(run: Path) -> None:
    (run / "manifest.json").write_text("{not json")
    with pytest.raises(InputError) as caught:
        read_bundle(run)
    assert caught.value.path.endswith("manifest.json")


def test_a_single_file_of_another_kind_as_api_suite(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    _write(path, [{"foo": 1}])
    with pytest.raises(InputError, match="not an API-suite checkpoint file"):
        read_bundle(path, "api_suite")
