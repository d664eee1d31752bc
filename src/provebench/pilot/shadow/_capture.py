"""`provebench pilot capture`: one snapshot of real Drive metadata, read-only (pilot §2).

The Drive is read with Google's own client (`google-api-python-client`, the `google` extra)
under the scope `drive.metadata.readonly`: the token it obtains can list files and read their
metadata, and nothing else — no content is downloaded and nothing can be written, whatever this
code did. Each listed file becomes a `DriveFile` exactly as the laboratory's Drive face renders
one (docs/pilot-emulator.md), is pseudonymised (`_pseudonym.py`) in memory, and only the
pseudonymised snapshot is written. Run it from cron or any scheduler, as often as the operator
likes; each run appends one snapshot to the capture folder.

Fields read: `id`, `name`, `mimeType`, `size` (absent for Google-native files: 0),
`createdTime` (to the second, UTC), `parents` (the first), `videoMediaMetadata.durationMillis`
(Drive measures video only) or else `properties` `duration_sec` (absent both: the duration could
not be read), and `properties` `direction`, `phone`, `manager_code`. Folders are not files and
are left out; trashed files are not listed.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from provebench._errors import ProvebenchError
from provebench.pilot.corpus import CallMetadata, DriveFile
from provebench.pilot.shadow._pseudonym import Pseudonymiser, read_key
from provebench.pilot.shadow._snapshots import SnapshotEntry, append_snapshot, check_appendable

METADATA_READONLY_SCOPE = "https://www.googleapis.com/auth/drive.metadata.readonly"
FOLDER_MIME_TYPE = "application/vnd.google-apps.folder"
LIST_FIELDS = (
    "nextPageToken,files(id,name,mimeType,size,createdTime,parents,"
    "videoMediaMetadata/durationMillis,properties)"
)
PAGE_SIZE = 1000
RETRIES = 5
_METADATA_KEYS = ("direction", "phone", "manager_code")
# Where a recording system that stores audio states a call's duration, in seconds (a decimal).
DURATION_PROPERTY = "duration_sec"


def utc_now_text() -> str:
    """The capture time when none is given: the clock, to the second. A capture time is
    recorded data (it dates a snapshot), never part of a score."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def drive_service(credentials: Path, endpoint: str | None) -> Any:
    """A Drive v3 client holding only the metadata read-only scope."""
    try:
        from google.oauth2 import service_account
        from googleapiclient.discovery import build  # type: ignore[import-untyped]
    except ImportError:
        raise ProvebenchError(
            "capture needs Google's client: pip install 'provebench[google]'"
        ) from None
    try:
        creds = service_account.Credentials.from_service_account_file(  # type: ignore[no-untyped-call]
            str(credentials), scopes=[METADATA_READONLY_SCOPE]
        )
    except (OSError, ValueError, KeyError) as error:
        raise ProvebenchError(
            f"not a service-account key file ({type(error).__name__})",
            path=credentials,
            field="--credentials",
        ) from None
    options = {"api_endpoint": endpoint} if endpoint else None
    return build(
        "drive", "v3", credentials=creds, client_options=options, static_discovery=True,
        cache_discovery=False,
    )  # fmt: skip


def list_files(service: Any, folders: Iterable[str]) -> list[dict[str, Any]]:
    """Every non-folder, non-trashed file of `folders` and of their subfolders, however deep
    (recording systems file calls by day or by line; sharing a folder shares what is inside),
    or all the account sees when no folder is given, as Drive resources: each file once, each
    folder listed once."""
    found: dict[str, dict[str, Any]] = {}
    queue = deque(folders)
    if not queue:
        for resource in _listing(service, "trashed = false"):
            if resource.get("mimeType") != FOLDER_MIME_TYPE:
                found.setdefault(str(resource.get("id")), resource)
        return list(found.values())
    listed: set[str] = set()
    while queue:
        folder = queue.popleft()
        if folder in listed:
            continue
        listed.add(folder)
        for resource in _listing(service, f"'{_quoted(folder)}' in parents and trashed = false"):
            if resource.get("mimeType") == FOLDER_MIME_TYPE:
                queue.append(str(resource.get("id")))
            else:
                found.setdefault(str(resource.get("id")), resource)
    return list(found.values())


def _listing(service: Any, query: str) -> Iterator[dict[str, Any]]:
    """Every resource `files.list` gives for `query`, page after page."""
    token: str | None = None
    while True:
        request = service.files().list(
            q=query,
            pageSize=PAGE_SIZE,
            pageToken=token,
            fields=LIST_FIELDS,
            supportsAllDrives=True,
            includeItemsFromAllDrives=True,
        )
        answer = _execute(request)
        yield from answer.get("files", [])
        token = answer.get("nextPageToken")
        if not token:
            return


