"""The inference protocol sends what the official test.py sent, round by round (oracle hashes)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from w2c_tui.domain.critictool import ExternalMode, Sample
from w2c_tui.domain.critictool_prompts import ANCHOR, INSTRUCTIONS
from w2c_tui.io.importers.critictool import read_critictool
from w2c_tui.runs.critictool.protocol import (
    ExternalLoop,
    Messages,
    ProtocolError,
    build_messages,
    chat_roles,
    insert_instruction,
    run_external,
    run_internal,
)

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool"
EXPECTED = json.loads((CT / "expected.json").read_text(encoding="utf-8"))["runs"]
REPLIES = json.loads((CT / "replies.json").read_text(encoding="utf-8"))

RUNS: list[tuple[str, str, ExternalMode | None, bool]] = [
    ("interal_base_data_wo_cot", "internal_error/base_data_wo_cot.json", None, False),
    ("interal_evol_data_w_cot", "internal_error/evol_data_w_cot.json", None, True),
    ("interal_noerror_data_wo_cot", "internal_error/noerror_data_wo_cot.json", None, False),
    ("external_skip_base_data_wo_cot", "external_error/base_data_wo_cot.json", "skip", False),
    ("external_finish_base_data_wo_cot", "external_error/base_data_wo_cot.json", "finish", False),
    ("external_skip_evol_data_w_cot", "external_error/evol_data_w_cot.json", "skip", True),
    ("external_finish_evol_data_w_cot", "external_error/evol_data_w_cot.json", "finish", True),
]


def request_hash(messages: Messages) -> str:
    """As oracle.py hashes the official requests."""
    text = json.dumps(messages, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Scripted:
    """Answers from replies.json and records each request's hash."""

    def __init__(self, script: Any) -> None:
        self.script = script
        self.hashes: list[str] = []

    def __call__(self, messages: Messages) -> str:
        self.hashes.append(request_hash(messages))
        if isinstance(self.script, str):
            return self.script
        return str(self.script[len(self.hashes) - 1])


@pytest.mark.parametrize(("name", "dataset", "mode", "cot"), RUNS, ids=[r[0] for r in RUNS])
def test_requests_and_replies_match_the_official_run(
    name: str, dataset: str, mode: ExternalMode | None, cot: bool
) -> None:
    output = {s.sample_id: s for s in read_critictool(CT / "predictions" / f"{name}.json").samples}
    for sample in read_critictool(CT / "dataset" / dataset).samples:
        chat = Scripted(REPLIES[name][sample.sample_id])
        if mode is None:
            replies: tuple[str, ...] = (run_internal(sample, chat, cot, function_role="function"),)
        else:
            replies = run_external(sample, chat, mode, cot, function_role="function")
        assert chat.hashes == EXPECTED[name]["requests"][sample.sample_id], sample.sample_id
        official = output[sample.sample_id]
        assert replies == official.predictions
        if mode is not None:
            loop = ExternalLoop(sample, mode, cot, replies=replies)
            turns = [{"role": t.role, "content": t.content} for t in official.turns]
            assert loop.messages == turns  # the official output keeps the grown conversation


def test_the_instruction_goes_before_the_anchor() -> None:
    sample = read_critictool(CT / "dataset" / "internal_error" / "evol_data_w_cot.json").samples[0]
    messages = build_messages(sample, None, cot=True)
    head, anchor, _ = messages[0]["content"].partition(ANCHOR)
    assert anchor and head.endswith(INSTRUCTIONS["llm_cot"])
    assert messages[0]["content"].replace(INSTRUCTIONS["llm_cot"], "") == sample.system_prompt
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "function"]
    with pytest.raises(ProtocolError, match="no 'Remember"):
        insert_instruction("no anchor here", "x")
    with pytest.raises(ProtocolError):
        build_messages(sample, "skip", cot=True)


def test_a_predictions_file_sample_starts_from_the_dataset_turns() -> None:
    dataset = read_critictool(CT / "dataset" / "external_error" / "base_data_wo_cot.json").samples
    output = read_critictool(CT / "predictions" / "external_skip_base_data_wo_cot.json").samples
    by_id = {s.sample_id: s for s in output}
    for sample in dataset:
        assert build_messages(by_id[sample.sample_id], "skip", False) == build_messages(
            sample, "skip", False
        )


def _sample(name: str, sample_id: str) -> Sample:
    samples = read_critictool(CT / "dataset" / name).samples
    return next(s for s in samples if s.sample_id == sample_id)


def test_retry_limit_and_resume() -> None:
    sample = _sample("external_error/base_data_wo_cot.json", "e_retry_forever")
    retry = json.dumps({"name": "WeatherAPI.get_weather", "args": {"city": "Paris"}})
    assert run_external(sample, lambda _m: retry, "skip", False) == (retry,) * 4
    assert run_external(sample, lambda _m: retry, "skip", False, retry_limit=0) == (retry,)
    assert run_external(sample, lambda _m: retry, "skip", False, retry_limit=1) == (retry,) * 2
    resumed = ExternalLoop(sample, "skip", False, replies=[retry, retry])
    request = resumed.request()
    assert request is not None and len(request) == 4 + 4
    resumed.record("{}")
    assert resumed.request() is None and resumed.replies == [retry, retry, "{}"]
    with pytest.raises(ProtocolError, match="already finished"):
        resumed.record("{}")
    with pytest.raises(ProtocolError, match="3 recorded replies"):
        ExternalLoop(sample, "skip", False, replies=["{}", retry, retry])
    with pytest.raises(ProtocolError, match="retry_limit"):
        ExternalLoop(sample, "skip", False, retry_limit=-1)


def test_function_turns_become_user_turns_for_chat_apis() -> None:
    sample = _sample("external_error/base_data_wo_cot.json", "e_cjk")
    seen: list[Messages] = []

    def chat(messages: Messages) -> str:
        seen.append(messages)
        return "{}"

    run_external(sample, chat, "finish", False)
    assert [m["role"] for m in seen[0]] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    messages = build_messages(sample, "finish", False)
    mapped = chat_roles(messages, "tool")
    assert [m["role"] for m in mapped][-1] == "tool" and messages[-1]["role"] == "function"
    assert [m["content"] for m in mapped] == [m["content"] for m in messages]
