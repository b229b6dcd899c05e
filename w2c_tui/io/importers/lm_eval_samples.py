"""lm-evaluation-harness `--log_samples` lines of a When2Call MCQ task, as log-prob verdicts."""

from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import LABELS, Label, RaterKind, VerdictStatus
from w2c_tui.domain.records import ImportBundle, RaterSpec, VerdictRecord
from w2c_tui.io.importers.base import Importer, Source
from w2c_tui.io.importers.when2call_test import ANSWER_SYNONYMS
from w2c_tui.io.jsonl import Progress, ProgressCallback, iter_objects, sha256_hex
from w2c_tui.io.options import ReadOptions
from w2c_tui.io.validate import (
    LABEL_NAMES,
    fail,
    optional_number,
    require,
    require_dict,
    require_list,
    require_str,
    wrong_type,
)

KIND = "lm_eval_samples"
SOURCE = "lm-evaluation-harness"
N_CHOICES = len(LABELS)

# samples_<task>_<timestamp>.jsonl; the timestamp has no underscore, the task may have several.
_SAMPLES_NAME = re.compile(r"^samples_(?P<task>.+)_(?P<stamp>\d{4}-\d{2}-\d{2}T[0-9.:\-]+)$")


def task_name(path: Path) -> str:
    """The task from lm-eval's samples file name (the stem when the name has another shape)."""
    match = _SAMPLES_NAME.match(path.stem)
    if match:
        return match.group("task")
    return path.stem.removeprefix("samples_") or path.stem


def argmax(values: list[float]) -> int:
    """The index of the largest value; the first wins ties, as numpy.argmax does."""
    best = 0
    for index, value in enumerate(values):
        if value > values[best]:
            best = index
    return best


def _float(value: Any, path: Path, line: int, field: str) -> float:
    # lm-eval's sanitize_list writes the numbers as strings ("-12.5").
    if isinstance(value, bool):
        raise wrong_type(path, line, field, "a log-likelihood (number)", value)
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value)
        except ValueError as error:
            raise fail(path, line, field, f"log-likelihood {value!r} is not a number") from error
    else:
        raise wrong_type(path, line, field, "a log-likelihood (number)", value)
    if math.isnan(number):
        raise fail(path, line, field, "log-likelihood is NaN")
    if math.isinf(number):
        raise fail(
            path, line, field, f"log-likelihood {value!r} is infinite (or beyond a float's range)"
        )
    if number > 0:
        raise fail(
            path, line, field, f"log-likelihood {value!r} is positive: a log-probability is ≤ 0"
        )
    return number


