"""Benchmark: log-prob MCQ on the 300 When2Call judge items, ours vs lm-evaluation-harness.

Builds, offline, a byte-level BPE tokenizer (vocabulary 8,192, trained on the demo and the 300
items) and a seeded random GPT-2-style model (4 layers, width 128, 8,192 positions: 2.89 M
parameters), then runs, each as its own process timed from launch to exit:

(a) ours: `TransformersExecutor` (method mcq_logprob, template when2call-default, no BOS);
(b) lm-evaluation-harness's `hf` backend (`lm_eval --model hf --batch_size 1 --log_samples`)
    on a When2Call task written into a temporary folder: the official YAML settings
    (`target_delimiter: ""`, multiple_choice, acc/acc_norm; macro_f1 is not an upstream metric)
    with prompts from `w2c_tui.runs.prompts` (`when2call-default`, checked against the golden
    hashes in the tests, and here against the contexts lm-eval logs).

It prints items/s of each, the ratio, the tokens each runs through the model and the positions
it projects onto the vocabulary, and the agreement of the per-choice log-likelihoods.

Run: `.venv/bin/python bench/bench_mcq.py [--data FILE] [--limit N] [--busy N] [--json]`
(`--busy 2`: two spinning processes run alongside both, a busy 2-core machine)
(needs `pip install lm-eval accelerate`; about 3–5 minutes on 2 cores, most of it lm-eval).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "runs"))
sys.path.insert(0, str(REPO / "bench"))

from busy import busy  # noqa: E402
from mcq_lm_eval import compare, lm_eval_command, lm_eval_samples, write_task  # noqa: E402


def build(folder: Path, data: Path) -> Path:
    """The tokenizer and the 2.9 M-parameter GPT-2-style model, saved to `folder`."""
    from tiny_models import DEMO, build_model, corpus, train_tokenizer

    tokenizer = train_tokenizer(corpus([DEMO, data]), 8192)
    return build_model(folder, tokenizer, "gpt2", layers=4, width=128, init=0.02)


def ours(model: str, data: str, limit: int | None, out: str) -> None:
    """Child process (a): score every item and write the results as JSON."""
    started = time.perf_counter()
    from tiny_models import load_tasks

    from w2c_tui.domain.runs import Backend, Method, RunConfig, TaskResult
    from w2c_tui.runs.local.executor import TransformersExecutor

    config = RunConfig(
        method=Method.MCQ_LOGPROB, backend=Backend.TRANSFORMERS, model=model, dataset="bench"
    )
    executor = TransformersExecutor(config)
    executor.check()
    tasks = load_tasks(Path(data), limit)
    loaded = time.perf_counter()
    results: list[TaskResult] = []
    executor.run(tasks, results.append, lambda: False)
    scored = time.perf_counter()
    payload = {
        "describe": executor.describe(),
        "setup_s": loaded - started,
        "scoring_s": scored - loaded,
        "results": {r.task.uuid: {"error": r.error, "meta": r.meta, **r.scores} for r in results},
    }
    Path(out).write_text(json.dumps(payload), encoding="utf-8")


def timed(cmd: list[str], env: dict[str, str], log: Path) -> dict[str, float]:
    """Run `cmd` to completion: its wall and CPU seconds, peak RSS, and the load around it."""
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    with log.open("w", encoding="utf-8") as handle:
        child = subprocess.Popen(cmd, env=env, stdout=handle, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        tail = log.read_text(encoding="utf-8", errors="replace")[-3000:]
        raise SystemExit(f"{cmd[0]} failed ({child.returncode}):\n{tail}")
    return {
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_rss_mb": usage.ru_maxrss / 1024,
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
    }


def token_counts(model: str, data: Path, limit: int | None, reused: int) -> dict[str, int]:
    """Tokens through the model and vocabulary projections, for both methods (`reused`: the
    context tokens our run took from the previous item's cache)."""
    from tiny_models import load_tasks
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from w2c_tui.runs.local.encoding import encode_items
    from w2c_tui.runs.prompts import render

    params = sum(p.numel() for p in AutoModelForCausalLM.from_pretrained(model).parameters())
    tok = AutoTokenizer.from_pretrained(model)
    tasks = load_tasks(data, limit)
    items = encode_items(
        lambda t: tok(t, add_special_tokens=False)["input_ids"],
        [render("when2call-default", t) for t in tasks],
    )
    harness = sum(len(i.ctx) + len(c) - 1 for i in items for c in i.conts)
    contexts = sum(len(i.ctx) - 1 for i in items)
    conts = sum(max(len(c), 1) for i in items for c in i.conts)
    return {
        "params": params,
        "lm_eval_tokens": harness,
        "lm_eval_projections": harness,
        "ours_tokens": contexts - reused + conts,
        "ours_tokens_without_prefix_reuse": contexts + conts,
        "ours_projections": len(items) + conts,
        "boundary_merges": sum(i.boundary_merges for i in items),
    }


def main() -> None:
    from mcq_whole import whole_command
    from tiny_models import judge_path

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=judge_path())
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=1, help="alternating runs of each")
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="OMP_NUM_THREADS for both (default: torch's own choice)",
    )
    parser.add_argument(
        "--busy", type=int, default=0, help="spinning processes during the runs (a busy machine)"
    )
    parser.add_argument(
        "--lm-batch-size",
        type=int,
        default=1,
        help="lm-eval's --batch_size (1, its fastest on a small CPU model; issue 21 quoted 8)",
    )
    parser.add_argument(
        "--whole",
        action="store_true",
        help="also time the whole `w2c run start --wait` (CLI, database, worker) in each run",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--workdir", type=Path, default=None, help="keep the files here")
    parser.add_argument(
        "--ours", nargs=4, metavar=("MODEL", "DATA", "LIMIT", "OUT"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.ours:
        model, data, limit, out = args.ours
        ours(model, data, int(limit) if limit != "none" else None, out)
        return
    if args.data is None or not args.data.is_file():
        raise SystemExit(
            "the 300-item judge file was not found: pass --data or set W2C_SHARED_DATA"
        )
    work = args.workdir or Path(tempfile.mkdtemp(prefix="w2c-bench-mcq-"))
    work.mkdir(parents=True, exist_ok=True)
    model = build(work / "model", args.data)
    env = dict(
        os.environ,
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        HF_DATASETS_CACHE=str(work / "hf-datasets"),
        PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    )
    if args.threads:
        env.update(OMP_NUM_THREADS=str(args.threads), MKL_NUM_THREADS=str(args.threads))
    limit = "none" if args.limit is None else str(args.limit)

    task_dir = write_task(work / "task", args.data)

    runs: list[dict[str, Any]] = []
    hogs = busy(args.busy)
    hogs.__enter__()
    for k in range(args.repeat):  # alternate, so that both see the same machine load
        ours_out = work / f"ours-{k}.json"
        ours_time = timed(
            [sys.executable, __file__, "--ours", str(model), str(args.data), limit, str(ours_out)],
            env,
            work / f"ours-{k}.log",
        )
        ours_json = json.loads(ours_out.read_text(encoding="utf-8"))
        out_dir = work / f"lm_eval_out-{k}"
        cmd = lm_eval_command(model, task_dir, args.lm_batch_size, args.limit, out_dir)
        harness_time = timed(cmd, env, work / f"lm_eval-{k}.log")
        samples = lm_eval_samples(out_dir)
        n = len(samples)
        whole = None
        if args.whole:
            whole = whole_command(model, args.data, args.limit, work, env, k, timed)
        runs.append(
            {
                "whole": whole,
                "ours": {
                    **ours_time,
                    "items_per_s": n / ours_time["wall_s"],
                    "setup_s": ours_json["setup_s"],
                    "scoring_s": ours_json["scoring_s"],
                    "scoring_items_per_s": n / ours_json["scoring_s"],
                },
                "lm_eval": {**harness_time, "items_per_s": n / harness_time["wall_s"]},
                "speedup_wall": harness_time["wall_s"] / ours_time["wall_s"],
                "speedup_cpu": harness_time["cpu_s"] / ours_time["cpu_s"],
                "agreement": compare(ours_json, samples),
            }
        )
    hogs.__exit__(None, None, None)
    reused = sum(r["meta"].get("prefix_reused", 0) for r in ours_json["results"].values())
    figures = {
        "items": n,
        "describe": ours_json["describe"],
        "runs": runs,
        "median_speedup_wall": statistics.median(r["speedup_wall"] for r in runs),
        "threads": args.threads,
        "lm_batch_size": args.lm_batch_size,
        "busy": args.busy,
        "tokens": token_counts(str(model), args.data, args.limit, reused),
        "workdir": str(work),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    report(figures)


def report(f: dict[str, Any]) -> None:
    t = f["tokens"]
    d = f["describe"]
    print(
        f"{f['items']} items, when2call-default, float32, no BOS, GPT-2-style model with "
        f"{t['params']:,} parameters, threads: {f['threads'] or 'default'} "
        f"({os.cpu_count()} CPUs; ours used {d.get('threads')}: {d.get('threads_because')}, "
        f"OpenMP waits {d.get('omp_wait_policy')}); {f['busy']} spinning processes alongside"
    )
    for k, run in enumerate(f["runs"]):
        o, h, a = run["ours"], run["lm_eval"], run["agreement"]
        print(f"run {k + 1}:")
        for name, x in (("ours (KV cache)", o), (f"lm-eval hf bs={f['lm_batch_size']}", h)):
            print(
                f"  {name:17} {x['wall_s']:7.1f} s wall  {x['items_per_s']:6.2f} items/s  "
                f"cpu {x['cpu_s']:7.1f} s  peak RSS {x['peak_rss_mb']:6.0f} MB  "
                f"load {x['load_before']:.1f}->{x['load_after']:.1f}"
            )
        print(
            f"  ours: setup {o['setup_s']:.1f} s, scoring {o['scoring_s']:.1f} s "
            f"({o['scoring_items_per_s']:.1f} items/s)"
        )
        print(f"  speed-up: {run['speedup_wall']:.1f}x wall, {run['speedup_cpu']:.1f}x CPU time")
        if run["whole"] is not None:
            w = run["whole"]
            print(
                f"  whole `w2c run start --wait`: {w['wall_s']:.1f} s wall, "
                f"cpu {w['cpu_s']:.1f} s, "
                f"load {w['load_before']:.1f}->{w['load_after']:.1f}: "
                f"{h['wall_s'] / w['wall_s']:.2f}x against lm-eval's wall"
            )
        print(
            f"  per-choice ll: max |diff| {a['max_abs_diff']:.3g} (max rel "
            f"{a['max_rel_diff']:.2g}); {a['choices_within_tolerance']}/{a['choices']} within "
            "1e-4 + 1e-6|ll|"
        )
        print(
            f"  identical pred {a['identical_pred']}/{a['items']}, pred_norm "
            f"{a['identical_pred_norm']}/{a['items']}, prompts {a['identical_prompts']}"
            f"/{a['items']}; acc {a['ours_acc']:.3f} vs {a['lm_eval_acc']:.3f}, acc_norm "
            f"{a['ours_acc_norm']:.3f} vs {a['lm_eval_acc_norm']:.3f}"
        )
    print(f"median speed-up (wall, whole process): {f['median_speedup_wall']:.1f}x")
    print(
        f"tokens through the model: ours {t['ours_tokens']:,} "
        f"({t['ours_tokens_without_prefix_reuse']:,} without prefix reuse), "
        f"lm-eval {t['lm_eval_tokens']:,}; vocabulary projections: ours "
        f"{t['ours_projections']:,}, lm-eval {t['lm_eval_projections']:,}"
    )


if __name__ == "__main__":
    main()
