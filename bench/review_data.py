"""Synthetic When2Call data for the benchmarks: test items and official-judge files."""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path
from typing import Any

from w2c_tui.domain.labels import LABELS, Label
from w2c_tui.domain.team import annotator_key, shuffle_key

DATASET = "bench"
ANNOTATOR = "bench"
MODELS = ("bench-model-a", "bench-model-b")
JUDGE = "bench-judge"
GOLDS = (Label.TOOL_CALL.value, Label.REQUEST_FOR_INFO.value, Label.CANNOT_ANSWER.value)
WORD_TEXT = (
    "please find the current weather forecast for my trip to Zürich next week and also "
    "book a table at an Italian restaurant near the station for four people at seven "
    "o'clock show me all open invoices of customer account with the highest balance "
    "convert one hundred euros into Japanese yen using today's exchange rate what is "
    "the status of order number list every flight from São Paulo to Kraków tomorrow "
    "morning send a reminder to the team about the quarterly review meeting and attach "
    "the latest report summarise recent news about electric cars in Europe"
)
WORDS = tuple(WORD_TEXT.split())
PARAM_TYPES = ("string", "integer", "boolean", "float", "array")
DOMAINS = ("weather", "travel", "billing", "orders", "calendar", "news", "finance", "crm")
VERBS = ("get", "list", "create", "update", "delete", "search", "convert", "send")
NOUNS = ("forecast", "booking", "invoice", "order", "event", "article", "rate", "contact")


# ---- synthetic data -----------------------------------------------------------------------


def make_tool_pool(rng: random.Random, size: int = 400) -> list[tuple[str, list[str], str]]:
    """(name, parameter names, JSON string) of `size` BFCL-style tool specs."""
    pool = []
    for index in range(size):
        name = f"{rng.choice(DOMAINS)}_api.{rng.choice(VERBS)}_{rng.choice(NOUNS)}_{index}"
        params = [f"{rng.choice(NOUNS)}_{k}" for k in range(rng.randint(1, 6))]
        spec = {
            "name": name,
            "description": " ".join(rng.choices(WORDS, k=rng.randint(6, 24))).capitalize() + ".",
            "parameters": {
                "type": "dict",
                "required": params[: rng.randint(0, len(params))],
                "properties": {
                    p: {
                        "type": rng.choice(PARAM_TYPES),
                        "description": " ".join(rng.choices(WORDS, k=rng.randint(4, 14))) + ".",
                    }
                    for p in params
                },
            },
        }
        pool.append((name, params, json.dumps(spec)))
    return pool


def sentence(rng: random.Random, low: int, high: int) -> str:
    """A capitalised run of `low`..`high` pool words."""
    return " ".join(rng.choices(WORDS, k=rng.randint(low, high))).capitalize()


def make_item(
    rng: random.Random, index: int, pool: list[tuple[str, list[str], str]]
) -> dict[str, Any]:
    """One When2Call test item (the LLM-judge file's shape, §1.1 of the reference)."""
    gold = GOLDS[index % 3] if rng.random() < 0.7 else rng.choice(GOLDS)
    n_tools = rng.randint(0, 6) if gold == Label.CANNOT_ANSWER.value else rng.randint(1, 6)
    tools = rng.sample(pool, n_tools)
    length = rng.choice((rng.randint(4, 15), rng.randint(16, 60), rng.randint(60, 300)))
    question = sentence(rng, length, length) + "?"
    call_name, call_params = (tools[0][0], tools[0][1]) if tools else ("lookup", ["query"])
    call = json.dumps({"name": call_name, "arguments": {p: "value" for p in call_params}})
    item: dict[str, Any] = {
        "uuid": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
        "source": rng.choice(("BFCL v2 Live Multiple", "BFCL v2 Live Simple")),
        "source_id": f"live_bench_{index}-{index % 97}-{index % 5}",
        "question": question,
        "correct_answer": gold,
        "answers": {
            "direct": sentence(rng, 8, 30) + ".",
            "tool_call": call,
            "request_for_info": sentence(rng, 6, 20) + "?",
            "cannot_answer": "I'm sorry, I cannot " + sentence(rng, 5, 15).lower() + ".",
        },
        "target_tool": tools[0][2] if tools and gold != Label.CANNOT_ANSWER.value else None,
        "tools": [t[2] for t in tools],
    }
    if gold == Label.REQUEST_FOR_INFO.value:
        item["orig_question"] = question + " " + sentence(rng, 2, 6)
        item["held_out_param"] = call_params[0]
    elif gold == Label.CANNOT_ANSWER.value:
        item["orig_tools"] = [t[2] for t in tools[:1]]
    return item


def write_items(
    path: Path, n: int, seed: int, keep: int = 0, deep: tuple[int, int] = (0, 0)
) -> list[dict[str, Any]]:
    """Write `n` synthetic items as JSONL; return those to give responses: the first `keep` of
    the benchmark annotator's blind (shuffled) order, which is the order the review screen
    shows in response labelling, and the blind rows `deep[0]` to `deep[0] + deep[1]`."""
    rng = random.Random(seed)
    pool = make_tool_pool(rng)
    salt = annotator_key(ANNOTATOR)
    ranks: list[tuple[int, int]] = []
    with path.open("w", encoding="utf-8") as out:
        for index in range(n):
            item = make_item(rng, index, pool)
            out.write(json.dumps(item) + "\n")
            ranks.append((shuffle_key(item["uuid"]) ^ salt, index))
    ranks.sort()
    start, width = deep
    chosen = {index for _, index in ranks[:keep]} | {
        index for _, index in ranks[start : start + width]
    }
    kept: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as lines:
        for index, line in enumerate(lines):
            if index in chosen:
                kept.append(json.loads(line))
    return kept


def write_judge_file(path: Path, items: list[dict[str, Any]], seed: int) -> None:
    """An official-judge output file (run_openai_judge.py): one response + verdict a line."""
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for item in items:
            behaviour = rng.choice([label.value for label in LABELS])
            judged = behaviour if rng.random() < 0.85 else rng.choice(GOLDS)
            line = {
                "judge_prompt": "Classify the reply of the AI model. " + item["question"][:200],
                "judge_response": {"classification": judged},
                "model_response": item["answers"][behaviour],
                "question": item,
            }
            out.write(json.dumps(line) + "\n")
