"""The fixed value sets of command-line options, as enums Typer shows and checks (a bad value
exits 2 naming the option and the allowed values). Those of the light domain layer are used as
they are; the others mirror enums of the core by value (tests/cli/test_choices.py checks that)
so that `w2c --help` imports nothing heavy."""

from __future__ import annotations

from enum import StrEnum

from w2c_tui.domain.dashboard import Against
from w2c_tui.domain.labels import InvalidMode as InvalidAs
from w2c_tui.domain.labels import Label
from w2c_tui.domain.review import ToolCount
from w2c_tui.domain.review import UnitKind as Units
from w2c_tui.domain.runs import Backend, Method

__all__ = [
    "Against",
    "Backend",
    "Dtype",
    "ExportFormat",
    "ImportKind",
    "InvalidAs",
    "Label",
    "Method",
    "ToolCount",
    "Units",
]


class Dtype(StrEnum):
    """Weights' dtype on the transformers backend (auto: bfloat16 on a GPU, float32 on CPU)."""

    AUTO = "auto"
    FLOAT32 = "float32"
    BFLOAT16 = "bfloat16"
    FLOAT16 = "float16"


class ExportFormat(StrEnum):
    """Line-per-record exports."""

    JSONL = "jsonl"
    CSV = "csv"


class ImportKind(StrEnum):
    """What `w2c import --kind` can force (io.importers.KINDS, and CriticTool files)."""

    WHEN2CALL_TEST = "when2call_test"
    WHEN2CALL_SFT = "when2call_sft"
    WHEN2CALL_PREF = "when2call_pref"
    LM_EVAL_SAMPLES = "lm_eval_samples"
    OFFICIAL_JUDGE = "official_judge"
    OFFICIAL_INFERENCE = "official_inference"
    API_SUITE = "api_suite"
    CRITICTOOL = "critictool"
