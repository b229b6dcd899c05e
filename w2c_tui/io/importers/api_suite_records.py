"""Records of the third-party When2Call API suite's checkpoint files, as responses and verdicts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import LABELS, Label, RaterKind, VerdictStatus
from w2c_tui.domain.records import RaterSpec, ResponseRecord, VerdictRecord
from w2c_tui.io.validate import (
    fail,
    optional_bool,
    optional_str,
    parse_label,
    require,
    require_int,
    require_list,
    require_str,
    type_name,
    wrong_type,
)

SOURCE = "when2call-api-eval-suite"
JUDGE_PROMPT = "api-suite judge prompt"
MCQ_INDEX_NAME = "api-suite mcq-index"
LOGPROB_NAME = "api-suite logprob"
LOGPROB_SCORING = "echo disabled: one generated token per choice, not a likelihood"
STRING_FALLBACK = "string_fallback"
SCORE_FIELDS = ("scores_raw", "scores_norm_bytes", "scores_norm_tokens", "scores_norm_chars")

TARGET_RESPONSES = "target_responses"
JUDGE_DECISIONS = "judge_decisions"
MCQ_PREDICTIONS = "mcq_predictions"
LOGPROB_PREDICTIONS = "mcq_logprob_predictions"
AUDIT_FALLBACKS = "audit_fallbacks"
DEBUG_PER_CHOICE = "debug_per_choice"

# Each checkpoint type, told apart by fields only its records carry (checked in this order).
SIGNATURES: tuple[tuple[str, frozenset[str]], ...] = (
    (JUDGE_DECISIONS, frozenset({"uuid", "predicted_label", "judge_raw"})),
    (MCQ_PREDICTIONS, frozenset({"uuid", "predicted_index", "raw_mcq_output"})),
    (LOGPROB_PREDICTIONS, frozenset({"uuid", "predicted_label_raw"})),
    (TARGET_RESPONSES, frozenset({"uuid", "raw_text"})),
    (AUDIT_FALLBACKS, frozenset({"fallback_type", "pipeline"})),
    (DEBUG_PER_CHOICE, frozenset({"uuid", "answer_name", "raw_score"})),
)
IMPORTED_TYPES = (TARGET_RESPONSES, JUDGE_DECISIONS, MCQ_PREDICTIONS, LOGPROB_PREDICTIONS)

# Audit event types the suite counts as forced fallbacks (a label it made up), §4.7.
FORCED_FALLBACKS = frozenset(
    {
        "judge_json_parse_failed_second_fallback_to_cannot_answer",
        "all_logprobs_-inf_string_fallback",
        "invalid_label_coercion_to_cannot_answer",
        "missing_prediction_uuid",
    }
)


def checkpoint_type(obj: dict[str, Any]) -> str | None:
    """Which checkpoint file a record comes from, or None."""
    for name, fields in SIGNATURES:
        if fields <= obj.keys():
            return name
    return None


ModelLookup = Callable[[dict[str, Any], int, str], str]
"""(record, line, field) -> the target model's name, or an InputError."""


def response(obj: dict[str, Any], path: Path, line: int, model: ModelLookup) -> ResponseRecord:
    """A target_responses record: the target model's raw reply."""
    uuid = require_str(obj, "uuid", path, line, non_empty=True)
    text = require(obj, "raw_text", path, line)
    if text is not None and not isinstance(text, str):
        raise wrong_type(path, line, "raw_text", "a string or null", text)
    meta: dict[str, Any] = {key: obj[key] for key in ("temperature", "api_seed") if key in obj}
    return ResponseRecord(
        uuid=uuid, target_model=model(obj, line, "target_model"), text=text, line=line, meta=meta
    )


def judge_verdict(
    obj: dict[str, Any],
    path: Path,
    line: int,
    judge: str,
    target_model: str,
    response_index: int | None,
) -> VerdictRecord:
    """A judge_decisions record; the suite's forced `cannot_answer` fallbacks become invalid."""
    uuid = require_str(obj, "uuid", path, line, non_empty=True)
    suite_label = require_str(obj, "predicted_label", path, line)
    raw = optional_str(obj, "judge_raw", path, line)
    fallback = optional_bool(obj, "judge_fallback_to_cannot_answer", path, line) or optional_bool(
        obj, "judge_parse_failed_second", path, line
    )
    rater = RaterSpec(
        RaterKind.JUDGE, name=judge, config={"source": SOURCE, "prompt": JUDGE_PROMPT}
    )
    scores: dict[str, Any] = {"suite_label": suite_label, "suite_fallback": fallback}
    if fallback:
        # The suite wrote cannot_answer for every reply it failed to parse (and, through a bug,
        # for every reply): that label is the suite's, never the judge's.
        scores["suite_exception"] = obj.get("judge_exception_second")
        label = None
    else:
        label = Label.named(suite_label)
    if obj.get("judge_rationale") is not None:
        scores["rationale"] = obj["judge_rationale"]
    return VerdictRecord(
        uuid=uuid,
        rater=rater,
        target_model=target_model,
        label=label,
        status=VerdictStatus.OK if label else VerdictStatus.INVALID,
        line=line,
        raw=raw,
        scores=scores,
        response_index=response_index,
    )


