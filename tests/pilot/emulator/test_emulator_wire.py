"""The emulator speaks Google's wire format to the real clients (google-api-python-client,
google-auth, gspread), offline, over one in-memory laboratory cycle."""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import google.auth.transport.requests
import googleapiclient.http
import gspread
import pytest
from google.auth import crypt
from google.auth import jwt as google_jwt
from google.auth.transport.requests import AuthorizedSession
from google.oauth2 import service_account
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError

from provebench._errors import ProvebenchError
from provebench.pilot import CallMetadata, DriveFile
from provebench.pilot.emulator import (
    CONFIRMED_SHEET,
    LAYOUT,
    SPREADSHEET_ID,
    WORKING_SHEET,
    EmulatedLab,
    LabServer,
    LabSession,
    parse_a1,
    parse_q,
)
from provebench.pilot.lab import (
    CycleContext,
    CycleRecord,
    DriveState,
    Fault,
    FaultPlan,
    Gateway,
)
from provebench.pilot.lab._runner import SCHEMA, describe_file

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow

SCOPES = ["https://www.googleapis.com/auth/drive.readonly"]


def _file(index: int) -> DriveFile:
    return DriveFile(
        file_id=f"f{index:03d}",
        name=f"call {index}",
        created_at_utc="2026-03-01T10:00:00Z",
        mime_type="audio/mpeg",
        size_bytes=1000 + index,
        duration_sec=12.3 if index % 2 else None,
        folder_id="fld-a" if index % 3 else "fld-b",
        metadata=CallMetadata(direction="in", phone="=1+1") if index == 4 else None,
    )


@dataclass
class Cycle:
    lab: EmulatedLab
    record: CycleRecord
    gateway: Gateway
    tmp: Path

    def credentials(self) -> service_account.Credentials:
        return service_account.Credentials.from_service_account_file(
            str(self.lab.credentials_path), scopes=SCOPES
        )

    def drive(self) -> Any:
        return build(
            "drive",
            "v3",
            credentials=self.credentials(),
            client_options={"api_endpoint": self.lab.drive_endpoint},
            static_discovery=True,
        )

    def sheets(self) -> Any:
        return build(
            "sheets",
            "v4",
            credentials=self.credentials(),
            client_options={"api_endpoint": self.lab.sheets_endpoint},
            static_discovery=True,
        )

    def kinds(self, kind: str) -> list[dict[str, Any]]:
        return [payload for k, payload in self.record.entries if k == kind]


def open_cycle(
    tmp_path: Path, faults: list[Fault] | None = None, files: int = 25, page_size: int = 7
) -> Iterator[Cycle]:
    drive = DriveState()
    for index in range(files):
        drive.add(_file(index))
    drive.settle()
    record = CycleRecord()
    gateway = Gateway(
        drive=drive,
        record=record,
        faults=FaultPlan(faults or []),
        schema=SCHEMA,
        confirmed_ids=frozenset({"old1"}),
        describe_file=describe_file,
        server_page_size=page_size,
    )
    ctx = CycleContext(gateway, time_zone="Europe/Berlin", run_version="v1", work_dir=tmp_path)
    lab = EmulatedLab()
    lab.confirmed_rows = [["old1", "2026-01-01T10:00:00+01:00", "incoming", "M001", "Anna",
                           "491", "5", "drive://file/old1", "imported"]]  # fmt: skip
    with lab:
        lab.open_cycle(ctx)
        yield Cycle(lab, record, gateway, tmp_path)
        lab.close_cycle(ctx)


@pytest.fixture
def cycle(tmp_path: Path) -> Iterator[Cycle]:
    yield from open_cycle(tmp_path)


@pytest.fixture
def no_sleep(monkeypatch: pytest.MonkeyPatch) -> None:
    # The client's retry backoff sleeps real seconds; the test needs the retries, not the wait.
    monkeypatch.setattr(googleapiclient.http.time, "sleep", lambda seconds: None)


def _error_body(error: HttpError) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(error.content)
    return body


def test_files_list_paginates_with_list_next_and_renders_drive_files(cycle: Cycle) -> None:
    files = cycle.drive().files()
    request = files.list(
        pageSize=1000,
        fields="nextPageToken,files(id,name,size,createdTime,parents,"
        "videoMediaMetadata(durationMillis),properties)",
        supportsAllDrives=True,
        includeItemsFromAllDrives=True,
    )
    pages: list[list[dict[str, Any]]] = []
    while request is not None:
        response = request.execute()
        pages.append(response["files"])
        request = files.list_next(request, response)
    assert [len(page) for page in pages] == [7, 7, 7, 4]  # the cycle's server page size
    listed = [f for page in pages for f in page]
    assert [f["id"] for f in listed] == [f"f{i:03d}" for i in range(25)]
    first, second = listed[0], listed[1]
    assert first == {
        "id": "f000",
        "name": "call 0",
        "size": "1000",
        "createdTime": "2026-03-01T10:00:00.000Z",
        "parents": ["fld-b"],
    }
    assert second["videoMediaMetadata"] == {"durationMillis": "12300"}  # int64 as a string
    assert listed[4]["properties"] == {"direction": "in", "phone": "=1+1"}
    assert len(cycle.kinds("drive.list")) == 4


def test_default_fields_and_q_filter(cycle: Cycle) -> None:
    response = cycle.drive().files().list(q="'fld-b' in parents and trashed = false").execute()
    assert response["kind"] == "drive#fileList"
    assert response["incompleteSearch"] is False
    assert set(response["files"][0]) == {"kind", "id", "name", "mimeType"}
    assert [f["id"] for f in response["files"]] == ["f000", "f003", "f006"]  # page 1 of 7, filtered
    one = cycle.drive().files().get(fileId="f001", fields="id,size").execute()
    assert one == {"id": "f001", "size": "1001"}


