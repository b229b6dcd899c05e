"""Every service is reached from the `Services` root, and none hands a `dict[str, Any]` across
the layer: each result is a typed document (domain), read by attribute."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from collections.abc import Iterator, Mapping
from types import ModuleType
from typing import Any, get_args, get_origin, get_type_hints

import w2c_tui.services as services_package
from w2c_tui.services import Services


def _modules() -> Iterator[ModuleType]:
    for info in pkgutil.walk_packages(services_package.__path__, "w2c_tui.services."):
        yield importlib.import_module(info.name)


def _service_classes() -> set[type]:
    """Every class named *Service defined in w2c_tui.services."""
    return {
        cls
        for module in _modules()
        for name, cls in vars(module).items()
        if inspect.isclass(cls) and name.endswith("Service") and cls.__module__ == module.__name__
    }


def _namespace(module_name: str) -> dict[str, Any]:
    """The module's names over every w2c_tui module's (names imported under TYPE_CHECKING)."""
    names: dict[str, Any] = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("w2c_tui.") and module is not None:
            names.update({k: v for k, v in vars(module).items() if inspect.isclass(v)})
    names.update(vars(importlib.import_module(module_name)))
    return names


def _hints(member: object) -> dict[str, Any]:
    target = member.fget if isinstance(member, property) else member
    if target is None or not callable(target):
        return {}
    return get_type_hints(target, _namespace(target.__module__))


def _classes_in(annotation: object) -> Iterator[type]:
    if inspect.isclass(annotation):
        yield annotation
    for arg in get_args(annotation):
        yield from _classes_in(arg)


def _reachable() -> set[type]:
    """Classes reached from Services through its fields and its members' return types."""
    seen: set[type] = set()
    todo: list[type] = [Services]
    while todo:
        cls = todo.pop()
        if cls in seen or not cls.__module__.startswith("w2c_tui.services"):
            continue
        seen.add(cls)
        found = list(get_type_hints(cls, _namespace(cls.__module__)).values())
        for name, member in vars(cls).items():
            if not name.startswith("_"):
                found.append(_hints(member).get("return"))
        todo.extend(c for hint in found for c in _classes_in(hint))
    return seen


def _untyped(annotation: object) -> bool:
    """True for dict[str, Any] or Mapping[str, Any] anywhere in the annotation."""
    origin = get_origin(annotation)
    args = get_args(annotation)
    mapping = origin is not None and inspect.isclass(origin) and issubclass(origin, Mapping)
    if mapping and len(args) == 2 and args[1] is Any:
        return True
    return any(_untyped(arg) for arg in args)


def _offenders(classes: set[type]) -> list[str]:
    out = []
    for cls in classes:
        for name, member in vars(cls).items():
            if name.startswith("_") and name != "__init__":
                continue
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            for param, hint in _hints(member).items():
                if _untyped(hint):
                    out.append(f"{cls.__name__}.{name}: {param}: {hint}")
    return sorted(out)


def test_every_service_is_reached_from_the_root() -> None:
    services = _service_classes()
    assert len(services) >= 20  # the walk finds them: it cannot pass by finding none
    missing = sorted(cls.__name__ for cls in services - _reachable())
    assert missing == []


def test_no_service_method_takes_or_returns_an_untyped_dict() -> None:
    assert _offenders({*_service_classes(), Services}) == []


def test_the_check_sees_an_untyped_dict() -> None:
    class Leaky:
        def rows(self) -> list[dict[str, Any]]:
            return []

        def read(self, doc: Mapping[str, Any] | None) -> int:
            return 0

        def fine(self, doc: dict[str, int]) -> Mapping[str, object]:
            return doc

    assert _offenders({Leaky}) == [
        "Leaky.read: doc: collections.abc.Mapping[str, typing.Any] | None",
        "Leaky.rows: return: list[dict[str, typing.Any]]",
    ]
