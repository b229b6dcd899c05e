"""The keywords a model's forward takes, so that one call suits every transformers version the
`local` extra allows (≥ 4.44): the KV cache's name, and whether only the last positions need
projecting onto the vocabulary."""

from __future__ import annotations

import inspect
from typing import Any

_FORWARD_PARAMETERS: dict[str, frozenset[str]] = {}


def forward_parameters(model: Any) -> frozenset[str]:
    """The names the model's forward takes (read once per model class: two calls per item)."""
    cls = type(model)
    key = f"{cls.__module__}.{cls.__qualname__}"
    names = _FORWARD_PARAMETERS.get(key)
    if names is None:
        names = _FORWARD_PARAMETERS[key] = frozenset(inspect.signature(model.forward).parameters)
    return names


def with_cache(model: Any, cache: Any) -> dict[str, Any]:
    """The keyword that hands `cache` to the model's forward: `cache` in transformers ≥ 5.24
    (where `past_key_values` is deprecated, to be removed in 5.40), `past_key_values` before."""
    if "cache" in forward_parameters(model):
        return {"cache": cache}
    return {"past_key_values": cache}


def cache_out(output: Any) -> Any:
    """The KV cache a forward pass returned (`cache` in transformers ≥ 5.24, else
    `past_key_values`)."""
    cache = getattr(output, "cache", None)
    return cache if cache is not None else output.past_key_values


def last_logits_only(model: Any) -> dict[str, Any]:
    """The keyword that projects only the last position onto the vocabulary, where the model's
    forward can (`logits_to_keep`); none where it cannot."""
    return {"logits_to_keep": 1} if "logits_to_keep" in forward_parameters(model) else {}
