"""The tiny-model server's pieces: the loaded model, a prompt read and continued, and how
requests and replies are read and written (token pieces, ranked prompt log-probs)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Loaded:
    """A model in eval mode (float32, CPU), its tokenizer and the facts the server needs."""

    model: Any
    tokenizer: Any
    max_positions: int
    stop_ids: frozenset[int]
    """Chat stops: EOS and `<|im_end|>` where the vocabulary has it."""
    texts: tuple[str, ...]
    """Each token id's text decoded on its own (special tokens as "")."""

    def text(self, token_id: int) -> str:
        """The text of one token decoded on its own."""
        if 0 <= token_id < len(self.texts):
            return self.texts[token_id]
        return str(self.tokenizer.decode([token_id], skip_special_tokens=True))


@functools.cache
def load(folder: Path) -> Loaded:
    """The model saved in `folder` (loaded once per process)."""
    import torch
    import transformers

    auto: Any = transformers.AutoModelForCausalLM
    model = auto.from_pretrained(folder, dtype=torch.float32).eval()
    tok: Any = transformers.AutoTokenizer.from_pretrained(folder)
    if not tok.is_fast:
        raise ValueError(f"{folder}: the server needs a fast tokenizer (offset mappings)")
    config = model.config
    positions = next(
        (
            int(getattr(config, name))
            for name in ("n_positions", "max_position_embeddings")
            if getattr(config, name, None)
        ),
        2048,
    )
    stops = {tok.eos_token_id} if tok.eos_token_id is not None else set()
    im_end = tok.convert_tokens_to_ids("<|im_end|>")
    if isinstance(im_end, int) and im_end != tok.unk_token_id:
        stops.add(im_end)
    texts = tok.batch_decode([[i] for i in range(len(tok))], skip_special_tokens=True)
    return Loaded(model, tok, positions, frozenset(stops), tuple(str(t) for t in texts))


@dataclass(frozen=True)
class Scored:
    """One prompt read and continued: per-token ids, text pieces and log-probs."""

    prompt_ids: list[int]
    prompt_pieces: list[str]
    prompt_logprobs: list[float | None]
    prompt_top: list[dict[str, float] | None]
    new_ids: list[int]
    new_pieces: list[str]
    new_logprobs: list[float]
    new_top: list[dict[str, float]]
    stopped: bool
    """Generation ended at a stop token (which is in `new_ids`); False: cut at the limit."""
    prompt_ranked: list[dict[str, dict[str, Any]] | None] = field(default_factory=list)
    """vLLM's `prompt_logprobs`: per position the own token and the top k, by token id."""


class BadRequest(Exception):
    """A request the server refuses with a 400 (the message says why)."""


def _is_ids(prompt: Any) -> bool:
    """A token-id prompt: a list of ints, or a list of lists of ints."""
    if not isinstance(prompt, list) or not prompt:
        return False
    if all(isinstance(t, int) and not isinstance(t, bool) for t in prompt):
        return True
    return all(
        isinstance(p, list) and p and all(isinstance(t, int) and not isinstance(t, bool) for t in p)
        for p in prompt
    )


def _prompts(prompt: Any) -> list[str | list[int]]:
    """`prompt` as a list of prompts: strings, or token-id lists."""
    if isinstance(prompt, str):
        return [prompt]
    if _is_ids(prompt):
        return [list(prompt)] if isinstance(prompt[0], int) else [list(p) for p in prompt]
    if isinstance(prompt, list) and prompt and all(isinstance(p, str) for p in prompt):
        return list(prompt)
    raise BadRequest("prompt must be a string, a list of strings, or token ids")


