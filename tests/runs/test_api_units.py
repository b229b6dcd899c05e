"""The openai backend's pure parts: chat prompt split, tools, Retry-After, backoff, echo spans."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import pytest
from fake_tasks import TOOL, make_task

from w2c_tui.runs.api import _template
from w2c_tui.runs.api.client import Redactor, public_url
from w2c_tui.runs.api.echo import (
    BatchMismatch,
    Echo,
    NoPromptLogprobs,
    Span,
    read_echo,
    read_echoes,
)
from w2c_tui.runs.api.retry import RetryPolicy, retry_after_seconds
from w2c_tui.runs.api.tools import call_text, native_tools
from w2c_tui.runs.prompts import DEFAULT, render


def test_chat_split_joins_back_into_the_official_default_prompt(judge_file: Path) -> None:
    prompts = []
    for line in judge_file.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        system = _template.system_message()
        user = _template.user_message(item["question"], item["tools"])
        prompts.append(system + "\n\n" + user)
    digest = hashlib.sha256("\x00".join(prompts).encode("utf-8")).hexdigest()[:16]
    assert digest == "ea35e1f24f738b39"  # WHEN2CALL_REFERENCE.md §7 fact 6, default family
    assert len(prompts[0]) == 2010


def test_chat_split_matches_the_shared_renderer() -> None:
    task = make_task(1, "Weather in Paris?")
    system = _template.system_message()
    assert system.startswith("You are a helpful AI assistant. \n")
    assert (
        system + "\n\n" + _template.user_message(task.question, task.tools)
        == render(DEFAULT, task)[0]
    )
    assert _template.user_message("Hi?", ()) == "\n\nHi?"


@pytest.mark.parametrize(
    ("prompt", "choice", "context", "continuation"),
    [
        ("Q?", "A", "Q?", "A"),
        ("Q? \n", "A", "Q?", " \nA"),
        ("assistant\n\n", '{"x": 1}', "assistant", '\n\n{"x": 1}'),
    ],
)
def test_trailing_whitespace_moves_into_the_continuation(
    prompt: str, choice: str, context: str, continuation: str
) -> None:
    assert _template.split_context(prompt, choice) == (context, continuation)


def test_native_tools_convert_bfcl_types_and_names() -> None:
    specs, names = native_tools((TOOL, json.dumps({"name": "weather_get_current"})))
    first = specs[0]["function"]
    assert specs[0]["type"] == "function"
    assert first["name"] == "weather_get_current"
    assert first["description"] == "Current weather in a city"
    params = first["parameters"]
    assert params["type"] == "object"
    assert params["properties"]["options"]["type"] == "object"
    assert params["properties"]["options"]["properties"]["metric"]["type"] == "boolean"
    assert params["properties"]["ratio"]["type"] == "number"
    assert "type" not in params["properties"]["extra"]
    assert params["required"] == ["city"]
    second = specs[1]["function"]
    assert second["name"] == "weather_get_current_2"
    assert second["parameters"] == {"type": "object", "properties": {}}
    assert names == {
        "weather_get_current": "weather.get_current",
        "weather_get_current_2": "weather_get_current",
    }
    text = call_text("weather_get_current", '{"city": "Paris"}', names)
    assert text == '{"name": "weather.get_current", "arguments": {"city": "Paris"}}'
    assert json.loads(call_text("other", "{not json", names)) == {
        "name": "other",
        "arguments": "{not json",
    }


def test_retry_after_forms() -> None:
    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)
    date = format_datetime(now + timedelta(seconds=7), usegmt=True)
    assert retry_after_seconds({"Retry-After": "2"}) == 2.0
    assert retry_after_seconds({"retry-after": "0.25"}) == 0.25
    assert retry_after_seconds({"retry-after-ms": "150"}) == 0.15
    assert retry_after_seconds({"Retry-After": date}, now=now) == 7.0
    assert retry_after_seconds({"Retry-After": format_datetime(now, usegmt=True)}, now) == 0.0
    assert retry_after_seconds({"Retry-After": "soon"}) is None
    assert retry_after_seconds({}) is None


def test_backoff_is_full_jitter_capped_and_retry_after_wins() -> None:
    policy = RetryPolicy(base_s=0.5, cap_s=4.0, max_retry_after_s=10.0)
    rng = random.Random(0)
    for retry, bound in [(1, 0.5), (2, 1.0), (3, 2.0), (4, 4.0), (9, 4.0)]:
        delays = [policy.delay(retry, None, rng) for _ in range(200)]
        assert all(0.0 <= d <= bound for d in delays)
        assert max(delays) > bound * 0.8
    assert policy.delay(1, 3.0, rng) == 3.0
    assert policy.delay(5, 60.0, rng) == 10.0


def test_public_url_and_redactor_hide_credentials() -> None:
    assert public_url("https://user:pw@gw.example/v1?key=abc#x") == "https://gw.example/v1"
    assert public_url("http://127.0.0.1:8000/v1") == "http://127.0.0.1:8000/v1"
    redact = Redactor("sk-secret")
    assert redact("Bearer sk-secret rejected") == "Bearer *** rejected"
    assert "sk-secret" not in repr(redact)
    assert Redactor("EMPTY")("EMPTY stays") == "EMPTY stays"


def _echo(text: str, tokens: list[str], offsets: list[int] | None) -> Echo:
    values: list[float | None] = [None] + [-1.0] * (len(tokens) - 1)
    return Echo(text=text, tokens=tokens, logprobs=values, offsets=offsets, top=None)


def test_offsets_split_at_the_context_length_and_allow_a_bos_prefix() -> None:
    plain = _echo("ab cd", ["ab", " cd"], [0, 2])
    assert plain.span_by_offsets(2) == Span(1, 2, False)
    with_bos = _echo("ab cd", ["<s>", "ab", " cd"], [0, 3, 5])
    assert with_bos.span_by_offsets(2) == Span(2, 3, False)
    assert with_bos.total(Span(2, 3)) == -1.0
    straddle = _echo("abcd", ["ab", "cd"], [0, 2])
    assert straddle.span_by_offsets(3) == Span(2, 2, True)
    assert straddle.total(Span(2, 2)) == 0.0


def test_offsets_that_do_not_match_the_text_give_way_to_token_counts() -> None:
    mangled = _echo("ab cd", ["ab", "Ġcd"], [0, 2])
    assert mangled.span_by_offsets(2) is None
    gaps = _echo("ab cd", ["ab", " cd"], [0, 5])
    assert gaps.span_by_offsets(2) is None
    assert mangled.span_by_count(1) == Span(1, 2)
    with pytest.raises(NoPromptLogprobs):
        mangled.span_by_count(3)
    with pytest.raises(NoPromptLogprobs, match="no log-probability"):
        mangled.total(Span(0, 2))


def test_importing_the_backend_does_not_import_openai() -> None:
    code = "import sys, w2c_tui.runs.api.executor; assert 'openai' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def _reply(choices: list[dict[str, object]], prompt_tokens: int | None) -> object:
    completion = pytest.importorskip("openai.types").Completion
    usage = None
    if prompt_tokens is not None:
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": 0, "total_tokens": 0}
    # as the client builds replies: constructed, not validated (a token log-prob may be None)
    return completion.construct(
        id="x", object="text_completion", created=0, model="m", choices=choices, usage=usage
    )


def _choice(index: int | None, tokens: list[str]) -> dict[str, object]:
    values = [None] + [-1.0 - i for i in range(1, len(tokens))]
    choice: dict[str, object] = {
        "text": "".join(tokens),
        "finish_reason": "length",
        "logprobs": {"tokens": tokens, "token_logprobs": values, "text_offset": None},
    }
    if index is not None:
        choice["index"] = index
    return choice


def test_batched_echoes_follow_the_indexes_and_drop_the_generated_token() -> None:
    # max_tokens=1: each choice ends with one generated token (" the"); usage sums the prompts
    first, second = ["ab", " cd", " the"], ["x", " y", " z", " the"]
    reply = _reply([_choice(1, second), _choice(0, first)], prompt_tokens=5)
    echoes = read_echoes(reply, ["ab cd", "x y z"], 1)  # type: ignore[arg-type]
    assert [e.tokens for e in echoes] == [["ab", " cd"], ["x", " y", " z"]]
    assert echoes[1].logprobs == [None, -2.0, -3.0]
    without_usage = read_echoes(
        _reply([_choice(0, first), _choice(1, second)], None),  # type: ignore[arg-type]
        ["ab cd", "x y z"],
        1,
    )
    assert [e.n_prompt for e in without_usage] == [2, 3]
    # one prompt: usage.prompt_tokens says how many tokens are the prompt's
    single = read_echo(_reply([_choice(0, first)], 2), "ab cd", 1)  # type: ignore[arg-type]
    assert single.tokens == ["ab", " cd"]


@pytest.mark.parametrize(
    ("choices", "prompt_tokens", "problem"),
    [
        ([_choice(0, ["ab", " cd"])], 2, "1 choices for 2 prompts"),
        ([_choice(0, ["ab", " cd"]), _choice(0, ["x", " y"])], 4, "indexes"),
        ([_choice(0, ["ab", " cd"]), _choice(None, ["x", " y"])], 4, "indexes"),
        ([_choice(0, ["ab", " cd"]), _choice(2, ["x", " y"])], 4, "indexes"),
        ([_choice(0, ["ab", " cd"]), _choice(1, ["x", " y"])], 3, "usage says 3"),
    ],
    ids=["a-choice-short", "duplicate-index", "no-index", "index-out-of-range", "usage"],
)
def test_batched_replies_that_do_not_match_their_prompts_raise(
    choices: list[dict[str, object]], prompt_tokens: int, problem: str
) -> None:
    with pytest.raises(BatchMismatch, match=problem):
        read_echoes(_reply(choices, prompt_tokens), ["ab cd", "x y"], 0)  # type: ignore[arg-type]
