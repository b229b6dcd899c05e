"""What the fake server's log-probs give for an item's four choices, by lm-eval's rule, computed
independently of the backend (the log-prob MCQ tests' oracle), and the questions they ask."""

from __future__ import annotations

from fake_tasks import make_task
from fake_wire import token_logprob, tokenize

from w2c_tui.runs.prompts import DEFAULT, render


def expected_lls(question: str) -> list[float]:
    """What the server's log-probs give, by lm-eval's rule, computed independently."""
    task = make_task(0, question)
    prompt, choices = render(DEFAULT, task)
    out = []
    for choice in choices:
        context = prompt.rstrip()
        text = prompt + choice
        position, total = 0, 0.0
        for index, token in enumerate(tokenize(text)):
            if position >= len(context):
                assert index > 0
                total += token_logprob(token)
            position += len(token)
        out.append(total)
    return out


QUESTIONS = ["What's the weather in Paris?", "Weather please  \n"]
