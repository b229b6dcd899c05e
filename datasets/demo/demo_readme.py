"""Render w2c_tui/demo/README.md from the generated data, so its numbers never drift."""

import json
from collections import Counter
from typing import Any

from demo_responses import INVALID_CLASSIFICATION, Reply

LABELS = ("tool_call", "request_for_info", "cannot_answer")
TOOL_BUCKETS = ("0", "1", "2", "3", "4", "5", "6")

INTRO = """# Demo dataset

A small When2Call-format dataset that ships with w2c-tui, so the workbench can be tried without
downloading anything. Every question, tool, answer and model reply in it is original content
written for w2c-tui (nothing is copied from When2Call or BFCL); it is distributed under the same
license as the project. The models (`acme-7b-instruct`, `tiny-tools-1b`) and the judge
(`demo-judge`) are fictional: their replies and verdicts were written by hand, and their
log-likelihoods drawn from a seeded generator.
"""

FILES = """## Files

- `manifest.json`: the files below, each with its kind and its target model, judge or scorer.
- `when2call_demo.jsonl`: {n} items in the When2Call test format, one `json.dumps` line each
  (ASCII escapes). `tools`, `target_tool` and `answers.tool_call` are JSON strings; the optional
  keys follow the published file: `orig_tools` only on cannot_answer items, `orig_question` and
  `held_out_param` only on request_for_info items. Items are stored in label blocks
  (cannot_answer, request_for_info, tool_call). {non_ascii} items contain non-ASCII text;
  {trailing} question ends with a space; {dotted} tool names contain dots.
- `judge/<model>.jsonl`: each model's replies with the judge's reading, in the output format of
  the official When2Call judge script (`judge_prompt`, `judge_response`, `model_response`,
  `question` = the item with `tools` and `target_tool` parsed). Native tool calls are stored the
  way the official inference script stores them: JSON text whose tool name has `.` replaced by
  `_`. The weaker model passes numbers as strings, as that script's all-string schemas invite,
  and writes tool calls as plain text when no tool is offered.
- `lm_eval/<model>/samples_when2call_*.jsonl`: per-item log-prob MCQ scores in the form
  lm-evaluation-harness `--log_samples` writes for the `when2call` task (default template): raw
  UTF-8, `resps`/`filtered_resps` as strings, `doc` holding every dataset column (absent optional
  keys as null) plus `prompt`, `choices` and `target_index`; `doc_hash` is the sha256 of
  `json.dumps(doc, indent=2, ensure_ascii=False)`; `macro_f1` is `[gold, raw-argmax prediction]`.
"""

BEHAVIOUR = """`acme-7b-instruct` is the decent model. `tiny-tools-1b` over-calls tools, writes
tool calls as text when no tool is offered, and sometimes answers directly. `demo-judge` reads
most replies as one would and misreads a few (a hedged answer taken for a refusal, a refusal that
offers an alternative taken for a request for information, ...). On one line per file it answers
`{{"classification": "{invalid}"}}`,
an off-list label: the importer must keep it as an invalid verdict with its raw text, never coerce
it into a category.
"""

REGENERATE = """## Regenerating

The files are generated deterministically (byte for byte) by

    python datasets/demo/build_demo.py

which needs only the standard library. The content lives in `demo_tools.py`, `demo_items.py` and
`demo_responses.py`; edit it there and rerun the script, which rewrites this README as well.
"""


def tool_table(records: list[dict[str, Any]]) -> list[str]:
    """Markdown table: items per label and number of offered tools."""
    counts = Counter((r["correct_answer"], str(len(r["tools"]))) for r in records)
    header = "| label \\ tools | " + " | ".join(TOOL_BUCKETS) + " | total |"
    lines = ["## Items", "", header, "|---" * (len(TOOL_BUCKETS) + 2) + "|"]
    for label in LABELS:
        cells = [str(counts[(label, bucket)]) for bucket in TOOL_BUCKETS]
        total = sum(counts[(label, bucket)] for bucket in TOOL_BUCKETS)
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {total} |")
    return [*lines, ""]


