"""Tiny random causal LMs and a byte-level BPE tokenizer built offline, for tests and benches."""

from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from w2c_tui.domain.labels import Label
from w2c_tui.domain.runs import Backend, Method, RunConfig, Task
from w2c_tui.runs.prompts.official import (
    DEFAULT_SYSTEM_PROMPT,
    QWEN2_5_END,
    QWEN2_5_HEAD,
    QWEN2_5_TAIL,
    TOOL_USE_INSTRUCTIONS,
)

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "w2c_tui" / "demo" / "when2call_demo.jsonl"
SPECIALS = ["<|endoftext|>", "<|bos|>", "<|im_start|>", "<|im_end|>"]

CHAT_TEMPLATE = (
    "{% if tools %}{{ '<|im_start|>system\\n# Tools\\n<tools>' }}"
    "{% for tool in tools %}{{ '\\n' + (tool | tojson) }}{% endfor %}"
    "{{ '\\n</tools><|im_end|>\\n' }}{% endif %}"
    "{% for m in messages %}"
    "{{ '<|im_start|>' + m.role + '\\n' + m.content + '<|im_end|>\\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)


def judge_path() -> Path | None:
    """The shared 300-item judge file, when present."""
    folder = Path(os.environ.get("W2C_SHARED_DATA", REPO.parent / "shared" / "data"))
    path = folder / "when2call" / "when2call_test_llm_judge.jsonl"
    return path if path.is_file() else None


def load_tasks(path: Path, limit: int | None = None) -> list[Task]:
    """When2Call JSONL items as run tasks, in file order."""
    tasks: list[Task] = []
    with path.open(encoding="utf-8") as handle:
        for i, line in enumerate(handle):
            if limit is not None and i >= limit:
                break
            obj = json.loads(line)
            gold = obj.get("correct_answer")
            tasks.append(
                Task(
                    item_id=i + 1,
                    uuid=obj["uuid"],
                    question=obj["question"],
                    tools=tuple(obj["tools"]),
                    answers=tuple(obj["answers"].items()),
                    gold=Label(gold) if gold else None,
                )
            )
    return tasks


def corpus(paths: list[Path]) -> list[str]:
    """Training text: the template strings and every question, tool and answer of `paths`."""
    texts = [DEFAULT_SYSTEM_PROMPT, TOOL_USE_INSTRUCTIONS, QWEN2_5_HEAD, QWEN2_5_TAIL, QWEN2_5_END]
    for path in paths:
        for task in load_tasks(path):
            texts.append(task.question)
            texts.extend(task.tools)
            texts.extend(text for _, text in task.answers)
    return texts


def train_tokenizer(texts: list[str], vocab_size: int = 4096) -> Any:
    """A byte-level BPE tokenizer trained on `texts`, as a PreTrainedTokenizerFast."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=SPECIALS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(texts, trainer=trainer)
    wrapped = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<|bos|>",
        eos_token="<|endoftext|>",
        pad_token="<|endoftext|>",
        additional_special_tokens=["<|im_start|>", "<|im_end|>"],
        model_max_length=8192,
    )
    wrapped.chat_template = CHAT_TEMPLATE
    return wrapped


def build_model(
    folder: Path,
    tokenizer: Any,
    arch: str = "gpt2",
    layers: int = 2,
    width: int = 64,
    seed: int = 0,
    init: float = 0.2,
    positions: int = 8192,
) -> Path:
    """Save a seeded random `arch` model ("gpt2" or "qwen2") and `tokenizer` into `folder`."""
    import torch
    from transformers import AutoModelForCausalLM, GPT2Config, Qwen2Config

    vocab = len(tokenizer)
    config: Any
    if arch == "gpt2":
        config = GPT2Config(
            vocab_size=vocab,
            n_positions=positions,
            n_embd=width,
            n_layer=layers,
            n_head=4,
            initializer_range=init,
            bos_token_id=tokenizer.bos_token_id,
            eos_token_id=tokenizer.eos_token_id,
        )
    elif arch == "qwen2":
        config = Qwen2Config(
            vocab_size=vocab,
            hidden_size=width,
            intermediate_size=2 * width,
            num_hidden_layers=layers,
            num_attention_heads=4,
            num_key_value_heads=2,
            max_position_embeddings=positions,
            initializer_range=init,
            tie_word_embeddings=False,
            bos_token_id=tokenizer.bos_token_id,
            eos_token_id=tokenizer.eos_token_id,
            pad_token_id=tokenizer.pad_token_id,
        )
    else:
        raise ValueError(f"unknown arch {arch!r}")
    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(config)
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@functools.cache
def _root() -> Path:
    root = Path(tempfile.mkdtemp(prefix="w2c-tiny-models-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return root


@functools.cache
def shared_tokenizer() -> Any:
    """The tests' tokenizer (vocabulary 4,096), trained once per process."""
    paths = [DEMO] + ([judge] if (judge := judge_path()) else [])
    return train_tokenizer(corpus(paths), 4096)


@functools.cache
def tiny_model_dir(arch: str, positions: int = 8192) -> Path:
    """A saved tiny `arch` model (2 layers, width 64), built once per process."""
    return build_model(
        _root() / f"{arch}-{positions}", shared_tokenizer(), arch, positions=positions
    )


@pytest.fixture(autouse=True, scope="module")
def one_torch_thread() -> Iterator[None]:
    """Tiny models gain nothing from threads, and on a busy 2-core machine torch's spinning
    threads made these tests 3x slower; restored after the module."""
    import torch

    before = torch.get_num_threads()
    env_before = os.environ.get("OMP_NUM_THREADS")
    os.environ["OMP_NUM_THREADS"] = "1"  # what the local backend's thread plan then follows
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
    if env_before is None:
        os.environ.pop("OMP_NUM_THREADS", None)
    else:
        os.environ["OMP_NUM_THREADS"] = env_before


def cpu_config(method: Method, model: Path | str, dataset: str, **settings: Any) -> RunConfig:
    """A run of a local model on the CPU in float32 (the settings the tests compare under)."""
    return RunConfig.of(
        method=method,
        backend=Backend.TRANSFORMERS,
        model=str(model),
        dataset=dataset,
        device="cpu",
        dtype="float32",
        **settings,
    )
