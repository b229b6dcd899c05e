"""What the CriticTool judge tests share: the fixture files and one full judge answer."""

from __future__ import annotations

from pathlib import Path

from w2c_tui.domain.critictool_labels import Question

FIXTURES = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool"
PREDICTIONS = FIXTURES / "predictions" / "interal_base_data_wo_cot.json"
EXTERNAL = FIXTURES / "predictions" / "external_skip_base_data_wo_cot.json"
DATASET = FIXTURES / "dataset" / "internal_error" / "base_data_wo_cot.json"
Q = Question
INTERNAL_JUDGED = (Q.ERROR, Q.CATEGORY, Q.CRITIQUE, Q.TOOL, Q.ARGS)
ANSWER = {
    "error": "yes",
    "category": "parameters_value_error",
    "critique_right": "yes",
    "tool_right": "yes",
    "args_right": "no",
}
