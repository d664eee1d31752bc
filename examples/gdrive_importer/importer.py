#!/usr/bin/env python3
"""A call-recording importer written only against the real Google client libraries.

It reads new recordings from a Drive folder listing and appends one row per recording to a
Google Sheet, exactly once per Drive file id, and knows nothing of provebench's laboratory
beyond the documented environment variables (docs/pilot-emulator.md). Pointed at Google it
would talk to Google; pointed at `provebench pilot run --agent-cmd` it talks to the lab.

Row rules: the public pilot rules, through `provebench.pilot.decide_row` (the published rule
function; the grammar itself is documented in docs/pilot-lab.md).

Exactly once: the confirmed register (values.get on the confirmed sheet) plus a journal in the
work directory. The rows of a run are written to the journal BEFORE the first append; the next
run drops the ones that have been confirmed and appends the rest again. An append is retried only
after 429 or 503 (answered before any effect); after a 500/504, a timeout (no answer within the
client's deadline, `CLIENT_DEADLINE_SEC`) or a dropped connection it may have been applied, so
the importer stops appending and lets the next run's confirmed ids settle it. Reads are retried
by the client (`execute(num_retries=...)`, timeouts included): they are safe to repeat.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from google.oauth2 import service_account
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError

from provebench.pilot import CallMetadata, DriveFile, Refusal, decide_row

SCOPES = [
    "https://www.googleapis.com/auth/drive.readonly",
    "https://www.googleapis.com/auth/spreadsheets",
]
FILE_FIELDS = (
    "id,name,mimeType,size,createdTime,parents,videoMediaMetadata(durationMillis),properties"
)
READ_RETRIES = 5
APPEND_ATTEMPTS = 6
APPEND_BATCH = 500
MAX_PASSES = 8
SELF_CHECK_ID = "provebench:self-check"
NOT_APPLIED = (429, 503)  # answered before the append took effect: safe to retry
# How long a call may go unanswered. google-api-python-client takes its deadline from
# socket.getdefaulttimeout() (60 s when unset); a call with no deadline would wait forever on
# an answer that never comes.
CLIENT_DEADLINE_SEC = 5.0


class Config:
    def __init__(self, env: dict[str, str]) -> None:
        self.credentials = env["GOOGLE_APPLICATION_CREDENTIALS"]
        self.drive_endpoint = env["PROVEBENCH_DRIVE_ENDPOINT"]
        self.sheets_endpoint = env["PROVEBENCH_SHEETS_ENDPOINT"]
        self.spreadsheet_id = env["PROVEBENCH_SPREADSHEET_ID"]
        self.working_sheet = env["PROVEBENCH_WORKING_SHEET"]
        self.confirmed_sheet = env["PROVEBENCH_CONFIRMED_SHEET"]
        self.columns = env["PROVEBENCH_COLUMNS"].split(",")
        self.zone = env["PROVEBENCH_TIME_ZONE"]
        self.work_dir = Path(env.get("PROVEBENCH_WORK_DIR", "."))
        self.diagnostics_path = env.get("PROVEBENCH_DIAGNOSTICS_FILE")


def quoted(sheet: str) -> str:
    return "'" + sheet.replace("'", "''") + "'"


class Diagnostics:
    """JSON lines to the diagnostics file (the lab reads it after the run)."""

    def __init__(self, path: str | None) -> None:
        self.lines: list[str] = []
        self.path = path

    def send(self, channel: str, **fields: Any) -> None:
        self.lines.append(json.dumps({"channel": channel, **fields}, ensure_ascii=False))

    def flush(self) -> None:
        if self.path:
            with Path(self.path).open("a", encoding="utf-8") as handle:
                handle.write("".join(line + "\n" for line in self.lines))
        self.lines.clear()


class Journal:
    """What this importer remembers between runs, in its work directory."""

    def __init__(self, path: Path) -> None:
        self.path = path
        state = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        self.intents: list[list[str]] = state.get("intents", [])
        self.failed: dict[str, str] = state.get("failed", {})
        self.zone: str | None = state.get("zone")

    def save(self) -> None:
        state = {"intents": self.intents, "failed": self.failed, "zone": self.zone}
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(json.dumps(state, sort_keys=True), encoding="utf-8")
        temporary.replace(self.path)


def failed_call(error: HttpError) -> int | None:
    """The laboratory's number of the failed call (its ErrorInfo `metadata.call`): a failure
    report naming it accounts for the failure (agent contract, rule 8)."""
    try:
        details = json.loads(error.content)["error"].get("details", [])
        return int(details[0]["metadata"]["call"])
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return None


def drive_file(resource: dict[str, Any]) -> DriveFile:
    """A Drive v3 File as the public rules' input."""
    millis = resource.get("videoMediaMetadata", {}).get("durationMillis")
    properties = resource.get("properties") or {}
    metadata = None
    if properties:
        metadata = CallMetadata(
            direction=properties.get("direction"),
            phone=properties.get("phone"),
            manager_code=properties.get("manager_code"),
        )
    parents = resource.get("parents") or [""]
    return DriveFile(
        file_id=resource["id"],
        name=resource["name"],
        created_at_utc=resource["createdTime"][:19] + "Z",
        mime_type=resource["mimeType"],
        size_bytes=int(resource.get("size", "0")),
        duration_sec=None if millis is None else int(millis) / 1000,
        folder_id=parents[0],
        metadata=metadata,
    )


