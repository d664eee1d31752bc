"""Every provebench name a benchmark imports, at any depth (most import inside the function that
measures), still exists: a benchmark is run by hand, rarely, so a module moved in the package
would otherwise break it unnoticed until the next measurement. Nothing is measured here."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from tests.helpers.import_graph import _imports

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _provebench_imports(path: Path) -> list[tuple[int, str, str | None]]:
    """(line, module, name or None) of every `import provebench…` and `from provebench… import`."""
    found: list[tuple[int, str, str | None]] = []
    for node in _imports(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(node, ast.Import):
            found += [
                (node.lineno, a.name, None) for a in node.names if a.name.startswith("provebench")
            ]
        elif node.level == 0 and (node.module or "").startswith("provebench"):
            found += [(node.lineno, str(node.module), a.name) for a in node.names]
    return found


@pytest.mark.parametrize("path", sorted(BENCH.glob("*.py")), ids=lambda p: p.name)
def test_what_a_benchmark_imports_from_provebench_exists(path: Path) -> None:
    missing = []
    for line, module, name in _provebench_imports(path):
        try:
            imported = importlib.import_module(module)
        except ImportError as error:
            missing.append(f"{path.name}:{line}: {module}: {error}")
            continue
        if name is not None and not hasattr(imported, name):
            try:
                importlib.import_module(f"{module}.{name}")
            except ImportError:
                missing.append(f"{path.name}:{line}: {module} has no {name}")
    assert missing == []
