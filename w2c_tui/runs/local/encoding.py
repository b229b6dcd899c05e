"""Token ids of an MCQ item with lm-evaluation-harness's (≤ 0.4.9.1) `_encode_pair` semantics.

For every choice: the context is the prompt; the continuation is the choice (empty delimiter);
all trailing whitespace of the context moves to the front of the continuation; the
continuation's tokens are `tok(context + continuation)[len(tok(context)):]`; no special tokens,
except an optional BOS prepended to the context. The model then reads `ctx + cont` — the
context's own encoding, even where encoding the whole text merges tokens across the boundary —
so the context is one token sequence shared by the four choices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

BatchEncode = Callable[[list[str]], list[list[int]]]
"""Texts → token ids, without special tokens."""


@dataclass(frozen=True)
class EncodedItem:
    """The shared context ids and each choice's continuation ids."""

    ctx: list[int]
    conts: list[list[int]]
    boundary_merges: int = 0
    """Choices whose whole encoding does not start with the context's encoding."""

    def fits(self, max_length: int) -> bool:
        """No left truncation: every `ctx + cont` fits in `max_length + 1` tokens."""
        return all(len(self.ctx) + len(cont) <= max_length + 1 for cont in self.conts)


def split_whitespace(prompt: str, choice: str) -> tuple[str, str]:
    """Move the prompt's trailing whitespace to the front of the choice."""
    n = len(prompt) - len(prompt.rstrip())
    if n == 0:
        return prompt, choice
    return prompt[:-n], prompt[-n:] + choice


def encode_items(
    encode: BatchEncode,
    items: Sequence[tuple[str, Sequence[str]]],
    bos_id: int | None = None,
    prefix_id: int | None = None,
) -> list[EncodedItem]:
    """Encode (prompt, choices) pairs in one tokenizer call. `prefix_id` stands in for an empty
    context (lm-eval uses the BOS, else the EOS token)."""
    texts: list[str] = []
    for prompt, choices in items:
        context, _ = split_whitespace(prompt, "")
        texts.append(context)
        texts.extend(context + split_whitespace(prompt, choice)[1] for choice in choices)
    ids = encode(texts)
    out: list[EncodedItem] = []
    pos = 0
    for prompt, choices in items:
        ctx = ids[pos]
        wholes = ids[pos + 1 : pos + 1 + len(choices)]
        pos += 1 + len(choices)
        if not ctx:
            out.append(_empty_context(prompt, choices, encode, bos_id, prefix_id))
            continue
        conts = [whole[len(ctx) :] for whole in wholes]
        merges = sum(whole[: len(ctx)] != ctx for whole in wholes)
        head = [bos_id] if bos_id is not None else []
        out.append(EncodedItem(head + ctx, conts, merges))
    return out


def _empty_context(
    prompt: str,
    choices: Sequence[str],
    encode: BatchEncode,
    bos_id: int | None,
    prefix_id: int | None,
) -> EncodedItem:
    """lm-eval's rule for an empty context: a prefix token, then the encoded continuation.
    (lm-eval also lets a continuation that starts with the prefix token use that token as its
    context; a prompt that is empty or all whitespace is not worth that per-choice split.)"""
    start = bos_id if bos_id is not None else prefix_id
    if start is None:
        raise ValueError("the prompt is empty and the tokenizer has neither BOS nor EOS")
    conts = encode([split_whitespace(prompt, choice)[1] for choice in choices])
    return EncodedItem([start], conts)
