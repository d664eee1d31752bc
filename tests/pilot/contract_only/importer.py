"""A call-recording importer written from `agent_contract.md` alone.

It imports nothing of provebench: only Google's client libraries and the standard library, and the
contract itself (copied beside this file as `agent_contract.md`), from which it reads the mapping
table. Every decision below cites the contract's rule it follows. The laboratory starts it once per
cycle (`--agent-cmd "python importer.py"`); what it must remember lives in its work directory.
"""

from __future__ import annotations

import json
import os
import re
import socket
import sys
import time
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from google.oauth2 import service_account
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError

HERE = Path(__file__).resolve().parent
PROBE_ID = "provebench:self-check"  # rule 10
FIELDS = (
    "nextPageToken,files(id,name,mimeType,size,createdTime,parents,videoMediaMetadata,properties)"
)
NO_EFFECT = (429, 503)  # rule 8: the call took no effect, retry it
MAY_HAVE_APPLIED = (500, 504)  # rule 8: an append may have been applied, never repeat it blindly
ATTEMPTS = 6
DEADLINE_SEC = 5.0  # "Errors": a timeout is never answered; the client's deadline ends the wait

# Rule 2, in the contract's order.
FILE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,127}")
MIME_TYPES = {"audio/mpeg", "audio/wav", "audio/ogg", "audio/mp4"}
FORBIDDEN = re.compile(r"[/\x00-\x1f\x7f-\x9f\ud800-\udfff]")
# Rule 3's grammar, written as a regular expression (ASCII digits only).
NAME = re.compile(
    r"(in|out)_([1-9][0-9]{6,14})_([0-9]{8})T([0-9]{6})(Z|[+-][0-9]{4})_(M[0-9]{3})(?:_(.+))?"
    r"\.(mp3|wav|ogg|m4a)",
    re.ASCII | re.DOTALL,
)


def mapping_from_contract() -> tuple[dict[str, str], str]:
    """The mapping table (rule 6) and the name for a code it does not list."""
    text = (HERE / "agent_contract.md").read_text(encoding="utf-8")
    table = text.split("## Mapping table", 1)[1]
    mapping = {}
    for line in table.splitlines():
        found = re.fullmatch(r"\| (M[0-9]{3}) \| (.*) \|", line)
        if found:
            mapping[found.group(1)] = found.group(2)
    unmapped = re.search(r"or\s+`([^`]+)`\s+for a well-formed code", text)
    assert unmapped is not None and mapping
    return mapping, unmapped.group(1)


def call_instant(date: str, clock: str, offset: str) -> datetime | None:
    """Rule 3/5: the instant the name's timestamp gives, or None when it is no real instant."""
    if offset == "Z":
        zone = UTC
    else:
        hours, minutes = int(offset[1:3]), int(offset[3:5])
        if minutes > 59 or hours * 60 + minutes > 14 * 60 or offset == "-0000":
            return None
        sign = -1 if offset[0] == "-" else 1
        zone = timezone(sign * timedelta(hours=hours, minutes=minutes))
    year = int(date[:4])
    if not 1971 <= year <= 9998:
        return None
    try:
        wall = datetime(
            year,
            int(date[4:6]),
            int(date[6:8]),
            int(clock[:2]),
            int(clock[2:4]),
            int(clock[4:6]),
            tzinfo=zone,
        )
    except ValueError:
        return None
    return wall.astimezone(UTC)


def decide(item: dict[str, Any]) -> tuple[str, Any]:
    """("refused", reason code) or ("row", (instant, direction, phone, manager, millis))."""
    file_id, name = item.get("id", ""), item.get("name", "")
    if not FILE_ID.fullmatch(file_id):
        return "refused", "invalid_file_id"
    if item.get("mimeType") not in MIME_TYPES:
        return "refused", "unsupported_mime_type"
    if int(item.get("size", "0")) <= 0:
        return "refused", "corrupted_empty_file"
    millis = (item.get("videoMediaMetadata") or {}).get("durationMillis")
    if millis is None:
        return "refused", "corrupted_unreadable_duration"
    if int(millis) <= 0:
        return "refused", "corrupted_non_positive_duration"
    if len(name) > 255:
        return "refused", "name_too_long"
    if FORBIDDEN.search(name):
        return "refused", "name_forbidden_character"
    match = NAME.fullmatch(name)
    if match is None:
        return "refused", "name_not_conforming"
    direction, phone, date, clock, offset, manager, _tag, _extension = match.groups()
    instant = call_instant(date, clock, offset)
    if instant is None:
        return "refused", "name_invalid_timestamp"
    return "row", (instant, direction, phone, manager, int(millis))