def _quoted(folder: str) -> str:
    return folder.replace("\\", "\\\\").replace("'", "\\'")


def _execute(request: Any) -> dict[str, Any]:
    from googleapiclient.errors import HttpError  # type: ignore[import-untyped]

    try:
        answer = request.execute(num_retries=RETRIES)
    except HttpError as error:
        raise ProvebenchError(
            f"the Drive answered HTTP {error.resp.status} (after {RETRIES} retries); "
            "nothing was captured",
            field="--endpoint",
        ) from None
    except OSError as error:
        raise ProvebenchError(
            f"the Drive could not be reached ({type(error).__name__}); nothing was captured",
            field="--endpoint",
        ) from None
    if not isinstance(answer, dict):
        raise ProvebenchError("the Drive answered something that is not a file list")
    return answer


def drive_file(resource: dict[str, Any]) -> DriveFile:
    """A Drive `File` resource as the laboratory's `DriveFile` (before pseudonymisation)."""
    # The field is named, never the file: its id and name are production identifiers.
    file_id, where = resource.get("id"), "files[]"
    name, mime_type = resource.get("name"), resource.get("mimeType")
    for field, value in (("id", file_id), ("name", name), ("mimeType", mime_type)):
        if not isinstance(value, str):
            raise ProvebenchError("the Drive listed a file without it", field=f"{where}.{field}")
    assert isinstance(file_id, str) and isinstance(name, str) and isinstance(mime_type, str)
    parents = resource.get("parents") or [""]
    return DriveFile(
        file_id=file_id,
        name=name,
        created_at_utc=_utc_text(
            resource.get("createdTime"),
            "not an RFC 3339 time with an offset",
            f"{where}.createdTime",
        ),
        mime_type=mime_type,
        size_bytes=_integer(resource.get("size", "0"), f"{where}.size"),
        duration_sec=_duration(resource, where),
        folder_id=str(parents[0]),
        metadata=_metadata(resource.get("properties")),
    )


def _utc_text(value: object, problem: str, field: str) -> str:
    """A time with an offset as UTC to the second (`…Z`); `problem` at `field` otherwise."""
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise ProvebenchError(problem, field=field)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _integer(value: object, field: str) -> int:
    text = str(value)
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):
        raise ProvebenchError("not an int64 string", field=field)
    return int(text)


def _duration(resource: dict[str, Any], where: str) -> float | None:
    """Drive's own measure (`videoMediaMetadata.durationMillis`, which Drive gives video files
    only), else the recording system's `properties.duration_sec` — a call recording is usually
    audio, for which Drive measures nothing; None when neither gives a duration (the rules then
    refuse the file as corrupted). A property that is not a number is an unreadable duration,
    the file's problem, not the capture's."""
    media = resource.get("videoMediaMetadata")
    if isinstance(media, dict) and "durationMillis" in media:
        return (
            _integer(media["durationMillis"], f"{where}.videoMediaMetadata.durationMillis") / 1000
        )
    properties = resource.get("properties")
    stated = properties.get(DURATION_PROPERTY) if isinstance(properties, dict) else None
    if not isinstance(stated, str):
        return None
    try:
        seconds = float(stated)
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) else None


def _metadata(properties: object) -> CallMetadata | None:
    if not isinstance(properties, dict):
        return None
    values = {
        key: properties[key] for key in _METADATA_KEYS if isinstance(properties.get(key), str)
    }
    return CallMetadata(**values) if values else None


def capture(
    out: Path,
    *,
    key_file: Path,
    credentials: Path,
    endpoint: str | None,
    folders: list[str],
    captured_at: str | None = None,
    service: Any = None,
) -> SnapshotEntry:
    """List the Drive, pseudonymise, append one snapshot to `out` (all or nothing)."""
    pseudonyms = Pseudonymiser(read_key(key_file))
    when = (
        utc_now_text()
        if captured_at is None
        else _utc_text(
            captured_at,
            f"not a time with an offset: {captured_at!r} (e.g. 2026-11-02T06:00:00Z)",
            "--captured-at",
        )
    )
    check_appendable(out, key_check=pseudonyms.key_check, captured_at=when)  # before any call
    drive = drive_service(credentials, endpoint) if service is None else service
    files = [pseudonyms.file(drive_file(resource)) for resource in list_files(drive, folders)]
    return append_snapshot(
        out,
        files,
        captured_at=when,
        folders=[pseudonyms.folder_id(folder) for folder in folders],
        key_check=pseudonyms.key_check,
    )


__all__ = [
    "LIST_FIELDS",
    "METADATA_READONLY_SCOPE",
    "capture",
    "drive_file",
    "drive_service",
    "list_files",
    "utc_now_text",
]
