"""Without the hub, `w2c critictool metrics` on a hub model name fails at once (issue 19): the
library's retries took about 90 s; HF_HUB_OFFLINE, or one refused connection to the hub, is
enough to know, and the message is the one it gave then (cannot load the similarity model …,
couldn't connect … and couldn't find them in the cached files). A model in the local cache, or
a local folder, still loads."""

from __future__ import annotations

import shutil
import socket
import time
from pathlib import Path

import pytest
from tiny_similarity import tiny_similarity_dir
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.runs.critictool import hub
from w2c_tui.runs.critictool.similarity import SentenceSimilarity
from w2c_tui.services import Services

PRED = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool" / "predictions"
LIMIT_S = 2.0
SETTINGS = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HTTPS_PROXY", "https_proxy")


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (a connection is refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def no_hub(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No offline setting, a hub that refuses connections and empty caches; the cache."""
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{closed_port()}")
    cache = tmp_path / "cache"
    cache.mkdir()
    for name in ("HF_HOME", "HF_HUB_CACHE", "SENTENCE_TRANSFORMERS_HOME"):
        monkeypatch.setenv(name, str(cache))
    return cache


@pytest.mark.parametrize("offline", [False, True], ids=["refused", "HF_HUB_OFFLINE"])
def test_metrics_fail_at_once_with_the_message(
    services: Services, no_hub: Path, monkeypatch: pytest.MonkeyPatch, offline: bool
) -> None:
    services.critictool.import_file(PRED / "interal_base_data_wo_cot.json", target_model="m")
    if offline:
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    started = time.perf_counter()
    result = CliRunner().invoke(app, ["--db", services.url, "critictool", "metrics"])
    elapsed = time.perf_counter() - started
    assert result.exit_code == 2, result.output
    message = " ".join(result.stderr.split())
    assert "cannot load the similarity model 'all-mpnet-base-v2'" in message
    assert "couldn't find them in the cached files" in message
    assert "HF_HUB_OFFLINE is set" in message if offline else "refused" in message
    assert "--similarity-model PATH" in message and result.stdout == ""
    assert elapsed < LIMIT_S, f"{elapsed:.2f} s"


def hub_cache_copy(cache: Path, repo: str) -> None:
    """The tiny model laid out as the hub cache holds a download of `repo`."""
    commit = "0" * 40
    folder = cache / f"models--{repo.replace('/', '--')}"
    (folder / "refs").mkdir(parents=True)
    (folder / "refs" / "main").write_text(commit, encoding="utf-8")
    shutil.copytree(tiny_similarity_dir(), folder / "snapshots" / commit)


def test_a_cached_model_loads_from_the_cache_alone(no_hub: Path) -> None:
    assert hub.offline_reason() is not None
    assert not hub.in_cache("tiny")
    hub_cache_copy(no_hub, "sentence-transformers/tiny")
    assert hub.in_cache("tiny")
    local = SentenceSimilarity(tiny_similarity_dir(), device="cpu")
    pair = ("get weather", "get the weather")
    expected = local(*pair)  # the library imported and warm: what follows is the load alone
    cached = SentenceSimilarity("tiny", device="cpu")
    started = time.perf_counter()
    cached.load()
    elapsed = time.perf_counter() - started
    assert cached(*pair) == pytest.approx(expected, abs=1e-6)
    assert elapsed < 4 * LIMIT_S, f"{elapsed:.2f} s: the library's retries are seconds each"


def test_a_local_folder_loads_offline_without_a_probe(
    no_hub: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    probed: list[float] = []
    monkeypatch.setattr(hub, "offline_reason", lambda seconds=1.0: probed.append(seconds))
    similarity = SentenceSimilarity(tiny_similarity_dir(), device="cpu")
    assert 0 < similarity("hello world", "hello world!") <= 1 + 1e-6
    assert probed == []