class Importer:
    def __init__(self) -> None:
        env = os.environ
        self.env = env
        self.zone = env["PROVEBENCH_TIME_ZONE"]
        self.columns = env["PROVEBENCH_COLUMNS"].split(",")
        self.sheet_id = env["PROVEBENCH_SPREADSHEET_ID"]
        self.working = "'" + env["PROVEBENCH_WORKING_SHEET"].replace("'", "''") + "'"
        self.confirmed_sheet = "'" + env["PROVEBENCH_CONFIRMED_SHEET"].replace("'", "''") + "'"
        socket.setdefaulttimeout(DEADLINE_SEC)  # google-api-python-client reads it at build
        creds = service_account.Credentials.from_service_account_file(
            env["GOOGLE_APPLICATION_CREDENTIALS"],
            scopes=[
                "https://www.googleapis.com/auth/drive.readonly",
                "https://www.googleapis.com/auth/spreadsheets",
            ],
        )
        self.files = build(
            "drive",
            "v3",
            credentials=creds,
            static_discovery=True,
            client_options={"api_endpoint": env["PROVEBENCH_DRIVE_ENDPOINT"]},
        ).files()
        self.values = (
            build(
                "sheets",
                "v4",
                credentials=creds,
                static_discovery=True,
                client_options={"api_endpoint": env["PROVEBENCH_SHEETS_ENDPOINT"]},
            )
            .spreadsheets()
            .values()
        )
        self.journal_path = Path(env["PROVEBENCH_WORK_DIR"]) / "journal.json"
        saved = json.loads(self.journal_path.read_text()) if self.journal_path.is_file() else {}
        self.first_zone: dict[str, str] = saved.get("first_zone", {})  # rule 5
        self.reported: dict[str, str] = saved.get("reported", {})  # rule 2
        self.messages: list[dict[str, Any]] = []
        self.unaccounted = False  # a temporary failure neither retried with success nor reported
        self.mapping, self.unmapped = mapping_from_contract()

    # -- diagnostics -------------------------------------------------------------------------
    def say(self, channel: str, **fields: Any) -> None:
        self.messages.append({"channel": channel, **fields})

    @staticmethod
    def call_number(error: HttpError) -> int | None:
        """Rule 8: the number of the failed call, `error.details[0].metadata.call`."""
        try:
            return int(json.loads(error.content)["error"]["details"][0]["metadata"]["call"])
        except (ValueError, KeyError, IndexError, TypeError):
            return None

    def read(self, request: Any, what: str) -> Any:
        """A read, retried on any temporary failure (a read has no effect to repeat)."""
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return request.execute(num_retries=0)
            except TimeoutError:
                if attempt < ATTEMPTS:  # rule 8: a read has no effect to repeat
                    continue
                self.say("error", code=f"{what}_failed", detail="no answer (timeout)")
                raise
            except HttpError as error:
                if error.status_code in (*NO_EFFECT, *MAY_HAVE_APPLIED) and attempt < ATTEMPTS:
                    time.sleep(0.01 * attempt)
                    continue
                self.say(
                    "error",
                    code=f"{what}_failed",
                    detail=f"HTTP {error.status_code}",
                    failed_call=self.call_number(error),
                )
                raise
        raise AssertionError("unreachable")

    # -- the cycle ---------------------------------------------------------------------------
    def run(self) -> None:
        try:
            self.cycle()
        finally:
            self.journal_path.write_text(
                json.dumps({"first_zone": self.first_zone, "reported": self.reported})
            )
            with Path(self.env["PROVEBENCH_DIAGNOSTICS_FILE"]).open(
                "a", encoding="utf-8"
            ) as handle:
                for message in self.messages:
                    handle.write(json.dumps(message) + "\n")

    def confirmed_ids(self) -> set[str] | None:
        try:
            got = self.read(
                self.values.get(spreadsheetId=self.sheet_id, range=self.confirmed_sheet),
                "read_confirmed",
            )
        except HttpError:
            return None
        grid = got.get("values", [])
        if not grid:
            return set()
        index = grid[0].index("file_id")  # the header row
        return {row[index] for row in grid[1:] if len(row) > index}

    def listing(self) -> tuple[dict[str, dict[str, Any]], int, bool, bool]:
        """Rule 11: full passes until one finds nothing new (at least two)."""
        shown: dict[str, dict[str, Any]] = {}
        passes = 0
        while passes < 10:
            passes += 1
            before = len(shown)
            token = None
            while True:
                try:
                    page = self.read(
                        self.files.list(pageSize=1000, pageToken=token, fields=FIELDS), "list_page"
                    )
                except HttpError:
                    return shown, passes, False, False
                for item in page.get("files", []):
                    shown.setdefault(item["id"], item)
                token = page.get("nextPageToken")
                if not token:
                    break
            if passes >= 2 and len(shown) == before:
                return shown, passes, True, True
        return shown, passes, True, False

    def row_of(self, file_id: str, decided: Any) -> tuple[tuple[datetime, str], list[str]]:
        instant, direction, phone, manager, millis = decided
        zone = self.first_zone.setdefault(file_id, self.zone)  # rule 5: the zone it first had
        cells = {
            "file_id": file_id,
            "call_local_datetime": instant.astimezone(ZoneInfo(zone)).isoformat(timespec="seconds"),
            "direction": "incoming" if direction == "in" else "outgoing",
            "manager_code": manager,
            "manager_name": self.mapping.get(manager, self.unmapped),
            "phone": phone,
            "duration_sec": str(-(-millis // 1000)),  # rounded up to a whole number
            "source_link": "drive://file/" + file_id,
        }
        return (instant, file_id), [cells[column] for column in self.columns]

    def append(self, rows: list[list[str]]) -> bool | None:
        """True: acknowledged; False: took no effect; None: in doubt (rule 8)."""
        request = self.values.append(
            spreadsheetId=self.sheet_id,
            range=f"{self.working}!A1",
            valueInputOption="RAW",
            body={"values": rows},
        )
        for attempt in range(1, ATTEMPTS + 1):
            try:
                request.execute(num_retries=0)
                return True
            except TimeoutError:  # "Errors": no answer, no call number; may have been applied
                self.say(
                    "error",
                    code="append_in_doubt",
                    detail="timeout; effect unknown",  # rule 8's in-doubt words
                    file_ids=[row[0] for row in rows],
                )
                return None
            except HttpError as error:
                if error.status_code in NO_EFFECT and attempt < ATTEMPTS:
                    time.sleep(0.01 * attempt)
                    continue
                self.say(
                    "error",
                    code="append_failed" if error.status_code in NO_EFFECT else "append_in_doubt",
                    detail=f"HTTP {error.status_code}",
                    failed_call=self.call_number(error),
                    file_ids=[row[0] for row in rows],
                )
                return False if error.status_code in NO_EFFECT else None
        raise AssertionError("unreachable")

    def cycle(self) -> None:
        for file_id in list(self.first_zone):
            self.first_zone.setdefault(file_id, self.zone)
        confirmed = self.confirmed_ids()
        shown, passes, paginated, settled = self.listing()
        if confirmed is None:
            # Without the confirmed ids no append is known to be the first: append nothing.
            confirmed_read, confirmed = False, set()
            pending: list[tuple[tuple[datetime, str], list[str]]] = []
        else:
            confirmed_read = True
            pending = []
        already_known = failed = 0
        refused: set[str] = set()
        for file_id, item in sorted(shown.items()):
            if file_id in confirmed:
                already_known += 1
                continue
            kind, decided = decide(item)
            if kind == "refused":
                failed += 1  # rule 9: every refused file shown in this cycle
                refused.add(file_id)
                if file_id not in self.reported:
                    self.say("failed_file", file_id=file_id, reason_code=decided, detail=decided)
                    self.reported[file_id] = decided
            elif confirmed_read:
                pending.append(self.row_of(file_id, decided))
        rows = [row for _, row in sorted(pending)]  # rule 7: instant, then file_id
        imported = in_doubt = 0
        if rows:
            outcome = self.append(rows)
            if outcome is True:
                imported = len(rows)
            else:
                in_doubt = len(rows)
        elif not confirmed_read:
            in_doubt = len(shown) - already_known - failed
        source = len(shown)
        self.say(
            "reconciliation",
            source=source,
            imported=imported,
            failed=failed,
            already_known=already_known,
            extra={"in_doubt": in_doubt},
        )
        appended = [row[0] for row in rows] if imported else []
        balanced = source == imported + failed + already_known + in_doubt
        # The details are sentences the contract publishes (rule 2: text naming no file).
        checks = {
            "repeated_run_without_new_files": (
                confirmed_read and not set(appended) & confirmed,
                "no row appended for an id already confirmed",
            ),
            "reappearing_id": (
                len(set(appended)) == len(appended) and not set(appended) & confirmed,
                f"{already_known} listed ids already confirmed, none appended again",
            ),
            "same_name_different_ids": (True, "each new file_id decided on its own, by its id"),
            "file_added_during_traversal": (settled, f"{passes} passes"),
            "pagination": (paginated, "every pass followed next_page_token to the end"),
            "temporary_failure_and_retry": (
                not self.unaccounted,
                "reads retried by the client; in-doubt appends left to the next run",
            ),
            "corrupted_file": (
                not set(appended) & refused,
                f"{len(refused)} refused file(s) reported, none appended",
            ),
            "time_zone": (True, f"rows shown in {self.zone}"),
            "reconciliation": (balanced, f"source {source}, {in_doubt} in doubt"),
            "final_status_not_writable": self.probe(),
        }
        for name, (passed, detail) in checks.items():
            self.say("self_check", name=name, passed=bool(passed), detail=detail)

    def probe(self) -> tuple[bool, str]:
        """Rule 10: an append whose row carries a ninth cell (a status) must be answered 403."""
        row = [PROBE_ID] + [""] * (len(self.columns) - 1) + ["imported"]
        request = self.values.append(
            spreadsheetId=self.sheet_id,
            range=f"{self.working}!A1",
            valueInputOption="RAW",
            body={"values": [row]},
        )
        for _attempt in range(ATTEMPTS):
            try:
                request.execute(num_retries=0)
            except HttpError as error:
                if error.status_code == 403:
                    return True, "append answered 403"
                # A temporary failure of the probe is a failed call like any other (rule 8).
                self.say(
                    "error",
                    code="probe_failed",
                    detail=f"HTTP {error.status_code}",
                    failed_call=self.call_number(error),
                )
                continue
            return False, "a row with a status was accepted"
        return False, "not checked"  # the probe never got an answer


if __name__ == "__main__":
    Importer().run()
    sys.exit(0)
