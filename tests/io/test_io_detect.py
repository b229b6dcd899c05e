"""Detecting a file's kind from its content, and choosing the reader."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from w2c_tui.domain.errors import InputError
from w2c_tui.io.importers import IMPORTERS, KINDS, detect_kind, read_bundle

WriteLines = Callable[..., Path]
Item = Callable[..., dict[str, Any]]


def test_kinds() -> None:
    assert KINDS == (
        "when2call_test",
        "when2call_sft",
        "when2call_pref",
        "lm_eval_samples",
        "official_judge",
        "official_inference",
        "api_suite",
    )


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        (
            "lm_eval/tiny-model/samples_when2call-qwen2_5_2026-01-02T03-04-05.678901.jsonl",
            "lm_eval_samples",
        ),
        ("official_judge_tiny-model.jsonl", "official_judge"),
        ("official_inference_tiny-model.jsonl", "official_inference"),
        ("when2call_train_sft_tiny.jsonl", "when2call_sft"),
        ("when2call_train_pref_tiny.jsonl", "when2call_pref"),
    ],
)
def test_fixture_kinds(fixtures: Path, name: str, kind: str) -> None:
    assert detect_kind(fixtures / name) == kind
    assert read_bundle(fixtures / name).kind == kind


@pytest.mark.parametrize(
    ("row", "kind"),
    [
        ({"uuid": "u", "raw_text": "", "target_model": "m"}, "api_suite"),
        ({"uuid": "u", "predicted_label": "x", "judge_raw": "{}"}, "api_suite"),
        ({"uuid": "u", "predicted_index": 1, "raw_mcq_output": "1"}, "api_suite"),
        ({"uuid": "u", "predicted_label_raw": "direct"}, "api_suite"),
        ({"fallback_type": "x", "pipeline": "mcq"}, "api_suite"),
        ({"judge_prompt": "p", "model_response": "r", "question": {}}, "official_judge"),
    ],
)
def test_first_line_keys(write_lines: WriteLines, row: dict[str, Any], kind: str) -> None:
    assert detect_kind(write_lines(["", row, "not json"])) == kind


def test_item_file_with_bom_and_blank_lines(tmp_path: Path, item: Item) -> None:
    path = tmp_path / "items.jsonl"
    path.write_bytes(b"\xef\xbb\xbf\n\n" + json.dumps(item()).encode() + b"\n")
    assert detect_kind(path) == "when2call_test"
    assert len(read_bundle(path).items) == 1


def test_an_unknown_file_lists_what_was_looked_for(write_lines: WriteLines) -> None:
    path = write_lines([{"alpha": 1, "beta": 2}])
    with pytest.raises(InputError) as caught:
        detect_kind(path)
    assert caught.value.path == str(path)
    assert "alpha, beta" in caught.value.message
    for kind in KINDS:
        assert kind in caught.value.message


@pytest.mark.parametrize(("content", "message"), [("", "no JSON lines"), ("\n\n", "no JSON lines")])
def test_an_empty_file(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        read_bundle(path)


def test_malformed_first_line(write_lines: WriteLines) -> None:
    with pytest.raises(InputError) as caught:
        detect_kind(write_lines(["", "{oops"]))
    assert caught.value.line == 2


def test_missing_path(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_bundle(tmp_path / "absent.jsonl")


def test_folders(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="API-suite run"):
        detect_kind(tmp_path)
    (tmp_path / "manifest.json").write_text(json.dumps({"dataset": "demo", "files": []}))
    with pytest.raises(InputError, match="not an API-suite run manifest"):
        detect_kind(tmp_path)
    (tmp_path / "checkpoints").mkdir()
    assert detect_kind(tmp_path) == "api_suite"


def test_unknown_kind_and_folder_for_a_file_kind(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="unknown kind 'csv'"):
        read_bundle(tmp_path, "csv")
    with pytest.raises(InputError, match="expected a file"):
        read_bundle(tmp_path, "when2call_test")


def test_given_kind_skips_detection(write_lines: WriteLines, item: Item) -> None:
    path = write_lines([item()])
    with pytest.raises(InputError) as caught:
        read_bundle(path, "official_judge")
    assert caught.value.field == "judge_response"


def test_the_registry_holds_every_kind_once() -> None:
    kinds = [importer.kind for importer in IMPORTERS]
    assert sorted(kinds) == sorted([*KINDS, "critictool"])
    assert kinds[0] == "critictool"  # asked first: the other sniffs read the first JSON line
    assert [i.kind for i in IMPORTERS if i.folders] == ["api_suite"]
