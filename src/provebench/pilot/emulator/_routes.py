"""The emulator's route table: method + path pattern -> path template and operation.

Paths are matched on the raw (percent-encoded) request path; captured parameters are decoded
afterwards, so an A1 range like `'Working sheet'!A1:H` arrives intact whichever characters the
client encoded. The template (never the host or port) is what the log records.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

_ID = r"[^/:]+"
_WRITE = ("POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class Route:
    methods: tuple[str, ...]
    pattern: re.Pattern[str]
    template: str
    operation: str


def _route(methods: tuple[str, ...], pattern: str, template: str, operation: str) -> Route:
    return Route(methods, re.compile(pattern), template, operation)


ROUTES: tuple[Route, ...] = (
    _route(("POST",), r"/token", "/token", "oauth.token"),
    _route(("GET",), r"/provebench/v1/cycle", "/provebench/v1/cycle", "lab.cycle"),
    _route(("POST",), r"/provebench/v1/cycle:finish", "/provebench/v1/cycle:finish", "lab.finish"),
    _route(
        ("POST",), r"/provebench/v1/diagnostics", "/provebench/v1/diagnostics", "lab.diagnostics"
    ),
    _route(("GET",), r"/drive/v3/about", "/drive/v3/about", "drive.about.get"),
    _route(("GET",), r"/drive/v3/files", "/drive/v3/files", "drive.files.list"),
    _route(
        ("GET",),
        rf"/drive/v3/files/(?P<fileId>{_ID})",
        "/drive/v3/files/{fileId}",
        "drive.files.get",
    ),
    _route(_WRITE, r"/(?:upload/)?drive/v3/(?P<rest>.*)", "/drive/v3/{rest}", "drive.write"),
    _route(
        ("GET",),
        rf"/v4/spreadsheets/(?P<spreadsheetId>{_ID})/values:batchGet",
        "/v4/spreadsheets/{spreadsheetId}/values:batchGet",
        "sheets.values.batchGet",
    ),
    _route(
        ("GET",),
        rf"/v4/spreadsheets/(?P<spreadsheetId>{_ID})/values/(?P<range>[^/]+)",
        "/v4/spreadsheets/{spreadsheetId}/values/{range}",
        "sheets.values.get",
    ),
    _route(
        ("POST",),
        rf"/v4/spreadsheets/(?P<spreadsheetId>{_ID})/values/(?P<range>[^/]+?):append",
        "/v4/spreadsheets/{spreadsheetId}/values/{range}:append",
        "sheets.values.append",
    ),
    _route(
        ("POST",),
        rf"/v4/spreadsheets/(?P<spreadsheetId>{_ID})/values/(?P<range>[^/]+?):clear",
        "/v4/spreadsheets/{spreadsheetId}/values/{range}:clear",
        "sheets.values.clear",
    ),
    _route(
        ("PUT",),
        rf"/v4/spreadsheets/(?P<spreadsheetId>{_ID})/values/(?P<range>[^/]+)",
        "/v4/spreadsheets/{spreadsheetId}/values/{range}",
        "sheets.values.update",
    ),
    _route(
        ("POST",),
        rf"/v4/spreadsheets/(?P<spreadsheetId>{_ID})/values:(?P<verb>[A-Za-z]+)",
        "/v4/spreadsheets/{spreadsheetId}/values:{verb}",
        "sheets.values.write",
    ),
    _route(
        ("POST",),
        rf"/v4/spreadsheets/(?P<spreadsheetId>{_ID}):(?P<verb>[A-Za-z]+)",
        "/v4/spreadsheets/{spreadsheetId}:{verb}",
        "sheets.spreadsheets.write",
    ),
    _route(
        ("GET",),
        rf"/v4/spreadsheets/(?P<spreadsheetId>{_ID})",
        "/v4/spreadsheets/{spreadsheetId}",
        "sheets.spreadsheets.get",
    ),
    _route(_WRITE, r"/v4/(?P<rest>.*)", "/v4/{rest}", "sheets.write"),
)


# A refused write is logged under the laboratory's own name for what it would do (the names the
# in-process facades refuse, docs/pilot-lab.md), so an evaluator judges it the same whichever
# transport the importer used; the HTTP method and route are kept in the arguments.
_REFUSED_AS: dict[tuple[str, str], str] = {
    ("sheets.values.clear", "POST"): "sheets.delete_row",
    ("sheets.values.update", "PUT"): "sheets.update_row",
    ("sheets.values.write", "POST"): "sheets.update_row",
    ("sheets.spreadsheets.write", "POST"): "sheets.update_row",
    ("sheets.write", "POST"): "sheets.update_row",
    ("sheets.write", "PUT"): "sheets.update_row",
    ("sheets.write", "PATCH"): "sheets.update_row",
    ("sheets.write", "DELETE"): "sheets.delete_row",
    ("drive.write", "POST"): "drive.upload",
    ("drive.write", "PUT"): "drive.upload",
    ("drive.write", "PATCH"): "drive.rename_file",
    ("drive.write", "DELETE"): "drive.delete_file",
}


def refused_operation(
    route: Route, method: str, params: dict[str, str]
) -> tuple[str, dict[str, str]]:
    """The lab operation a refused write is logged as, and its identifying arguments."""
    operation = _REFUSED_AS.get((route.operation, method), "sheets.update_row")
    if route.operation == "sheets.values.write" and params.get("verb", "").startswith("batchClear"):
        operation = "sheets.delete_row"  # values:batchClear(ByDataFilter) clears, as values.clear
    arguments = {"http_method": method, "route": route.template, **params}
    if route.operation == "drive.write":
        # /drive/v3/files/{id}[/...]: the file the write targets, as the facades log it.
        parts = params.get("rest", "").split("/")
        if len(parts) >= 2 and parts[0] == "files" and parts[1]:
            arguments["file_id"] = parts[1]
    return operation, arguments


def match_route(method: str, raw_path: str) -> tuple[Route, dict[str, str]] | None:
    for route in ROUTES:
        if method in route.methods:
            match = route.pattern.fullmatch(raw_path)
            if match is not None:
                return route, {k: unquote(v) for k, v in match.groupdict().items()}
    return None


__all__ = ["ROUTES", "Route", "match_route", "refused_operation"]
