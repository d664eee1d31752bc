"""provebench's import graph, read from the source (nothing is imported).

An edge is every `import` or `from … import …` of a provebench module, at any depth of a module
(a function-level import is a dependency all the same), except inside `if TYPE_CHECKING:`, which
never runs. `from package import name` is an edge to `package.name` when that is a module (an
extension module counts by its `.pyi`), else to `package`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "src"


def modules(root: Path = SOURCE) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted([*root.rglob("*.py"), *root.rglob("*.pyi")]):
        name = ".".join(path.relative_to(root).with_suffix("").parts)
        found.setdefault(name.removesuffix(".__init__"), path)
    return found


def _imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from _imports(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        for field in ("body", "orelse", "finalbody", "handlers"):
            nested = getattr(node, field, None)
            if isinstance(nested, list):
                yield from _imports(nested)


def import_graph(root: Path = SOURCE) -> dict[str, set[str]]:
    known = modules(root)
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        if path.suffix != ".py":
            continue
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8")).body):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                    for alias in node.names
                ]
            graph[name].update(t for t in targets if t in known and t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
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


__all__ = ["cycles", "import_graph", "modules"]
