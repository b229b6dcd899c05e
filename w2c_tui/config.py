"""User settings (annotator name, key bindings) in a small TOML file."""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from w2c_tui.domain.names import clean_name, name_problem
from w2c_tui.paths import config_file


@dataclass(frozen=True, slots=True)
class Settings:
    """What the user configured; `keys` maps a binding id to the keys that trigger it."""

    annotator: str | None = None
    keys: dict[str, str] = field(default_factory=dict)
    path: Path | None = None
    tools_json: bool = False
    """Show tool specifications as full JSON rather than signatures (t toggles, remembered)."""


def load_settings(path: Path | None = None) -> Settings:
    """Read the settings file; a missing file means defaults, a broken one is an error."""
    target = path or config_file()
    if not target.exists():
        return Settings(path=target)
    try:
        data = tomllib.loads(target.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{target}: not valid TOML: {error}") from error
    annotator = data.get("annotator")
    keys = data.get("keys", {})
    tools = data.get("tools", "signatures")
    if annotator is not None and not isinstance(annotator, str):
        raise ValueError(f"{target}: field 'annotator' must be a string")
    if annotator is not None:
        problem = name_problem(annotator)
        if problem is not None:
            raise ValueError(f"{target}: field 'annotator': the name {problem}")
        annotator = clean_name(annotator)
    if tools not in ("signatures", "json"):
        raise ValueError(f'{target}: field \'tools\' must be "signatures" or "json"')
    if not isinstance(keys, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in keys.items()
    ):
        raise ValueError(f"{target}: table [keys] must map binding ids to key strings")
    return Settings(annotator=annotator, keys=dict(keys), path=target, tools_json=tools == "json")


def save_annotator(name: str, path: Path | None = None) -> None:
    """Remember the annotator's name for the next start (keeps the other settings)."""
    target = path or config_file()
    _write(target, replace(load_settings(target), annotator=name))


def save_tools_view(tools_json: bool, path: Path | None = None) -> None:
    """Remember how tools are shown (keeps the other settings)."""
    target = path or config_file()
    _write(target, replace(load_settings(target), tools_json=tools_json))


def _write(target: Path, current: Settings) -> None:
    lines = []
    if current.annotator is not None:
        lines.append(f"annotator = {json.dumps(current.annotator)}")
    lines += [f"tools = {json.dumps('json' if current.tools_json else 'signatures')}", ""]
    if current.keys:
        lines.append("[keys]")
        lines.extend(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in sorted(current.keys.items()))
        lines.append("")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    tmp.write_text("\n".join(lines), encoding="utf-8")
    os.replace(tmp, target)


def form_memory_file() -> Path:
    """Where the run form remembers its last values per method (beside the settings file)."""
    return config_file().with_name("run_form.json")


FormValues = dict[str, str | bool]


def load_form_memory(path: Path | None = None) -> dict[str, FormValues]:
    """The run form's remembered values by method, plus "_last" naming the last method used.
    A missing or unreadable file means nothing is remembered (it is a convenience, not data)."""
    target = path or form_memory_file()
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        str(method): {str(k): v for k, v in values.items() if isinstance(v, str | bool)}
        for method, values in data.items()
        if isinstance(values, dict)
    }


def save_form_memory(method: str, values: FormValues, path: Path | None = None) -> None:
    """Remember a method's form values (names of key variables only: never a key)."""
    target = path or form_memory_file()
    memory = load_form_memory(target)
    memory[method] = dict(values)
    memory["_last"] = {"method": method}
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    tmp.write_text(json.dumps(memory, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(tmp, target)
