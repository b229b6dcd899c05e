"""A malformed CriticTool file is refused whole, naming the file, line, sample id and field."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from w2c_tui.domain.critictool import SampleError
from w2c_tui.domain.critictool_prompts import INSTRUCTIONS
from w2c_tui.domain.errors import InputError
from w2c_tui.io.importers.critictool import read_critictool

CT = Path(__file__).resolve().parent / "fixtures" / "critictool" / "dataset"
INTERNAL = json.loads((CT / "internal_error/base_data_wo_cot.json").read_text(encoding="utf-8"))
EXTERNAL = json.loads((CT / "external_error/base_data_wo_cot.json").read_text(encoding="utf-8"))
Record = dict[str, Any]


def _set(path: list[Any], value: Any) -> Callable[[Record], None]:
    def change(record: Record) -> None:
        target: Any = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _delete(key: str) -> Callable[[Record], None]:
    return lambda record: record.pop(key)


def _system(old: str, new: str) -> Callable[[Record], None]:
    def change(record: Record) -> None:
        record["query_prompt"][0]["content"] = record["query_prompt"][0]["content"].replace(
            old, new, 1
        )

    return change


CASES = [
    # (what is broken, change, field named)
    ("record not an object", lambda r: r.clear(), "query_prompt"),
    ("no query_prompt", _delete("query_prompt"), "query_prompt"),
    ("no ground_truth", _delete("ground_truth"), "ground_truth"),
    ("no error_type", _delete("error_type"), "error_type"),
    ("query_prompt a string", _set(["query_prompt"], "hi"), "query_prompt"),
    ("empty query_prompt", _set(["query_prompt"], []), "query_prompt"),
    ("a message not an object", _set(["query_prompt", 2], "x"), "query_prompt[2]"),
    ("unknown role", _set(["query_prompt", 3, "role"], "tool"), "query_prompt[3].role"),
    ("content not a string", _set(["query_prompt", 1, "content"], 5), "query_prompt[1].content"),
    ("message 0 not system", _set(["query_prompt", 0, "role"], "user"), "query_prompt[0].role"),
    ("no '['", _system("[", "("), "query_prompt[0].content"),
    ("no tool-list end", _system("\nTo use a tool", "\nUse tools"), "query_prompt[0].content"),
    ("tool list unparsable", _system('[{"name"', "[{name"), "query_prompt[0].content"),
    ("tool list a tuple", _system("[", "[1], ["), "query_prompt[0].content (tool list)"),
    (
        "tool without a name",
        _system('"name": "Clock.now"', '"title": "Clock.now"'),
        "query_prompt[0].content (tool 4).name",
    ),
    (
        "parameter type not a string",
        _system('"type": "FLOAT"', '"type": ["FLOAT"]'),
        "query_prompt[0].content (tool 2).required_parameters[0].type",
    ),
    (
        "parameters not a list",
        _system('"optional_parameters": []', '"optional_parameters": {}'),
        "query_prompt[0].content (tool 2).optional_parameters",
    ),
    ("unknown error type", _set(["error_type"], "wrong_tool"), "error_type"),
    ("error type a number", _set(["error_type"], 3), "error_type"),
    ("ground_truth a string", _set(["ground_truth"], "x"), "ground_truth"),
    ("gold without name", _set(["ground_truth"], {"args": {}}), "ground_truth.name"),
    ("gold without args", _set(["ground_truth"], {"name": "Clock.now"}), "ground_truth.args"),
    ("gold args a list", _set(["ground_truth", "args"], [1]), "ground_truth.args"),
    ("gold args a string for a tool", _set(["ground_truth", "args"], "Paris"), "ground_truth.args"),
    ("gold thought not a string", _set(["ground_truth", "thought"], None), "ground_truth.thought"),
    ("prediction not a string", _set(["predictions"], ["x"]), "predictions"),
]


def _write(tmp_path: Path, name: str, data: dict[str, Any]) -> Path:
    path = tmp_path / "internal_error" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


@pytest.mark.parametrize(("what", "change", "field"), CASES, ids=[c[0] for c in CASES])
def test_a_broken_record_is_named(
    tmp_path: Path, what: str, change: Callable[[Record], None], field: str
) -> None:
    data = copy.deepcopy(INTERNAL)
    victim = "cjk1"
    if what == "record not an object":
        data[victim] = ["not", "an", "object"]
        field = "(record)"
    else:
        change(data[victim])
    path = _write(tmp_path, "base_data_wo_cot.json", data)
    with pytest.raises(SampleError) as caught:
        read_critictool(path)
    error = caught.value
    assert (error.sample_id, error.field, error.path) == (victim, field, str(path))
    text = path.read_text(encoding="utf-8").splitlines()
    assert error.line is not None and text[error.line - 1].startswith(f'  "{victim}": ')
    assert str(path) in str(error) and repr(victim) in str(error)


def test_external_gold_needs_two_steps(tmp_path: Path) -> None:
    data = copy.deepcopy(EXTERNAL)
    data["e_cjk"]["ground_truth"] = data["e_cjk"]["ground_truth"][:1]
    path = tmp_path / "external_error" / "base_data_wo_cot.json"
    path.parent.mkdir()
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SampleError) as caught:
        read_critictool(path)
    assert (caught.value.sample_id, caught.value.field) == ("e_cjk", "ground_truth")


def _sample_error(path: Path) -> SampleError:
    with pytest.raises(SampleError) as caught:
        read_critictool(path)
    return caught.value


def test_file_level_refusals(tmp_path: Path) -> None:
    mixed = {"i": INTERNAL["select1"], "e": EXTERNAL["e_cjk"]}
    error = _sample_error(_write(tmp_path, "mixed.json", mixed))
    assert (error.sample_id, error.field) == ("e", "ground_truth")

    external_by_name = tmp_path / "external_error" / "base_data_wo_cot.json"
    external_by_name.parent.mkdir()
    external_by_name.write_text(json.dumps({"i": INTERNAL["select1"]}), encoding="utf-8")
    assert _sample_error(external_by_name).field == "ground_truth"

    half = copy.deepcopy({"a": INTERNAL["ok1"], "b": INTERNAL["ok2"]})
    half["a"]["predictions"] = "{}"
    error = _sample_error(_write(tmp_path, "half.json", half))
    assert (error.sample_id, error.field) == ("b", "predictions")

    thoughtless = {"c": INTERNAL["select1"]}
    error = _sample_error(_write(tmp_path, "base_data_w_cot.json", thoughtless))
    assert (error.sample_id, error.field) == ("c", "ground_truth.thought")

    first, second = json.dumps(INTERNAL["ok1"]), json.dumps(INTERNAL["ok2"])
    duplicate = f'{{"a": {first}, "a": {second}}}'
    path = tmp_path / "dup.json"
    path.write_text(duplicate, encoding="utf-8")
    assert _sample_error(path).sample_id == "a"


def test_instruction_conflicts_are_refused(tmp_path: Path) -> None:
    record = copy.deepcopy(INTERNAL["select1"])
    system = record["query_prompt"][0]["content"]
    anchor = system.index("Remember:")
    record["query_prompt"][0]["content"] = (
        system[:anchor] + INSTRUCTIONS["llm_cot"] + system[anchor:]
    )
    record["ground_truth"]["thought"] = "t"
    with pytest.raises(InputError, match="CoT=False"):
        read_critictool(_write(tmp_path, "base_data_wo_cot.json", {"a": record}))
    skip = copy.deepcopy(INTERNAL["select1"])
    skip["query_prompt"][0]["content"] = system[:anchor] + INSTRUCTIONS["skip"] + system[anchor:]
    with pytest.raises(InputError, match="internal samples carry the 'skip' instruction"):
        read_critictool(_write(tmp_path, "other.json", {"a": skip}))
    both = {"a": record, "b": copy.deepcopy(INTERNAL["select1"])}
    both["b"]["ground_truth"]["thought"] = "t"
    error = _sample_error(_write(tmp_path, "third.json", both))
    assert (error.sample_id, error.field) == ("b", "query_prompt[0].content")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('{\n"a": {"query_prompt": [}\n}', 2, "sample 'a': not valid JSON"),
        ('{\n"a": 1\n"b": 2}', 3, "expected ',' or '}'"),
        ("[1, 2]", 1, "expected one JSON object"),
        ("{}", None, "no samples"),
        ('{"a": 1} x', 1, "extra data"),
        ('{"a": 1', 1, "expected ',' or '}'"),
    ],
)
def test_broken_json_names_the_line(
    tmp_path: Path, text: str, line: int | None, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message) as caught:
        read_critictool(path)
    assert caught.value.line == line


def test_not_utf8_and_missing(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"a": "\xe9"}')
    with pytest.raises(InputError, match="not valid UTF-8"):
        read_critictool(path)
    with pytest.raises(InputError, match="no such file"):
        read_critictool(tmp_path / "absent.json")