def test_unsupported_q_and_bad_page_size_are_google_400s(cycle: Cycle) -> None:
    files = cycle.drive().files()
    for request in (
        files.list(q="name contains 'call'"),
        files.list(q="modifiedTime > '2026-01-01'"),
        files.list(pageSize=1001),
    ):
        with pytest.raises(HttpError) as raised:
            request.execute()
        assert raised.value.status_code == 400
        assert _error_body(raised.value)["error"]["status"] == "INVALID_ARGUMENT"
    with pytest.raises(HttpError) as missing:
        files.get(fileId="nope").execute()
    assert missing.value.status_code == 404


@pytest.mark.usefixtures("no_sleep")
def test_temporary_faults_are_real_http_and_execute_num_retries_recovers(tmp_path: Path) -> None:
    faults = [
        Fault("list_page", "f000", "rate_limit_429"),
        Fault("list_page", "f003", "unavailable_503"),  # the same first page: its retry fails
        Fault("read_confirmed_ids", "f001", "server_error_500"),
    ]
    for cycle in open_cycle(tmp_path, faults):
        with pytest.raises(HttpError) as raised:
            cycle.drive().files().list().execute(num_retries=0)
        assert raised.value.status_code == 429
        body = _error_body(raised.value)["error"]
        assert body["status"] == "RESOURCE_EXHAUSTED"
        assert body["errors"][0]["reason"] == "rateLimitExceeded"
        listed = cycle.drive().files().list().execute(num_retries=2)  # 503, then served
        assert len(listed["files"]) == 7
        values = cycle.sheets().spreadsheets().values()
        got = values.get(spreadsheetId=SPREADSHEET_ID, range=CONFIRMED_SHEET).execute(num_retries=1)
        assert got["values"][1][0] == "old1"
        assert [p["fault"] for p in cycle.kinds("fault_injected")] == [
            "rate_limit_429",
            "unavailable_503",
            "server_error_500",
        ]


def test_refused_writes_answer_403_and_are_logged(cycle: Cycle) -> None:
    spreadsheets = cycle.sheets().spreadsheets()
    attempts = [
        spreadsheets.values().clear(spreadsheetId=SPREADSHEET_ID, range=CONFIRMED_SHEET, body={}),
        spreadsheets.batchUpdate(spreadsheetId=SPREADSHEET_ID, body={"requests": []}),
        spreadsheets.values().update(
            spreadsheetId=SPREADSHEET_ID,
            range=f"{CONFIRMED_SHEET}!I2",
            valueInputOption="RAW",
            body={"values": [["imported"]]},
        ),
        cycle.drive().files().delete(fileId="f001"),
        spreadsheets.values().get(spreadsheetId=SPREADSHEET_ID, range=f"'{WORKING_SHEET}'!A1:H"),
    ]
    for request in attempts:
        with pytest.raises(HttpError) as raised:
            request.execute(num_retries=3)  # a 403 "forbidden" is not retried by the client
        assert raised.value.status_code == 403
        error = _error_body(raised.value)["error"]
        assert (error["code"], error["status"]) == (403, "PERMISSION_DENIED")
        assert error["errors"][0]["reason"] == "forbidden"
    refused = [p["operation"] for p in cycle.kinds("refused")]
    assert refused == [  # the lab's names for what each write would do
        "sheets.delete_row",
        "sheets.update_row",
        "sheets.update_row",
        "drive.delete_file",
    ]
    routes = [p["arguments"]["route"] for p in cycle.kinds("refused")]
    assert routes == [
        "/v4/spreadsheets/{spreadsheetId}/values/{range}:clear",
        "/v4/spreadsheets/{spreadsheetId}:{verb}",
        "/v4/spreadsheets/{spreadsheetId}/values/{range}",
        "/drive/v3/{rest}",
    ]
    assert (
        cycle.kinds("refused")[3]["arguments"]["file_id"] == "f001"
    )  # the read of the write-only working sheet is a 403, not a refused write
    statuses = [p["status"] for p in cycle.kinds("http.request") if p["route"] != "/token"]
    assert statuses == [403] * 5
    assert cycle.gateway.working_rows == []


def _row(file_id: str) -> list[str]:
    return [file_id, "2026-03-01T11:00:00+01:00", "incoming", "M001", "Anna", "491", "13",
            f"drive://file/{file_id}"]  # fmt: skip


def test_append_shapes_rules_and_required_value_input_option(cycle: Cycle) -> None:
    values = cycle.sheets().spreadsheets().values()
    with pytest.raises(HttpError) as missing:
        values.append(
            spreadsheetId=SPREADSHEET_ID, range=WORKING_SHEET, body={"values": [_row("a")]}
        ).execute()
    assert missing.value.status_code == 400
    assert "valueInputOption" in _error_body(missing.value)["error"]["message"]
    answer = values.append(
        spreadsheetId=SPREADSHEET_ID,
        range=f"'{WORKING_SHEET}'!A1:H",
        valueInputOption="RAW",
        insertDataOption="INSERT_ROWS",
        includeValuesInResponse=True,
        body={"values": [_row("a"), _row("b")]},
    ).execute()
    assert answer["spreadsheetId"] == SPREADSHEET_ID
    assert answer["tableRange"] == "'Working sheet'!A1:H1"
    updates = answer["updates"]
    assert updates["updatedRange"] == "'Working sheet'!A2:H3"
    assert (updates["updatedRows"], updates["updatedColumns"], updates["updatedCells"]) == (
        2,
        8,
        16,
    )
    with pytest.raises(HttpError) as status:
        values.append(
            spreadsheetId=SPREADSHEET_ID,
            range=WORKING_SHEET,
            valueInputOption="USER_ENTERED",
            body={"values": [[*_row("c"), "imported"]]},
        ).execute()
    assert status.value.status_code == 403  # pilot §3: the status is the lab's to assign
    with pytest.raises(HttpError) as confirmed:
        values.append(
            spreadsheetId=SPREADSHEET_ID,
            range=CONFIRMED_SHEET,
            valueInputOption="RAW",
            body={"values": [_row("d")]},
        ).execute()
    assert confirmed.value.status_code == 403
    assert [row[0] for row in cycle.gateway.working_rows] == ["a", "b"]
    assert [p["operation"] for p in cycle.kinds("refused")] == [
        "sheets.append.status",
        "sheets.update_row",
    ]


