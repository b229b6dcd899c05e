"""The seven official When2Call prompt families: name → prompt builder, choice formatter and the
fixed strings that identify it (WHEN2CALL_REFERENCE.md §2.4; golden hashes in §7 fact 6).

Each family builds the prompt and the four choices exactly as the official `process_docs_*`
functions do, before lm-eval's whitespace handling: only the `tool_call` answer is reformatted,
the three others stay as they are.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from w2c_tui.domain.runs import Task
from w2c_tui.runs.prompts import llama3, official, tagged


@dataclass(frozen=True)
class Family:
    """One official template."""

    name: str
    prompt: Callable[[Task], str]
    tool_call: Callable[[str], str] | None
    """Formats the raw tool-call answer (None: kept as the raw JSON string)."""
    parts: tuple[str, ...]
    """The fixed strings of the format (what `family_hash` covers)."""
    yaml_task: str | None
    """The official lm-eval task name (None: no YAML uses it)."""

    def choices(self, task: Task) -> list[str]:
        """The four answers in the item's option order, the tool call formatted."""
        return [
            self.tool_call(text) if self.tool_call is not None and name == "tool_call" else text
            for name, text in task.answers
        ]


FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        Family(
            "when2call-default",
            official.default_prompt,
            None,
            (official.DEFAULT_SYSTEM_PROMPT, official.TOOL_USE_INSTRUCTIONS),
            "when2call",
        ),
        Family(
            "when2call-qwen2_5",
            official.qwen2_5_prompt,
            None,
            (official.QWEN2_5_HEAD, official.QWEN2_5_TAIL, official.QWEN2_5_END),
            "when2call-qwen2_5",
        ),
        Family(
            "when2call-llama3_2",
            llama3.llama3_2_prompt,
            llama3.llama3_2_call,
            llama3.LLAMA3_2_PARTS,
            "when2call-llama3_2",
        ),
        Family(
            "when2call-xlam",
            tagged.xlam_prompt,
            tagged.xlam_call,
            tagged.XLAM_PARTS,
            "when2call-xlam",
        ),
        Family(
            "when2call-hermes",
            tagged.hermes_prompt,
            tagged.hermes_call,
            tagged.HERMES_PARTS,
            "when2call-hermes",
        ),
        Family(
            "when2call-functionary",
            llama3.functionary_prompt,
            llama3.functionary_call,
            llama3.FUNCTIONARY_PARTS,
            "when2call-functionary",
        ),
        Family(
            "when2call-nemotron",
            tagged.nemotron_prompt,
            tagged.nemotron_call,
            tagged.NEMOTRON_PARTS,
            None,
        ),
    )
}


def family_hash(name: str) -> str:
    """sha256 (first 16 hex) of the family's name and fixed strings: which template a run used."""
    text = "\x00".join((name, *FAMILIES[name].parts))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
