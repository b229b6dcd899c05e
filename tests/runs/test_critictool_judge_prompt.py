"""The CriticTool judge's reading and prompt: replies read strictly (never guessed), the
questions of each kind of unit, and a prompt that shows the step under review and the replies
but no gold."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from critic_judge_data import ANSWER, DATASET, EXTERNAL, INTERNAL_JUDGED, Q

from w2c_tui.domain.critictool import Step
from w2c_tui.domain.critictool_labels import CriticToolLabel, ErrorCategory, Policy
from w2c_tui.domain.runs import RunStartError, Task
from w2c_tui.io.importers.critictool import read_critictool
from w2c_tui.runs.critictool import judge, judge_prompt


def test_a_full_reply_becomes_the_label() -> None:
    reading = judge.parse_reply(json.dumps(ANSWER), INTERNAL_JUDGED)
    assert reading.problem is None and not reading.fenced
    assert reading.label == CriticToolLabel(
        error=True,
        category=ErrorCategory.PARAMETERS_VALUE,
        critique_right=True,
        tool_right=True,
        args_right=False,
    )
    fenced = judge.parse_reply(
        '```json\n{"error": false, "category": " None ", "extra": 1}\n```', (Q.ERROR, Q.CATEGORY)
    )
    assert fenced.fenced and fenced.label == CriticToolLabel(
        error=False, category=ErrorCategory.NONE
    )


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("The step has a parameter value error.", "not valid JSON"),
        ('["yes"]', "not a JSON object"),
        ('{"error": "yes"}', "no 'category'"),
        ('{"error": "maybe", "category": "none"}', "'error' must be one of yes, no, not \"maybe\""),
        ('{"error": "yes", "category": "typo"}', "'category' must be one of"),
        ('{"error": "no", "category": "tool_select_error"}', "'error' is 'no' but 'category'"),
        ('{"error": "yes", "category": "none"}', "'error' is 'yes' but 'category' is 'none'"),
    ],
)
def test_a_reply_is_never_guessed(reply: str, problem: str) -> None:
    reading = judge.parse_reply(reply, (Q.ERROR, Q.CATEGORY))
    assert reading.label is None
    assert reading.problem is not None and reading.problem.startswith(problem), reading.problem


def test_the_questions_follow_the_unit() -> None:
    internal = read_critictool(DATASET).samples[0]
    external = read_critictool(EXTERNAL).samples[0]
    assert judge_prompt.questions_for(internal, judged=False) == (Q.ERROR, Q.CATEGORY)
    assert judge_prompt.questions_for(internal, judged=True) == INTERNAL_JUDGED
    assert judge_prompt.questions_for(external, judged=False) == (
        Q.ERROR,
        Q.CATEGORY,
        Q.EXPECTED_POLICY,
    )
    assert judge_prompt.questions_for(external, judged=True)[-1] is Q.OBSERVED_POLICY
    schema = judge.response_format(judge_prompt.questions_for(external, judged=True))
    properties = schema["json_schema"]["schema"]["properties"]
    assert properties["observed_policy"]["enum"] == [p.value for p in Policy]
    assert properties["category"]["enum"][-1] == "none"


def test_the_prompt_shows_the_step_and_the_replies_but_no_gold() -> None:
    sample = read_critictool(DATASET).samples[0]
    secret = replace(sample, gold=(Step("GOLDTOOL", {"city": "GOLDVALUE"}, "GOLDTHOUGHT"),))
    task = replace(
        Task(item_id=1, uuid=sample.sample_id, question="", tools=(), answers=(), gold=None),
        critic=secret,
        critictool_rounds=("REPLY-ONE",),
    )
    prompt = judge_prompt.load_critictool_judge_prompt(judge_prompt.DEFAULT_CRITIC_JUDGE_PROMPT)
    text = judge_prompt.render_prompt(prompt, task)
    assert "GOLD" not in text
    assert sample.error_type is None or f"injected {sample.error_type}" not in text
    assert "REPLY-ONE" in text and ">>> STEP UNDER REVIEW" in text
    for tool in sample.tools:
        assert f"\n{tool.name}(" in text
    assert sample.turns[-1].content in text.split(">>> STEP UNDER REVIEW")[1]
    assert sample.system_prompt not in text  # folded to the tool list
    for question in INTERNAL_JUDGED:
        assert f'"{question.value}": "<' in text
    alone = judge_prompt.render_prompt(prompt, replace(task, critictool_rounds=()))
    assert "<AGENT_OUTPUT>" not in alone and "critique_right" not in alone


def test_a_prompt_file_needs_the_questions_and_the_answer_format(tmp_path: Path) -> None:
    path = tmp_path / "mine.txt"
    path.write_text("Judge this: {trajectory}", encoding="utf-8")
    with pytest.raises(RunStartError, match=r"no \{questions\} placeholder"):
        judge_prompt.load_critictool_judge_prompt(str(path))
    path.write_text("{trajectory}\n{questions}\n{answer_format}", encoding="utf-8")
    assert judge_prompt.load_critictool_judge_prompt(str(path)).name == "mine"
