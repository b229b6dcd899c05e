"""The CriticTool reader on our fixture files: kinds, turns, tools, gold, predictions, raw JSON."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from w2c_tui.domain.critictool import FINISH_ACTION, CriticToolFile, ToolParam
from w2c_tui.domain.critictool_prompts import ANCHOR, INSTRUCTIONS
from w2c_tui.io.importers import critictool, detect_kind, read_input
from w2c_tui.io.importers.critictool import looks_like_critictool, read_critictool

CT = Path(__file__).resolve().parent / "fixtures" / "critictool"
DATASET = CT / "dataset"
PREDICTIONS = CT / "predictions"

KINDS = [
    # path, source, variant, cot, mode, has predictions, samples
    (DATASET / "internal_error/base_data_wo_cot.json", "internal", "base", False, None, False, 21),
    (DATASET / "internal_error/evol_data_w_cot.json", "internal", "evol", True, None, False, 5),
    (DATASET / "internal_error/noerror_data_wo_cot.json", "internal", None, False, None, False, 2),
    (DATASET / "external_error/base_data_wo_cot.json", "external", "base", False, None, False, 7),
    (DATASET / "external_error/evol_data_w_cot.json", "external", "evol", True, None, False, 4),
    (PREDICTIONS / "interal_base_data_wo_cot.json", "internal", "base", False, None, True, 21),
    (PREDICTIONS / "interal_evol_data_w_cot.json", "internal", "evol", True, None, True, 5),
    (
        PREDICTIONS / "external_skip_base_data_wo_cot.json",
        "external",
        "base",
        False,
        "skip",
        True,
        7,
    ),
    (
        PREDICTIONS / "external_finish_evol_data_w_cot.json",
        "external",
        "evol",
        True,
        "finish",
        True,
        4,
    ),
]


@pytest.mark.parametrize(("path", "source", "variant", "cot", "mode", "predicted", "count"), KINDS)
def test_every_fixture_kind_reads(
    path: Path,
    source: str,
    variant: str | None,
    cot: bool,
    mode: str | None,
    predicted: bool,
    count: int,
) -> None:
    assert looks_like_critictool(path)
    read = read_critictool(path)
    kind = read.kind
    assert (kind.source, kind.variant, kind.cot, kind.mode) == (source, variant, cot, mode)
    assert kind.has_predictions is predicted
    assert len(read.samples) == count
    assert read.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [sample.sample_id for sample in read.samples] == list(data)


@pytest.mark.parametrize("path", [p for p, *_ in KINDS], ids=lambda p: p.name)
def test_raw_json_is_the_files_own_text(path: Path) -> None:
    data = path.read_bytes()
    for sample in read_critictool(path).samples:
        raw = sample.raw_json.encode("utf-8")
        assert raw in data
        assert sample.sha256 == hashlib.sha256(raw).hexdigest()
        assert json.loads(sample.raw_json) == json.loads(data)[sample.sample_id]
        assert data.decode("utf-8").splitlines()[sample.line - 1].find("{") >= 0


def test_turns_tools_gold_and_error_type() -> None:
    samples = {
        s.sample_id: s
        for s in read_critictool(DATASET / "internal_error/base_data_wo_cot.json").samples
    }
    cjk = samples["cjk1"]
    assert [t.role for t in cjk.turns] == ["system", "user", "assistant", "function"]
    assert cjk.turns[1].content == "数一数第五个货架"
    assert cjk.error_type == "parameters_value_error"
    assert cjk.gold[0].name == "Store.count_items"
    assert cjk.gold[0].args == {"shelf": 5, "meta": None, "label": "五号"}
    store = cjk.tool("Store.count_items")
    assert store is not None
    assert store.required == (
        ToolParam("shelf", "NUMBER", True, "The shelf."),
        ToolParam("meta", "any", True, "The meta."),
    )
    assert [p.name for p in store.optional] == ["label", "shelf"]
    clock = cjk.tool("Clock.now")
    assert clock is not None and clock.params == ()
    assert samples["ok1"].error_type is None and not samples["ok1"].erroneous
    assert samples["ok2"].error_type is None  # null reads like ""
    assert samples["finish1"].gold[0].name == FINISH_ACTION
    assert samples["finish1"].gold[0].args == "You are welcome."


def test_a_python_literal_tool_list_reads_like_json() -> None:
    cot = read_critictool(DATASET / "internal_error/evol_data_w_cot.json").samples[0]
    plain = read_critictool(DATASET / "internal_error/base_data_wo_cot.json").samples[0]
    assert "'name': 'WeatherAPI.get_weather'" in cot.system_prompt
    assert cot.tools == plain.tools
    assert cot.gold[0].thought == "I need the weather of Paris."


def test_predictions_files_give_back_the_dataset_records() -> None:
    """Instruction taken out, retry turns counted: the same item hash as the dataset record."""
    for dataset, predicted, instruction in [
        ("internal_error/base_data_wo_cot.json", "interal_base_data_wo_cot.json", "llm"),
        ("internal_error/evol_data_w_cot.json", "interal_evol_data_w_cot.json", "llm_cot"),
        ("external_error/base_data_wo_cot.json", "external_skip_base_data_wo_cot.json", "skip"),
        ("external_error/base_data_wo_cot.json", "external_finish_base_data_wo_cot.json", "finish"),
        ("external_error/evol_data_w_cot.json", "external_skip_evol_data_w_cot.json", "skip_cot"),
        (
            "external_error/evol_data_w_cot.json",
            "external_finish_evol_data_w_cot.json",
            "finish_cot",
        ),
    ]:
        originals = {s.sample_id: s for s in read_critictool(DATASET / dataset).samples}
        for sample in read_critictool(PREDICTIONS / predicted).samples:
            original = originals[sample.sample_id]
            assert sample.instruction == instruction
            assert INSTRUCTIONS[instruction] + ANCHOR in sample.turns[0].content
            assert sample.system_prompt == original.system_prompt
            assert sample.original_turns == original.turns
            assert sample.item_sha256 == original.item_sha256
            assert sample.sha256 != original.sha256
            assert sample.predictions is not None


def test_external_retry_turns_are_counted() -> None:
    samples = {
        s.sample_id: s
        for s in read_critictool(PREDICTIONS / "external_skip_base_data_wo_cot.json").samples
    }
    forever = samples["e_retry_forever"]
    assert forever.predictions is not None and len(forever.predictions) == 4
    assert (forever.dataset_turns, len(forever.turns)) == (4, 12)
    assert forever.turns[4].role == "assistant" and forever.turns[5] == forever.turns[3]
    once = samples["e_retry_then_skip"]
    assert (once.dataset_turns, len(once.turns)) == (4, 8)
    assert samples["e_cjk"].dataset_turns == 6  # an earlier successful step, no retry
    assert samples["e_cjk"].gold[1].args == "无法获取巴黎的天气。"


@pytest.mark.parametrize(
    "content",
    [
        '{"uuid": "x", "question": "q", "answers": {}}\n{"uuid": "y"}\n',  # When2Call JSONL
        '[{"query_prompt": [], "ground_truth": {}}]',
        '{"a": {"query_prompt": "text", "ground_truth": {}}}',
        '{"a": {"messages": []}}',
        "{}",
        "not json",
        "",
    ],
)
def test_other_files_do_not_look_like_critictool(tmp_path: Path, content: str) -> None:
    path = tmp_path / "file.json"
    path.write_text(content, encoding="utf-8")
    assert not looks_like_critictool(path)
    assert not looks_like_critictool(tmp_path)


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        ('{\n  "a": {\n    "query_prompt": [{"role": "system", "content": "long', True),
        ('{"a": {"ground_truth": {"thought": "cut', True),
        ('{"uuid": "x", "question": {"text": "cut', False),
        ('{"a": {"messages": [{"role": "user", "content": "cut', False),
        ('[{"query_prompt": [', False),
    ],
)
def test_a_first_record_longer_than_the_head(head: str, expected: bool) -> None:
    assert critictool.looks_like(head, whole=False) is expected
    assert not critictool.looks_like(head, whole=True)  # all of the file, and not JSON


@pytest.mark.parametrize("path", [p for p, *_ in KINDS], ids=lambda p: p.name)
def test_the_registry_tells_critictool_files(path: Path) -> None:
    assert detect_kind(path) == "critictool"
    read = read_input(path)
    assert isinstance(read, CriticToolFile)
    assert read.samples == read_critictool(path).samples
