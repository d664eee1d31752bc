"""Benchmark of the Drive v3 / Sheets v4 emulator (docs/pilot-emulator.md).

1. `files.list` pages of 1,000 files per second, and single-row appends per second, over one
   in-memory cycle: with a keep-alive `http.client` connection, with google-api-python-client
   (the realistic case), and the same operations called on the gateway directly (the baseline:
   what HTTP costs on top of the lab).
2. The pilot §11 control corpus end to end: the external reference importer
   (examples/gdrive_importer) through `--agent-cmd`, against the in-process reference importer on
   the same corpus (the baseline). Target: under 30 s on a 2-core machine.

Usage: `python -m bench.bench_emulator [--quick]`; figures go to `bench/out/emulator.json`.
"""

from __future__ import annotations

import http.client
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

OUT = Path(__file__).parent / "out" / "emulator.json"
REPO = Path(__file__).resolve().parents[1]
IMPORTER = REPO / "examples" / "gdrive_importer" / "importer.py"


def _cycle(files: int, tmp: Path) -> tuple[Any, Any, Any]:
    from provebench.pilot import DriveFile
    from provebench.pilot.emulator import EmulatedLab
    from provebench.pilot.lab import CycleContext, CycleRecord, DriveState, FaultPlan, Gateway
    from provebench.pilot.lab._runner import SCHEMA, describe_file

    drive = DriveState()
    for index in range(files):
        drive.add(
            DriveFile(
                file_id=f"f{index:07d}",
                name=f"call {index}",
                created_at_utc="2026-03-01T10:00:00Z",
                mime_type="audio/mpeg",
                size_bytes=1000,
                duration_sec=12.3,
                folder_id="fld",
            )
        )
    drive.settle()
    gateway = Gateway(
        drive=drive,
        record=CycleRecord(),
        faults=FaultPlan(),
        schema=SCHEMA,
        confirmed_ids=frozenset(),
        describe_file=describe_file,
        server_page_size=1000,
    )
    ctx = CycleContext(gateway, time_zone="Europe/Berlin", run_version="v1", work_dir=tmp)
    lab = EmulatedLab()
    lab.confirmed_rows = []
    lab.start()
    lab.open_cycle(ctx)
    return lab, ctx, gateway


def _token(lab: Any) -> str:
    from google.auth.transport.requests import Request
    from google.oauth2 import service_account

    creds = service_account.Credentials.from_service_account_file(
        str(lab.credentials_path), scopes=["https://www.googleapis.com/auth/drive"]
    )
    creds.refresh(Request())
    return str(creds.token)


ROW = ["x", "2026-03-01T11:00:00+01:00", "incoming", "M001", "Anna", "491", "13", "drive://x"]


def _rate(count: int, seconds: float) -> float:
    return round(count / seconds, 1) if seconds > 0 else 0.0


