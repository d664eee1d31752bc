"""Render a verdict as one self-contained HTML page, and write it atomically.

The page is a pure function of the verdict: no timestamps, no random ids, inline CSS, no script
and no external URL. Every value goes through `show` (invisible characters spelled out) and then
Jinja2's autoescape, so text in a verdict can never become markup.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Final

import jinja2

from provebench._canonical import canonical_json, compact_json, sha256_bytes, write_atomic
from provebench._errors import ProvebenchError
from provebench._jsonfile import parse_json_bytes
from provebench._paths import check_output_file
from provebench.report._kind import detect_kind
from provebench.report._text import show, visible_text
from provebench.report._view import pilot_view, si_view

MAX_LIST_ITEMS: Final = 50
MAX_DEPTH: Final = 8
REPORT_NAME: Final = "report.html"


def _is_list(value: object) -> bool:
    return isinstance(value, list | tuple)


def _is_records(value: object) -> bool:
    """A non-empty list of objects: shown as a table with one column per key."""
    if not isinstance(value, list | tuple) or not value:
        return False
    return all(isinstance(item, Mapping) for item in value)


def _columns(records: list[Mapping[str, Any]]) -> list[str]:
    names: list[str] = []
    for record in records:
        names.extend(key for key in record if key not in names)
    return names


def _scalar_class(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    return "num" if isinstance(value, int | float) else "str"


def _compact(value: object) -> str:
    return visible_text(compact_json(value))


@cache
def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("provebench.report", "templates"),
        autoescape=True,
        finalize=show,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.tests["jlist"] = _is_list
    environment.tests["records"] = _is_records
    environment.filters["columns"] = _columns
    environment.filters["scalar_class"] = _scalar_class
    environment.filters["compact"] = _compact
    environment.globals["max_items"] = MAX_LIST_ITEMS
    environment.globals["max_depth"] = MAX_DEPTH
    return environment


def render_report(verdict: Mapping[str, Any], *, verdict_sha256: str | None = None) -> str:
    """The HTML report of a pilot or SI verdict (pure: same verdict, same text).

    `verdict_sha256` is the sha256 of the verdict file's bytes, which ties the report to the JSON
    a reader holds; without it the sha256 of the verdict's canonical JSON is shown, and said so.
    """
    kind = detect_kind(verdict)
    if verdict_sha256 is None:
        # A lone surrogate is valid in parsed JSON but not in UTF-8; keep it hashable.
        canonical = canonical_json(verdict).encode("utf-8", "surrogatepass")
        digest, digest_of = sha256_bytes(canonical), "canonical"
    else:
        digest, digest_of = verdict_sha256, "file"
    view = pilot_view(verdict) if kind == "pilot" else si_view(verdict)
    template = _environment().get_template(f"{kind}.html.j2")
    return template.render(
        verdict=verdict, view=view, kind=kind, digest=digest, digest_of=digest_of
    )


def _load(verdict_path: Path) -> tuple[Any, bytes]:
    try:
        data = verdict_path.read_bytes()
    except OSError as error:
        raise ProvebenchError(
            f"cannot read the verdict: {error.strerror}", path=verdict_path
        ) from None
    # The strict reader every JSON input goes through: deep nesting, duplicate keys, NaN and
    # non-UTF-8 bytes are each one line naming the file.
    return parse_json_bytes(data, source=str(verdict_path)), data


def write_report(verdict_path: str | Path, out_path: str | Path | None = None) -> Path:
    """Render `verdict_path` to `out_path` (default: `report.html` next to it) atomically."""
    source = Path(verdict_path)
    target = source.with_name(REPORT_NAME) if out_path is None else Path(out_path)
    verdict, data = _load(source)
    # Checked here, with the file's name, before anything is rendered or written; the report
    # may not replace the verdict it shows, a folder, a FIFO, a device or a link.
    detect_kind(verdict, source=source)
    check_output_file(target, inputs=[source], field=None if out_path is None else "--out")
    html = render_report(verdict, verdict_sha256=sha256_bytes(data))
    write_atomic(target, html)
    return target


__all__ = ["MAX_DEPTH", "MAX_LIST_ITEMS", "REPORT_NAME", "render_report", "write_report"]
