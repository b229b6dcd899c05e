"""A realistic search corpus: the real When2Call test items, repeated, their words reshuffled.

The 300 items of When2Call's LLM-judge test file (Apache-2.0, read from where it lies, never
copied) are written over and over up to N items. The first pass keeps every question as it is;
each later copy gets a fresh uuid and its question's words (split on whitespace) shuffled
within that question, seeded, so the corpus has the real vocabulary, word lengths and
punctuation, and each word about as many hits as its share of the real file predicts, while
phrases of the real file mostly occur only in the first pass.
"""

from __future__ import annotations

import json
import os
import random
import uuid
from pathlib import Path
from typing import Any

SHARED_DATA = Path(
    os.environ.get("W2C_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)
WHEN2CALL_JUDGE = SHARED_DATA / "when2call" / "when2call_test_llm_judge.jsonl"
"""Where the When2Call LLM-judge test file lies here (`--source` names another copy)."""


def read_source(source: Path) -> list[dict[str, Any]]:
    """The items of a When2Call JSONL file."""
    with source.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def reshuffled(question: str, rng: random.Random) -> str:
    """The question's whitespace-separated words in a random order, joined by single spaces."""
    words = question.split()
    rng.shuffle(words)
    return " ".join(words)


def write_corpus(path: Path, n: int, source: Path, seed: int) -> list[dict[str, Any]]:
    """Write `n` items made from `source`'s as JSONL (see the module docstring); return the
    source items."""
    items = read_source(source)
    if not items:
        raise ValueError(f"{source} holds no items")
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for index in range(n):
            item = dict(items[index % len(items)])
            if index >= len(items):
                item["question"] = reshuffled(item["question"], rng)
                item["uuid"] = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            out.write(json.dumps(item) + "\n")
    return items
