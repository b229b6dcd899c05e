"""What each API-suite checkpoint type becomes: responses, judge verdicts, MCQ and log-prob
verdicts, audit notes (responses first, so that judge decisions can point at them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.records import ResponseRecord, VerdictRecord
from w2c_tui.io.importers import api_suite_records as rec
from w2c_tui.io.importers.api_suite_folder import CheckpointFile
from w2c_tui.io.options import ReadOptions

LOGPROB_NOTE = (
    "api-suite logprob scores are not choice likelihoods: the suite's /completions call ran with "
    "echo disabled, so each score is the log-probability of one generated token after "
    "prompt + choice (WHEN2CALL_REFERENCE §4.4)"
)


@dataclass
class SuiteRun:
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


def read_responses(run: SuiteRun, file: CheckpointFile) -> None:
    model = run.model_lookup(file.path)
    for line, obj in file.records:
        record = rec.response(obj, file.path, line, model)
        run.response_at[record.uuid] = len(run.responses)
        run.responses.append(record)


def read_judge(run: SuiteRun, file: CheckpointFile) -> None:
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


def read_mcq(run: SuiteRun, file: CheckpointFile) -> None:
    model = run.model_lookup(file.path)
    run.verdicts.extend(rec.mcq_verdict(obj, file.path, line, model) for line, obj in file.records)


def read_logprob(run: SuiteRun, file: CheckpointFile) -> None:
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


def read_audit(run: SuiteRun, file: CheckpointFile) -> None:
    forced = sum(rec.audit_event(obj, file.path, line) for line, obj in file.records)
    run.notes.append(
        f"{file.name}: read {len(file.records)} audit event(s), {forced} of them "
        "forced fallback(s); audit events are not imported"
    )


HANDLERS = {
    rec.TARGET_RESPONSES: read_responses,
    rec.JUDGE_DECISIONS: read_judge,
    rec.MCQ_PREDICTIONS: read_mcq,
    rec.LOGPROB_PREDICTIONS: read_logprob,
    rec.AUDIT_FALLBACKS: read_audit,
}
# Responses first, so that judge decisions can point at them.
ORDER = (
    rec.TARGET_RESPONSES,
    rec.JUDGE_DECISIONS,
    rec.MCQ_PREDICTIONS,
    rec.LOGPROB_PREDICTIONS,
    rec.AUDIT_FALLBACKS,
)
