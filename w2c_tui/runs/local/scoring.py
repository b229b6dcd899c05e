"""Log-likelihoods of MCQ continuations: the shared context runs once, its KV cache is reused.

Per batch of items: (1) the contexts minus their last token run once, right-padded, with
`use_cache=True` (the vocabulary projection at one position only); (2) every choice becomes the
segment `[last context token] + cont[:-1]`, whose logits predict exactly its continuation
tokens. Packed mode (sdpa/eager attention) puts an item's segments one after another in one row
with a block mask (each segment sees the context and itself); expanded mode repeats the cache
once per choice, one row per segment. Either way the vocabulary projection happens only at
continuation positions. Values equal lm-evaluation-harness's one-pass-per-choice scoring up to
float rounding; `score_full` is that one-pass scoring, used when an item needs left truncation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from w2c_tui.runs.local.encoding import EncodedItem
from w2c_tui.runs.local.forward_args import cache_out, last_logits_only, with_cache


@dataclass(frozen=True)
class ChoiceScore:
    """lm-eval's (loglikelihood, is_greedy) pair plus the number of scored tokens."""

    ll: float
    greedy: bool
    n_tokens: int


def _greedy(logp: Any, tok: Any) -> bool:
    """Whether `tok` is `logp.argmax(dim=-1)` on every row (lm-eval's is_greedy), without the
    argmax: on the CPU argmax is a slow scalar loop (~2 ms for 130 × 8192 here), `amax` is
    vectorised (~0.2 ms). A row is greedy when its target holds the row's maximum and no
    earlier position holds it too (argmax returns the first); the tie case goes to argmax."""
    top = logp.amax(dim=-1)
    if not bool((logp.gather(1, tok.unsqueeze(-1)).squeeze(-1) == top).all()):
        return False
    return bool((logp.argmax(dim=-1) == tok).all())


def _row_score(logits: Any, targets: list[int]) -> ChoiceScore:
    """Sum of log-softmax at the target ids (in the logits' dtype, as lm-eval does)."""
    return _segment_scores(logits, [targets])[0]


def _segment_scores(logits: Any, segments: Sequence[list[int]]) -> list[ChoiceScore]:
    """`_row_score` of consecutive segments of `logits`, one log-softmax and one gather for
    all of them (row-wise, so each value is what a pass per segment gives)."""
    import torch

    flat = [t for seg in segments for t in seg]
    if not flat:
        return [ChoiceScore(0.0, True, 0) for _ in segments]
    logp = torch.log_softmax(logits[: len(flat)], dim=-1)
    tok = torch.tensor(flat, device=logits.device)
    picked = logp.gather(1, tok.unsqueeze(-1)).squeeze(-1)
    scores, offset = [], 0
    for seg in segments:
        end = offset + len(seg)
        if not seg:
            scores.append(ChoiceScore(0.0, True, 0))
            continue
        ll = float(picked[offset:end].sum())
        scores.append(ChoiceScore(ll, _greedy(logp[offset:end], tok[offset:end]), len(seg)))
        offset = end
    return scores


def score_full(model: Any, ctx: list[int], cont: list[int], max_length: int) -> ChoiceScore:
    """One forward pass over `(ctx + cont)[-(max_length+1):][:-1]` (lm-eval's input)."""
    import torch

    if not cont:
        return ChoiceScore(0.0, True, 0)
    if len(cont) > max_length:
        raise ValueError(
            f"a choice has {len(cont)} tokens, more than the model's {max_length}-token window"
        )
    inp = (ctx + cont)[-(max_length + 1) :][:-1]
    ids = torch.tensor([inp], device=model.device)
    with torch.inference_mode():
        logits = model(input_ids=ids, use_cache=False).logits[0]
    return _row_score(logits[-len(cont) :], cont)


