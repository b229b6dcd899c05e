"""The reference's argument score (`_arg_eval`): how right a predicted call's arguments are.

With the tool found in the sample's tool list and the predicted args an object:
- gold without arguments: 1, or 0 when the prediction adds a key the tool does not declare;
- otherwise, per gold argument, averaged over the gold arguments:
  present with the declared type (`any` always; `bool` passes an integer check, as
  isinstance does) → 1 if str() of both is equal, else their similarity; present, declared type
  not matched but both values strings → their similarity unless either holds a CJK ideograph
  (U+4E00–U+9FFF) → 0 then; other type mismatches → 0; missing → 0.5 if not a required
  parameter, else 0.

Two departures, where the reference has no number: a gold argument the tool does not declare
is type-checked as the reference checks an unknown type name (as a string) instead of raising
KeyError; gold args that are not an object (a FinishAction string) score 0 instead of being
walked character by character.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from w2c_tui.domain.critictool import Step, Tool
from w2c_tui.runs.critictool.parse import Reply
from w2c_tui.runs.critictool.similarity import Similarity

ANY = "any"
TYPE_MAP: dict[str, type | str] = {
    "NUMBER": int,
    "integer": int,
    "FLOAT": float,
    "float": float,
    "BOOLEAN": bool,
    "boolean": bool,
    "STRING": str,
    "string": str,
    "array": list,
    "dict": dict,
    "any": ANY,
}
"""Declared type names to Python types (case-sensitive; any other name checks as str)."""


def contains_cjk(text: str) -> bool:
    """Whether `text` holds a CJK unified ideograph (the reference's "contains Chinese")."""
    return any("\u4e00" <= char <= "\u9fff" for char in text)


def _declared(tool: Tool) -> tuple[dict[str, type | str], set[str]]:
    """(name → Python type, required names); a name declared twice keeps its last type."""
    types = {param.name: TYPE_MAP.get(param.type, str) for param in tool.params}
    return types, {param.name for param in tool.required}


def _value_score(declared: type | str, pred: Any, gold: Any, similarity: Similarity) -> float:
    if declared == ANY or (isinstance(declared, type) and isinstance(pred, declared)):
        if str(pred) == str(gold):
            return 1.0
        return similarity(str(pred), str(gold))
    both_strings = type(pred) is type(gold) and isinstance(gold, str)
    if both_strings and not contains_cjk(str(gold)) and not contains_cjk(str(pred)):
        return similarity(str(pred), str(gold))
    return 0.0


def arg_score(tools: Sequence[Tool], reply: Reply, gold: Step, similarity: Similarity) -> float:
    """The args score of `reply` against `gold` (both naming the same tool)."""
    tool = next((tool for tool in tools if tool.name == reply.name), None)
    if tool is None or not isinstance(reply.args, dict) or not isinstance(gold.args, dict):
        return 0.0
    types, required = _declared(tool)
    if not gold.args:
        return 0.0 if any(key not in types for key in reply.args) else 1.0
    score = 0.0
    for key, gold_value in gold.args.items():
        if key in reply.args:
            score += _value_score(types.get(key, str), reply.args[key], gold_value, similarity)
        elif key not in required:
            score += 0.5
    return score / len(gold.args)
