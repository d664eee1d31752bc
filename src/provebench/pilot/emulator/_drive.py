"""Drive v3 `files.list` and `files.get` over the laboratory's read-only Drive (pilot §3, §4).

A file is rendered as Drive's `File` resource: `size` and `videoMediaMetadata.durationMillis` are
int64 strings, `createdTime` is RFC 3339 with milliseconds, `parents` holds the folder id and the
optional metadata (direction, phone, manager code) is in `properties`. The listing is the lab's:
ascending file id, page tokens that name the last id served (so a file added mid-scan never
shifts a page), at most the cycle's server page size per page. A `q` filter is applied to each
page the lab serves, so a filtered page may hold fewer files than asked (Drive does that too).
The log records what the answer showed: when `q` or the `fields` mask leave out ids of the page
served, the `drive.list` entry names the ids the answer carried (`shown_ids`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from provebench.pilot.emulator._errors import bad_request
from provebench.pilot.emulator._fields import Mask, apply_mask, parse_fields
from provebench.pilot.emulator._page_tokens import PageTokens
from provebench.pilot.lab import FilePage, Gateway

MAX_PAGE_SIZE = 1000
DEFAULT_PAGE_SIZE = 100
FOLDER_MIME_TYPE = "application/vnd.google-apps.folder"
SPREADSHEET_MIME_TYPE = "application/vnd.google-apps.spreadsheet"
ROOT_FOLDER_ID = "root"
_PERMISSION_ID = "00000000000000000001"
_COMMON_PARAMS = frozenset({"alt", "fields", "prettyPrint", "quotaUser", "key", "$.xgafv"})
_LIST_PARAMS = _COMMON_PARAMS | {
    "q",
    "pageSize",
    "pageToken",
    "orderBy",
    "supportsAllDrives",
    "includeItemsFromAllDrives",
    "supportsTeamDrives",
    "includeTeamDriveItems",
    "corpora",
    "spaces",
    "includeLabels",
    "includePermissionsForView",
}
_GET_PARAMS = _COMMON_PARAMS | {
    "supportsAllDrives",
    "supportsTeamDrives",
    "includeLabels",
    "includePermissionsForView",
    "acknowledgeAbuse",
}
_ORDER_KEYS = frozenset(
    {
        "createdTime",
        "folder",
        "modifiedByMeTime",
        "modifiedTime",
        "name",
        "name_natural",
        "quotaBytesUsed",
        "recency",
        "sharedWithMeTime",
        "starred",
        "viewedByMeTime",
    }
)
_DEFAULT_FILE_MASK: Mask = {"kind": {}, "id": {}, "name": {}, "mimeType": {}}
_DEFAULT_LIST_MASK: Mask = {
    "kind": {},
    "nextPageToken": {},
    "incompleteSearch": {},
    "files": _DEFAULT_FILE_MASK,
}


def render_file(file: Any) -> dict[str, Any]:
    """A laboratory `DriveFile` as a Drive v3 `File` resource (every field; masks select)."""
    created = file.created_at_utc.removesuffix("Z") + ".000Z"
    resource: dict[str, Any] = {
        "kind": "drive#file",
        "id": file.file_id,
        "name": file.name,
        "mimeType": file.mime_type,
        "size": str(file.size_bytes),
        "createdTime": created,
        "modifiedTime": created,
        "parents": [file.folder_id],
        "trashed": False,
    }
    if file.duration_sec is not None:
        # Milliseconds, rounded: exact for the generator's tenths of a second.
        millis = round(file.duration_sec * 1000)
        resource["videoMediaMetadata"] = {"durationMillis": str(millis)}
    if file.metadata is not None:
        properties = {k: v for k, v in file.metadata.model_dump().items() if v is not None}
        if properties:
            resource["properties"] = properties
    return resource


# -- q ------------------------------------------------------------------------------------------
# Drive accepts a string literal in single or double quotes, `\` escaping the quote and itself
# (gspread writes `mimeType="…" and name = "…"`).
_TOKEN = re.compile(
    r"""\s*(?:(?P<string>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|(?P<op>!=|=)"""
    r"|(?P<word>[A-Za-z_][A-Za-z0-9_]*))"
)
Predicate = Callable[[dict[str, Any]], bool]


@dataclass(frozen=True)
class DriveQuery:
    """A parsed `q`: its terms as predicates over a rendered file, and the MIME types it
    requires by equality (which tells a search for the register spreadsheet from a listing of
    recordings)."""

    predicates: tuple[Predicate, ...]
    required_mime_types: frozenset[str]

    def matches(self, file: dict[str, Any]) -> bool:
        return all(predicate(file) for predicate in self.predicates)


def _unescape(literal: str) -> str:
    return re.sub(r"\\(.)", r"\1", literal[1:-1])


def parse_q(text: str) -> DriveQuery:
    """The conjunction of supported terms: `'<id>' in parents` (or `parents in '<id>'`, as
    gspread writes it), `trashed = true|false`, `mimeType =|!= '…'`, `name =|!= '…'`, joined by
    `and`; strings in single or double quotes."""
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if match is None:
            raise _unsupported(text)
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind)))
        pos = match.end()
    predicates: list[Predicate] = []
    mime_types: set[str] = set()
    index = 0
    while True:
        term, index = _term(tokens, index, text, mime_types)
        predicates.append(term)
        if index == len(tokens):
            return DriveQuery(tuple(predicates), frozenset(mime_types))
        if tokens[index] != ("word", "and"):
            raise _unsupported(text)
        index += 1


def _term(
    tokens: list[tuple[str, str]], index: int, text: str, mime_types: set[str]
) -> tuple[Predicate, int]:
    part = tokens[index : index + 3]
    if len(part) < 3:
        raise _unsupported(text)
    (k1, v1), (k2, v2), (k3, v3) = part
    if k1 == "string" and (k2, v2) == ("word", "in") and (k3, v3) == ("word", "parents"):
        folder = _unescape(v1)
        return (lambda f: folder in f["parents"]), index + 3
    if (k1, v1) == ("word", "parents") and (k2, v2) == ("word", "in") and k3 == "string":
        folder = _unescape(v3)
        return (lambda f: folder in f["parents"]), index + 3
    if k1 == "word" and v1 == "trashed" and v2 == "=" and k3 == "word" and v3 in ("true", "false"):
        wanted = v3 == "true"
        return (lambda f: f["trashed"] is wanted), index + 3
    if k1 == "word" and v1 in ("mimeType", "name") and k2 == "op" and k3 == "string":
        field, value, equal = v1, _unescape(v3), v2 == "="
        if field == "mimeType" and equal:
            mime_types.add(value)
        return (lambda f: (f[field] == value) is equal), index + 3
    raise _unsupported(text)


def _unsupported(text: str) -> Exception:
    return bad_request(
        f"Invalid Value: the laboratory supports only q terms 'ID' in parents, parents in 'ID', "
        f"trashed = true|false, mimeType =|!= '…', name =|!= '…' joined by and, strings in "
        f"single or double quotes; got: {text}",
        reason="invalid",
    )


# -- parameters ---------------------------------------------------------------------------------
def _single(query: Mapping[str, list[str]], name: str) -> str | None:
    values = query.get(name)
    if not values:
        return None
    if len(values) > 1:
        raise bad_request(f"Parameter {name} given more than once", reason="invalidParameter")
    return values[0]


def _ascii_digits(text: str) -> bool:
    # str.isdigit() accepts `²` (int() then raises: a 500) and `٥` (int() reads 5); Google reads
    # ASCII digits only. A 500 is retried by the clients, so bad input must be a 400.
    return text.isascii() and text.isdigit()


def _check_params(query: Mapping[str, list[str]], allowed: frozenset[str]) -> None:
    for name in query:
        if name not in allowed:
            raise bad_request(f"Invalid parameter: {name}", reason="invalidParameter")
    alt = _single(query, "alt")
    if alt not in (None, "json"):
        raise bad_request(f"Invalid value for alt: {alt}", reason="invalidParameter")
    for flag in ("supportsAllDrives", "includeItemsFromAllDrives", "prettyPrint"):
        value = _single(query, flag)
        if value is not None and value.lower() not in ("true", "false"):
            raise bad_request(f"Invalid boolean value for {flag}: {value}", reason="invalid")


def _mask(query: Mapping[str, list[str]], default: Mask) -> Mask:
    fields = _single(query, "fields")
    return default if fields is None else parse_fields(fields)


def files_list(
    gateway: Gateway,
    register: RegisterFile,
    query: Mapping[str, list[str]],
    tokens: PageTokens,
) -> dict[str, Any]:
    _check_params(query, frozenset(_LIST_PARAMS))
    size_text = _single(query, "pageSize")
    if size_text is None:
        page_size = DEFAULT_PAGE_SIZE
    elif not _ascii_digits(size_text) or not 1 <= int(size_text) <= MAX_PAGE_SIZE:
        raise bad_request(
            f"Invalid value '{size_text}'. Values must be within the range: [1, {MAX_PAGE_SIZE}]",
            reason="invalid",
        )
    else:
        page_size = int(size_text)
    order_by = _single(query, "orderBy")
    if order_by is not None:
        for key in order_by.split(","):
            name, _, direction = key.strip().partition(" ")
            if name not in _ORDER_KEYS or direction.strip() not in ("", "desc"):
                raise bad_request(f"Invalid orderBy key: {key.strip()}", reason="invalid")
    q_text = _single(query, "q")
    parsed = parse_q(q_text) if q_text else None
    mask = _mask(query, _DEFAULT_LIST_MASK)
    body: dict[str, Any] = {"kind": "drive#fileList", "incompleteSearch": False}
    if parsed is not None and SPREADSHEET_MIME_TYPE in parsed.required_mime_types:
        # A search for spreadsheets (gspread's `open(title)`): the register is the Drive's one
        # spreadsheet, kept outside the recordings' folders; the recordings are not listed, and
        # the laboratory's listing of them is not advanced (docs/pilot-emulator.md).
        body["files"] = [f for f in [render_register(register)] if parsed.matches(f)]
        return dict(apply_mask(body, mask))
    answer: dict[str, Any] = {}

    def answer_ids(page: FilePage) -> list[str]:
        # The answer is built inside the gateway's call, so that its log entry records the ids
        # the answer carries after `q` and the `fields` mask (red team 26, H6).
        files = [render_file(f) for f in page.files]
        if parsed is not None:
            files = [f for f in files if parsed.matches(f)]
        body["files"] = files
        if page.next_page_token is not None:
            # Opaque: the laboratory's token names the last id served (red team 28, F1).
            body["nextPageToken"] = tokens.opaque(page.next_page_token)
        answer.update(apply_mask(body, mask))
        return _carried_ids(answer)

    sent = tokens.lab_token(_single(query, "pageToken"))
    gateway.list_files_answered((page_size, sent), answer_ids)
    return answer


def _carried_ids(answer: dict[str, Any]) -> list[str]:
    """The file ids a `files.list` answer shows: a file whose id the mask dropped (or a
    `files` the mask dropped) shows the importer no id to act on."""
    files = answer.get("files")
    if not isinstance(files, list):
        return []
    return [f["id"] for f in files if isinstance(f, dict) and isinstance(f.get("id"), str)]


def files_get(
    gateway: Gateway, register: RegisterFile, file_id: str, query: Mapping[str, list[str]]
) -> dict[str, Any]:
    _check_params(query, frozenset(_GET_PARAMS))
    mask = _mask(query, _DEFAULT_FILE_MASK)
    if file_id == register.spreadsheet_id:
        return dict(apply_mask(render_register(register), mask))
    selected: dict[str, Any] = apply_mask(render_file(gateway.get_file(file_id)), mask)
    return selected


# No clock reaches a response: the register's Drive times are one fixed instant, before any
# corpus the generator draws.
REGISTER_CREATED_TIME = "2020-01-01T00:00:00.000Z"


@dataclass(frozen=True)
class RegisterFile:
    """The register spreadsheet as a Drive file: its id and title."""

    spreadsheet_id: str
    title: str


def render_register(register: RegisterFile) -> dict[str, Any]:
    """The register as a Drive v3 `File` resource, in the Drive's root (no recordings folder)."""
    return {
        "kind": "drive#file",
        "id": register.spreadsheet_id,
        "name": register.title,
        "mimeType": SPREADSHEET_MIME_TYPE,
        "createdTime": REGISTER_CREATED_TIME,
        "modifiedTime": REGISTER_CREATED_TIME,
        "parents": [ROOT_FOLDER_ID],
        "trashed": False,
    }


def about_get(account_email: str, query: Mapping[str, list[str]]) -> dict[str, Any]:
    """Drive v3 `about.get`: the service account as the user. Drive requires `fields` here."""
    _check_params(query, _COMMON_PARAMS)
    fields = _single(query, "fields")
    if fields is None:
        raise bad_request("The 'fields' parameter is required for this method.", reason="required")
    about = {
        "kind": "drive#about",
        "user": {
            "kind": "drive#user",
            "displayName": account_email.partition("@")[0],
            "emailAddress": account_email,
            "me": True,
            "permissionId": _PERMISSION_ID,
        },
        # A service account owns no storage; the recordings are shared with it (read-only).
        "storageQuota": {"limit": "0", "usage": "0", "usageInDrive": "0", "usageInDriveTrash": "0"},
        "canCreateDrives": False,
        "appInstalled": False,
    }
    return dict(apply_mask(about, parse_fields(fields)))


__all__ = [
    "MAX_PAGE_SIZE",
    "SPREADSHEET_MIME_TYPE",
    "DriveQuery",
    "RegisterFile",
    "about_get",
    "files_get",
    "files_list",
    "parse_q",
    "render_file",
    "render_register",
]
