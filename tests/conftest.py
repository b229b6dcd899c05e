"""Fixtures shared by every test layer: isolated paths, a real SQLite store, the demo."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from w2c_tui.services import Services, open_services

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def isolated_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test touches the real annotations/, exports/ or the user's config."""
    monkeypatch.setenv("W2C_CONFIG", str(tmp_path / "config" / "config.toml"))
    monkeypatch.setenv("W2C_ANNOTATIONS_DIR", str(tmp_path / "annotations"))
    monkeypatch.setenv("W2C_EXPORTS_DIR", str(tmp_path / "exports"))
    monkeypatch.delenv("W2C_DB", raising=False)
    monkeypatch.delenv("W2C_ANNOTATOR", raising=False)


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh SQLite file in tmp_path."""
    return f"sqlite:///{tmp_path / 'db' / 'w2c.db'}"


@pytest.fixture
def services(db_url: str) -> Iterator[Services]:
    """Services over an empty, migrated SQLite file."""
    svc = open_services(db_url)
    yield svc
    svc.close()


@pytest.fixture
def demo(services: Services) -> Services:
    """Services with the bundled demo imported (30 items, 2 models, judge, log-prob)."""
    services.imports.import_demo()
    return services


@pytest.fixture
def shared_data_dir() -> Path:
    """The shared reference data ($W2C_SHARED_DATA, default ../shared/data); skip if absent."""
    folder = Path(os.environ.get("W2C_SHARED_DATA", REPO.parent / "shared" / "data"))
    if not folder.is_dir():
        pytest.skip(f"shared data not found at {folder}; set W2C_SHARED_DATA to run this test")
    return folder


@pytest.fixture
def judge_file(shared_data_dir: Path) -> Path:
    """The real 300-item When2Call LLM-judge subset."""
    return shared_data_dir / "when2call" / "when2call_test_llm_judge.jsonl"


@pytest.fixture
def api_suite_run(shared_data_dir: Path) -> Path:
    """The third-party API suite's run folder."""
    return shared_data_dir / "api-eval-suite-run"
