"""Run configurations stored by the release before the backends' options moved to their own
models read back, with the same fingerprint, and are stored the same way again.

STORED (fixtures/run_configs_before_split.json) holds `config_json` rows of the run table (and
their `fingerprint` column) written by that release: runs created as the tests' fixtures, the
run form and `w2c run start` built them, including options of another backend than the run's
(the form and the CLI passed them all)."""

from __future__ import annotations

import json
from pathlib import Path
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

STORED_FILE = Path(__file__).parent / "fixtures" / "run_configs_before_split.json"
STORED: list[dict[str, Any]] = json.loads(STORED_FILE.read_text(encoding="utf-8"))
"""The run table's rows (`config` and `fingerprint`) as that release wrote them."""


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
