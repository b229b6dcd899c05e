"""Synthetic log-prob MCQ scores written as lm-evaluation-harness `--log_samples` lines."""

import hashlib
import json
import random
import struct
from typing import Any

ANSWER_KEYS = ("direct", "tool_call", "request_for_info", "cannot_answer")

# The When2Call default template (§2.4a of the reference), reproduced character for character.
DEFAULT_SYSTEM_PROMPT = (
    "You are a helpful AI assistant. \n"
    "You have access to the following tools described in <tool></tool> which you can use to answer "
    "the user's questions.\n"
    "Only use a tool if it directly answers the user's question.\n"
)
TOOL_USE_INSTRUCTIONS = (
    "To use a tool, return JSON in the following format:\n"
    '{"name": "tool_name", "arguments": {"argument1": "value1", "argument2": "value2", ...}}\n'
)

# Per-token negative log-likelihood ranges (nats) for the favoured option and for the others.
FAVOURED_RATE = (0.55, 0.95)
OTHER_RATE = (1.8, 3.0)


def default_prompt(question: str, tools: list[str]) -> str:
    """Render the default-template prompt exactly as `process_docs_default` does."""
    tool_block = "\n\n".join(f"<tool>{tool}</tool>" for tool in tools)
    return (
        DEFAULT_SYSTEM_PROMPT
        + "\n"
        + TOOL_USE_INSTRUCTIONS
        + "\n\n"
        + tool_block
        + "\n\n"
        + question
    )


def sha256_hex(text: str) -> str:
    """lm-eval's `hash_string`: sha256 of the UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def as_float32(value: float) -> float:
    """Round to float32, as log-likelihoods summed on a GPU in float32 come out."""
    result: float = struct.unpack("f", struct.pack("f", value))[0]
    return result


def estimated_tokens(choice: str) -> int:
    """About four characters per token."""
    return max(1, round(len(choice) / 4))


def loglikelihoods(rng: random.Random, choices: list[str], favoured: int) -> list[float]:
    """Draw one total log-likelihood per choice; the favoured one gets a clearly better rate."""
    lls = []
    for index, choice in enumerate(choices):
        low, high = FAVOURED_RATE if index == favoured else OTHER_RATE
        lls.append(as_float32(-rng.uniform(low, high) * estimated_tokens(choice)))
    return lls


def argmax(values: list[float]) -> int:
    """Index of the largest value; the first one wins ties, like numpy.argmax."""
    return max(range(len(values)), key=lambda index: (values[index], -index))


def build_doc(record: dict[str, Any], columns: list[str]) -> dict[str, Any]:
    """The processed doc lm-eval logs: all dataset columns (absent ones null) + MCQ fields."""
    doc = {column: record.get(column) for column in columns}
    doc["prompt"] = default_prompt(record["question"], record["tools"])
    doc["choices"] = [record["answers"][key] for key in ANSWER_KEYS]
    doc["target_index"] = ANSWER_KEYS.index(record["correct_answer"])
    return doc


def sample_line(doc_id: int, doc: dict[str, Any], lls: list[float]) -> dict[str, Any]:
    """One `samples_*.jsonl` row as lm-eval's EvaluationTracker writes it (resps as strings)."""
    prompt, choices, gold = doc["prompt"], doc["choices"], doc["target_index"]
    pairs = [[str(ll), "False"] for ll in lls]
    pred = argmax(lls)
    pred_norm = argmax([ll / len(choice) for ll, choice in zip(lls, choices, strict=True)])
    target = str(gold)
    return {
        "doc_id": doc_id,
        "doc": doc,
        "target": target,
        "arguments": {
            f"gen_args_{index}": {"arg_0": prompt, "arg_1": choice}
            for index, choice in enumerate(choices)
        },
        "resps": [[pair] for pair in pairs],
        "filtered_resps": pairs,
        "filter": "none",
        "metrics": ["acc", "acc_norm", "macro_f1"],
        "doc_hash": sha256_hex(json.dumps(doc, indent=2, ensure_ascii=False)),
        "prompt_hash": sha256_hex(prompt),
        "target_hash": sha256_hex(target),
        "acc": 1.0 if pred == gold else 0.0,
        "acc_norm": 1.0 if pred_norm == gold else 0.0,
        "macro_f1": [gold, pred],
    }


def dataset_columns(records: list[dict[str, Any]]) -> list[str]:
    """Column order a JSON dataset loader infers: keys in order of first appearance."""
    columns: list[str] = []
    for record in records:
        columns.extend(key for key in record if key not in columns)
    return columns


def sample_lines(
    records: list[dict[str, Any]], favoured: list[str], seed: int
) -> list[dict[str, Any]]:
    """All rows of one model's samples file, drawn from a generator seeded per model."""
    rng = random.Random(seed)
    columns = dataset_columns(records)
    rows = []
    for doc_id, (record, label) in enumerate(zip(records, favoured, strict=True)):
        doc = build_doc(record, columns)
        lls = loglikelihoods(rng, doc["choices"], ANSWER_KEYS.index(label))
        rows.append(sample_line(doc_id, doc, lls))
    return rows
