"""bench_mcq.py's reference: lm-evaluation-harness's `hf` backend on a When2Call task written
into a folder (the official YAML settings, prompts from `w2c_tui.runs.prompts`), its command,
the samples it logs, and how our results agree with them."""

from __future__ import annotations

import glob
import json
import sys
from pathlib import Path
from typing import Any

TASK_YAML = """\
task: w2c_bench
dataset_path: json
dataset_kwargs:
  data_files: {data}
test_split: train
output_type: multiple_choice
process_docs: !function utils.process_docs
doc_to_text: prompt
doc_to_target: target_index
doc_to_choice: choices
target_delimiter: ""
metric_list:
  - metric: acc
    aggregation: mean
    higher_is_better: true
  - metric: acc_norm
    aggregation: mean
    higher_is_better: true
"""

TASK_UTILS = """\
from w2c_tui.domain.runs import Task
from w2c_tui.runs.prompts import render


def process_docs(dataset):
    def add(doc):
        answers = doc["answers"]
        task = Task(0, doc["uuid"], doc["question"], tuple(doc["tools"]),
                    tuple(answers.items()), None)
        prompt, choices = render("when2call-default", task)
        return {"prompt": prompt, "choices": choices,
                "target_index": list(answers).index(doc["correct_answer"])}

    return dataset.map(add)
"""


def write_task(task_dir: Path, data: Path) -> Path:
    """The task's YAML and its `process_docs` in `task_dir` (made if need be), for `data`."""
    task_dir.mkdir(parents=True, exist_ok=True)
    (task_dir / "w2c_bench.yaml").write_text(
        TASK_YAML.format(data=data.resolve()), encoding="utf-8"
    )
    (task_dir / "utils.py").write_text(TASK_UTILS, encoding="utf-8")
    return task_dir


def lm_eval_command(
    model: Path, task_dir: Path, batch_size: int, limit: int | None, out_dir: Path
) -> list[str]:
    """`lm_eval` on the task, float32 on the CPU, no BOS, zero-shot, samples logged."""
    cmd = [
        str(Path(sys.executable).with_name("lm_eval")),
        "--model",
        "hf",
        "--model_args",
        f"pretrained={model},dtype=float32,add_bos_token=False",
        "--tasks",
        "w2c_bench",
        "--include_path",
        str(task_dir),
        "--batch_size",
        str(batch_size),
        "--device",
        "cpu",
        "--num_fewshot",
        "0",
        "--log_samples",
        "--output_path",
        str(out_dir),
    ]
    if limit is not None:
        cmd += ["--limit", str(limit)]
    return cmd


def lm_eval_samples(out_dir: Path) -> list[dict[str, Any]]:
    files = glob.glob(str(out_dir / "**" / "samples_w2c_bench_*.jsonl"), recursive=True)
    if not files:
        raise SystemExit(f"lm_eval wrote no samples file under {out_dir}")
    with open(files[0], encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def first_argmax(values: list[float]) -> int:
    return max(range(len(values)), key=lambda j: (values[j], -j))


def compare(ours_json: dict[str, Any], samples: list[dict[str, Any]]) -> dict[str, Any]:
    """Agreement of the per-choice log-likelihoods and of the predictions."""
    from w2c_tui.domain.runs import Task
    from w2c_tui.runs.prompts import render

    max_abs = max_rel = 0.0
    within = same_pred = same_norm = same_prompt = 0
    n_choices = 0
    acc = acc_norm = 0.0
    for sample in samples:
        doc = sample["doc"]
        mine = ours_json["results"][doc["uuid"]]
        theirs = [float(resp[0]) for resp in sample["filtered_resps"]]
        for a, b in zip(mine["loglikelihoods"], theirs, strict=True):
            diff = abs(a - b)
            max_abs = max(max_abs, diff)
            max_rel = max(max_rel, diff / max(abs(b), 1e-9))
            within += diff <= 1e-4 + 1e-6 * abs(b)
            n_choices += 1
        names = list(doc["answers"])
        lengths = [len(c) for c in doc["choices"]]
        same_pred += names[first_argmax(theirs)] == mine["pred_raw"]
        norm = [ll / n for ll, n in zip(theirs, lengths, strict=True)]
        same_norm += names[first_argmax(norm)] == mine["pred_norm"]
        task = Task(
            0,
            doc["uuid"],
            doc["question"],
            tuple(doc["tools"]),
            tuple(doc["answers"].items()),
            None,
        )
        same_prompt += (
            sample["arguments"]["gen_args_0"]["arg_0"] == render("when2call-default", task)[0]
        )
        acc += float(sample["acc"])
        acc_norm += float(sample["acc_norm"])
    n = len(samples)
    gold = {s["doc"]["uuid"]: s["doc"]["correct_answer"] for s in samples}
    ours_acc = sum(ours_json["results"][u]["pred_raw"] == g for u, g in gold.items()) / n
    ours_norm = sum(ours_json["results"][u]["pred_norm"] == g for u, g in gold.items()) / n
    return {
        "items": n,
        "choices": n_choices,
        "max_abs_diff": max_abs,
        "max_rel_diff": max_rel,
        "choices_within_tolerance": within,
        "identical_pred": same_pred,
        "identical_pred_norm": same_norm,
        "identical_prompts": same_prompt,
        "lm_eval_acc": acc / n,
        "lm_eval_acc_norm": acc_norm / n,
        "ours_acc": ours_acc,
        "ours_acc_norm": ours_norm,
    }