def _pad(rows: Sequence[list[int]], pad_id: int, device: Any) -> tuple[Any, Any]:
    import torch

    width = max(len(row) for row in rows)
    ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for i, row in enumerate(rows):
        ids[i, : len(row)] = torch.tensor(row, dtype=torch.long)
        mask[i, : len(row)] = 1
    return ids.to(device), mask.to(device)


def packable(model: Any, items: Sequence[EncodedItem]) -> bool:
    """Whether the choices can share one row per item (a custom 4D mask: sdpa or eager
    attention, and no sliding window that the items exceed)."""
    config = model.config.get_text_config()
    if getattr(config, "_attn_implementation", None) not in ("sdpa", "eager"):
        return False
    window = getattr(config, "sliding_window", None)
    sliding = "sliding_attention" in (getattr(config, "layer_types", None) or [])
    if window is not None and sliding:
        longest = max(len(i.ctx) + sum(len(c) for c in i.conts) for i in items)
        return bool(longest <= window)
    return True


def score_shared(
    model: Any, items: Sequence[EncodedItem], pad_id: int, packed: bool | None = None
) -> list[list[ChoiceScore]]:
    """Scores of every choice of `items` (each with ≥ 2 context tokens and no truncation).

    `packed` (default: when `packable`) puts an item's choices one after the other in one row
    with a block mask; otherwise each choice is its own row over a repeated cache."""
    import torch

    device = model.device
    prefixes = [item.ctx[:-1] for item in items]
    ids, mask = _pad(prefixes, pad_id, device)
    width = ids.shape[1]
    positions = torch.arange(width, device=device).unsqueeze(0).expand(len(items), -1)
    padded = any(len(p) != width for p in prefixes)
    with torch.inference_mode():
        cache = cache_out(
            model(
                input_ids=ids,
                attention_mask=mask if padded else None,
                position_ids=positions,
                use_cache=True,
                **last_logits_only(model),
            )
        )
        if packed is None:
            packed = packable(model, items)
        if packed:
            return packed_pass(model, items, cache, mask, pad_id)
        return _expanded_pass(model, items, cache, mask, pad_id)


def _segments(item: EncodedItem) -> list[list[int]]:
    """Each choice's input: the last context token, then the continuation but its last token."""
    return [[item.ctx[-1], *cont[:-1]] if cont else [item.ctx[-1]] for cont in item.conts]


def _distinct(items: Sequence[EncodedItem]) -> tuple[list[EncodedItem], list[list[int]]]:
    """Each item with a repeated continuation kept once, and where each choice's score is.

    Two choices with the same tokens must get the same log-likelihood, bit for bit (lm-eval
    scores each in a pass of its own, so its ties are exact and the first choice wins). In one
    packed row, or as rows of one batch, the same tokens sit at different places of the
    matrices, and the kernels' blocking rounds them differently there: measured on the CPU,
    four identical segments of the tiny GPT-2 in one row came out -28.900505, -28.900505,
    -28.900507, -28.900505, and which segment differs, and by how much, changes with the row's
    layout and the number of threads the kernels split the work over. Scoring each distinct
    continuation once makes the tie exact whatever the batch looks like."""
    distinct, where = [], []
    for item in items:
        seen: dict[tuple[int, ...], int] = {}
        index = [seen.setdefault(tuple(cont), len(seen)) for cont in item.conts]
        distinct.append(replace(item, conts=[list(cont) for cont in seen]))
        where.append(index)
    return distinct, where


def _spread(scores: list[list[ChoiceScore]], where: list[list[int]]) -> list[list[ChoiceScore]]:
    """The distinct continuations' scores back in choice order (see `_distinct`)."""
    return [[row[i] for i in index] for row, index in zip(scores, where, strict=True)]


def packed_pass(
    model: Any, items: Sequence[EncodedItem], cache: Any, ctx_mask: Any, pad_id: int
) -> list[list[ChoiceScore]]:
    """One row per item: segment j attends to the context and causally to itself only (each
    distinct continuation once)."""
    distinct, where = _distinct(items)
    return _spread(_packed_rows(model, distinct, cache, ctx_mask, pad_id), where)