class Importer:
    def __init__(self, config: Config) -> None:
        self.config = config
        socket.setdefaulttimeout(CLIENT_DEADLINE_SEC)  # read when the clients are built
        credentials = service_account.Credentials.from_service_account_file(
            config.credentials, scopes=SCOPES
        )
        self.drive = build(
            "drive",
            "v3",
            credentials=credentials,
            client_options={"api_endpoint": config.drive_endpoint},
            static_discovery=True,
        )
        self.sheets = build(
            "sheets",
            "v4",
            credentials=credentials,
            client_options={"api_endpoint": config.sheets_endpoint},
            static_discovery=True,
        )
        # Building a resource builds every method's documentation: do it once per run.
        self.files = self.drive.files()
        self.values = self.sheets.spreadsheets().values()
        self.diagnostics = Diagnostics(config.diagnostics_path)
        self.journal = Journal(config.work_dir / "journal.json")
        self.file_id = config.columns.index("file_id")
        self.local_time = config.columns.index("call_local_datetime")
        self.checks: list[tuple[str, bool, str]] = []
        self.gave_up = False  # an append given up on after its retries (a 429/503 each time)

    def run(self) -> None:
        try:
            self._run()
        finally:
            for name, passed, detail in self.checks:
                self.diagnostics.send("self_check", name=name, passed=passed, detail=detail)
            self.diagnostics.flush()

    def _run(self) -> None:
        config, journal, diagnostics = self.config, self.journal, self.diagnostics
        try:
            confirmed = self.confirmed_ids()
        except HttpError as error:
            # Without the confirmed ids no append can be known to be the first: do nothing.
            detail = str(error.status_code)
            diagnostics.send(
                "error",
                code="confirmed_ids_unavailable",
                detail=detail,
                failed_call=failed_call(error),
            )
            return
        key = self.file_id
        carried = []
        carried_ids: set[str] = set()
        for row in journal.intents:
            if row[key] not in confirmed and row[key] not in carried_ids:
                carried.append(row)
                carried_ids.add(row[key])
        listed, passes, complete = self.list_everything()

        new_rows: list[list[str]] = []
        refused: list[Refusal] = []
        already_known = already_failed = 0
        for file_id, resource in listed.items():
            if file_id in confirmed:
                already_known += 1
            elif file_id in carried_ids:
                continue
            elif file_id in journal.failed:
                already_failed += 1
            else:
                decision = decide_row(drive_file(resource), config.zone)
                if isinstance(decision, Refusal):
                    refused.append(decision)
                else:
                    new_rows.append([getattr(decision, c) for c in config.columns])
        for refusal in refused:
            diagnostics.send(
                "failed_file",
                file_id=refusal.file_id,
                reason_code=refusal.reason_code,
                detail=refusal.detail,
            )
            journal.failed[refusal.file_id] = refusal.reason_code

        rows = sorted([*carried, *new_rows], key=self.order_key)
        journal.intents = rows
        previous_zone, journal.zone = journal.zone, config.zone
        journal.save()  # written down before the first append: exactly once
        appended = self.append(rows)

        in_doubt = len(rows) - appended
        listed_appended = sum(1 for row in rows[:appended] if row[key] in listed)
        listed_in_doubt = sum(1 for row in rows[appended:] if row[key] in listed)
        failed = already_failed + len(refused)
        diagnostics.send(
            "reconciliation",
            source=len(listed),
            imported=listed_appended,
            failed=failed,
            already_known=already_known,
            extra={"in_doubt": listed_in_doubt},
        )
        balanced = len(listed) == already_known + listed_appended + failed + listed_in_doubt
        self.check("reconciliation", balanced, f"source {len(listed)}, {in_doubt} in doubt")
        self.check("pagination", complete, f"{passes} passes, each to the last page")
        self.check("file_added_during_traversal", complete and passes >= 2, f"{passes} passes")
        self.check(
            "repeated_run_without_new_files",
            not any(row[key] in confirmed for row in rows),
            "no row appended for an id already confirmed",
        )
        appended_ids = [row[key] for row in rows[:appended]]
        self.check(
            "reappearing_id",
            len(set(appended_ids)) == len(appended_ids)
            and not any(f in confirmed for f in appended_ids),
            f"{already_known} listed ids already confirmed, none appended again",
        )
        self.check(
            "same_name_different_ids", True, "each new file_id decided on its own, by its id"
        )
        self.check(
            "temporary_failure_and_retry",
            not self.gave_up,
            "reads retried by the client; in-doubt appends left to the next run",
        )
        self.check(
            "corrupted_file",
            not {r.file_id for r in refused} & {row[key] for row in rows},
            f"{len(refused)} refused file(s) reported, none appended",
        )
        change = "" if previous_zone in (None, config.zone) else f" (was {previous_zone})"
        self.check("time_zone", True, f"rows shown in {config.zone}{change}")
        self.final_status_check()

    # -- reads (safe to repeat: the client retries them) ---------------------------------------
    def confirmed_ids(self) -> set[str]:
        response = self.values.get(
            spreadsheetId=self.config.spreadsheet_id, range=quoted(self.config.confirmed_sheet)
        ).execute(num_retries=READ_RETRIES)
        grid = response.get("values", [])
        if not grid:
            return set()
        index = grid[0].index("file_id")
        return {row[index] for row in grid[1:] if len(row) > index}

    def list_everything(self) -> tuple[dict[str, dict[str, Any]], int, bool]:
        listed: dict[str, dict[str, Any]] = {}
        for passes in range(1, MAX_PASSES + 1):
            before = len(listed)
            files = self.files
            request = files.list(
                q="trashed = false",
                pageSize=1000,
                fields=f"nextPageToken,files({FILE_FIELDS})",
                supportsAllDrives=True,
                includeItemsFromAllDrives=True,
            )
            while request is not None:
                try:
                    response = request.execute(num_retries=READ_RETRIES)
                except HttpError as error:
                    self.diagnostics.send(
                        "error",
                        code="listing_incomplete",
                        detail=str(error.status_code),
                        failed_call=failed_call(error),
                    )
                    return listed, passes, False
                for resource in response.get("files", []):
                    listed.setdefault(resource["id"], resource)
                request = files.list_next(request, response)
            if passes > 1 and len(listed) == before:
                return listed, passes, True
        self.diagnostics.send("error", code="listing_unstable", detail=f"{MAX_PASSES} passes")
        return listed, MAX_PASSES, False

    # -- appends (never retried blindly) -------------------------------------------------------
    def append(self, rows: list[list[str]]) -> int:
        """Append in batches; returns how many rows are known to be appended."""
        values = self.values
        for start in range(0, len(rows), APPEND_BATCH):
            batch = rows[start : start + APPEND_BATCH]
            request = values.append(
                spreadsheetId=self.config.spreadsheet_id,
                range=f"{quoted(self.config.working_sheet)}!A1",
                valueInputOption="RAW",
                insertDataOption="INSERT_ROWS",
                body={"values": batch},
            )
            delay = 0.25
            for attempt in range(1, APPEND_ATTEMPTS + 1):
                try:
                    request.execute(num_retries=0)
                    break
                except HttpError as error:
                    if error.status_code in NOT_APPLIED and attempt < APPEND_ATTEMPTS:
                        time.sleep(delay)
                        delay = min(delay * 2, 4.0)
                        continue
                    # Named by the rows this call carried: the batches after it were never
                    # attempted (no call failed them) and are left to the next run with it
                    # (pilot red team 34, A4).
                    self.diagnostics.send(
                        "error",
                        code="append_in_doubt",
                        detail=f"HTTP {error.status_code}: {len(rows) - start} row(s) "
                        "left to the next run",
                        failed_call=failed_call(error),
                        file_ids=[row[self.file_id] for row in batch],
                    )
                    self.gave_up = error.status_code in NOT_APPLIED
                    return start
                except OSError:  # no answer in time, or the connection lost: in doubt
                    # In rule 8's in-doubt words: named by its rows, the report is read as one
                    # naming the call (call-import-evaluator/8), and an OSError's own text
                    # ("Connection reset by peer") is no shape of it.
                    self.diagnostics.send(
                        "error",
                        code="append_in_doubt",
                        detail=f"timeout: {len(rows) - start} row(s) left to the next run; "
                        "effect unknown",
                        file_ids=[row[self.file_id] for row in batch],
                    )
                    return start
        return len(rows)

    # -- self-checks ---------------------------------------------------------------------------
    def check(self, name: str, passed: bool, detail: str) -> None:
        self.checks.append((name, passed, detail))

    def final_status_check(self) -> None:
        """Pilot §12: the final status must not be writable. The probe appends a row that carries
        a status, for the reserved id `provebench:self-check` (never a real file id): the lab must
        refuse it with 403, and counts it as a probe, not as an attempt on a real row."""
        probe = [SELF_CHECK_ID] + [""] * (len(self.config.columns) - 1) + ["imported"]
        request = self.values.append(
            spreadsheetId=self.config.spreadsheet_id,
            range=f"{quoted(self.config.working_sheet)}!A1",
            valueInputOption="RAW",
            body={"values": [probe]},
        )
        try:
            request.execute(num_retries=0)
        except HttpError as error:
            refused = error.status_code == 403
            self.check("final_status_not_writable", refused, f"append answered {error.status_code}")
            return
        self.check("final_status_not_writable", False, "a row with a status was accepted")

    def order_key(self, row: list[str]) -> tuple[datetime, str]:
        """register-order/1: call instant, then file_id."""
        return datetime.fromisoformat(row[self.local_time]), row[self.file_id]


def main() -> int:
    Importer(Config(dict(os.environ))).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
