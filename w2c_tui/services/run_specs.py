"""What a run's configuration means for the store: its rater and its item filter."""

from __future__ import annotations

from typing import Any

from w2c_tui.domain.labels import Label, RaterKind
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.review import ItemFilter, ToolCount
from w2c_tui.domain.runs import Method, RunConfig


def rater_spec(config: RunConfig, describe: dict[str, Any]) -> RaterSpec | None:
    """The rater a run's verdicts carry (None for generation, which makes responses)."""
    backend = config.backend.value
    if config.method in (Method.JUDGE, Method.CRITICTOOL_JUDGE):
        identity = {
            "prompt": describe.get("judge_prompt_version", config.judge_prompt),
            "backend": backend,
        }
        if config.method is Method.CRITICTOOL_JUDGE:  # not the same model's When2Call judge
            identity["labels"] = "critictool"
        return RaterSpec(RaterKind.JUDGE, config.model, identity)
    if config.method is Method.MCQ_LOGPROB:
        return RaterSpec(
            RaterKind.MCQ_LOGPROB,
            config.model,
            {
                "template": config.template,
                "template_hash": describe.get("template_hash"),
                "bos": describe.get("bos", config.bos),
                "backend": backend,
            },
        )
    if config.method is Method.MCQ_INDEX:
        return RaterSpec(
            RaterKind.MCQ_INDEX,
            config.model,
            {
                "prompt": describe.get("mcq_prompt_version", "when2call-mcq-index-v1"),
                "backend": backend,
            },
        )
    return None


def item_filter(config: RunConfig) -> ItemFilter:
    """The item filter stored in a run's configuration."""
    values = config.item_filter
    return ItemFilter(
        gold=Label.parse(values["gold"]) if values.get("gold") else None,
        tools=ToolCount(values["tools"]) if values.get("tools") else None,
        source=values.get("source"),
        search=values.get("search", ""),
    )
