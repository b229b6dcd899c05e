"""JSON of the typed result documents: one frozen dataclass per result, written as JSON with
its fields' names as keys, in their declared order.

Two field options (in the field's metadata) keep the documents' JSON what it has always been:
`OMIT_NONE`: the key is left out while the value is None (a key the document only sometimes
has); `FLATTEN`: the value's own keys are written in its place (left out while None), for a
document whose shape has two cases, such as "not defined, and why" and "the numbers".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Final

OMIT_NONE: Final[Mapping[str, bool]] = {"omit_none": True}
"""Field metadata: leave the key out while the value is None."""
FLATTEN: Final[Mapping[str, bool]] = {"flatten": True, "omit_none": True}
"""Field metadata: write the (dataclass) value's keys in the field's place; nothing while None."""


def to_json(value: object) -> object:
    """`value` as plain JSON data: dataclasses as objects (see the module), tuples as lists,
    enums as their values; mappings and lists element by element."""
    if is_dataclass(value) and not isinstance(value, type):
        out: dict[str, object] = {}
        for spec in fields(value):
            item = getattr(value, spec.name)
            if item is None and spec.metadata.get("omit_none"):
                continue
            if spec.metadata.get("flatten"):
                inner = to_json(item)
                if not isinstance(inner, dict):
                    raise TypeError(f"{spec.name}: only a document can be flattened")
                out.update(inner)
                continue
            out[spec.name] = to_json(item)
        return out
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {key: to_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(item) for item in value]
    return value


class JsonDoc:
    """A typed result document that writes itself as JSON (see the module)."""

    __slots__ = ()

    def to_json(self) -> dict[str, object]:
        """The document as plain JSON data, keys in the fields' order."""
        out = to_json(self)
        assert isinstance(out, dict)
        return out
