"""Run configurations stored by the release before the backends' options moved to their own
models read back, with the same fingerprint, and are stored the same way again.

STORED holds `config_json` rows of the run table (and their `fingerprint` column) written by that
release: runs created as the tests' fixtures, the run form and `w2c run start` built them,
including options of another backend than the run's (the form and the CLI passed them all)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from w2c_tui.domain.run_options import (
    FLAT_BEFORE_SPLIT,
    OPTIONS,
    Backend,
    OpenAIOptions,
    TransformersOptions,
    options_for,
)
from w2c_tui.domain.runs import Method, RunConfig, RunStartError
from w2c_tui.runs.backends import BACKENDS, make_executor

STORED: list[dict[str, Any]] = json.loads(
    """
[
 {
  "config": {
   "api_key_env": null,
   "backend": "openai",
   "base_url": "http://127.0.0.1:40123/v1",
   "batch_size": 8,
   "bos": false,
   "concurrency": 2,
   "critic_cot": false,
   "critic_mode": "skip",
   "dataset": "demo",
   "device": "auto",
   "dtype": "auto",
   "item_filter": {},
   "judge_prompt": "when2call-judge-v1",
   "limit": 10,
   "max_retries": 3,
   "max_tokens": 512,
   "method": "generate",
   "model": "fake-model",
   "native_tools": false,
   "repeats": 1,
   "retry_limit": 3,
   "seed": 0,
   "structured": true,
   "target_model": null,
   "temperature": 0.0,
   "template": "when2call-default",
   "threads": null,
   "timeout_s": 5.0,
   "tokenizer": null
  },
  "fingerprint": "02d72e146b30ed1e"
 },
 {
  "config": {
   "api_key_env": null,
   "backend": "transformers",
   "base_url": null,
   "batch_size": 3,
   "bos": true,
   "concurrency": 8,
   "critic_cot": false,
   "critic_mode": "skip",
   "dataset": "demo",
   "device": "cpu",
   "dtype": "float32",
   "item_filter": {},
   "judge_prompt": "when2call-judge-v1",
   "limit": 4,
   "max_retries": 5,
   "max_tokens": 512,
   "method": "mcq_logprob",
   "model": "/tmp/tiny/gpt2",
   "native_tools": false,
   "repeats": 1,
   "retry_limit": 3,
   "seed": 0,
   "structured": true,
   "target_model": null,
   "temperature": 0.0,
   "template": "when2call-default",
   "threads": null,
   "timeout_s": 60.0,
   "tokenizer": null
  },
  "fingerprint": "f93215edf37dd73c"
 },
 {
  "config": {
   "api_key_env": "OPENAI_API_KEY",
   "backend": "transformers",
   "base_url": "http://127.0.0.1:8000/v1",
   "batch_size": 8,
   "bos": false,
   "concurrency": 4,
   "critic_cot": false,
   "critic_mode": "skip",
   "dataset": "demo",
   "device": "auto",
   "dtype": "auto",
   "item_filter": {
    "gold": "tool_call",
    "tools": "2+"
   },
   "judge_prompt": "when2call-judge-v1",
   "limit": null,
   "max_retries": 5,
   "max_tokens": 512,
   "method": "mcq_index",
   "model": "Qwen/Qwen2.5-0.5B-Instruct",
   "native_tools": true,
   "repeats": 3,
   "retry_limit": 3,
   "seed": 0,
   "structured": true,
   "target_model": null,
   "temperature": 0.7,
   "template": "when2call-qwen2_5",
   "threads": null,
   "timeout_s": 60.0,
   "tokenizer": null
  },
  "fingerprint": "189e6afb424029c6"
 },
 {
  "config": {
   "api_key_env": "OPENAI_API_KEY",
   "backend": "openai",
   "base_url": "https://api.openai.com/v1",
   "batch_size": 4,
   "bos": false,
   "concurrency": 8,
   "critic_cot": false,
   "critic_mode": "skip",
   "dataset": "demo",
   "device": "auto",
   "dtype": "auto",
   "item_filter": {
    "gold": "cannot_answer"
   },
   "judge_prompt": "when2call-judge-v1",
   "limit": 5,
   "max_retries": 5,
   "max_tokens": 512,
   "method": "judge",
   "model": "gpt-4o-mini",
   "native_tools": false,
   "repeats": 1,
   "retry_limit": 3,
   "seed": 7,
   "structured": false,
   "target_model": "llama-3-8b",
   "temperature": 0.0,
   "template": "when2call-default",
   "threads": null,
   "timeout_s": 60.0,
   "tokenizer": null
  },
  "fingerprint": "457ce8225df26e41"
 },
 {
  "config": {
   "api_key_env": null,
   "backend": "openai",
   "base_url": "http://127.0.0.1:40123/v1",
   "batch_size": 8,
   "bos": false,
   "concurrency": 1,
   "critic_cot": false,
   "critic_mode": "skip",
   "dataset": "ct",
   "device": "auto",
   "dtype": "auto",
   "item_filter": {},
   "judge_prompt": "when2call-judge-v1",
   "limit": null,
   "max_retries": 5,
   "max_tokens": 512,
   "method": "critictool",
   "model": "fake-model",
   "native_tools": false,
   "repeats": 1,
   "retry_limit": 2,
   "seed": 0,
   "structured": true,
   "target_model": null,
   "temperature": 0.0,
   "template": "when2call-default",
   "threads": null,
   "timeout_s": 60.0,
   "tokenizer": null
  },
  "fingerprint": "b445582da0c96f16"
 },
 {
  "config": {
   "api_key_env": null,
   "backend": "openai",
   "base_url": "http://127.0.0.1:40123/v1",
   "batch_size": 8,
   "bos": false,
   "concurrency": 3,
   "critic_cot": true,
   "critic_mode": "finish",
   "dataset": "ct",
   "device": "auto",
   "dtype": "auto",
   "item_filter": {},
   "judge_prompt": "critictool-judge-v1",
   "limit": null,
   "max_retries": 5,
   "max_tokens": 512,
   "method": "critictool_judge",
   "model": "fake-model",
   "native_tools": false,
   "repeats": 1,
   "retry_limit": 3,
   "seed": 0,
   "structured": false,
   "target_model": "tiny",
   "temperature": 0.0,
   "template": "when2call-default",
   "threads": null,
   "timeout_s": 60.0,
   "tokenizer": null
  },
  "fingerprint": "c46241496c48dcc3"
 },
 {
  "config": {
   "api_key_env": null,
   "backend": "transformers",
   "base_url": null,
   "batch_size": 3,
   "bos": true,
   "concurrency": 8,
   "critic_cot": false,
   "critic_mode": "skip",
   "dataset": "demo",
   "device": "cpu",
   "dtype": "float32",
   "item_filter": {},
   "judge_prompt": "when2call-judge-v1",
   "limit": 4,
   "max_retries": 5,
   "max_tokens": 512,
   "method": "mcq_logprob",
   "model": "/tmp/tiny/gpt2",
   "native_tools": false,
   "repeats": 1,
   "retry_limit": 3,
   "seed": 0,
   "structured": true,
   "target_model": null,
   "temperature": 0.0,
   "template": "when2call-default",
   "threads": null,
   "timeout_s": 60.0,
   "tokenizer": null
  },
  "describe": {
   "backend": "transformers",
   "device": "cpu",
   "dtype": "float32",
   "template_hash": "abc",
   "torch": "2.4.0"
  },
  "fingerprint": "57378c22601adb86"
 }
]
"""
)


@pytest.mark.parametrize("stored", STORED, ids=lambda s: s["fingerprint"])
def test_a_stored_config_loads_with_the_same_fingerprint(stored: dict[str, Any]) -> None:
    config = RunConfig.from_json(stored["config"])
    extra = {"describe": stored["describe"]} if "describe" in stored else None
    assert config.fingerprint(extra) == stored["fingerprint"]
    assert config.as_json() == stored["config"]  # stored again as it was
    assert RunConfig.from_json(config.as_json()) == config
    assert isinstance(config.options, OPTIONS[config.backend])


def test_options_land_in_the_backends_model() -> None:
    judge = RunConfig.from_json(STORED[3]["config"])  # `w2c run start --backend openai ...`
    assert judge.options == OpenAIOptions(
        base_url="https://api.openai.com/v1", api_key_env="OPENAI_API_KEY"
    )
    assert judge.other_options == {"batch_size": 4}  # typed, unused, kept for the fingerprint
    local = RunConfig.from_json(STORED[1]["config"])  # tiny_models.cpu_config
    assert local.options == TransformersOptions(dtype="float32", batch_size=3, device="cpu")
    assert local.other_options == {}


def test_a_new_config_stores_every_field_the_release_before_stored() -> None:
    for backend in Backend:
        config = RunConfig(Method.GENERATE, backend, "m", "demo")
        assert set(config.as_json()) == set(STORED[0]["config"])
        assert config.options == OPTIONS[backend]()
    assert set(FLAT_BEFORE_SPLIT) | {"method"} <= set(STORED[0]["config"])


def test_the_same_settings_give_the_same_fingerprint_as_before() -> None:
    """The CLI and the run form now hand each backend only its own options; settings that name
    no other backend's option fingerprint as the release before fingerprinted them."""
    config = RunConfig(
        Method.GENERATE,
        Backend.OPENAI,
        "fake-model",
        "demo",
        limit=10,
        options=options_for(
            Backend.OPENAI,
            {
                "base_url": "http://127.0.0.1:40123/v1",
                "timeout_s": 5.0,
                "max_retries": 3,
                "concurrency": 2,
                "batch_size": 99,  # the transformers backend's: left out
            },
        ),
    )
    assert config.fingerprint() == STORED[0]["fingerprint"]


