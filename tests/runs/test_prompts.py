"""MCQ templates: the official strings (golden hashes), user Jinja2 files, the chat template."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from tiny_models import CHAT_TEMPLATE, DEMO, load_tasks

from w2c_tui.domain.labels import Label
from w2c_tui.domain.runs import Task
from w2c_tui.runs.prompts import (
    BUILTIN_TEMPLATES,
    ChatTemplateError,
    TemplateError,
    check_template,
    render,
    template_hash,
)
from w2c_tui.runs.prompts.official import DEFAULT_SYSTEM_PROMPT, TOOL_USE_INSTRUCTIONS

TOOL = json.dumps(
    {
        "name": "get_weather",
        "description": "Weather <now> & later",
        "parameters": {"type": "dict", "properties": {"city": {"type": "string"}}},
    }
)
CALL = json.dumps({"name": "get_weather", "arguments": {"city": "Zürich"}})


def h16(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def task(question: str = "Weather in Paris?", tools: tuple[str, ...] = (TOOL,)) -> Task:
    answers = (
        ("direct", "It is sunny."),
        ("tool_call", CALL),
        ("request_for_info", "Which city?"),
        ("cannot_answer", "I cannot."),
    )
    return Task(1, "u-1", question, tools, answers, Label.TOOL_CALL)


def test_default_template_structure() -> None:
    prompt, choices = render("when2call-default", task(tools=()))
    assert prompt == (
        DEFAULT_SYSTEM_PROMPT + "\n" + TOOL_USE_INSTRUCTIONS + "\n\n\n\nWeather in Paris?"
    )
    assert "\n\n\n\n\nWeather" in prompt  # 0 tools: five newlines before the question
    assert choices == ["It is sunny.", CALL, "Which city?", "I cannot."]
    two, _ = render("when2call-default", task(tools=(TOOL, TOOL)))
    assert f"<tool>{TOOL}</tool>\n\n<tool>{TOOL}</tool>\n\nWeather" in two


def test_qwen_template_ends_with_the_assistant_header() -> None:
    prompt, _ = render("when2call-qwen2_5", task())
    assert prompt.endswith("Weather in Paris?<|im_end|>\n<|im_start|>assistant\n")
    assert f"<tools>\n{TOOL}\n</tools>" in prompt
    empty, _ = render("when2call-qwen2_5", task(tools=()))
    assert "<tools>\n\n</tools>" in empty


def test_demo_items_render_with_both_templates() -> None:
    for t in load_tasks(DEMO):
        for name in ("when2call-default", "when2call-qwen2_5"):
            prompt, choices = render(name, t)
            assert prompt.count(t.question) >= 1
            assert choices == [text for _, text in t.answers]


def test_user_template_renders_prompt_and_tool_call_macro(tmp_path: Path) -> None:
    path = tmp_path / "mine.jinja"
    path.write_text(
        "{%- macro tool_call(text, call) -%}<call>{{ call.name }}|{{ text }}</call>"
        "{%- endmacro %}\n"
        "Tools:\n"
        "{% for tool in tools_parsed %}\n"
        "- {{ tool.name }}: {{ tool | tojson }}\n"
        "{% endfor %}\n"
        "Q: {{ question }}\n"
        "A:\n\n",
        encoding="utf-8",
    )
    prompt, choices = render(str(path), task())
    parsed = json.loads(TOOL)
    assert prompt == (
        f"Tools:\n- get_weather: {json.dumps(parsed, ensure_ascii=False)}\n"
        "Q: Weather in Paris?\nA:\n"
    )
    assert "&lt;" not in prompt and "<now> & later" in prompt  # plain JSON, no HTML escaping
    assert choices == [
        "It is sunny.",
        f"<call>get_weather|{CALL}</call>",
        "Which city?",
        "I cannot.",
    ]


def test_user_template_choice_macro_renders_every_answer(tmp_path: Path) -> None:
    path = tmp_path / "choice.jinja"
    path.write_text(
        "{%- macro choice(name, text, call) -%}[{{ name }}] {{ text }}"
        "{%- endmacro %}\n{{ question }} {{ tools | length }}",
        encoding="utf-8",
    )
    prompt, choices = render(str(path), task())
    assert prompt == "Weather in Paris? 1"
    assert choices[0] == "[direct] It is sunny." and choices[3] == "[cannot_answer] I cannot."


def test_user_template_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(TemplateError, match="unknown template"):
        render(str(tmp_path / "missing.jinja"), task())
    bad = tmp_path / "bad.jinja"
    bad.write_text("{% for x in %}", encoding="utf-8")
    with pytest.raises(TemplateError, match=r"bad\.jinja"):
        check_template(str(bad))
    strict = tmp_path / "strict.jinja"
    strict.write_text("{{ tools_parsed[0].name }}", encoding="utf-8")
    with pytest.raises(TemplateError, match=r"strict\.jinja"):
        render(str(strict), task(tools=()))


def test_template_hash(tmp_path: Path) -> None:
    path = tmp_path / "t.jinja"
    path.write_text("{{ question }}", encoding="utf-8")
    first = template_hash(str(path))
    assert first == hashlib.sha256(b"{{ question }}").hexdigest()[:16]
    path.write_text("{{ question }}\n", encoding="utf-8")
    assert template_hash(str(path)) != first
    hashes = {template_hash(name) for name in ("when2call-default", "when2call-qwen2_5")}
    assert len(hashes) == 2 and all(len(x) == 16 for x in hashes)
    assert set(BUILTIN_TEMPLATES) >= {"when2call-default", "when2call-qwen2_5", "chat"}
    assert len(BUILTIN_TEMPLATES) == 8  # the seven official families and chat


class FakeChatTokenizer:
    """Renders like transformers' apply_chat_template for the tiny test template."""

    chat_template = CHAT_TEMPLATE

    def apply_chat_template(
        self,
        messages: list[dict[str, str]],
        tools: list[dict[str, object]] | None = None,
        add_generation_prompt: bool = False,
        tokenize: bool = True,
    ) -> str:
        import jinja2

        env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)
        env.filters["tojson"] = lambda v: json.dumps(v, ensure_ascii=False)
        return env.from_string(self.chat_template).render(
            messages=messages, tools=tools, add_generation_prompt=add_generation_prompt
        )


def test_chat_template_uses_question_and_parsed_tools() -> None:
    tok = FakeChatTokenizer()
    prompt, choices = render("chat", task(), tok)
    assert prompt.startswith('<|im_start|>system\n# Tools\n<tools>\n{"name": "get_weather"')
    assert prompt.endswith("<|im_start|>user\nWeather in Paris?<|im_end|>\n<|im_start|>assistant\n")
    assert choices[1] == CALL
    assert template_hash("chat", tok) != template_hash("chat", None)
    with pytest.raises(ChatTemplateError, match="tokenizer"):
        render("chat", task())