def _option_order(obj: dict[str, Any], path: Path, line: int) -> tuple[Label, ...]:
    """The suite's `answer_names` (the option order its indexes count in), else the fixed one."""
    if obj.get("answer_names") is None:
        return LABELS
    names = require_list(obj, "answer_names", path, line)
    order = tuple(
        parse_label(name, path, line, f"answer_names[{index}]") for index, name in enumerate(names)
    )
    if sorted(order) != sorted(LABELS):
        raise fail(path, line, "answer_names", "expected each of the four labels once")
    return order


def mcq_verdict(obj: dict[str, Any], path: Path, line: int, model: ModelLookup) -> VerdictRecord:
    """An mcq_predictions record: the string classifier's option index."""
    uuid = require_str(obj, "uuid", path, line, non_empty=True)
    index = require_int(obj, "predicted_index", path, line)
    suite_label = require_str(obj, "predicted_label", path, line)
    raw = optional_str(obj, "raw_mcq_output", path, line)
    order = _option_order(obj, path, line)
    rater = RaterSpec(RaterKind.MCQ_INDEX, name=MCQ_INDEX_NAME, config={"source": SOURCE})
    label: Label | None = None
    if index != -1 and suite_label != "invalid":
        if not 0 <= index < len(order):
            raise fail(path, line, "predicted_index", f"expected -1 or 0-3, got {index}")
        label = order[index]
        if Label.named(suite_label) is not label:
            raise fail(
                path,
                line,
                "predicted_label",
                f"{suite_label!r} does not match predicted_index {index} ({label.value})",
            )
    return VerdictRecord(
        uuid=uuid,
        rater=rater,
        target_model=model(obj, line, "target_model"),
        label=label,
        status=VerdictStatus.OK if label else VerdictStatus.INVALID,
        line=line,
        raw=raw,
        scores={"predicted_index": index, "suite_label": suite_label},
    )


def _score_list(obj: dict[str, Any], key: str, path: Path, line: int) -> list[float | None] | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != len(LABELS):
        raise fail(
            path,
            line,
            key,
            f"expected {len(LABELS)} scores, got {type_name(value)}"
            + (f" of {len(value)}" if isinstance(value, list) else ""),
        )
    for index, score in enumerate(value):
        if score is not None and (isinstance(score, bool) or not isinstance(score, int | float)):
            raise wrong_type(path, line, f"{key}[{index}]", "a number or null", score)
    return [None if s is None else float(s) for s in value]


def logprob_verdict(
    obj: dict[str, Any], path: Path, line: int, model: ModelLookup, delimiter: str | None
) -> VerdictRecord:
    """An mcq_logprob_predictions record; its scores are not likelihoods (echo was off)."""
    uuid = require_str(obj, "uuid", path, line, non_empty=True)
    suite_label = require_str(obj, "predicted_label_raw", path, line)
    mode = optional_str(obj, "mode", path, line)
    delimiter = optional_str(obj, "effective_delimiter", path, line) or delimiter
    rater = RaterSpec(
        RaterKind.MCQ_LOGPROB,
        name=LOGPROB_NAME,
        config={"source": SOURCE, "delimiter": delimiter, "scoring": LOGPROB_SCORING},
    )
    scores: dict[str, Any] = {key: _score_list(obj, key, path, line) for key in SCORE_FIELDS}
    scores.update(
        pred_raw=suite_label, pred_norm_chars=obj.get("predicted_label_norm_chars"), mode=mode
    )
    raw: str | None = None
    if mode == STRING_FALLBACK:
        # All four scores were -inf and the suite asked its string classifier instead: the label
        # is not this rater's.
        label = None
        fallback_raw = obj.get("string_fallback_raw_output")
        raw = None if fallback_raw is None else str(fallback_raw)
        scores["fallback_trigger"] = obj.get("fallback_trigger")
    else:
        label = Label.named(suite_label)
    return VerdictRecord(
        uuid=uuid,
        rater=rater,
        target_model=model(obj, line, "target_model"),
        label=label,
        status=VerdictStatus.OK if label else VerdictStatus.INVALID,
        line=line,
        raw=raw,
        scores=scores,
    )


def audit_event(obj: dict[str, Any], path: Path, line: int) -> bool:
    """Whether an audit line records a forced fallback (the line is checked, not imported)."""
    return require_str(obj, "fallback_type", path, line) in FORCED_FALLBACKS


def missing_model(path: Path, line: int, field: str) -> InputError:
    """The error for a record whose target model nothing names."""
    return fail(
        path,
        line,
        field,
        "cannot tell the target model: the record, its run's "
        "manifest.json and --target-model name none",
    )