def _bool(value: Any, path: Path, line: int, field: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value in ("True", "False", "true", "false"):
        return value in ("True", "true")
    raise fail(path, line, field, f"is_greedy {value!r} is not a boolean")


def _pairs(obj: dict[str, Any], path: Path, line: int) -> tuple[list[float], list[bool]]:
    """(log-likelihoods, is_greedy) in the file's choice order."""
    key = "filtered_resps" if "filtered_resps" in obj else "resps"
    values = require_list(obj, key, path, line, "filtered_resps")
    if len(values) != N_CHOICES:
        raise fail(path, line, key, f"expected {N_CHOICES} responses, got {len(values)}")
    lls: list[float] = []
    greedy: list[bool] = []
    for index, value in enumerate(values):
        field = f"{key}[{index}]"
        pair = value
        # `resps` wraps each [ll, is_greedy] pair in a one-element list (one per repeat).
        if isinstance(pair, list) and len(pair) == 1:
            pair = pair[0]
        if not isinstance(pair, list) or len(pair) != 2:
            raise fail(path, line, field, "expected a [log-likelihood, is_greedy] pair")
        lls.append(_float(pair[0], path, line, field))
        greedy.append(_bool(pair[1], path, line, field))
    return lls, greedy


def _order(doc: dict[str, Any], path: Path, line: int) -> tuple[Label, ...]:
    """The label of each choice position: the doc's `answers` key order, else the fixed order."""
    answers = doc.get("answers")
    if not isinstance(answers, dict):
        return LABELS
    order: list[Label] = []
    for key in answers:
        name = ANSWER_SYNONYMS.get(str(key), str(key))
        try:
            order.append(Label(name))
        except ValueError as error:
            raise fail(
                path,
                line,
                "doc.answers",
                f"unexpected key {key!r} (expected exactly {LABEL_NAMES})",
            ) from error
    if sorted(order) != sorted(LABELS):
        raise fail(path, line, "doc.answers", f"expected exactly the keys {LABEL_NAMES}")
    return tuple(order)


def _choices(doc: dict[str, Any], path: Path, line: int) -> list[str]:
    choices = require_list(doc, "choices", path, line, "doc.choices")
    if len(choices) != N_CHOICES:
        raise fail(path, line, "doc.choices", f"expected {N_CHOICES} choices, got {len(choices)}")
    for index, choice in enumerate(choices):
        if not isinstance(choice, str):
            raise wrong_type(path, line, f"doc.choices[{index}]", "a string", choice)
    return choices


def _target(obj: dict[str, Any], path: Path, line: int) -> int | None:
    """The gold option index (lm-eval logs it as a string); None when the line has none."""
    if "target" not in obj:
        return None
    value = require(obj, "target", path, line)
    index = -1
    if isinstance(value, int) and not isinstance(value, bool):
        index = value
    elif isinstance(value, str) and value.strip().isdigit():
        index = int(value)
    if not 0 <= index < N_CHOICES:
        raise fail(path, line, "target", f"expected a gold option index 0-3, got {value!r}")
    return index


def _canonical(values: list[Any], order: tuple[Label, ...]) -> list[Any]:
    """Per-choice values rearranged into the fixed option order (direct … cannot_answer)."""
    by_label = dict(zip(order, values, strict=True))
    return [by_label[label] for label in LABELS]


class _Agreement:
    """Lines whose logged acc/acc_norm disagree with what their log-likelihoods give."""

    def __init__(self) -> None:
        self.count = 0
        self.first_line: int | None = None

    def check(self, line: int, given: float | None, pred: int, target: int | None) -> None:
        if given is None or target is None:
            return
        if given != (1.0 if pred == target else 0.0):
            self.count += 1
            self.first_line = self.first_line or line


def _verdict(
    obj: dict[str, Any], path: Path, line: int, rater: RaterSpec, model: str, agreement: _Agreement
) -> VerdictRecord:
    doc = require_dict(obj, "doc", path, line)
    uuid = require_str(doc, "uuid", path, line, "doc.uuid", non_empty=True)
    choices = _choices(doc, path, line)
    order = _order(doc, path, line)
    target = _target(obj, path, line)
    lls, greedy = _pairs(obj, path, line)
    lengths = [len(choice) for choice in choices]
    pred = argmax(lls)
    pred_norm = argmax([ll / n if n else -math.inf for ll, n in zip(lls, lengths, strict=True)])
    acc = optional_number(obj, "acc", path, line)
    acc_norm = optional_number(obj, "acc_norm", path, line)
    agreement.check(line, acc, pred, target)
    agreement.check(line, acc_norm, pred_norm, target)
    scores: dict[str, Any] = {
        "loglikelihoods": _canonical(lls, order),
        "is_greedy": _canonical(greedy, order),
        "pred_raw": order[pred].value,
        "pred_norm": order[pred_norm].value,
        "choice_lengths": _canonical(lengths, order),
        "acc": acc,
        "acc_norm": acc_norm,
    }
    return VerdictRecord(
        uuid=uuid,
        rater=rater,
        target_model=model,
        label=order[pred],
        status=VerdictStatus.OK,
        line=line,
        scores=scores,
    )


def _target_model(path: Path, options: ReadOptions) -> tuple[str, str | None]:
    """The target model's name, and a note when it was taken from the folder name."""
    if options.target_model:
        return options.target_model, None
    # lm-eval writes <output_path>/<sanitised model name>/samples_<task>_<timestamp>.jsonl.
    folder = path.resolve().parent.name
    if not folder:
        raise InputError(
            str(path), "cannot tell which model these samples score: pass --target-model"
        )
    return folder, f"target model {folder!r} taken from the folder name (--target-model overrides)"


def read(
    source: Source, options: ReadOptions, progress: ProgressCallback | None = None
) -> ImportBundle:
    """One log-prob verdict per sample line; an InputError on the first bad line."""
    path, data = source.path, source.data
    task = task_name(path)
    model, model_note = _target_model(path, options)
    rater = RaterSpec(
        RaterKind.MCQ_LOGPROB,
        name=options.scorer or f"lm-eval:{task}",
        config={"source": SOURCE, "task": task},
    )
    tracker = Progress(progress, len(data))
    agreement = _Agreement()
    verdicts = [
        _verdict(obj, path, line, rater, model, agreement)
        for line, obj in iter_objects(path, data, tracker)
    ]
    tracker.finish()
    notes = [model_note] if model_note else []
    if agreement.count:
        notes.append(
            f"{agreement.count} acc/acc_norm value(s) in the file disagree with the "
            f"log-likelihoods and target (first on line {agreement.first_line}); "
            "verdicts follow the log-likelihoods"
        )
    repeated = sum(n - 1 for n in Counter(v.uuid for v in verdicts).values() if n > 1)
    if repeated:
        notes.append(f"{repeated} line(s) repeat an earlier uuid; the last one is kept as current")
    if not verdicts:
        notes.append("the file holds no samples")
    return ImportBundle(
        path=str(path),
        kind=KIND,
        sha256=sha256_hex(data),
        verdicts=tuple(verdicts),
        notes=tuple(notes),
    )


def sniff(source: Source) -> bool:
    """The first line has a `doc` object and resps, filtered_resps or doc_id."""
    _line, obj = source.first
    return isinstance(obj.get("doc"), dict) and bool(
        obj.keys() & {"resps", "filtered_resps", "doc_id"}
    )


IMPORTER = Importer(KIND, sniff, read, "lm_eval_samples: doc with resps, filtered_resps or doc_id")
