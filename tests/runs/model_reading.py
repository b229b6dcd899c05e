"""The tiny model reading a prompt and continuing it, for the test server (`model_server.py`).

A text prompt is encoded by the model's tokenizer (`add_special_tokens` from the body, default
true; the tests' tokenizer adds no BOS either way), read in one forward pass (float32, CPU,
inference mode) and continued greedily for `max_tokens` (0 allowed; at temperature > 0 sampled
with a seeded generator; stops at EOS). With `echo` and `logprobs` the prompt's tokens come back
first: `token_logprobs[i]` is log_softmax of position i-1's logits at token i (None for the
first token), `top_logprobs[i]` holds the top `max(1, logprobs)` alternatives and the token
itself (None for the first), and `tokens` are pieces of the prompt text cut at the tokens' start
offsets (`offset_mapping` of the fast tokenizer): joined they give the prompt back, and
`text_offset` are their character offsets. A token that starts inside a character (byte-level
BPE splits one character into several tokens) starts at that character, so it shows as "" or
holds the whole character; a token the tokenizer adds itself (a BOS) shows its own text, as
vLLM shows it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from model_pieces import BadRequest, Loaded, Scored, _generated_pieces, _pieces, _ranked

from w2c_tui.runs.local.forward_args import cache_out, with_cache

MODEL_LOCK = threading.Lock()
"""Serialises every model call in the process (the loaded models are shared between servers)."""


def read_and_continue(
    loaded: Loaded,
    text: str,
    add_special: bool,
    max_tokens: int,
    temperature: float,
    next_seed: Callable[[], int],
    top_n: int,
    *,
    stop_ids: frozenset[int],
    need_prompt: bool,
    ids: list[int] | None = None,
    ranked_top: int = 0,
) -> Scored:
    """Encode `text` (or take `ids` as given), read it in one pass and continue it for up to
    `max_tokens` tokens (sampled at temperature > 0 with a generator seeded by `next_seed()`,
    called only then)."""
    import torch

    tok = loaded.tokenizer
    if ids is None:
        encoded = tok(text, add_special_tokens=add_special, return_offsets_mapping=True)
        ids = [int(i) for i in encoded["input_ids"]]
        offsets = encoded["offset_mapping"]
    else:
        offsets = None
    if not ids:
        raise BadRequest("The prompt is empty: it encodes to no tokens.")
    if len(ids) + max_tokens > loaded.max_positions:
        raise BadRequest(
            f"This model's maximum context length is {loaded.max_positions} tokens. However, "
            f"you requested {len(ids) + max_tokens} tokens ({len(ids)} in the prompt, "
            f"{max_tokens} for the completion)."
        )
    generator: torch.Generator | None = None
    if temperature > 0 and max_tokens > 0:
        generator = torch.Generator().manual_seed(next_seed())
    with MODEL_LOCK, torch.inference_mode():
        out = loaded.model(input_ids=torch.tensor([ids]), use_cache=max_tokens > 0)
        logits = out.logits[0] if need_prompt else out.logits[0, -1:]
        logp = torch.log_softmax(logits.float(), dim=-1)
        prompt_lp: list[float | None] = []
        prompt_top: list[dict[str, float] | None] = []
        pieces: list[str] = []
        ranked: list[dict[str, dict[str, Any]] | None] = []
        if need_prompt:
            pieces = (
                _pieces(text, ids, offsets, tok)
                if offsets is not None
                else [loaded.text(i) for i in ids]
            )
            if ranked_top:
                ranked = _ranked(logp[:-1], ids, ranked_top, loaded)
            rows = logp[:-1]
            own = torch.tensor(ids[1:], dtype=torch.long).unsqueeze(1)
            own_lp: list[float] = rows.gather(1, own).squeeze(1).tolist()
            prompt_lp = [None, *own_lp]
            values, indices = rows.topk(top_n, dim=-1)
            prompt_top = [None]
            prompt_top += [
                _top(loaded, v, i, token, piece, value)
                for v, i, token, piece, value in zip(
                    values.tolist(),
                    indices.tolist(),
                    ids[1:],
                    pieces[1:],
                    own_lp,
                    strict=True,
                )
            ]
        steps: list[tuple[list[float], list[int], float]] = []
        new_ids: list[int] = []
        row, past, stopped = logp[-1], cache_out(out), False
        for step in range(max_tokens):
            if generator is None:
                chosen = int(row.argmax())
            else:
                weights = torch.softmax(row / temperature, dim=-1)
                chosen = int(torch.multinomial(weights, 1, generator=generator))
            values, indices = row.topk(top_n)
            steps.append((values.tolist(), indices.tolist(), float(row[chosen])))
            new_ids.append(chosen)
            if chosen in stop_ids:
                stopped = True
                break
            if step + 1 == max_tokens:
                break
            out = loaded.model(
                input_ids=torch.tensor([[chosen]]),
                use_cache=True,
                **with_cache(loaded.model, past),
            )
            row = torch.log_softmax(out.logits[0, -1].float(), dim=-1)
            past = cache_out(out)
    new_pieces = _generated_pieces(tok, new_ids)
    return Scored(
        prompt_ids=ids,
        prompt_pieces=pieces,
        prompt_logprobs=prompt_lp,
        prompt_top=prompt_top,
        new_ids=new_ids,
        new_pieces=new_pieces,
        new_logprobs=[value for _, _, value in steps],
        new_top=[
            _top(loaded, values, indices, chosen, piece, value)
            for (values, indices, value), chosen, piece in zip(
                steps, new_ids, new_pieces, strict=True
            )
        ],
        stopped=stopped,
        prompt_ranked=ranked,
    )


def _top(
    loaded: Loaded, values: list[float], indices: list[int], own: int, piece: str, own_value: float
) -> dict[str, float]:
    """One position's most likely tokens (their text → log-prob), with the token itself."""
    top: dict[str, float] = {}
    for value, index in zip(values, indices, strict=True):
        key = piece if index == own else loaded.text(index)
        top[key] = max(value, top.get(key, float("-inf")))
    top[piece] = max(own_value, top.get(piece, float("-inf")))
    return top
