"""Modules split by responsibility stay split: no import inside a function body, and no import
circle, in the packages that used to be held together by late imports (db/merge/, db/tables/,
services/metrics.py with services/dashboard/) and in the modules split by responsibility since.
The import graph is read from the source (AST), with every import counted: at the top, inside
functions and under `if TYPE_CHECKING:` alike (a circle hidden behind a late or typing-only
import is still a circle). A package's `__init__` is not counted as imported by its submodules
(Python imports it first, and it may import them)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = "w2c_tui"

STRICT = (
    "w2c_tui.db.merge",
    "w2c_tui.db.tables",
    "w2c_tui.services.metrics",
    "w2c_tui.services.slicing",
    "w2c_tui.services.dashboard",
    # split by responsibility in issue 18 (review state by composition, the serve package…)
    "w2c_tui.tui.review_state",
    "w2c_tui.tui.review_lens",
    "w2c_tui.tui.review_cursor",
    "w2c_tui.tui.review_labelling",
    "w2c_tui.tui.review_place",
    "w2c_tui.tui.review_views",
    "w2c_tui.tui.screens.review_retry",
    # issue 21: the review screen's read-ahead
    "w2c_tui.tui.review_ahead",
    "w2c_tui.tui.screens.review_prefetch",
    "w2c_tui.tui.widgets.prerendered",
    "w2c_tui.tui.serve",
    "w2c_tui.tui.screens.agreement",
    "w2c_tui.tui.screens.agreement_view",
    "w2c_tui.present",
    "w2c_tui.cli.team_cmd",
    "w2c_tui.cli.guidelines_cmd",
    "w2c_tui.cli.adjudications_cmd",
    "w2c_tui.domain.runs",
    "w2c_tui.domain.run_config",
    "w2c_tui.io.importers.api_suite",
    "w2c_tui.io.importers.api_suite_folder",
    "w2c_tui.io.importers.api_suite_kinds",
    "w2c_tui.db.item_search",  # issue 21: one module per index, the shared part in base
)
"""Modules (and packages, with everything under them) held to both rules."""


def module_files(root: Path, package: str = PACKAGE) -> dict[str, Path]:
    """Every module of `package` under `root` by dotted name (a package by its own name)."""
    out = {}
    for path in sorted((root / package.replace(".", "/")).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def is_package(name: str, modules: dict[str, Path]) -> bool:
    return modules[name].name == "__init__.py"


def imported(name: str, tree: ast.Module, modules: dict[str, Path]) -> Iterator[str]:
    """The modules of the package that the module `name` imports, anywhere in its body."""
    here = name if is_package(name, modules) else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.rsplit(".", node.level - 1)[0] if node.level > 1 else here
                base = f"{anchor}.{base}" if base else anchor
            targets = [f"{base}.{alias.name}" for alias in node.names]
            targets = [t if t in modules else base for t in targets]
        else:
            continue
        for target in targets:
            while target and target not in modules:  # `import a.b.c` of a module a.b.c's name
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target


def import_graph(root: Path, package: str = PACKAGE) -> dict[str, set[str]]:
    """Module → the package's modules it imports."""
    modules = module_files(root, package)
    return {
        name: set(imported(name, ast.parse(path.read_text(encoding="utf-8")), modules))
        for name, path in modules.items()
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative): each is a
    set of modules that import each other, directly or round about."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def imports_in_functions(tree: ast.Module) -> Iterator[int]:
    """The line of every import statement inside a function or method body."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    yield inner.lineno


def strict(names: Iterable[str]) -> list[str]:
    return sorted(n for n in names if any(n == s or n.startswith(f"{s}.") for s in STRICT))


def test_the_strict_modules_exist() -> None:
    """Each strict name still names modules (a rename would make the rules below vacuous)."""
    modules = module_files(REPO)
    for name in STRICT:
        assert strict(modules) and any(m == name or m.startswith(f"{name}.") for m in modules), (
            f"{name} is gone: update STRICT"
        )
    assert is_package("w2c_tui.db.merge", modules) and is_package("w2c_tui.db.tables", modules)


def test_no_import_inside_a_function() -> None:
    modules = module_files(REPO)
    late = [
        f"{modules[name].relative_to(REPO)}:{line}"
        for name in strict(modules)
        for line in imports_in_functions(ast.parse(modules[name].read_text(encoding="utf-8")))
    ]
    assert not late, "imports inside functions (import at the module's top): " + ", ".join(late)


def test_no_import_circle() -> None:
    found = [c for c in circles(import_graph(REPO)) if strict(c)]
    assert not found, f"modules that import each other: {found}"


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {
                "__init__.py": "",
                "a.py": "from pkg.b import x\n",
                "b.py": "def f():\n    from pkg import c\n",
                "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n",
                "d.py": "from pkg.a import y\n",
            },
            [["pkg.a", "pkg.b", "pkg.c"]],
        ),
        (
            {
                "__init__.py": "from pkg.sub import base, top\n",
                "sub/__init__.py": "from pkg.sub.top import run\n",
                "sub/base.py": "X = 1\n",
                "sub/top.py": "from pkg.sub.base import X\nfrom . import base\n",
            },
            [],
        ),
        (
            {
                "__init__.py": "",
                "sub/__init__.py": "from pkg.sub.top import run\n",
                "sub/top.py": "from pkg.sub import run\n",
            },
            [["pkg.sub", "pkg.sub.top"]],
        ),
    ],
)
def test_the_checker_sees_circles(
    tmp_path: Path, files: dict[str, str], expected: list[list[str]]
) -> None:
    """The graph counts late and typing-only imports, and a submodule importing its package's
    `__init__` by name; a package importing its own submodules is not a circle."""
    for relative, text in files.items():
        path = tmp_path / "pkg" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert circles(import_graph(tmp_path, "pkg")) == expected


def test_the_checker_sees_late_imports() -> None:
    tree = ast.parse(
        "import os\n\ndef f():\n    import sys\n\nclass C:\n    def g(self):\n"
        "        from os import path\n"
    )
    assert sorted(imports_in_functions(tree)) == [4, 8]