def test_blind_retry_after_applied_then_error_duplicates(tmp_path: Path, no_sleep: None) -> None:
    for cycle in open_cycle(tmp_path, [Fault("append_rows", "a", "applied_then_error")]):
        request = (
            cycle.sheets()
            .spreadsheets()
            .values()
            .append(
                spreadsheetId=SPREADSHEET_ID,
                range=WORKING_SHEET,
                valueInputOption="RAW",
                body={"values": [_row("a")]},
            )
        )
        request.execute(num_retries=2)  # 500 after the effect, retried: applied twice
        assert [row[0] for row in cycle.gateway.working_rows] == ["a", "a"]


@pytest.mark.parametrize(("kind", "applied"), [("applied_then_timeout", True), ("timeout", False)])
def test_a_timeout_is_never_answered_and_a_google_client_meets_its_own_deadline(
    tmp_path: Path, kind: str, applied: bool
) -> None:
    # Pilot §5, §14: the client hears nothing; its own deadline (google-api-python-client
    # takes socket.getdefaulttimeout(), else 60 s) ends the wait. Whether the rows landed is
    # the laboratory's to record, not the client's to know.
    for cycle in open_cycle(tmp_path, [Fault("append_rows", "a", kind)]):
        previous = socket.getdefaulttimeout()
        socket.setdefaulttimeout(1.0)
        try:
            values = cycle.sheets().spreadsheets().values()
        finally:
            socket.setdefaulttimeout(previous)
        request = values.append(
            spreadsheetId=SPREADSHEET_ID,
            range=WORKING_SHEET,
            valueInputOption="RAW",
            body={"values": [_row("a")]},
        )
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            request.execute(num_retries=0)
        assert time.monotonic() - started >= 0.9  # no answer, not an early error
        assert [row[0] for row in cycle.gateway.working_rows] == (["a"] if applied else [])
        [silent] = [p for p in cycle.kinds("http.request") if p["status"] is None]
        assert silent["answered"] is False and silent["method"] == "POST"
        assert cycle.kinds("fault_injected")[0]["applied"] is applied
        assert cycle.kinds("sheets.append")[0]["error"]["code"] == "timeout"
        # The same client asks again on its connection: what it sent into the silence is
        # dropped unread, and its fresh request is one more call, answered.
        request.execute(num_retries=0)
        assert [row[0] for row in cycle.gateway.working_rows] == (["a", "a"] if applied else ["a"])
        assert len(cycle.kinds("sheets.append")) == 2


def _raw(lab: EmulatedLab, method: str, path: str, headers: dict[str, str] | None = None,
         body: bytes | None = None) -> tuple[int, dict[str, Any]]:  # fmt: skip
    connection = http.client.HTTPConnection("127.0.0.1", lab.server.port, timeout=10)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = json.loads(response.read())
    connection.close()
    return response.status, data


def test_requests_without_a_valid_bearer_token_are_401(cycle: Cycle) -> None:
    for headers in ({}, {"Authorization": "Bearer ya29.forged"}, {"Authorization": "Basic x"}):
        status, body = _raw(cycle.lab, "GET", "/drive/v3/files", headers)
        assert status == 401
        assert body["error"]["status"] == "UNAUTHENTICATED"
    logged = [p for p in cycle.kinds("http.request") if p.get("status") == 401]
    assert len(logged) == 3
    assert cycle.kinds("drive.list") == []  # nothing reached the gateway


def _assertion(info: dict[str, Any], key_id: str, **claims: Any) -> str:
    """A JWT signed with the key in `info`, claiming to be key `key_id`."""
    now = int(time.time())
    payload = {
        "iss": "importer@provebench-lab.iam.gserviceaccount.com",
        "aud": "https://oauth2.googleapis.com/token",
        "iat": now,
        "exp": now + 3600,
        "scope": SCOPES[0],
        **claims,
    }
    signer = crypt.RSASigner.from_service_account_info(info)
    return google_jwt.encode(signer, payload, key_id=key_id).decode()


def _grant(lab: EmulatedLab, assertion: str) -> tuple[int, dict[str, Any]]:
    form = f"grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion={assertion}"
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    return _raw(lab, "POST", "/token", headers, form.encode())


def test_token_route_verifies_signature_issuer_audience_and_time(cycle: Cycle) -> None:
    lab = cycle.lab
    info, key_id = lab.account.info(), lab.account.key_id
    other = EmulatedLab()  # a key the lab did not write
    try:
        foreign = other.account.info()
    finally:
        other.stop()
    rejected = [
        _assertion(foreign, key_id),  # the lab's key id, another key's signature
        _assertion(info, key_id, iss="someone@else.example"),
        _assertion(info, key_id, aud="https://attacker.example/token"),
        _assertion(info, key_id, iat=int(time.time()) - 7200, exp=int(time.time()) - 3600),
        _assertion(info, "another-key-id"),
    ]
    for assertion in rejected:
        status, body = _grant(lab, assertion)
        assert (status, body["error"]) == (400, "invalid_grant")
    status, body = _grant(lab, _assertion(info, key_id, aud=lab.token_uri))
    assert status == 200
    status, body = _grant(lab, _assertion(info, key_id))
    assert status == 200
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == 3600
    token = body["access_token"]
    assert _raw(lab, "GET", "/drive/v3/files", {"Authorization": f"Bearer {token}"})[0] == 200
    results = [p["result"] for p in cycle.kinds("http.request") if p["route"] == "/token"]
    assert results == ["invalid_grant"] * 5 + ["issued", "issued"]


