"""A When2Call API-suite run: its session folder, or one of its checkpoint files."""

from __future__ import annotations

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.records import ImportBundle
from w2c_tui.io.importers import api_suite_records as rec
from w2c_tui.io.importers.api_suite_folder import (
    MANIFEST,
    folder_sha256,
    is_run_folder,
    load_checkpoint,
    manifest_config,
    run_files,
)
from w2c_tui.io.importers.api_suite_kinds import HANDLERS, ORDER, SuiteRun
from w2c_tui.io.importers.base import Importer, Source
from w2c_tui.io.jsonl import Progress, ProgressCallback, read_bytes, sha256_hex
from w2c_tui.io.options import ReadOptions

KIND = "api_suite"


def read(
    source: Source, options: ReadOptions, progress: ProgressCallback | None = None
) -> ImportBundle:
    """Responses and verdicts of an API-suite run folder or of one of its checkpoint files."""
    path = source.path
    named, manifest = run_files(path)
    contents = [
        (file, name, read_bytes(file) if path.is_dir() else source.data) for file, name in named
    ]
    parts = [(name, data) for _, name, data in contents]
    run = SuiteRun(options, {})
    if manifest is not None:
        manifest_data = read_bytes(manifest)
        run.config = manifest_config(manifest, manifest_data)
        if path.is_dir():
            parts.append((MANIFEST, manifest_data))
        else:
            run.notes.append(f"read the run's configuration from {manifest}")
    tracker = Progress(progress, sum(len(data) for _, _, data in contents))
    files = [load_checkpoint(file, name, data, tracker) for file, name, data in contents]
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
    sha = sha256_hex(parts[0][1]) if not path.is_dir() else folder_sha256(parts)
    return ImportBundle(
        path=str(path),
        kind=KIND,
        sha256=sha,
        responses=tuple(run.responses),
        verdicts=tuple(run.verdicts),
        notes=tuple(run.notes),
    )


def sniff(source: Source) -> bool:
    """A run folder (checkpoints/, or a run manifest), or a file whose first line has the fields
    of a checkpoint record; a folder that is not a run is an InputError saying so."""
    if source.is_dir:
        return is_run_folder(source.path)
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
