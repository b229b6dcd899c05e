"""Where things live; every path has an environment override (tests point them at tmp)."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent
PROJECT_ROOT = PACKAGE_ROOT.parent


def _from_env(name: str, default: Path) -> Path:
    value = os.environ.get(name)
    return Path(value).expanduser() if value else default


def annotations_dir() -> Path:
    """Default folder of the annotation database (W2C_ANNOTATIONS_DIR)."""
    return _from_env("W2C_ANNOTATIONS_DIR", Path.cwd() / "annotations")


def default_db_url() -> str:
    """W2C_DB if set, else SQLite at annotations/w2c.db."""
    url = os.environ.get("W2C_DB")
    if url:
        return url
    return f"sqlite:///{annotations_dir() / 'w2c.db'}"


def exports_dir() -> Path:
    """Default output folder for exports and reports (W2C_EXPORTS_DIR)."""
    return _from_env("W2C_EXPORTS_DIR", Path.cwd() / "exports")


def demo_dir() -> Path:
    """The bundled demo dataset (W2C_DEMO_DIR): package data `w2c_tui/demo`, found through
    importlib.resources, so a wheel install has it as well as a checkout."""
    from importlib.resources import files

    return _from_env("W2C_DEMO_DIR", Path(str(files("w2c_tui").joinpath("demo"))))


def config_file() -> Path:
    """The user's settings file (W2C_CONFIG), e.g. ~/.config/w2c-tui/config.toml."""
    base = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config"))
    return _from_env("W2C_CONFIG", base / "w2c-tui" / "config.toml")


def shared_data_dir() -> Path:
    """The shared reference data used by some tests (W2C_SHARED_DATA, default ../shared/data)."""
    return _from_env("W2C_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data")


def runs_dir() -> Path:
    """Where run logs go (W2C_RUNS_DIR), beside the default database."""
    return _from_env("W2C_RUNS_DIR", annotations_dir() / "runs")
