"""provebench.report: a self-contained, deterministic HTML report of a verdict.

    html = render_report(json.loads(Path("run/verdict.json").read_text()))
    write_report("run/verdict.json")            # -> run/report.html, written atomically

Reads the pilot 03 verdict (`provebench pilot evaluate`) and the SI verdict (`provebench si
run` / `si score`); what it shows and its guarantees: docs/report.md.

Names are imported on first use (PEP 562), so that the CLI starts without loading Jinja2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.report._kind import PILOT_FORMAT, VerdictKind, detect_kind
    from provebench.report._render import (
        MAX_LIST_ITEMS,
        REPORT_NAME,
        render_report,
        write_report,
    )
    from provebench.report._text import visible_text

_EXPORTS: dict[str, str] = {
    "MAX_LIST_ITEMS": "provebench.report._render",
    "PILOT_FORMAT": "provebench.report._kind",
    "REPORT_NAME": "provebench.report._render",
    "VerdictKind": "provebench.report._kind",
    "detect_kind": "provebench.report._kind",
    "render_report": "provebench.report._render",
    "visible_text": "provebench.report._text",
    "write_report": "provebench.report._render",
}

__all__ = [
    "MAX_LIST_ITEMS",
    "PILOT_FORMAT",
    "REPORT_NAME",
    "VerdictKind",
    "detect_kind",
    "render_report",
    "visible_text",
    "write_report",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