def _ranked(
    rows: Any, ids: Sequence[int], top: int, loaded: Loaded
) -> list[dict[str, dict[str, Any]] | None]:
    """vLLM's prompt_logprobs: position i > 0 holds its own token (log-prob and rank: 1 + the
    number of tokens more likely) and the top `top` tokens, keyed by token id."""
    import torch

    own = torch.tensor(ids[1:], dtype=torch.long).unsqueeze(1)
    own_lp = rows.gather(1, own)
    ranks = (rows > own_lp).sum(dim=1) + 1
    values, indices = rows.topk(top, dim=-1)
    out: list[dict[str, dict[str, Any]] | None] = [None]
    for token, lp, rank, tv, ti in zip(
        ids[1:],
        own_lp.squeeze(1).tolist(),
        ranks.tolist(),
        values.tolist(),
        indices.tolist(),
        strict=True,
    ):
        entry = {
            str(i): {"logprob": v, "rank": r + 1, "decoded_token": loaded.text(i)}
            for r, (v, i) in enumerate(zip(tv, ti, strict=True))
        }
        entry[str(token)] = {"logprob": lp, "rank": int(rank), "decoded_token": loaded.text(token)}
        out.append(entry)
    return out


def _messages(messages: Any) -> list[dict[str, Any]]:
    """Chat messages as {"role", "content"} with text content (parts joined, None as "")."""
    if not isinstance(messages, list) or not messages:
        raise BadRequest("messages must be a non-empty list")
    plain: list[dict[str, Any]] = []
    for message in messages:
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            raise BadRequest("each message needs a role")
        content = message.get("content")
        if isinstance(content, list):
            content = "".join(
                str(part.get("text", "")) for part in content if isinstance(part, dict)
            )
        plain.append({"role": message["role"], "content": str(content or "")})
    return plain


def _pieces(text: str, ids: Sequence[int], offsets: Sequence[Sequence[int]], tok: Any) -> list[str]:
    """Each token's piece of `text`, from its start offset to the next token's: joined, the
    pieces of the tokens read from the text give the text back. A zero-width special token the
    tokenizer added itself (a BOS or EOS) shows its own text instead."""
    starts: list[int | None] = []
    at = 0
    for (start, end), token_id in zip(offsets, ids, strict=True):
        if start == end and token_id in tok.all_special_ids:
            starts.append(None)
            continue
        at = max(at, int(start))
        starts.append(at)
    read = [i for i, s in enumerate(starts) if s is not None]
    if read:
        starts[read[0]] = 0  # text before the first token (none with byte-level BPE) joins it
    ends = {i: starts[j] for i, j in itertools.pairwise(read)}
    if read:
        ends[read[-1]] = len(text)
    pieces: list[str] = []
    for i, token_id in enumerate(ids):
        begin = starts[i]
        if begin is None:
            pieces.append(str(tok.decode([token_id])))
        else:
            pieces.append(text[begin : ends[i]])
    return pieces


def _generated_pieces(tok: Any, ids: Sequence[int]) -> list[str]:
    """Text pieces of generated tokens, joined equal to their decoded text (a character made of
    several byte tokens shows on the token that completes it)."""
    pieces: list[str] = []
    shown = ""
    for n in range(1, len(ids) + 1):
        text = str(tok.decode(list(ids[:n]), skip_special_tokens=True))
        if text.startswith(shown) and not text.endswith("\ufffd"):
            pieces.append(text[len(shown) :])
            shown = text
        else:
            pieces.append("")
    if pieces:
        final = str(tok.decode(list(ids), skip_special_tokens=True))
        pieces[-1] += final[len(shown) :] if final.startswith(shown) else ""
    return pieces


def _completion_choice(
    index: int, prompt: str, scored: Scored, echoed: bool, with_logprobs: bool
) -> dict[str, Any]:
    generated = "".join(scored.new_pieces)
    logprobs: dict[str, Any] | None = None
    if with_logprobs:
        pieces = (scored.prompt_pieces if echoed else []) + scored.new_pieces
        values = (scored.prompt_logprobs if echoed else []) + scored.new_logprobs
        tops = (scored.prompt_top if echoed else []) + scored.new_top
        offsets, at = [], 0
        for piece in pieces:
            offsets.append(at)
            at += len(piece)
        logprobs = {
            "tokens": pieces,
            "token_logprobs": values,
            "text_offset": offsets,
            "top_logprobs": tops,
        }
    return {
        "index": index,
        "text": (prompt if echoed else "") + generated,
        "logprobs": logprobs,
        "finish_reason": "stop" if scored.stopped else "length",
    }