def test_log_holds_templates_not_ports_or_tokens(cycle: Cycle) -> None:
    cycle.drive().files().list(pageSize=3).execute()
    text = json.dumps(cycle.record.entries)
    assert str(cycle.lab.server.port) not in text
    assert "ya29" not in text
    request = [p for p in cycle.kinds("http.request") if p["route"] == "/drive/v3/files"]
    assert request[0]["query"]["pageSize"] == ["3"]
    assert request[0]["status"] == 200


def _gspread_client(cycle: Cycle, http_client: Any = gspread.http_client.HTTPClient) -> Any:
    """A gspread client whose requests session sends Google's URLs to the lab (as
    docs/pilot-emulator.md shows): gspread builds the Drive and Sheets URLs itself."""
    sheets = cycle.lab.sheets_endpoint.rstrip("/")
    drive = cycle.lab.drive_endpoint

    class LabSession_(AuthorizedSession):
        def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:
            url = url.replace("https://sheets.googleapis.com", sheets)
            url = url.replace("https://www.googleapis.com/drive/v3/", drive)
            return super().request(method, url, *args, **kwargs)

    credentials = service_account.Credentials.from_service_account_file(
        str(cycle.lab.credentials_path), scopes=gspread.auth.DEFAULT_SCOPES
    )
    return gspread.Client(
        auth=credentials, session=LabSession_(credentials), http_client=http_client
    )


def test_gspread_reads_the_confirmed_register(cycle: Cycle) -> None:
    spreadsheet = _gspread_client(cycle).open_by_key(SPREADSHEET_ID)
    assert spreadsheet.title == "provebench call register"
    rows = spreadsheet.worksheet(CONFIRMED_SHEET).get_all_values()
    assert rows[0][0] == "file_id"
    assert rows[1][0] == "old1"
    assert rows[1][-1] == "imported"


@pytest.mark.parametrize(
    ("asked", "served", "operation", "count"),
    [
        ("Confirmed!A1:A1", "Confirmed!A1:A1", "range", 0),  # the header alone: no id shown
        ("Confirmed!B:C", "Confirmed!B1:C1000", "range", 0),  # not the file_id column
        ("Confirmed!A:A", "Confirmed!A1:A1000", "all", 1),
        ("Confirmed!A2:I2", "Confirmed!A2:I2", "all", 1),
        # past the last confirmed row: shows nothing (red-team finding: it settled a doubt)
        ("Confirmed!A900:I900", "Confirmed!A900:I900", "range", 0),
        ("Confirmed!A3:I9", "Confirmed!A3:I9", "range", 0),
    ],
)
def test_a_confirmed_read_is_logged_with_the_range_served(
    cycle: Cycle, asked: str, served: str, operation: str, count: int
) -> None:
    answer = (
        cycle.sheets()
        .spreadsheets()
        .values()
        .get(spreadsheetId=SPREADSHEET_ID, range=asked)
        .execute()
    )
    assert answer["range"] == served
    [read] = cycle.kinds("sheets.read_confirmed")
    assert read["operation"] == operation
    assert read["range"] == served
    assert read["result"] == {"count": count}


def test_gspread_opens_the_register_by_title_with_a_double_quoted_drive_query(
    cycle: Cycle,
) -> None:
    client = _gspread_client(cycle)
    spreadsheet = client.open("provebench call register")  # q: mimeType="…" and name = "…"
    assert spreadsheet.id == SPREADSHEET_ID
    assert spreadsheet.worksheet(CONFIRMED_SHEET).get_all_values()[1][0] == "old1"
    with pytest.raises(gspread.SpreadsheetNotFound):
        client.open("another register")
    in_root = client.list_spreadsheet_files(folder_id="root")  # q: … and parents in "root"
    assert [(f["id"], f["name"]) for f in in_root] == [(SPREADSHEET_ID, "provebench call register")]
    assert client.list_spreadsheet_files(folder_id="fld-b") == []
    searches = [p for p in cycle.kinds("http.request") if p["route"] == "/drive/v3/files"]
    assert searches[0]["query"]["q"] == [
        'mimeType="application/vnd.google-apps.spreadsheet" and name = "provebench call register"'
    ]
    assert cycle.kinds("drive.list") == []  # a spreadsheet search is not a listing of recordings


def test_drive_queries_take_either_quote_and_escapes(cycle: Cycle) -> None:
    files = cycle.drive().files()
    double = files.list(q='"fld-b" in parents and name = "call 3"').execute()
    assert [f["id"] for f in double["files"]] == ["f003"]
    single = files.list(q="parents in 'fld-b' and name != 'call 3'").execute()
    assert [f["id"] for f in single["files"]] == ["f000", "f006"]
    escaped = files.list(q=r"""name = 'call 3' and name != "say \"hi\" \\" """).execute()
    assert [f["id"] for f in escaped["files"]] == ["f003"]
    assert parse_q(r'name = "say \"hi\" \\"').matches({"name": 'say "hi" \\'})
    assert not parse_q(r'name = "say \"hi\" \\"').matches({"name": 'say "hi" \\\\'})
    for text in ('name = "unterminated', "name = 'mixed\"", 'name = "a" or name = "b"'):
        with pytest.raises(HttpError) as raised:
            files.list(q=text).execute()
        assert raised.value.status_code == 400
    register = files.get(fileId=SPREADSHEET_ID, fields="id,name,mimeType,parents").execute()
    assert register == {
        "id": SPREADSHEET_ID,
        "name": "provebench call register",
        "mimeType": "application/vnd.google-apps.spreadsheet",
        "parents": ["root"],
    }


