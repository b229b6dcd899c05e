"""Prefix reuse across items: the next context starts from the previous one's KV cache.

Items sorted by prompt text sit next to the item they share the longest prefix with (in a
lexicographically sorted list, an item's longest common prefix with any earlier item is the one
with its predecessor), so keeping only the last context's cache is enough. In When2Call, the
request-for-info and tool-call variants of an item share the whole tool block: on the 300 judge
items about half of the context tokens are such repeats.
"""

from __future__ import annotations

from typing import Any

from w2c_tui.runs.local.encoding import EncodedItem
from w2c_tui.runs.local.forward_args import cache_out, last_logits_only, with_cache
from w2c_tui.runs.local.scoring import ChoiceScore, packed_pass

MIN_SHARED = 8
"""Shorter common prefixes are recomputed (not worth the bookkeeping)."""


def common_prefix(a: list[int], b: list[int]) -> int:
    """Length of the longest common prefix of two token lists."""
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def hidden_width(model: Any) -> int:
    """The model's hidden size (for the cost rule)."""
    return int(getattr(model.config.get_text_config(), "hidden_size", 0) or 4096)


def reusable(model: Any) -> bool:
    """Whether a cache can be cropped and extended (no sliding-window or recurrent layers)."""
    config = model.config.get_text_config()
    layers = getattr(config, "layer_types", None) or []
    return all(kind == "full_attention" for kind in layers)


def worth_it(shared: int, total: int, width: int) -> bool:
    """Whether starting from `shared` cached tokens beats computing all `total` from scratch.

    From scratch, sdpa skips the masked half of the causal square; from a cache it needs an
    explicit mask and computes the whole rectangle. Per layer, a token's projections cost about
    12·d² multiply-adds and a query-key pair 2·d, so in pair units: scratch ≈ total·6d +
    total²/2, prefix ≈ new·6d + new·total. A short shared system prompt does not pay."""
    new = total - shared
    linear = 6 * width
    return shared >= MIN_SHARED and new * (linear + total) < total * (linear + total / 2)


class PrefixCache:
    """The KV cache of the last context scored, handed over to the next one."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.tokens: list[int] = []
        self.cache: Any = None
        self.hits = 0
        self.reused_tokens = 0

    def take(self, tokens: list[int]) -> tuple[int, Any]:
        """(n, cache of tokens[:n]) for the longest common prefix if reusing it pays, else
        (0, None)."""
        cache, self.cache = self.cache, None
        n = common_prefix(self.tokens, tokens) if cache is not None else 0
        if not worth_it(n, len(tokens), self.width):
            return 0, None
        if n < cache.get_seq_length():
            cache.crop(n - cache.get_seq_length())  # a negative count: remove from the end
        self.hits += 1
        self.reused_tokens += n
        return n, cache

    def keep(self, tokens: list[int], cache: Any) -> None:
        """Remember `cache`, which holds exactly `tokens`."""
        self.tokens, self.cache = tokens, cache


def score_item(
    model: Any, item: EncodedItem, prefix: PrefixCache, pad_id: int
) -> tuple[list[ChoiceScore], int]:
    """One item's choices (packed mode), its context computed from the shared prefix onwards;
    also the number of context tokens taken from the previous item's cache."""
    import torch

    device = model.device
    context = item.ctx[:-1]
    n, cache = prefix.take(context)
    with torch.inference_mode():
        if n < len(context):
            cache = cache_out(
                model(
                    input_ids=torch.tensor([context[n:]], device=device),
                    position_ids=torch.arange(n, len(context), device=device).unsqueeze(0),
                    use_cache=True,
                    **with_cache(model, cache),
                    **last_logits_only(model),
                )
            )
        mask = torch.ones((1, len(context)), dtype=torch.long, device=device)
        scores = packed_pass(model, [item], cache, mask, pad_id)[0]
    extra = cache.get_seq_length() - len(context)
    if extra:
        cache.crop(-extra)  # drop the choices again
    prefix.keep(context, cache)
    return scores, n
