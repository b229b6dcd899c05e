"""A tiny sentence-transformers model built offline and deterministically, for the CriticTool tests.

A 1-layer BERT (width 32) whose weights come from numpy's legacy RandomState (stable across
library versions), a WordPiece vocabulary made from the words and characters of the fixture
texts, mean pooling, a centring Dense layer (minus the mean embedding of the corpus, so that
unrelated strings can have negative cosines and the clip at 0 is exercised) and normalisation.
The CriticTool oracle (tests/io/fixtures/critictool/oracle.py) uses the same builder.
"""

from __future__ import annotations

import atexit
import functools
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

SEED = 11
WIDTH = 32
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
FIXTURES = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool"
PROBES = (("hello world", "hello world!"), ("get weather", "北京天气"), ("1", "1.0"))
"""Pairs whose similarities the oracle records, to tell a changed model from changed metrics."""


def corpus_texts(folder: Path = FIXTURES) -> list[str]:
    """Every JSON string of the source fixtures (dataset/ and replies.json), in a stable order.

    The predictions files and expected.json, which the oracle writes, are left out, so that
    running the oracle does not change the model it ran with."""
    import json

    texts: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for path in [*sorted((folder / "dataset").rglob("*.json")), folder / "replies.json"]:
        walk(json.loads(path.read_text(encoding="utf-8")))
    return texts


def vocabulary(texts: Iterable[str]) -> list[str]:
    """Specials, then every character and every lower-cased word of `texts`, sorted."""
    words: set[str] = set()
    for text in texts:
        lowered = text.lower()
        words.update(re.findall(r"\w+", lowered))
        words.update(char for char in lowered if not char.isspace())
    return SPECIALS + sorted(words - set(SPECIALS))


def build_tokenizer(texts: list[str]) -> Any:
    """A BERT-style WordPiece tokenizer over `vocabulary(texts)`."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    vocab = {token: index for index, token in enumerate(vocabulary(texts))}
    tok = Tokenizer(models.WordPiece(vocab=vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        model_max_length=256,
    )


def build_model(folder: Path, texts: list[str] | None = None) -> Path:
    """Save the tiny sentence-transformers model into `folder` and return it."""
    import numpy as np
    import torch
    from sentence_transformers import SentenceTransformer

    try:  # sentence-transformers >= 5.2; `models` before (deprecated since)
        from sentence_transformers.sentence_transformer import modules as st_models
    except ImportError:  # pragma: no cover - older library
        from sentence_transformers import models as st_models  # type: ignore[no-redef]
    from transformers import BertConfig, BertModel

    texts = corpus_texts() if texts is None else texts
    tokenizer = build_tokenizer(texts)
    config = BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=WIDTH,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=2 * WIDTH,
        max_position_embeddings=256,
        pad_token_id=tokenizer.pad_token_id,
    )
    model = BertModel(config)
    state = np.random.RandomState(SEED)
    with torch.no_grad():
        for name, tensor in sorted(model.state_dict(keep_vars=True).items()):
            if "LayerNorm" in name:
                continue
            values = state.normal(0.0, 0.5, size=tuple(tensor.shape)).astype("float32")
            tensor.copy_(torch.from_numpy(values))
    hf = folder / "bert"
    model.save_pretrained(hf)
    tokenizer.save_pretrained(hf)
    word = st_models.Transformer(str(hf), max_seq_length=256)
    pooling = st_models.Pooling(WIDTH, "mean")
    plain = SentenceTransformer(modules=[word, pooling], device="cpu")
    centre = plain.encode(sorted(set(texts)), convert_to_tensor=True).mean(dim=0)
    dense = st_models.Dense(WIDTH, WIDTH, bias=True, activation_function=torch.nn.Identity())
    with torch.no_grad():
        dense.linear.weight.copy_(torch.eye(WIDTH))
        dense.linear.bias.copy_(-centre)
    full = SentenceTransformer(modules=[word, pooling, dense, st_models.Normalize()], device="cpu")
    full.save(str(folder / "sentence"))
    shutil.rmtree(hf)
    return folder / "sentence"


@functools.cache
def tiny_similarity_dir() -> Path:
    """The tests' tiny sentence model, built once per process."""
    root = Path(tempfile.mkdtemp(prefix="w2c-tiny-sbert-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return build_model(root)


def one_thread_similarity() -> Iterator[Any]:
    """The tiny model as a `SentenceSimilarity` on the CPU, with one torch thread while it is
    in use (the model is too small to gain from more); for module-scoped fixtures."""
    import torch

    from w2c_tui.runs.critictool.similarity import SentenceSimilarity

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield SentenceSimilarity(tiny_similarity_dir(), device="cpu")
    torch.set_num_threads(threads)
