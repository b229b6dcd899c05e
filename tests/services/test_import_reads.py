"""An import without --kind reads each file from disk once: the kind is told from the bytes read
for the import (CriticTool included), never by opening the file again."""

from __future__ import annotations

import builtins
import json
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from w2c_tui.paths import demo_dir
from w2c_tui.services import Services

FIXTURES = Path(__file__).resolve().parents[1] / "io" / "fixtures"
LM_EVAL = "lm_eval/tiny-model/samples_when2call-qwen2_5_2026-01-02T03-04-05.678901.jsonl"


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[Path]]:
    """How often each file was opened (Path.open, and open() for anything else)."""
    counts: Counter[Path] = Counter()
    path_open = Path.open
    plain_open = builtins.open

    def counted_path_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        counts[self.resolve()] += 1
        return path_open(self, *args, **kwargs)

    def counted_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, str | Path):
            counts[Path(file).resolve()] += 1
        return plain_open(file, *args, **kwargs)

    monkeypatch.setattr(Path, "open", counted_path_open)
    monkeypatch.setattr(builtins, "open", counted_open)
    yield counts


def _items_file(tmp_path: Path) -> Path:
    first = (demo_dir() / "when2call_demo.jsonl").read_text("utf-8").splitlines()[0]
    row = json.loads(first)
    row["uuid"] = "read-once-1"
    path = tmp_path / "read_once_items.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    return path


def _checkpoint(tmp_path: Path) -> Path:
    path = tmp_path / "target_responses.jsonl"
    path.write_text(json.dumps({"uuid": "u", "raw_text": "hi", "target_model": "m"}) + "\n")
    return path


def _run_folder(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    (run / "checkpoints" / "exp").mkdir(parents=True)
    _checkpoint(run / "checkpoints" / "exp")
    (run / "manifest.json").write_text(json.dumps({"config": {"target_model": "m"}}))
    return run


def _copy(name: str) -> Callable[[Path], Path]:
    def make(tmp_path: Path) -> Path:
        target = tmp_path / Path(name).parent.name / Path(name).name
        target.parent.mkdir(parents=True, exist_ok=True)
        return Path(shutil.copy(FIXTURES / name, target))

    return make


CASES: list[tuple[str, Callable[[Path], Path], dict[str, Any]]] = [
    ("when2call_test", _items_file, {}),
    ("when2call_sft", _copy("when2call_train_sft_tiny.jsonl"), {}),
    ("when2call_pref", _copy("when2call_train_pref_tiny.jsonl"), {}),
    ("lm_eval_samples", _copy(LM_EVAL), {"dataset": "demo"}),
    ("official_judge", _copy("official_judge_tiny-model.jsonl"), {"dataset": "demo"}),
    ("official_inference", _copy("official_inference_tiny-model.jsonl"), {"dataset": "demo"}),
    ("api_suite", _checkpoint, {"dataset": "demo"}),
    ("critictool", _copy("critictool/dataset/internal_error/base_data_wo_cot.json"), {}),
]


@pytest.mark.parametrize(("kind", "make", "args"), CASES, ids=[c[0] for c in CASES])
def test_a_file_is_read_once(
    demo: Services,
    tmp_path: Path,
    opened: Counter[Path],
    kind: str,
    make: Callable[[Path], Path],
    args: dict[str, Any],
) -> None:
    path = make(tmp_path)
    opened.clear()
    report = demo.imports.import_path(path, **args)
    assert report.kind == kind
    assert opened[path.resolve()] == 1


def test_a_run_folder_reads_each_file_once(
    demo: Services, tmp_path: Path, opened: Counter[Path]
) -> None:
    run = _run_folder(tmp_path)
    opened.clear()
    report = demo.imports.import_path(run, dataset="demo")
    assert report.kind == "api_suite"
    files = [run / "manifest.json", run / "checkpoints" / "exp" / "target_responses.jsonl"]
    assert {f: opened[f.resolve()] for f in files} == {f: 1 for f in files}


def test_a_manifest_folder_reads_each_file_once(
    services: Services, tmp_path: Path, opened: Counter[Path]
) -> None:
    folder = Path(shutil.copytree(demo_dir(), tmp_path / "demo"))
    opened.clear()
    manifest = services.imports.folder_manifest(folder)  # as `w2c import FOLDER` does
    assert manifest is not None
    reports = services.imports.import_manifest(folder / "manifest.json", manifest=manifest)
    files = [folder / "manifest.json", *(folder / entry.path for entry in manifest.files)]
    assert len(reports) == len(files) - 1
    assert {f.name: opened[f.resolve()] for f in files} == {f.name: 1 for f in files}