def micro(files: int, pages: int, appends: int) -> dict[str, Any]:
    from google.oauth2 import service_account
    from googleapiclient.discovery import build

    with tempfile.TemporaryDirectory() as tmp:
        lab, ctx, gateway = _cycle(files, Path(tmp))
        try:
            headers = {"Authorization": f"Bearer {_token(lab)}"}
            connection = http.client.HTTPConnection("127.0.0.1", lab.server.port)
            token = None
            start = time.perf_counter()
            for _ in range(pages):
                query = "/drive/v3/files?pageSize=1000&fields=nextPageToken,files(id,name,size)"
                if token:
                    query += f"&pageToken={token}"
                connection.request("GET", query, headers=headers)
                body = json.loads(connection.getresponse().read())
                token = body.get("nextPageToken")
            list_raw = _rate(pages, time.perf_counter() - start)
            sid = lab.session.layout.spreadsheet_id
            payload = json.dumps({"values": [ROW]}).encode()
            start = time.perf_counter()
            for _ in range(appends):
                connection.request(
                    "POST",
                    f"/v4/spreadsheets/{sid}/values/A1:append?valueInputOption=RAW",
                    body=payload,
                    headers={**headers, "Content-Type": "application/json"},
                )
                connection.getresponse().read()
            append_raw = _rate(appends, time.perf_counter() - start)
            connection.close()

            creds = service_account.Credentials.from_service_account_file(
                str(lab.credentials_path), scopes=["https://www.googleapis.com/auth/drive"]
            )
            drive = build("drive", "v3", credentials=creds, static_discovery=True,
                          client_options={"api_endpoint": lab.drive_endpoint})  # fmt: skip
            sheets = build("sheets", "v4", credentials=creds, static_discovery=True,
                           client_options={"api_endpoint": lab.sheets_endpoint})  # fmt: skip
            files_api = drive.files()
            request = files_api.list(pageSize=1000, fields="nextPageToken,files(id,name,size)")
            start = time.perf_counter()
            for _ in range(pages):
                response = request.execute()
                request = files_api.list_next(request, response) or files_api.list(pageSize=1000)
            list_client = _rate(pages, time.perf_counter() - start)
            values = sheets.spreadsheets().values()
            start = time.perf_counter()
            for _ in range(appends):
                values.append(spreadsheetId=sid, range="A1", valueInputOption="RAW",
                              body={"values": [ROW]}).execute()  # fmt: skip
            append_client = _rate(appends, time.perf_counter() - start)

            start = time.perf_counter()
            token = None
            for _ in range(pages):
                page = gateway.list_files(1000, token)
                token = page.next_page_token
            list_direct = _rate(pages, time.perf_counter() - start)
            row = dict(zip(lab.session.layout.importer_columns, ROW, strict=True))
            start = time.perf_counter()
            for _ in range(appends):
                gateway.append_rows([row])
            append_direct = _rate(appends, time.perf_counter() - start)
        finally:
            lab.close_cycle(ctx)
            lab.stop()
    return {
        "files_list_pages_of_1000_per_sec": {
            "http_client_keepalive": list_raw,
            "google_api_python_client": list_client,
            "gateway_direct_baseline": list_direct,
            "ratio_http_client_vs_direct": round(list_raw / list_direct, 3),
        },
        "single_row_appends_per_sec": {
            "http_client_keepalive": append_raw,
            "google_api_python_client": append_client,
            "gateway_direct_baseline": append_direct,
            "ratio_http_client_vs_direct": round(append_raw / append_direct, 4),
        },
    }


def end_to_end(quick: bool) -> dict[str, Any]:
    from provebench.pilot.corpus._folder import write_corpus
    from provebench.pilot.corpus._profiles import corpus_config
    from provebench.pilot.emulator._commands import run_with_command
    from provebench.pilot.lab._runner import run_lab

    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        profile = "public" if quick else "control"
        write_corpus(corpus_config(seed=11, profile=profile), corpus)  # type: ignore[arg-type]
        start = time.perf_counter()
        run_lab(corpus, "reference", Path(tmp) / "inprocess")
        inprocess = time.perf_counter() - start
        start = time.perf_counter()
        run_with_command(corpus, f"python {IMPORTER}", Path(tmp) / "external")
        external = time.perf_counter() - start
        expected = (corpus / "expected_final_rows.csv").read_bytes()
        exact = (Path(tmp) / "external" / "register.csv").read_bytes() == expected
    return {
        "corpus": f"{profile}, seed 11",
        "in_process_reference_sec": round(inprocess, 2),
        "external_reference_via_emulator_sec": round(external, 2),
        "ratio_external_vs_in_process": round(external / inprocess, 1),
        "external_register_equals_expected": exact,
    }


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    figures: dict[str, Any] = {
        "quick": quick,
        "micro": micro(
            files=5_000 if quick else 20_000,
            pages=20 if quick else 200,
            appends=100 if quick else 1_000,
        ),
        "end_to_end": end_to_end(quick),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(json.dumps(figures, indent=2, sort_keys=True))
    return 0 if figures["end_to_end"]["external_register_equals_expected"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
