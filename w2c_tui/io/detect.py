"""Tell a file's format from its content, and read it with the matching importer."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.names import name_problem
from w2c_tui.domain.records import ImportBundle
from w2c_tui.io import api_suite, lm_eval, official_judge, train, when2call
from w2c_tui.io.api_suite_records import checkpoint_type
from w2c_tui.io.jsonl import ProgressCallback, first_object
from w2c_tui.io.options import ReadOptions

KINDS: tuple[str, ...] = (
    "when2call_test",
    "when2call_sft",
    "when2call_pref",
    "lm_eval_samples",
    "official_judge",
    "official_inference",
    "api_suite",
)

# What detection looks for, in the order it checks (shown when it recognises nothing).
LOOKED_FOR = (
    "official_judge: judge_response or judge_prompt",
    "lm_eval_samples: doc with resps, filtered_resps or doc_id",
    "api_suite checkpoint: target_responses (uuid, raw_text), judge_decisions (uuid, "
    "predicted_label, judge_raw), mcq_predictions (uuid, predicted_index, raw_mcq_output), "
    "mcq_logprob_predictions (uuid, predicted_label_raw), audit_fallbacks (fallback_type, "
    "pipeline)",
    "official_inference: uuid and model_response",
    "when2call_pref: chosen_response or rejected_response",
    "when2call_sft: messages and tools",
    "when2call_test: uuid, question, answers (and correct_answer)",
)

DEFAULT_OPTIONS = ReadOptions()

Reader = Callable[[Path, ReadOptions, ProgressCallback | None], ImportBundle]

READERS: dict[str, Reader] = {
    "when2call_test": lambda path, _options, progress: when2call.read(path, progress),
    "when2call_sft": lambda path, _options, progress: train.read_sft(path, progress),
    "when2call_pref": lambda path, _options, progress: train.read_pref(path, progress),
    "lm_eval_samples": lm_eval.read,
    "official_judge": official_judge.read_judge,
    "official_inference": official_judge.read_inference,
    "api_suite": api_suite.read,
}


def kind_of_object(obj: dict[str, Any]) -> str | None:
    """The kind a file whose first line is `obj` has, or None."""
    keys = obj.keys()
    if "judge_response" in keys or "judge_prompt" in keys:
        return "official_judge"
    if isinstance(obj.get("doc"), dict) and keys & {"resps", "filtered_resps", "doc_id"}:
        return "lm_eval_samples"
    if checkpoint_type(obj) is not None:
        return "api_suite"
    if "model_response" in keys and "uuid" in keys:
        return "official_inference"
    if keys & {"chosen_response", "rejected_response"}:
        return "when2call_pref"
    if {"messages", "tools"} <= keys:
        return "when2call_sft"
    if {"uuid", "question", "answers"} <= keys:
        return "when2call_test"
    return None


def _folder_kind(path: Path) -> str:
    if (path / api_suite.CHECKPOINTS).is_dir():
        return "api_suite"
    manifest = path / api_suite.MANIFEST
    if manifest.is_file():
        try:
            data = json.loads(manifest.read_text(encoding="utf-8-sig"))
        except (OSError, ValueError) as error:
            raise InputError(str(manifest), f"cannot read the run manifest: {error}") from error
        if isinstance(data, dict) and data.keys() & {"fingerprint", "config", "schema_version"}:
            return "api_suite"
        raise InputError(
            str(path),
            "this folder's manifest.json is not an API-suite run "
            "manifest (no fingerprint/config): import its files one by one",
        )
    raise InputError(
        str(path),
        "a folder is read only as an API-suite run: expected "
        "manifest.json and/or checkpoints/ in it",
    )


def detect_kind(path: Path) -> str:
    """The kind of `path`, from its content (a folder can only be an API-suite run)."""
    if path.is_dir():
        return _folder_kind(path)
    if not path.exists():
        raise InputError(str(path), "no such file or folder")
    first = first_object(path)
    if first is None:
        raise InputError(str(path), "the file holds no JSON lines: cannot tell its kind")
    line, obj = first
    kind = kind_of_object(obj)
    if kind is None:
        keys = ", ".join(list(obj)[:12]) + (", …" if len(obj) > 12 else "")
        raise InputError(
            str(path),
            f"cannot tell what kind of file this is: the first line has "
            f"the keys {keys or '(none)'}; looked for " + "; ".join(LOOKED_FOR),
            line=line,
        )
    return kind


def read_bundle(
    path: Path,
    kind: str | None = None,
    options: ReadOptions = DEFAULT_OPTIONS,
    progress: ProgressCallback | None = None,
) -> ImportBundle:
    """Read and validate all of `path` as `kind` (detected when None); InputError on bad input."""
    if kind is None:
        kind = detect_kind(path)
    reader = READERS.get(kind)
    if reader is None:
        raise InputError(str(path), f"unknown kind {kind!r} (expected one of {', '.join(KINDS)})")
    if kind != "api_suite" and path.is_dir():
        raise InputError(str(path), f"expected a file for kind {kind!r}, got a folder")
    return check_names(reader(path, options, progress))


def check_names(bundle: ImportBundle) -> ImportBundle:
    """`bundle`, when every model, rater and dataset name in it is acceptable
    (`domain.names`); else an InputError naming the line and field of the first bad one."""
    checked: set[str] = set()

    def check(name: str | None, line: int | None, field: str) -> None:
        if name is None or name in checked:
            return
        problem = name_problem(name)
        if problem is not None:
            raise InputError(bundle.path, f"the name {problem}", line, field)
        checked.add(name)

    check(bundle.default_dataset, None, "dataset")
    for response in bundle.responses:
        check(response.target_model, response.line, "target_model")
    for verdict in bundle.verdicts:
        check(verdict.rater.name, verdict.line, verdict.rater.kind.value)
        check(verdict.target_model, verdict.line, "target_model")
    return bundle
