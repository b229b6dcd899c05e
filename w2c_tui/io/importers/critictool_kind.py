"""What a CriticTool file is: internal/external, base/evol, CoT or not, skip/finish.

The file name decides where it says (the official names: `internal_error/base_data_w_cot.json`,
test.py's outputs `interal_base_data_wo_cot.json`, `external_skip_evol_data_w_cot.json`);
otherwise the content does: the instruction inserted into the system prompt, else whether the
gold steps carry a thought. A name that contradicts the inserted instruction is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from w2c_tui.domain.critictool import (
    ExternalMode,
    FileKind,
    KindBasis,
    Sample,
    SampleError,
    Source,
    Variant,
)
from w2c_tui.domain.errors import InputError


def _tokens(path: Path) -> list[str]:
    return path.stem.lower().split("_")


def source_from_name(path: Path) -> Source | None:
    """internal / external from the folder or the file name (test.py's `interal_` included)."""
    parts = [part.lower() for part in path.parts[:-1]]
    first = _tokens(path)[0]
    if "internal_error" in parts or first in ("internal", "interal"):
        return "internal"
    if "external_error" in parts or first == "external":
        return "external"
    return None


def variant_from_name(path: Path) -> Variant | None:
    """base / evol from the file name's words."""
    tokens = _tokens(path)
    if "base" in tokens:
        return "base"
    if "evol" in tokens:
        return "evol"
    return None


def cot_from_name(path: Path) -> bool | None:
    """True for `…_w_cot`, False for `…_wo_cot`, None otherwise."""
    stem = path.stem.lower()
    if stem.endswith("_w_cot"):
        return True
    if stem.endswith("_wo_cot"):
        return False
    return None


def mode_from_name(path: Path) -> ExternalMode | None:
    """skip / finish from the file name's words (test.py's `external_skip_…`)."""
    tokens = _tokens(path)
    if "skip" in tokens:
        return "skip"
    if "finish" in tokens:
        return "finish"
    return None


def _instruction(path: str, samples: Sequence[Sample]) -> str | None:
    """The instruction all samples carry (or None when none does); mixed is refused."""
    first = samples[0].instruction
    for sample in samples:
        if sample.instruction != first:
            raise SampleError(
                path,
                sample.sample_id,
                "query_prompt[0].content",
                f"inserted instruction {sample.instruction!r} differs from the first "
                f"sample's {first!r}",
                line=sample.line,
            )
    return first


def _scored_gold(samples: Sequence[Sample]) -> list[tuple[Sample, int]]:
    """(sample, index) of the gold steps the CoT metrics compare thoughts with: the step of an
    erroneous internal sample, the next step ([1]) of an external one."""
    return [
        (sample, 0 if sample.source == "internal" else 1) for sample in samples if sample.erroneous
    ]


def _gold_thoughts(samples: Sequence[Sample]) -> bool:
    """There are scored gold steps and every one of them carries a thought."""
    scored = _scored_gold(samples)
    return bool(scored) and all(sample.gold[index].thought is not None for sample, index in scored)


def _presence(path: str, samples: Sequence[Sample]) -> bool:
    first = samples[0].predictions is not None
    for sample in samples:
        if (sample.predictions is not None) != first:
            state = "has no" if first else "has"
            raise SampleError(
                path,
                sample.sample_id,
                "predictions",
                f"{state} predictions, unlike the first sample: a file has them for all or none",
                line=sample.line,
            )
    return first


def file_kind(path: Path, samples: Sequence[Sample]) -> FileKind:
    """The kind of a file whose records are `samples` (non-empty, one source)."""
    where = str(path)
    source = samples[0].source
    instruction = _instruction(where, samples)
    named_cot = cot_from_name(path)
    cot: bool
    basis: KindBasis
    if instruction is not None:
        base, _, cot_suffix = instruction.partition("_")
        if (base == "llm") != (source == "internal"):
            raise InputError(where, f"{source} samples carry the {instruction!r} instruction")
        cot = cot_suffix == "cot"
        if named_cot is not None and named_cot != cot:
            raise InputError(
                where, f"the name says CoT={named_cot}, the instruction {instruction!r}"
            )
        basis = "name" if named_cot is not None else "instruction"
        inserted_mode: ExternalMode | None = None if base == "llm" else _as_mode(base)
    else:
        inserted_mode = None
        cot, basis = (
            (named_cot, "name") if named_cot is not None else (_gold_thoughts(samples), "content")
        )
    named_mode = mode_from_name(path) if source == "external" else None
    if inserted_mode and named_mode and inserted_mode != named_mode:
        raise InputError(where, f"the name says {named_mode!r}, the instruction {inserted_mode!r}")
    if cot:
        _require_thoughts(where, samples)
    return FileKind(
        source=source,
        variant=variant_from_name(path),
        cot=cot,
        mode=inserted_mode or named_mode,
        has_predictions=_presence(where, samples),
        cot_basis=basis,
    )


def _as_mode(name: str) -> ExternalMode:
    return "skip" if name == "skip" else "finish"


def _require_thoughts(path: str, samples: Sequence[Sample]) -> None:
    """In CoT data the scored gold steps need a thought (the CoT metrics compare with it)."""
    for sample, index in _scored_gold(samples):
        if sample.gold[index].thought is None:
            field = "ground_truth.thought" if index == 0 else "ground_truth[1].thought"
            raise SampleError(
                path, sample.sample_id, field, "CoT data needs the gold thought", line=sample.line
            )