def files_section(records: list[dict[str, Any]]) -> str:
    """What each file is, with the data-format quirks an importer meets."""
    names = {name for r in records for name in tool_names(r)}
    return FILES.format(
        n=len(records),
        non_ascii=sum(1 for r in records if not (r["question"] + str(r["answers"])).isascii()),
        trailing=sum(1 for r in records if r["question"] != r["question"].rstrip()),
        dotted=sum(1 for name in names if "." in name),
    )


def tool_names(record: dict[str, Any]) -> list[str]:
    """Names of the tools an item offers or once offered, read from the JSON strings."""
    tools = record.get("orig_tools") or record["tools"]
    return [json.loads(tool)["name"] for tool in tools]


def judge_row(model: str, records: list[dict[str, Any]], replies: list[Reply]) -> str:
    """One table row: replies right, judge = gold, misread lines, the invalid line."""
    correct = judged_gold = 0
    misread: list[str] = []
    invalid = ""
    for line, (record, reply) in enumerate(zip(records, replies, strict=True), start=1):
        gold = record["correct_answer"]
        correct += reply.said == gold
        if reply.judge == INVALID_CLASSIFICATION:
            invalid = f"{line} (`{record['source_id']}`)"
            continue
        judged_gold += (reply.judge or reply.said) == gold
        if reply.judge:
            misread.append(f"{line}")
    n = len(records)
    return f"| {model} | {correct}/{n} | {judged_gold}/{n} | {', '.join(misread)} | {invalid} |"


def mcq_row(model: str, samples: list[dict[str, Any]]) -> str:
    """One table row: acc, acc_norm, raw/normalised disagreements, tool picks on 0-tool items."""
    differ = hallucinated = zero_tool = 0
    for s in samples:
        lls = [float(pair[0]) for pair in s["filtered_resps"]]
        normed = [ll / len(c) for ll, c in zip(lls, s["doc"]["choices"], strict=True)]
        differ += lls.index(max(lls)) != normed.index(max(normed))
        zero_tool += not s["doc"]["tools"]
        hallucinated += not s["doc"]["tools"] and s["macro_f1"][1] == 1
    n = len(samples)
    acc = sum(int(s["acc"]) for s in samples)
    acc_norm = sum(int(s["acc_norm"]) for s in samples)
    return f"| {model} | {acc}/{n} | {acc_norm}/{n} | {differ} | {hallucinated}/{zero_tool} |"


def models_section(
    records: list[dict[str, Any]],
    replies: dict[str, list[Reply]],
    samples: dict[str, list[dict[str, Any]]],
) -> list[str]:
    """Per-model summary of replies, judge readings and MCQ scores."""
    lines = [
        "## Models, judge and scores",
        "",
        "| model | replies right | judge = gold | judge misreads (lines) | invalid judge line |",
        "|---|---|---|---|---|",
        *(judge_row(model, records, model_replies) for model, model_replies in replies.items()),
        "",
        "| model | MCQ acc | MCQ acc_norm | raw ≠ normalised pick | tool picked, 0-tool items |",
        "|---|---|---|---|---|",
        *(mcq_row(model, model_samples) for model, model_samples in samples.items()),
        "",
        '"Replies right" uses the obvious reading of each reply; "judge = gold" the judge\'s.',
        "",
    ]
    return [*lines, BEHAVIOUR.format(invalid=INVALID_CLASSIFICATION)]


def readme_text(
    records: list[dict[str, Any]],
    replies: dict[str, list[Reply]],
    samples: dict[str, list[dict[str, Any]]],
) -> str:
    """The whole README."""
    parts = [INTRO, *tool_table(records), files_section(records)]
    parts += models_section(records, replies, samples)
    return "\n".join([*parts, REGENERATE]).rstrip("\n") + "\n"