def test_about_get_names_the_service_account_and_requires_fields(cycle: Cycle) -> None:
    about = cycle.drive().about()
    answer = about.get(fields="user(emailAddress,me),storageQuota(limit)").execute()
    assert answer == {
        "user": {"emailAddress": "importer@provebench-lab.iam.gserviceaccount.com", "me": True},
        "storageQuota": {"limit": "0"},
    }
    status, body = _raw(cycle.lab, "GET", "/drive/v3/about", _bearer(cycle))
    assert status == 400
    assert "fields" in body["error"]["message"]
    routes = [p["route"] for p in cycle.kinds("http.request")]
    assert routes.count("/drive/v3/about") == 2


def _bearer(cycle: Cycle) -> dict[str, str]:
    credentials = cycle.credentials()
    credentials.refresh(google.auth.transport.requests.Request())
    return {"Authorization": f"Bearer {credentials.token}"}


def test_gspread_backoff_client_duplicates_an_in_doubt_append(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The trap docs/pilot-emulator.md warns about: BackOffHTTPClient retries any 5xx, and an
    # append answered 500 after it took effect (pilot §14) is then written twice.
    monkeypatch.setattr(gspread.http_client.time, "sleep", lambda seconds: None)
    for cycle in open_cycle(tmp_path, [Fault("append_rows", "a", "applied_then_error")]):
        client = _gspread_client(cycle, gspread.http_client.BackOffHTTPClient)
        working = client.open_by_key(SPREADSHEET_ID).worksheet(WORKING_SHEET)
        working.append_rows([_row("a")], value_input_option="RAW")
        assert [row[0] for row in cycle.gateway.working_rows] == ["a", "a"]


def test_gspread_plain_client_leaves_an_in_doubt_append_to_the_register(tmp_path: Path) -> None:
    # The safe configuration: the plain HTTPClient raises the 500; the importer reports the
    # rows in doubt (naming the call) and lets the next cycle's confirmed ids settle them.
    for cycle in open_cycle(tmp_path, [Fault("append_rows", "a", "applied_then_error")]):
        client = _gspread_client(cycle)
        working = client.open_by_key(SPREADSHEET_ID).worksheet(WORKING_SHEET)
        with pytest.raises(gspread.exceptions.APIError) as raised:
            working.append_rows([_row("a")], value_input_option="RAW")
        assert raised.value.code == 500
        call = raised.value.error["details"][0]["metadata"]["call"]
        assert [row[0] for row in cycle.gateway.working_rows] == ["a"]
        assert call == str(cycle.kinds("fault_injected")[0]["call"])


def test_server_binds_loopback_only() -> None:
    session = LabSession(LAYOUT)
    for host in ("0.0.0.0", "::", "example.org"):
        with pytest.raises(ProvebenchError):
            LabServer(session, host=host)
    server = LabServer(session)
    try:
        assert server.base_url.startswith("http://127.0.0.1:")
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("'Working sheet'!A1:I", ("Working sheet", 1, 1, 9, None)),
        ("Confirmed", ("Confirmed", None, None, None, None)),
        ("A2:H", (None, 1, 2, 8, None)),
        ("'It''s'!B3", ("It's", 2, 3, 2, 3)),
        ("Sheet1!A:I", ("Sheet1", 1, None, 9, None)),
    ],
)
def test_a1_ranges(text: str, expected: tuple[object, ...]) -> None:
    parsed = parse_a1(text)
    assert (parsed.sheet, parsed.first_col, parsed.first_row, parsed.last_col, parsed.last_row) == (
        expected
    )


def test_a1_rejects_garbage() -> None:
    for text in ("'unterminated", "!A1", "Sheet!A1:", "Sheet!1A"):
        with pytest.raises(ValueError, match="Unable to parse range"):
            parse_a1(text)


def test_raw_wire_booleans_in_either_case_and_percent_encoded_ranges(cycle: Cycle) -> None:
    credentials = cycle.credentials()
    credentials.refresh(google.auth.transport.requests.Request())
    headers = {"Authorization": f"Bearer {credentials.token}", "Content-Type": "application/json"}
    status, body = _raw(
        cycle.lab, "GET", "/drive/v3/files?pageSize=2&supportsAllDrives=True&fields=files(id)",
        headers,
    )  # fmt: skip
    assert (status, body) == (200, {"files": [{"id": "f000"}, {"id": "f001"}]})
    status, body = _raw(cycle.lab, "GET", "/drive/v3/files?supportsAllDrives=yes", headers)
    assert status == 400
    path = (
        f"/v4/spreadsheets/{SPREADSHEET_ID}/values/%27Working%20sheet%27%21A1%3AH:append"
        "?valueInputOption=RAW&includeValuesInResponse=True"
    )
    payload = json.dumps({"values": [[*_row("z")[:6], 13, True]]}).encode()
    status, body = _raw(cycle.lab, "POST", path, headers, payload)
    assert status == 200, body
    assert body["updates"]["updatedData"]["values"] == [[*_row("z")[:6], "13", "TRUE"]]
    assert cycle.gateway.working_rows == [(*_row("z")[:6], "13", "TRUE")]
    routes = [p["route"] for p in cycle.kinds("http.request")]
    assert "/v4/spreadsheets/{spreadsheetId}/values/{range}:append" in routes
    appended = [p for p in cycle.kinds("http.request") if p["route"].endswith(":append")]
    assert appended[0]["params"]["range"] == "'Working sheet'!A1:H"


def _token_of(lab: EmulatedLab) -> str:
    status, body = _grant(lab, _assertion(lab.account.info(), lab.account.key_id))
    assert status == 200, body
    token: str = body["access_token"]
    return token


