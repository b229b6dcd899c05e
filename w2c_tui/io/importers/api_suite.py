"""A When2Call API-suite run: its session folder, or one of its checkpoint files."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.records import ImportBundle, ResponseRecord, VerdictRecord
from w2c_tui.io.importers import api_suite_records as rec
from w2c_tui.io.importers.base import Importer, Source
from w2c_tui.io.jsonl import Progress, ProgressCallback, iter_objects, read_bytes, sha256_hex
from w2c_tui.io.options import ReadOptions

KIND = "api_suite"
MANIFEST = "manifest.json"
CHECKPOINTS = "checkpoints"

LOGPROB_NOTE = (
    "api-suite logprob scores are not choice likelihoods: the suite's /completions call ran with "
    "echo disabled, so each score is the log-probability of one generated token after "
    "prompt + choice (WHEN2CALL_REFERENCE §4.4)"
)


@dataclass(frozen=True, slots=True)
class _File:
    """One checkpoint file: its name in the run, its records (last write per uuid wins)."""

    path: Path
    name: str
    type: str | None
    records: list[tuple[int, dict[str, Any]]]
    superseded: int


@dataclass
class _Run:
    """What the reader has gathered so far."""

    options: ReadOptions
    config: dict[str, Any]
    responses: list[ResponseRecord] = field(default_factory=list)
    response_at: dict[str, int] = field(default_factory=dict)
    verdicts: list[VerdictRecord] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def model_lookup(self, path: Path) -> rec.ModelLookup:
        """Target model of a record: --target-model, else the record's, else the manifest's."""

        def lookup(obj: dict[str, Any], line: int, key: str) -> str:
            name = self.options.target_model or obj.get(key) or self.config.get("target_model")
            if not isinstance(name, str) or not name:
                raise rec.missing_model(path, line, key)
            return name

        return lookup


def _manifest_config(path: Path, data: bytes) -> dict[str, Any]:
    try:
        manifest = json.loads(data.decode("utf-8-sig"))
    except (ValueError, RecursionError) as error:
        raise InputError(str(path), f"not valid JSON: {error}") from error
    if not isinstance(manifest, dict):
        raise InputError(str(path), "expected a JSON object")
    config = manifest.get("config", {})
    if not isinstance(config, dict):
        raise InputError(str(path), "expected an object", field="config")
    return config


def _load(path: Path, name: str, data: bytes, progress: Progress) -> _File:
    latest: dict[str, tuple[int, dict[str, Any]]] = {}
    others: list[tuple[int, dict[str, Any]]] = []
    count = 0
    kind: str | None = None
    for line, obj in iter_objects(path, data, progress):
        count += 1
        kind = kind or rec.checkpoint_type(obj) or "unknown"
        uuid = obj.get("uuid")
        # Checkpoints are append-only and the suite reads them last-write-wins per uuid.
        if kind in rec.IMPORTED_TYPES and isinstance(uuid, str):
            latest.pop(uuid, None)
            latest[uuid] = (line, obj)
        else:
            others.append((line, obj))
    records = sorted([*latest.values(), *others], key=lambda pair: pair[0])
    file_type = None if kind == "unknown" else kind
    return _File(path, name, file_type, records, count - len(records))


def _files(path: Path) -> tuple[list[tuple[Path, str]], Path | None]:
    """(checkpoint files with their names in the run, manifest) for a folder or one file."""
    if not path.is_dir():
        # A checkpoint file inside its run (<run>/checkpoints/<exp>/<file>) still has the run's
        # manifest next to it, which names the models its records may leave out.
        folder = path.resolve().parent.parent
        beside = folder.parent / MANIFEST if folder.name == CHECKPOINTS else None
        return [(path, path.name)], beside if beside and beside.is_file() else None
    manifest = path / MANIFEST
    checkpoints = path / CHECKPOINTS
    files = sorted(checkpoints.rglob("*.jsonl")) if checkpoints.is_dir() else []
    named = [(f, f.relative_to(path).as_posix()) for f in files if f.is_file()]
    if not named:
        raise InputError(str(path), f"no {CHECKPOINTS}/**/*.jsonl files in this run folder")
    return named, manifest if manifest.is_file() else None


def _responses(run: _Run, file: _File) -> None:
    model = run.model_lookup(file.path)
    for line, obj in file.records:
        record = rec.response(obj, file.path, line, model)
        run.response_at[record.uuid] = len(run.responses)
        run.responses.append(record)


def _judge(run: _Run, file: _File) -> None:
    unmatched: list[str] = []
    fallbacks = 0
    for line, obj in file.records:
        uuid = obj.get("uuid")
        index = run.response_at.get(uuid) if isinstance(uuid, str) else None
        if index is None:
            unmatched.append(str(uuid))
            target = run.model_lookup(file.path)(obj, line, "target_model")
        else:
            target = run.options.target_model or run.responses[index].target_model
        judge = run.options.judge or obj.get("judge_model") or run.config.get("judge_model")
        if not isinstance(judge, str) or not judge:
            raise InputError(
                str(file.path),
                "cannot tell the judge model: pass --judge",
                line=line,
                field="judge_model",
            )
        verdict = rec.judge_verdict(obj, file.path, line, judge, target, index)
        fallbacks += bool(verdict.scores.get("suite_fallback"))
        run.verdicts.append(verdict)
    if unmatched:
        run.notes.append(
            f"{file.name}: {len(unmatched)} judge decision(s) have no target "
            f"response in this import (first: {unmatched[0]}); stored without one"
        )
    if fallbacks:
        run.notes.append(
            f"{file.name}: {fallbacks} of {len(file.records)} judge decision(s) "
            "were the suite's forced cannot_answer fallbacks: stored as invalid, "
            "with the judge's raw reply kept"
        )


def _mcq(run: _Run, file: _File) -> None:
    model = run.model_lookup(file.path)
    run.verdicts.extend(rec.mcq_verdict(obj, file.path, line, model) for line, obj in file.records)


def _logprob(run: _Run, file: _File) -> None:
    model = run.model_lookup(file.path)
    forced = run.config.get("effective_target_delimiter")
    delimiter = forced if isinstance(forced, str) else None
    verdicts = [
        rec.logprob_verdict(obj, file.path, line, model, delimiter) for line, obj in file.records
    ]
    run.verdicts.extend(verdicts)
    used = {v.rater.config.get("delimiter") for v in verdicts}
    if delimiter is not None and used - {delimiter}:
        run.notes.append(
            f"{file.name}: the manifest's effective delimiter {delimiter} differs "
            f"from the records' ({', '.join(sorted(map(str, used)))}); the "
            "records' value is kept"
        )
    if verdicts and LOGPROB_NOTE not in run.notes:
        run.notes.append(LOGPROB_NOTE)


def _audit(run: _Run, file: _File) -> None:
    forced = sum(rec.audit_event(obj, file.path, line) for line, obj in file.records)
    run.notes.append(
        f"{file.name}: read {len(file.records)} audit event(s), {forced} of them "
        "forced fallback(s); audit events are not imported"
    )


HANDLERS = {
    rec.TARGET_RESPONSES: _responses,
    rec.JUDGE_DECISIONS: _judge,
    rec.MCQ_PREDICTIONS: _mcq,
    rec.LOGPROB_PREDICTIONS: _logprob,
    rec.AUDIT_FALLBACKS: _audit,
}
# Responses first, so that judge decisions can point at them.
ORDER = (
    rec.TARGET_RESPONSES,
    rec.JUDGE_DECISIONS,
    rec.MCQ_PREDICTIONS,
    rec.LOGPROB_PREDICTIONS,
    rec.AUDIT_FALLBACKS,
)


def _folder_sha256(parts: list[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256()
    for name, data in sorted(parts, key=lambda part: part[0]):
        digest.update(name.encode("utf-8"))
        digest.update(data)
    return digest.hexdigest()


def read(
    source: Source, options: ReadOptions, progress: ProgressCallback | None = None
) -> ImportBundle:
    """Responses and verdicts of an API-suite run folder or of one of its checkpoint files."""
    path = source.path
    named, manifest = _files(path)
    contents = [
        (file, name, read_bytes(file) if path.is_dir() else source.data) for file, name in named
    ]
    parts = [(name, data) for _, name, data in contents]
    run = _Run(options, {})
    if manifest is not None:
        manifest_data = read_bytes(manifest)
        run.config = _manifest_config(manifest, manifest_data)
        if path.is_dir():
            parts.append((MANIFEST, manifest_data))
        else:
            run.notes.append(f"read the run's configuration from {manifest}")
    tracker = Progress(progress, sum(len(data) for _, _, data in contents))
    files = [_load(file, name, data, tracker) for file, name, data in contents]
    if not path.is_dir() and files[0].type is None and files[0].records:
        raise InputError(
            str(path),
            "not an API-suite checkpoint file (looked for the fields of "
            + "; ".join(f"{n}: {', '.join(sorted(f))}" for n, f in rec.SIGNATURES)
            + ")",
            line=files[0].records[0][0],
        )
    for file_type in ORDER:
        for file in files:
            if file.type == file_type:
                HANDLERS[file_type](run, file)
    for file in files:
        if file.superseded:
            run.notes.append(
                f"{file.name}: {file.superseded} record(s) superseded by a later "
                "record of the same uuid (checkpoints: last write wins)"
            )
        if file.type == rec.DEBUG_PER_CHOICE:
            run.notes.append(f"{file.name}: per-choice debug records, not imported")
        elif file.type is None and file.records:
            run.notes.append(f"{file.name}: not a checkpoint file this importer knows; skipped")
    tracker.finish()
    sha = sha256_hex(parts[0][1]) if not path.is_dir() else _folder_sha256(parts)
    return ImportBundle(
        path=str(path),
        kind=KIND,
        sha256=sha,
        responses=tuple(run.responses),
        verdicts=tuple(run.verdicts),
        notes=tuple(run.notes),
    )


def _is_run_folder(path: Path) -> bool:
    if (path / CHECKPOINTS).is_dir():
        return True
    manifest = path / MANIFEST
    if manifest.is_file():
        try:
            data = json.loads(manifest.read_text(encoding="utf-8-sig"))
        except (OSError, ValueError) as error:
            raise InputError(str(manifest), f"cannot read the run manifest: {error}") from error
        if isinstance(data, dict) and data.keys() & {"fingerprint", "config", "schema_version"}:
            return True
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


def sniff(source: Source) -> bool:
    """A run folder (checkpoints/, or a run manifest), or a file whose first line has the fields
    of a checkpoint record; a folder that is not a run is an InputError saying so."""
    if source.is_dir:
        return _is_run_folder(source.path)
    return rec.checkpoint_type(source.first[1]) is not None


IMPORTER = Importer(
    KIND,
    sniff,
    read,
    "api_suite checkpoint: target_responses (uuid, raw_text), judge_decisions (uuid, "
    "predicted_label, judge_raw), mcq_predictions (uuid, predicted_index, raw_mcq_output), "
    "mcq_logprob_predictions (uuid, predicted_label_raw), audit_fallbacks (fallback_type, "
    "pipeline)",
    folders=True,
)
