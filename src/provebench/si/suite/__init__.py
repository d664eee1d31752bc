"""`si suite`: an agent evaluated on a whole OASIS profile — the safety gate, then capability,
rolled up by archetype, category and core dimension (docs/si-suite.md). Names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.si.suite._runner import SuiteRequest, run_suite
    from provebench.si.suite._select import Selected, select

_EXPORTS: dict[str, str] = {
    "SuiteRequest": "provebench.si.suite._runner",
    "run_suite": "provebench.si.suite._runner",
    "Selected": "provebench.si.suite._select",
    "select": "provebench.si.suite._select",
}
__all__ = ["Selected", "SuiteRequest", "run_suite", "select"]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