def test_a_token_is_valid_only_in_the_cycle_it_was_issued_in(tmp_path: Path) -> None:
    """A caller that outlives its cycle (pilot §6): 401, and recorded in no cycle."""
    cycles = open_cycle(tmp_path)
    first = next(cycles)
    lab, token = first.lab, _token_of(first.lab)
    auth = {"Authorization": f"Bearer {token}"}
    assert _raw(lab, "GET", "/provebench/v1/cycle", auth)[0] == 200
    lab.session.close_cycle()
    assert _raw(lab, "GET", "/provebench/v1/cycle", auth)[0] == 503  # no cycle: none to act in
    assert _grant(lab, _assertion(lab.account.info(), lab.account.key_id))[0] == 503
    record = CycleRecord()
    second = CycleContext(
        Gateway(drive=DriveState(), record=record, faults=FaultPlan([]), schema=SCHEMA,
                confirmed_ids=frozenset(), describe_file=describe_file, server_page_size=7),
        time_zone="Europe/Berlin", run_version="v1", work_dir=tmp_path,
    )  # fmt: skip
    lab.open_cycle(second)
    status, body = _raw(lab, "DELETE", "/drive/v3/files/f001", auth)
    assert (status, body["error"]["status"]) == (401, "UNAUTHENTICATED")
    assert record.entries == []  # the late call is not in the new cycle's record
    assert _raw(lab, "DELETE", "/drive/v3/files/f001", {"Authorization": "Bearer forged"})[0] == 401
    assert [p["status"] for k, p in record.entries if k == "http.request"] == [401]  # forged: kept
    fresh = {"Authorization": f"Bearer {_token_of(lab)}"}
    assert _raw(lab, "GET", "/provebench/v1/cycle", fresh)[0] == 200
    lab.session.close_cycle()
    lab.stop()


def test_a_grant_asking_for_more_than_an_hour_or_signed_with_a_rotated_key_is_refused(
    cycle: Cycle,
) -> None:
    lab = cycle.lab
    info, key_id = lab.account.info(), lab.account.key_id
    now = int(time.time())
    # `iat` with every `exp`: left to `_assertion`, it is read a moment later, and a second that
    # ticks in between turned "3601 s" into an hour exactly (a flaky pass, seen under load).
    for claims in ({"exp": 10**12, "iat": now}, {"exp": now + 3601, "iat": now},
                   {"exp": now, "iat": now}):  # fmt: skip
        status, body = _grant(lab, _assertion(info, key_id, **claims))
        assert (status, body["error"]) == (400, "invalid_grant"), claims
    assert _grant(lab, _assertion(info, key_id))[0] == 200
    lab.account.rotate_key()  # what --agent-cmd does for each cycle
    assert _grant(lab, _assertion(info, key_id))[0] == 400
    assert _grant(lab, _assertion(lab.account.info(), lab.account.key_id))[0] == 200


def _auth_headers(cycle: Cycle) -> dict[str, str]:
    return {"Authorization": f"Bearer {_token_of(cycle.lab)}", "Content-Type": "application/json"}


def test_a_diagnostics_request_holds_at_most_1000_messages(cycle: Cycle) -> None:
    headers = _auth_headers(cycle)
    note = {"channel": "note", "message": "n"}
    path = "/provebench/v1/diagnostics"
    status, body = _raw(cycle.lab, "POST", path, headers, json.dumps([note] * 1000).encode())
    assert (status, body) == (200, {"accepted": 1000})
    before = len(cycle.record.entries)
    status, body = _raw(cycle.lab, "POST", path, headers, json.dumps([0] * 1001).encode())
    assert (status, body["error"]["status"]) == (400, "INVALID_ARGUMENT")
    added = cycle.record.entries[before:]
    assert [(kind, payload["status"]) for kind, payload in added] == [("http.request", 400)]