def _packed_rows(
    model: Any, items: Sequence[EncodedItem], cache: Any, ctx_mask: Any, pad_id: int
) -> list[list[ChoiceScore]]:
    import torch

    device = model.device
    rows, seg_ids, pos = [], [], []
    for item in items:
        segments = _segments(item)
        rows.append([tok for seg in segments for tok in seg])
        seg_ids.append([j for j, seg in enumerate(segments) for _ in seg])
        start = len(item.ctx) - 1
        pos.append([start + t for seg in segments for t in range(len(seg))])
    ids, valid = _pad(rows, pad_id, device)
    seg, _ = _pad(seg_ids, -1, device)
    positions, _ = _pad(pos, 0, device)
    width = ids.shape[1]
    order = torch.arange(width, device=device)
    same = seg.unsqueeze(2) == seg.unsqueeze(1)  # [B, q, k]
    causal = order.unsqueeze(1) >= order.unsqueeze(0)
    own = same & causal & valid.bool().unsqueeze(1) & valid.bool().unsqueeze(2)
    ctx_part = ctx_mask.bool().unsqueeze(1).expand(-1, width, -1)
    allowed = torch.cat([ctx_part, own], dim=2).unsqueeze(1)  # [B, 1, q, ctx + q]
    dtype = model.dtype
    block = torch.zeros(allowed.shape, dtype=dtype, device=device)
    block.masked_fill_(~allowed, torch.finfo(dtype).min)
    logits = model(
        input_ids=ids,
        attention_mask=block,
        position_ids=positions,
        use_cache=True,
        **with_cache(model, cache),
    ).logits
    result: list[list[ChoiceScore]] = []
    for b, item in enumerate(items):
        if all(item.conts):  # segment j has len(cont_j) positions: they tile the row
            result.append(_segment_scores(logits[b], item.conts))
            continue
        offset, scores = 0, []
        for segment, cont in zip(_segments(item), item.conts, strict=True):
            scores.append(_row_score(logits[b, offset : offset + len(cont)], cont))
            offset += len(segment)
        result.append(scores)
    return result


def _expanded_pass(
    model: Any, items: Sequence[EncodedItem], cache: Any, ctx_mask: Any, pad_id: int
) -> list[list[ChoiceScore]]:
    """One row per choice over the context cache repeated once per choice (each distinct
    continuation once)."""
    distinct, where = _distinct(items)
    return _spread(_expanded_rows(model, distinct, cache, ctx_mask, pad_id), where)


def _expanded_rows(
    model: Any, items: Sequence[EncodedItem], cache: Any, ctx_mask: Any, pad_id: int
) -> list[list[ChoiceScore]]:
    import torch

    device = model.device
    rows: list[list[int]] = []
    targets: list[list[int]] = []
    owner: list[int] = []
    for i, item in enumerate(items):
        rows.extend(_segments(item))
        targets.extend(item.conts)
        owner.extend([i] * len(item.conts))
    index = torch.tensor(owner, device=device)
    cache.batch_select_indices(index)
    cont_ids, cont_mask = _pad(rows, pad_id, device)
    starts = torch.tensor([len(items[i].ctx) - 1 for i in owner], device=device)
    cont_pos = starts.unsqueeze(1) + torch.arange(cont_ids.shape[1], device=device)
    logits = model(
        input_ids=cont_ids,
        attention_mask=torch.cat([ctx_mask[index], cont_mask], dim=1),
        position_ids=cont_pos,
        use_cache=True,
        **with_cache(model, cache),
    ).logits
    scores = [_row_score(logits[r, : len(t)], t) for r, t in enumerate(targets)]
    result: list[list[ChoiceScore]] = [[] for _ in items]
    for i, score in zip(owner, scores, strict=True):
        result[i].append(score)
    return result
