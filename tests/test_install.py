"""What an install promises: one version, extras that exist, the demo inside the package."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import w2c_tui
from w2c_tui.paths import PACKAGE_ROOT, demo_dir

REPO = Path(__file__).resolve().parents[1]


def test_the_version_is_defined_once() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    assert "version" not in project and project["dynamic"] == ["version"]
    assert importlib.metadata.version("w2c-tui") == w2c_tui.__version__


def test_every_extra_named_in_a_message_exists() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    extras = set(project["optional-dependencies"])
    named: set[str] = set()
    for path in [*PACKAGE_ROOT.rglob("*.py"), REPO / "README.md", REPO / "docs" / "runs.md"]:
        named |= set(re.findall(r"w2c-tui\[([a-z,]+)\]", path.read_text("utf-8")))
    named = {extra for group in named for extra in group.split(",")}
    assert named and named <= extras, named - extras


def test_the_demo_is_package_data() -> None:
    folder = demo_dir()
    assert folder.is_relative_to(PACKAGE_ROOT)
    assert (folder / "manifest.json").is_file() and (folder / "when2call_demo.jsonl").is_file()
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
    globs = project["tool"]["setuptools"]["package-data"]["w2c_tui"]
    shipped = {p for g in globs for p in PACKAGE_ROOT.glob(g)}
    assert {p for p in folder.rglob("*") if p.is_file()} <= shipped