def test_a_diagnostics_file_is_read_up_to_its_message_cap(
    cycle: Cycle, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each message is a ledger entry: 16 MiB of `0` lines would make eight million.
    from provebench.pilot.emulator import _diagnostics

    monkeypatch.setattr(_diagnostics, "MAX_MESSAGES_PER_FILE", 3)
    path = tmp_path / "diagnostics.jsonl"
    note = json.dumps({"channel": "note", "message": "n"})
    path.write_text("\n".join([note] * 3 + ["0"] * 50) + "\n", encoding="utf-8")
    before = len(cycle.record.entries)
    ctx = CycleContext(cycle.gateway, time_zone="UTC", run_version="v1", work_dir=tmp_path)
    _diagnostics.read_diagnostics_file(ctx, cycle.gateway, path)
    added = [payload for kind, payload in cycle.record.entries[before:] if kind == "diagnostics"]
    assert [entry["channel"] for entry in added] == ["note", "note", "note", "invalid"]
    assert added[-1]["where"] == "line 4" and "more than 3 messages" in added[-1]["problem"]


APPEND = (
    f"/v4/spreadsheets/{SPREADSHEET_ID}/values/%27Working%20sheet%27%21A1:append"
    "?valueInputOption=RAW"
)


def test_an_answer_echoing_a_lone_surrogate_is_sent_as_recorded(cycle: Cycle) -> None:
    headers = _auth_headers(cycle)
    payload = b'{"majorDimension": "\\ud800", "values": []}'
    status, body = _raw(cycle.lab, "POST", APPEND, headers, payload)
    assert status == 400, body
    assert body["error"]["status"] == "INVALID_ARGUMENT"
    assert cycle.kinds("http.request")[-1]["status"] == 400


def _wire(lab: EmulatedLab, data: bytes, timeout: float = 5) -> bytes:
    """Send raw bytes; everything the server answers until it closes the connection."""
    with socket.create_connection(("127.0.0.1", lab.server.port), timeout=timeout) as sock:
        sock.sendall(data)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return received


def _head(cycle: Cycle, request_line: str, *headers: str) -> bytes:
    token = _token_of(cycle.lab)
    lines = [request_line, "Host: x", f"Authorization: Bearer {token}", *headers, "", ""]
    return "\r\n".join(lines).encode("latin-1")


def _statuses(answer: bytes) -> list[int]:
    return [int(line.split()[1]) for line in answer.split(b"\r\n") if line.startswith(b"HTTP/1.")]


def test_a_chunked_body_is_411_recorded_and_the_connection_closed(cycle: Cycle) -> None:
    row = json.dumps({"values": [_row("chunked")]}).encode()
    chunked = f"{len(row):x}\r\n".encode() + row + b"\r\n0\r\n\r\n"
    answer = _wire(cycle.lab, _head(cycle, f"POST {APPEND} HTTP/1.1", "Transfer-Encoding: chunked")
                   + chunked)  # fmt: skip
    assert _statuses(answer) == [411]  # the chunk bytes were not read as a next request
    assert b'"lengthRequired"' in answer
    assert cycle.gateway.working_rows == []
    assert cycle.kinds("http.request")[-1]["status"] == 411


@pytest.mark.parametrize(("length", "status"), [("\u00b2", 400), ("-1", 400), ("+5", 400),
                                                ("99999999999", 413)])  # fmt: skip
def test_a_content_length_that_is_not_ascii_digits_is_400_and_recorded(
    cycle: Cycle, length: str, status: int
) -> None:
    answer = _wire(cycle.lab, _head(cycle, "POST /drive/v3/files HTTP/1.1",
                                    f"Content-Length: {length}") + b"ab")  # fmt: skip
    assert _statuses(answer) == [status]
    assert cycle.kinds("http.request")[-1]["status"] == status


@pytest.mark.parametrize(
    "query",
    [
        "pageSize=%C2%B2",
        "pageSize=%D9%A5",
        "pageSize=%EF%BC%95",
        "fields=" + "a(" * 600 + "id" + ")" * 600,
    ],
)
def test_bad_numbers_and_deep_field_masks_are_400_not_500(cycle: Cycle, query: str) -> None:
    status, body = _raw(cycle.lab, "GET", f"/drive/v3/files?{query}", _auth_headers(cycle))
    assert (status, body["error"]["status"]) == (400, "INVALID_ARGUMENT")
    assert cycle.kinds("http.request")[-1]["status"] == 400


def test_field_masks_nest_up_to_the_limit(cycle: Cycle) -> None:
    from provebench.pilot.emulator._fields import MAX_FIELDS_DEPTH

    nested = "files(" * MAX_FIELDS_DEPTH + "id" + ")" * MAX_FIELDS_DEPTH
    status, _ = _raw(cycle.lab, "GET", f"/drive/v3/files?fields={nested}", _auth_headers(cycle))
    assert status == 200


@pytest.mark.parametrize(
    "payload",
    [
        b'{"values": [["nan", "", "", "", "", "", NaN, ""]]}',
        b'{"values": [["inf", "", "", "", "", "", Infinity, ""]]}',
        b'{"values": [["big", "", "", "", "", "", 1e400, ""]]}',
        b'{"values": [["dup", "", "", "", "", "", "", ""]], "values": []}',
        b'{"\\udc00": 1, "values": []}',
    ],
)
def test_request_bodies_are_read_by_the_strict_json_policy(cycle: Cycle, payload: bytes) -> None:
    status, body = _raw(cycle.lab, "POST", APPEND, _auth_headers(cycle), payload)
    assert (status, body["error"]["status"]) == (400, "INVALID_ARGUMENT")
    assert cycle.gateway.working_rows == []
    logged = cycle.kinds("http.request")[-1]
    assert logged["status"] == 400
    assert set(logged["body"]) == {"bytes", "sha256"}  # recorded by digest, not re-read laxly


def test_batch_clear_is_refused_as_delete_row_and_batch_update_as_update_row(cycle: Cycle) -> None:
    values = cycle.sheets().spreadsheets().values()
    attempts = [
        values.batchClear(spreadsheetId=SPREADSHEET_ID, body={"ranges": [CONFIRMED_SHEET]}),
        values.batchClearByDataFilter(spreadsheetId=SPREADSHEET_ID, body={"dataFilters": []}),
        values.batchUpdate(spreadsheetId=SPREADSHEET_ID, body={"data": []}),
    ]
    for request in attempts:
        with pytest.raises(HttpError) as raised:
            request.execute()
        assert raised.value.status_code == 403
    refused = [p["operation"] for p in cycle.kinds("refused")]
    assert refused == ["sheets.delete_row", "sheets.delete_row", "sheets.update_row"]


@pytest.mark.parametrize("method", ["OPTIONS", "TRACE", "post", "BREW"])
def test_other_methods_get_a_json_error_and_are_recorded(cycle: Cycle, method: str) -> None:
    answer = _wire(
        cycle.lab, _head(cycle, f"{method} /drive/v3/files HTTP/1.1", "Connection: close")
    )
    assert _statuses(answer) == [404]
    error = json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]
    assert error["status"] == "NOT_FOUND"
    logged = cycle.kinds("http.request")[-1]
    assert (logged["method"], logged["status"]) == (method, 404)


def test_head_is_recorded_and_answered_without_a_body(cycle: Cycle) -> None:
    answer = _wire(cycle.lab, _head(cycle, "HEAD /drive/v3/files HTTP/1.1"))
    assert _statuses(answer) == [404]
    assert answer.endswith(b"\r\n\r\n")  # headers only, then the connection is closed
    assert cycle.kinds("http.request")[-1]["method"] == "HEAD"


def test_a_malformed_request_line_gets_a_json_error() -> None:
    with EmulatedLab() as lab:
        answer = _wire(lab, b"GET /x HTTP/9.9\r\n\r\n")
    assert _statuses(answer) == [505]
    assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]["code"] == 505