def test_options_of_another_backend_are_refused() -> None:
    with pytest.raises(TypeError, match="TransformersOptions"):
        RunConfig(Method.GENERATE, Backend.TRANSFORMERS, "m", "d", options=OpenAIOptions())
    with pytest.raises(TypeError):
        RunConfig.of(Method.GENERATE, Backend.TRANSFORMERS, "m", "d", base_url="http://x/v1")
    with pytest.raises(TypeError, match="no OpenAIOptions"):
        RunConfig(Method.GENERATE, Backend.TRANSFORMERS, "m", "d").options_as(OpenAIOptions)


def test_every_backend_is_registered_with_its_options_model() -> None:
    assert set(BACKENDS) == set(OPTIONS) == set(Backend)
    for name, backend in BACKENDS.items():
        assert backend.name is name and backend.options is OPTIONS[name]
        assert backend.requires and backend.install


def test_a_backend_whose_packages_are_missing_says_how_to_install_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    local = BACKENDS[Backend.TRANSFORMERS]
    monkeypatch.setattr(local, "requires", ("torch", "w2c_no_such_package"))
    config = RunConfig(Method.GENERATE, Backend.TRANSFORMERS, "m", "demo")
    with pytest.raises(
        RunStartError, match=r"needs w2c_no_such_package: pip install 'w2c-tui\[local\]'"
    ):
        make_executor(config)


def test_the_backends_check_their_own_options() -> None:
    def create(backend: Backend, **values: Any) -> None:
        BACKENDS[backend].validate(RunConfig.of(Method.GENERATE, backend, "m", "d", **values))

    create(Backend.TRANSFORMERS)
    with pytest.raises(RunStartError, match="--batch-size must be at least 1"):
        create(Backend.TRANSFORMERS, batch_size=0)
    with pytest.raises(RunStartError, match="needs --base-url"):
        create(Backend.OPENAI)
    with pytest.raises(RunStartError, match="NAME of the environment variable"):
        create(Backend.OPENAI, base_url="http://h/v1", api_key_env="sk-abcdef")
    config = RunConfig.of(Method.GENERATE, Backend.OPENAI, "m", "d", api_key_env="MY_KEY")
    assert BACKENDS[Backend.OPENAI].secret_envs(config) == ("MY_KEY",)
    assert (
        BACKENDS[Backend.TRANSFORMERS].secret_envs(
            RunConfig.of(Method.GENERATE, Backend.TRANSFORMERS, "m", "d")
        )
        == ()
    )
