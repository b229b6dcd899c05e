"""A tool specification as one readable line: name(required*: type, optional: type)."""

from __future__ import annotations

from typing import Any


def _type(spec: Any) -> str:
    if not isinstance(spec, dict):
        return "?"
    if isinstance(spec.get("enum"), list) and spec["enum"]:
        return "|".join(str(v) for v in spec["enum"][:6]) + ("|…" if len(spec["enum"]) > 6 else "")
    kind = spec.get("type", "any")
    if kind == "array" and isinstance(spec.get("items"), dict):
        return f"{_type(spec['items'])}[]"
    return str(kind)


def signature(spec: dict[str, Any]) -> str:
    """`name(req*: string, opt: integer)` from a JSON-schema (BFCL / OpenAI style) tool spec.

    Parameters are read from `parameters.properties` (or `parameters` itself when it is a plain
    mapping of names to specs); required ones are marked `*` and listed first.
    """
    name = str(spec.get("name", "?"))
    params = spec.get("parameters")
    if not isinstance(params, dict):
        return f"{name}()"
    props = params.get("properties")
    if not isinstance(props, dict):
        props = {k: v for k, v in params.items() if isinstance(v, dict)}
    required = params.get("required")
    needed = [r for r in required if r in props] if isinstance(required, list) else []
    parts = [f"{p}*: {_type(props[p])}" for p in needed]
    parts += [f"{p}: {_type(v)}" for p, v in props.items() if p not in needed]
    return f"{name}({', '.join(parts)})"
