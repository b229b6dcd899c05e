"""Write the w2c-tui demo dataset (items, judge outputs, lm-eval samples, manifest, README)."""

import json
from pathlib import Path
from typing import Any

from demo_items import DEMO_ITEMS, DemoItem
from demo_judge import judge_line
from demo_mcq import sample_lines
from demo_readme import readme_text
from demo_responses import MODEL_REPLIES, Reply
from demo_tools import TOOLS_BY_NAME

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[1] / "w2c_tui" / "demo"
"""The data ships inside the package (importlib.resources), so a wheel install has it."""
SOURCE = "w2c-tui demo"
ITEMS_FILE = "when2call_demo.jsonl"
JUDGE_NAME = "demo-judge"
SCORER_NAME = "demo-logprob"
SAMPLES_NAME = "samples_when2call_2026-11-01T12-00-00.000000.jsonl"
MODEL_SEEDS = {"acme-7b-instruct": 20261101, "tiny-tools-1b": 1101}


def tool_string(name: str) -> str:
    """A tool spec serialised the way the test files store it: a JSON string."""
    return json.dumps(TOOLS_BY_NAME[name])


def answers(item: DemoItem) -> dict[str, str]:
    """The four candidate answers in the fixed option order."""
    return {
        "direct": item.direct,
        "tool_call": json.dumps({"name": item.call, "arguments": item.args}),
        "request_for_info": item.request,
        "cannot_answer": item.refusal,
    }


def item_record(item: DemoItem) -> dict[str, Any]:
    """One test-file object, with the label-dependent key set of the published judge file."""
    record: dict[str, Any] = {"uuid": item.uuid, "source": SOURCE, "source_id": item.source_id}
    record["question"] = item.question
    if item.label == "request_for_info":
        record["orig_question"] = item.orig_question
    record["correct_answer"] = item.label
    record["answers"] = answers(item)
    record["target_tool"] = None if item.label == "cannot_answer" else tool_string(item.call)
    record["tools"] = [tool_string(name) for name in item.tools]
    if item.label == "cannot_answer":
        orig = list(item.tools)
        orig.insert(item.removed_at, item.call)
        record["orig_tools"] = [tool_string(name) for name in orig]
    if item.label == "request_for_info":
        record["held_out_param"] = item.held_out
    return record


def write_jsonl(path: Path, rows: list[dict[str, Any]], ensure_ascii: bool = True) -> None:
    """Write one json.dumps line per row, UTF-8, LF endings."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(row, ensure_ascii=ensure_ascii) + "\n" for row in rows)
    path.write_text(text, encoding="utf-8", newline="\n")


def replies_in_item_order(model: str, records: list[dict[str, Any]]) -> list[Reply]:
    """The model's replies, checked to cover every item exactly once, in file order."""
    by_source = {reply.source_id: reply for reply in MODEL_REPLIES[model]}
    if sorted(by_source) != sorted(record["source_id"] for record in records):
        raise ValueError(f"{model}: replies do not match the items one to one")
    return [by_source[record["source_id"]] for record in records]


def manifest(models: list[str]) -> dict[str, Any]:
    """The manifest that tells the importer what each file is."""
    files: list[dict[str, str]] = [{"path": ITEMS_FILE, "kind": "when2call_test"}]
    for model in models:
        files.append(
            {
                "path": f"judge/{model}.jsonl",
                "kind": "official_judge",
                "target_model": model,
                "judge": JUDGE_NAME,
            }
        )
    for model in models:
        files.append(
            {
                "path": f"lm_eval/{model}/{SAMPLES_NAME}",
                "kind": "lm_eval_samples",
                "target_model": model,
                "scorer": SCORER_NAME,
            }
        )
    return {
        "dataset": "demo",
        "description": "30 original When2Call-format items with replies of two fictional models, "
        "an LLM judge's readings and log-prob MCQ scores; written for w2c-tui.",
        "files": files,
    }


def build(out: Path) -> None:
    """Write every demo file under `out`."""
    records = [item_record(item) for item in DEMO_ITEMS]
    write_jsonl(out / ITEMS_FILE, records)
    replies = {model: replies_in_item_order(model, records) for model in MODEL_SEEDS}
    samples: dict[str, list[dict[str, Any]]] = {}
    for model, seed in MODEL_SEEDS.items():
        pairs = zip(records, replies[model], strict=True)
        write_jsonl(out / "judge" / f"{model}.jsonl", [judge_line(r, p) for r, p in pairs])
        samples[model] = sample_lines(records, [reply.mcq for reply in replies[model]], seed)
        # lm-eval writes its samples with ensure_ascii=False: raw UTF-8, unlike the test files.
        write_jsonl(out / "lm_eval" / model / SAMPLES_NAME, samples[model], ensure_ascii=False)
    manifest_text = json.dumps(manifest(list(MODEL_SEEDS)), indent=2) + "\n"
    (out / "manifest.json").write_text(manifest_text, encoding="utf-8", newline="\n")
    readme = readme_text(records, replies, samples)
    (out / "README.md").write_text(readme, encoding="utf-8", newline="\n")


if __name__ == "__main__":
    build(OUT)
