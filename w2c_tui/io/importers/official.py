"""Outputs of NVIDIA's official LLM-judge scripts: inference responses and judge verdicts."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.records import ImportBundle, RaterSpec, ResponseRecord, VerdictRecord
from w2c_tui.io.importers.base import Importer, Source
from w2c_tui.io.jsonl import Progress, ProgressCallback, iter_objects, sha256_hex
from w2c_tui.io.options import ReadOptions
from w2c_tui.io.validate import fail, require, require_dict, require_str

JUDGE_KIND = "official_judge"
INFERENCE_KIND = "official_inference"
JUDGE_NAME = "official-judge"
JUDGE_CONFIG = {"source": "when2call official judge", "prompt": "when2call-official"}


def _judge_output(value: Any) -> tuple[str, Any]:
    """(raw text, parsed value) of a judge_response: a parsed dict, or a string holding JSON.

    A string that is not JSON is the judge's reply being unusable, not a broken file.
    """
    if isinstance(value, str):
        try:
            return value, json.loads(value)
        except (ValueError, RecursionError):
            return value, None
    return json.dumps(value, ensure_ascii=False), value


def _verdict(
    obj: dict[str, Any], path: Path, line: int, rater: RaterSpec, model: str, response_index: int
) -> VerdictRecord:
    value = require(obj, "judge_response", path, line)
    if value is None:
        raise fail(path, line, "judge_response", "is null: expected the judge's reply")
    raw, parsed = _judge_output(value)
    classification = parsed.get("classification") if isinstance(parsed, dict) else None
    label = Label.named(classification)
    uuid = require_str(
        require_dict(obj, "question", path, line),
        "uuid",
        path,
        line,
        "question.uuid",
        non_empty=True,
    )
    return VerdictRecord(
        uuid=uuid,
        rater=rater,
        target_model=model,
        label=label,
        status=VerdictStatus.OK if label else VerdictStatus.INVALID,
        line=line,
        raw=raw,
        response_index=response_index,
    )


def _target_model(path: Path, options: ReadOptions) -> tuple[str, str | None]:
    if options.target_model:
        return options.target_model, None
    # The official scripts write one results file per model and never name the model in it.
    return path.stem, (
        f"target model {path.stem!r} taken from the file name (--target-model overrides)"
    )


def _repeat_note(uuids: list[str]) -> list[str]:
    repeated = sum(n - 1 for n in Counter(uuids).values() if n > 1)
    if not repeated:
        return []
    return [f"{repeated} line(s) repeat an earlier uuid (kept as further responses)"]


def read_judge(
    source: Source, options: ReadOptions, progress: ProgressCallback | None = None
) -> ImportBundle:
    """One response and one judge verdict per line of run_openai_judge.py's output."""
    path, data = source.path, source.data
    model, model_note = _target_model(path, options)
    rater = RaterSpec(RaterKind.JUDGE, name=options.judge or JUDGE_NAME, config=dict(JUDGE_CONFIG))
    tracker = Progress(progress, len(data))
    responses: list[ResponseRecord] = []
    verdicts: list[VerdictRecord] = []
    for line, obj in iter_objects(path, data, tracker):
        verdict = _verdict(obj, path, line, rater, model, len(responses))
        text = require_str(obj, "model_response", path, line)
        responses.append(
            ResponseRecord(uuid=verdict.uuid, target_model=model, text=text, line=line)
        )
        verdicts.append(verdict)
    tracker.finish()
    notes = [model_note] if model_note else []
    invalid = sum(v.status is VerdictStatus.INVALID for v in verdicts)
    if invalid:
        notes.append(
            f"{invalid} judge reply(ies) give no usable classification: stored as "
            "invalid verdicts with the raw reply"
        )
    notes += _repeat_note([r.uuid for r in responses])
    if not responses:
        notes.append("the file holds no judged responses")
    return ImportBundle(
        path=str(path),
        kind=JUDGE_KIND,
        sha256=sha256_hex(data),
        responses=tuple(responses),
        verdicts=tuple(verdicts),
        notes=tuple(notes),
    )


def read_inference(
    source: Source, options: ReadOptions, progress: ProgressCallback | None = None
) -> ImportBundle:
    """One response per line of run_openai_inference.py's output (an item plus its reply)."""
    path, data = source.path, source.data
    model, model_note = _target_model(path, options)
    tracker = Progress(progress, len(data))
    responses = [
        ResponseRecord(
            uuid=require_str(obj, "uuid", path, line, non_empty=True),
            target_model=model,
            text=require_str(obj, "model_response", path, line),
            line=line,
        )
        for line, obj in iter_objects(path, data, tracker)
    ]
    tracker.finish()
    notes = [model_note] if model_note else []
    notes += _repeat_note([r.uuid for r in responses])
    if not responses:
        notes.append("the file holds no responses")
    return ImportBundle(
        path=str(path),
        kind=INFERENCE_KIND,
        sha256=sha256_hex(data),
        responses=tuple(responses),
        notes=tuple(notes),
    )


def sniff_judge(source: Source) -> bool:
    """The first line has judge_response or judge_prompt."""
    return bool(source.first_keys & {"judge_response", "judge_prompt"})


def sniff_inference(source: Source) -> bool:
    """The first line has uuid and model_response."""
    return {"model_response", "uuid"} <= source.first_keys


JUDGE = Importer(
    JUDGE_KIND, sniff_judge, read_judge, "official_judge: judge_response or judge_prompt"
)
INFERENCE = Importer(
    INFERENCE_KIND, sniff_inference, read_inference, "official_inference: uuid and model_response"
)
