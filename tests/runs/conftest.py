"""Fixtures of the run tests: the tiny GPT-2 and a real HTTP server that serves it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def model_dir() -> Path:
    """The tiny GPT-2 (built once per process)."""
    from tiny_models import tiny_model_dir

    return tiny_model_dir("gpt2")


@pytest.fixture
def server(model_dir: Path) -> Iterator[object]:
    """A fresh server of the tiny model per test (fault markers count per server); the model
    loads once."""
    from model_server import ModelOpenAI
    from tiny_api import MODEL, SLOW_S

    with ModelOpenAI(model_dir=model_dir, models=(MODEL,), slow_s=SLOW_S, retry_after="0") as s:
        yield s