@pytest.mark.parametrize(
    "partial",
    [
        b"GET /drive/v3/files HTTP/1.1\r\nHost: x\r\n",
        b"POST /drive/v3/files HTTP/1.1\r\nContent-Length: 9\r\n\r\nab",
    ],
)
def test_a_stalled_request_is_dropped_after_the_socket_timeout(
    cycle: Cycle, monkeypatch: pytest.MonkeyPatch, partial: bytes
) -> None:
    monkeypatch.setattr(cycle.lab.server._httpd.RequestHandlerClass, "timeout", 0.3)
    before = len(cycle.record.entries)
    started = time.monotonic()
    assert _wire(cycle.lab, partial, timeout=10) == b""  # closed, nothing answered
    assert time.monotonic() - started < 5
    assert len(cycle.record.entries) == before  # a request that never arrived is not recorded


# -- Red team 26, H3/F1: whether an append landed is shown by a read of the confirmed ids only ---
def _append(values: Any, rows: list[list[str]]) -> Any:
    return values.append(
        spreadsheetId=SPREADSHEET_ID,
        range=f"'{WORKING_SHEET}'!A1:H",
        valueInputOption="RAW",
        includeValuesInResponse=True,
        body={"values": rows},
    ).execute(num_retries=0)


def _answers_after_an_in_doubt_append(tmp_path: Path, fault: str) -> tuple[list[object], int]:
    """Every answer but a read of the Confirmed sheet, after an append answered 500 (`fault`
    decides whether it landed), and the rows the working sheet holds."""
    for cycle in open_cycle(tmp_path, [Fault("append_rows", "a", fault)]):
        sheets = cycle.sheets().spreadsheets()
        values = sheets.values()
        with pytest.raises(HttpError) as in_doubt:
            _append(values, [_row("a")])
        assert in_doubt.value.status_code == 500
        # An empty append carries no work (it spends no fault); then an append of one row.
        seen: list[object] = [_append(values, []), _append(values, [_row("b")])]
        seen.append(sheets.get(spreadsheetId=SPREADSHEET_ID).execute())
        seen.append(sheets.get(spreadsheetId=SPREADSHEET_ID, fields="sheets").execute())
        with pytest.raises(HttpError) as working:
            values.get(spreadsheetId=SPREADSHEET_ID, range=WORKING_SHEET).execute()
        seen.append((working.value.status_code, _error_body(working.value)))
        drive = cycle.drive().files()
        seen.append(drive.list(pageSize=1000, fields="*").execute())
        seen.append(drive.get(fileId=SPREADSHEET_ID, fields="*").execute())
        return seen, len(cycle.gateway.working_rows)
    raise AssertionError("no cycle")


def test_no_answer_but_a_confirmed_read_tells_whether_an_in_doubt_append_landed(
    tmp_path: Path,
) -> None:
    # F1: the append answer's tableRange counted the working sheet's rows, those of an
    # applied_then_error append included; spreadsheets.get's rowCount did the same past 999.
    landed, rows_landed = _answers_after_an_in_doubt_append(tmp_path / "a", "applied_then_error")
    lost, rows_lost = _answers_after_an_in_doubt_append(tmp_path / "b", "server_error_500")
    assert (rows_landed, rows_lost) == (2, 1)  # the worlds differ ...
    assert landed == lost  # ... and no answer says which one the importer is in
    empty, one = landed[0], landed[1]
    assert isinstance(empty, dict) and isinstance(one, dict)
    assert empty["tableRange"] == one["tableRange"] == "'Working sheet'!A1:H1"
    assert one["updates"]["updatedRange"] == "'Working sheet'!A2:H2"


def test_a_big_working_sheet_and_register_report_the_fixed_grid(tmp_path: Path) -> None:
    for cycle in open_cycle(tmp_path):
        cycle.lab.confirmed_rows.extend([[f"c{i}", "", "", "", "", "", "", "", "x"]
                                         for i in range(1500)])  # fmt: skip
        cycle.gateway.working_rows.extend([("w",) * 8] * 1200)
        got = cycle.sheets().spreadsheets().get(spreadsheetId=SPREADSHEET_ID).execute()
        counts = [s["properties"]["gridProperties"]["rowCount"] for s in got["sheets"]]
        assert counts == [1000, 1000]
        # The whole register is still read by an open-ended range.
        values = cycle.sheets().spreadsheets().values()
        read = values.get(spreadsheetId=SPREADSHEET_ID, range=CONFIRMED_SHEET).execute()
        assert len(read["values"]) == 1 + 1 + 1500


def test_a_range_past_the_register_is_a_logged_read_not_a_400(cycle: Cycle) -> None:
    # A 400 for rows past the last one, answered before any read was logged, told the
    # register's size outside every read of it.
    values = cycle.sheets().spreadsheets().values()
    got = values.get(spreadsheetId=SPREADSHEET_ID, range=f"{CONFIRMED_SHEET}!A1500:I1500").execute()
    assert "values" not in got
    assert got["range"] == "Confirmed!A1500:I1500"
    [read] = cycle.kinds("sheets.read_confirmed")
    assert read["operation"] == "range"


# -- Red team 26, H6: the log records what a listing's answer showed ---------------------------
def test_the_log_records_the_ids_a_listing_answer_carried(cycle: Cycle) -> None:
    files = cycle.drive().files()
    whole = files.list(pageSize=7).execute()
    blind = files.list(pageSize=7, fields="nextPageToken").execute()
    no_ids = files.list(pageSize=7, fields="files(name)").execute()
    filtered = files.list(pageSize=7, q="'fld-b' in parents").execute()
    assert [f["id"] for f in whole["files"]] == [f"f{i:03d}" for i in range(7)]
    assert "files" not in blind
    assert "id" not in no_ids["files"][0]
    assert [f["id"] for f in filtered["files"]] == ["f000", "f003", "f006"]
    pages = cycle.kinds("drive.list")
    assert len(pages) == 4
    assert "shown_ids" not in pages[0]  # the whole page: drive.list/2 as before
    assert pages[1]["shown_ids"] == []
    assert pages[2]["shown_ids"] == []
    assert pages[3]["shown_ids"] == ["f000", "f003", "f006"]
    assert pages[3]["result"] == pages[0]["result"]  # the page served stays in the log
