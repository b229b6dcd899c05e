"""What a model sees for one MCQ item under one template."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PromptRecord:
    """The prompt and choices as the official functions build them, and what is scored.

    `choices` are in the item's option order (direct, tool_call, request_for_info,
    cannot_answer) before lm-eval's whitespace handling; `context` is the prompt less its
    trailing whitespace and `continuations` are that whitespace plus each choice, which is what
    the log-likelihoods are computed on (WHEN2CALL_REFERENCE.md §2.2 step 4).
    """

    uuid: str
    template: str
    template_hash: str
    prompt: str
    choices: tuple[str, ...]
    options: tuple[str, ...]
    context: str
    continuations: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        """One JSON line of `w2c prompts export`."""
        return {
            "uuid": self.uuid,
            "template": self.template,
            "template_hash": self.template_hash,
            "prompt": self.prompt,
            "choices": list(self.choices),
            "options": list(self.options),
            "context": self.context,
            "continuations": list(self.continuations),
        }
