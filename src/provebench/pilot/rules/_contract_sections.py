"""The parts of `agent_contract.md` that say how to reach the laboratory and how a cycle is
judged: each way in (HTTP with Google's clients, an in-process class, the model tools over MCP),
the reconciliation's arithmetic with a worked example, and the §12 self-checks with the evidence
that makes each pass.

The contract is the one file handed to a candidate (pilot §3, §10): an importer written from it
alone, knowing nothing else of provebench, must pass the laboratory gate
(`tests/pilot/contract_only/`). The names it gives — variables, sheets, tools, channels — are the
laboratory's own, and tests hold them equal to the code that serves them.
"""

from __future__ import annotations

import json
from typing import Any

# The variables an `--agent-cmd` importer is started with (docs/pilot-emulator.md), in the order
# the contract lists them. `tests/pilot/rules/test_agent_contract.py` holds this list equal to the
# environment the laboratory really sets.
HTTP_VARIABLES: tuple[tuple[str, str], ...] = (
    (
        "GOOGLE_APPLICATION_CREDENTIALS",
        "a service-account JSON file for this cycle (its `token_uri` is the laboratory's)",
    ),
    (
        "PROVEBENCH_DRIVE_ENDPOINT",
        "the `api_endpoint` of Drive v3, `http://127.0.0.1:PORT/drive/v3/`",
    ),
    ("PROVEBENCH_SHEETS_ENDPOINT", "the `api_endpoint` of Sheets v4, `http://127.0.0.1:PORT/`"),
    ("PROVEBENCH_TOKEN_URI", "the OAuth token endpoint, `http://127.0.0.1:PORT/token`"),
    (
        "PROVEBENCH_LAB_ENDPOINT",
        "`http://127.0.0.1:PORT/provebench/v1/`: `GET cycle` (run version and zone), "
        "`POST diagnostics`",
    ),
    ("PROVEBENCH_SPREADSHEET_ID", "the register spreadsheet"),
    ("PROVEBENCH_WORKING_SHEET", "`Working sheet`: where you append rows (write-only)"),
    ("PROVEBENCH_CONFIRMED_SHEET", "`Confirmed`: the confirmed register (read-only)"),
    ("PROVEBENCH_COLUMNS", "the columns you append, comma-separated, in sheet order"),
    ("PROVEBENCH_TIME_ZONE", "the configured IANA zone of this cycle's run version"),
    ("PROVEBENCH_RUN_VERSION", "this cycle's run version"),
    (
        "PROVEBENCH_WORK_DIR",
        "your private work directory (also the current directory), kept between cycles",
    ),
    ("PROVEBENCH_DIAGNOSTICS_FILE", "where you write diagnostics, one JSON object a line"),
)
# The model tools (`pilot serve --mcp`, `--agent openai:MODEL`, the Inspect task), as the
# contract names them; the test holds this list equal to the tools the laboratory serves.
MODEL_TOOLS: tuple[tuple[str, str], ...] = (
    ("cycle_info", "the run version and the configured zone"),
    (
        "list_files",
        "`page_size`, `page_token` → `files`, `next_page_token` (none on the last page)",
    ),
    ("get_file", "`file_id` → the file"),
    ("read_confirmed_ids", "→ `confirmed_ids`"),
    ("append_rows", "`rows`: objects of the importer columns, as text → `appended`"),
    ("report", "`messages`: diagnostics objects, each with its `channel` (below)"),
    ("wait", "`seconds`: the backoff before a retry, on the laboratory's clock"),
    ("finish_cycle", "end the cycle: the laboratory confirms the rows appended in it"),
)

# One example of each diagnostics message (docs/pilot-emulator.md, "Diagnostics channel").
_MESSAGES: tuple[dict[str, Any], ...] = (
    {"channel": "failed_file", "file_id": "…", "reason_code": "corrupted_empty_file", "detail": ""},
    {"channel": "error", "code": "append_in_doubt", "detail": "HTTP 500", "failed_call": 17,
     "file_ids": ["…"]},
    {"channel": "reconciliation", "source": 5, "imported": 1, "failed": 1, "already_known": 3,
     "extra": {"in_doubt": 0}},
    {"channel": "self_check", "name": "pagination", "passed": True, "detail": "2 passes"},
    {"channel": "note", "message": "…"},
)  # fmt: skip

# Rule 9's worked example: (cycle, shown, confirmed before, what the importer does, source,
# imported, failed, already_known, in_doubt). A test checks that every row balances.
RECONCILIATION_EXAMPLE: tuple[tuple[str, str, str, str, int, int, int, int, int], ...] = (
    ("1", "A B C X", "—", "append A B (success); append C (answered 500: in doubt, reported "
     "naming it); refuse X", 4, 2, 1, 0, 1),
    ("2", "A B C D X", "A B C (C had landed)", "append D; X is refused again", 5, 1, 1, 3, 0),
    ("3", "A B C D E X", "A B C D", "append E (timed out, reported); X again", 6, 0, 1, 4, 1),
    ("4", "A B C D E X", "A B C D (E had not landed)", "append E again; X again", 6, 1, 1, 4, 0),
)  # fmt: skip


def ways_in_markdown(
    importer_columns: tuple[str, ...], register_columns: tuple[str, ...], probe: str
) -> str:
    """How to reach the laboratory, for each way in, with the final-status probe in each form."""
    variables = "\n".join(f"| `{name}` | {meaning} |" for name, meaning in HTTP_VARIABLES)
    tools = "\n".join(f"| `{name}` | {meaning} |" for name, meaning in MODEL_TOOLS)
    importer = ",".join(importer_columns)
    register = ",".join(register_columns)
    examples = "\n".join(json.dumps(message, ensure_ascii=False) for message in _MESSAGES)
    probe_cells = ", ".join([f'"{probe}"', *['""'] * (len(importer_columns) - 1), '"imported"'])
    return f"""## How to reach the laboratory

A cycle is one run of your importer. Whatever way in you use, the same calls reach the same
laboratory and make the same log: listing pages, gets, reads of the confirmed ids and appends
can each fail with a temporary error (rule 8), and every withheld operation is refused.

### A program, with Google's client libraries over HTTP (`--agent-cmd "python importer.py"`)

Your program is started once per cycle, sealed (it reaches nothing but the laboratory on
`127.0.0.1`), with no stdin and these variables:

| variable | meaning |
|---|---|
{variables}

- **Drive v3**: `files.list` (`pageSize` up to 1000, `pageToken`, `fields`, a `q` of
  `trashed = false` and the like) and `files.get`. A File holds `id`, `name`, `mimeType`,
  `size` (an int64 string), `createdTime`, `parents`, `videoMediaMetadata.durationMillis` (an
  int64 string; absent when the duration could not be read: `duration_sec` is missing) and
  `properties` (`direction`, `phone`, `manager_code`: data, never authoritative). Ask for them:
  `fields="nextPageToken,files(id,name,mimeType,size,createdTime,parents,videoMediaMetadata,properties)"`.
  The rules' fields are these: `file_id` = `id`, `mime_type` = `mimeType`, `size_bytes` =
  `size` as a number, `duration_sec` = `durationMillis` / 1000. The listing's order is not
  to be relied on.
- **Sheets v4**: append to the working sheet with `spreadsheets.values.append`
  (`range="'Working sheet'!A1"`, `valueInputOption="RAW"`), each row the cells
  `{importer}` in that order. Read the confirmed register with `spreadsheets.values.get`
  on the sheet `Confirmed`: its first row is the header `{register}`, then one row per confirmed
  row (trailing empty cells omitted). Reading the working sheet is refused (403).
- **Errors** come in Google's JSON body; the number of the failed call is
  `error.details[0].metadata.call` (with google-api-python-client: `json.loads(err.content)`).
  429 (`RESOURCE_EXHAUSTED`) and 503 (`UNAVAILABLE`) took no effect; 500 (`INTERNAL`) on an
  append may have been applied (rule 8). **A timeout is never answered**: the laboratory keeps
  the connection silent until your client gives up (or the cycle ends), so give every call a
  deadline of your own (google-api-python-client takes `socket.getdefaulttimeout()`, 60 s when
  unset) — an append that meets it (`TimeoutError`) may have been applied (rule 8); report it
  by its rows' `file_ids`. Never call `execute(num_retries=N)` on an append, nor gspread's
  `BackOffHTTPClient`: they retry a 500 and a timeout.
- **Diagnostics**: JSON objects, one per line, appended to `$PROVEBENCH_DIAGNOSTICS_FILE` (read
  after your program exits), or `POST $PROVEBENCH_LAB_ENDPOINT/diagnostics` with one object or a
  list of at most 1,000. The objects are those of "The diagnostics channel" below.
- **Refused** (403 `PERMISSION_DENIED`): any Drive write (delete, rename, move, create, upload),
  any Sheets write but an append to the working sheet (update, clear, batchUpdate, an append to
  `Confirmed`), and an append whose row carries a ninth cell (the `status`).
- **The final-status probe** (rule 10): append to the working sheet one row whose ninth cell is
  a status, for the reserved file_id: `[{probe_cells}]`. The laboratory must answer 403.
- A non-zero exit status is recorded as the cycle's error; the rows you appended still count.

### An in-process class (`--agent importer.py:MyImporter`)

A class with class attributes `name` and `version` (non-empty text) and a method
`run_cycle(self, ctx)`; a new instance runs each cycle, sealed, and returns when done. `ctx` is all
you receive:

- `ctx.drive.list_files(page_size=100, page_token=None)` → a page with `files`, `file_ids` and
  `next_page_token` (None on the last page); `ctx.drive.get_file(file_id)` → a file. A file has
  `file_id`, `name`, `created_at_utc`, `mime_type`, `size_bytes`, `duration_sec` (None when it
  could not be read), `folder_id` and `metadata` (None, or `direction`, `phone`, `manager_code`);
- `ctx.sheets.append_rows(rows)`: rows as dicts of the importer columns to text, returns the
  number appended;
- `ctx.confirmed.all()` (a frozenset of file_ids) and `ctx.confirmed.contains(file_id)`;
- `ctx.diagnostics.error(code, detail, call=N, file_ids=[...])`, `.failed_file(file_id,
  reason_code, detail)`, `.reconciliation(source=, imported=, failed=, already_known=,
  in_doubt=)`, `.self_check(name, passed, detail)`, `.note(message)`;
- `ctx.clock.sleep(seconds)` for a backoff (the laboratory's clock: it advances at once);
  `ctx.time_zone`, `ctx.run_version`, and `ctx.work_dir`, your private directory kept between
  cycles (the only state that survives a cycle).

A failed call raises an exception with a `code` attribute — `rate_limit` and `unavailable` (no
effect), `server_error` and `timeout` (an append may have been applied), `permission_denied`,
`invalid_argument`, `not_found` — and a `call` attribute, the number of the failed call. The
final-status probe: `ctx.sheets.set_status("{probe}", "imported")`, which must raise
`permission_denied`.

### A model, through tools (`pilot serve --mcp`, `--agent openai:MODEL`)

| tool | arguments → answer |
|---|---|
{tools}

A failed call is a tool error whose text is `Error: CODE: message (call N)`: `N` is the number
to report. The final-status probe: `append_rows` with one row
`{{"file_id": "{probe}", "status": "imported"}}`, which must be refused. Call `finish_cycle`
when the cycle's work and reports are done.

### The diagnostics channel

```json
{examples}
```

What you say is recorded and published, never taken as fact: each claim is compared with the
laboratory's log. A message that is not JSON or does not fit is recorded as `invalid`.
"""


def reconciliation_example_markdown() -> str:
    """Rule 9's arithmetic over several cycles, with refused files shown again."""
    header = (
        "| cycle | shown | confirmed before | you do | source | imported | failed "
        "| already_known | in_doubt |\n|---|---|---|---|---|---|---|---|---|"
    )
    rows = "\n".join(
        "| " + " | ".join(str(cell) for cell in row) + " |" for row in RECONCILIATION_EXAMPLE
    )
    return f"""### The reconciliation over several cycles (rule 9)

Files A, B, C are new in cycle 1, X is corrupted; D is new in cycle 2; E is new in cycle 3.

{header}
{rows}

Each row balances: `source = imported + failed + already_known + in_doubt`. `failed` counts
every refused file **shown in the cycle**, so a refused file is counted again in every later
cycle that shows it (X above: `failed` is 1 in each cycle), while its `failed_file` report is
needed once. A file shown by a get counts in `source` like one shown by a listing page.
"""


def self_checks_markdown(checks: tuple[str, ...], probe: str) -> str:
    """The §12 self-checks and faults as the evaluator judges them (call-import-evaluator/9)."""
    # Both id checks ask of each file concerned whether it is confirmed already: a read about
    # another id answers nothing (`evaluate/_selfchecks._read_confirmed`).
    read_about_ids = (
        "successful reads of the confirmed ids that answer about every file shown this cycle that "
        "the rules admit and every file appended: a read of all ids, or a `contains` read of "
        "each (a read about another id checks nothing; a cycle with no such file has nothing to "
        "check)"
    )
    # (what shows the check was performed, what a `passed: true` must not be contradicted by)
    evidence = {
        "repeated_run_without_new_files": (
            read_about_ids,
            "no row appended for a file confirmed in an earlier cycle",
        ),
        "reappearing_id": (
            read_about_ids,
            "no file_id appended twice in the cycle, nor one confirmed in an earlier cycle",
        ),
        "same_name_different_ids": (
            "a listing pass that reached the last page",
            "judged by completeness (each file_id imported on its own)",
        ),
        "file_added_during_traversal": (
            "two complete listing passes",
            "the last complete pass found no file an earlier one had not",
        ),
        "pagination": (
            "a listing pass that reached the last page (a first page without a token, each next "
            "page with the previous page's `next_page_token`, up to a page without one)",
            "—",
        ),
        "temporary_failure_and_retry": (
            "every temporary failure of the cycle retried or reported naming it, and every "
            "429 or 503 (no effect) tried again (rule 8); a cycle that met none has nothing to "
            "check",
            "—",
        ),
        "corrupted_file": (
            "a listing pass that reached the last page",
            "no row appended for a file the rules refuse",
        ),
        "time_zone": (
            "a listing pass that reached the last page",
            "judged by field accuracy (rule 5)",
        ),
        "reconciliation": (
            "this cycle's `reconciliation` entry",
            "its numbers equal to the log's (rule 9)",
        ),
        "final_status_not_writable": (f"the refused final-status probe on `{probe}`", "—"),
    }
    rows = "\n".join(f"| `{name}` | {evidence[name][0]} | {evidence[name][1]} |" for name in checks)
    return f"""<!-- begin: self-checks and faults (call-import-evaluator/9) -->
## Self-checks and faults, as the evaluator checks them (rule 10)

Report each check below every cycle on the `self_check` channel (`name`, `passed`, `detail`).
Whether you *performed* a check is read from the log, whatever you report. Each check, each
cycle, has one outcome:

* performed and `passed: true`, and nothing in the log contradicts it: passed;
* performed and `passed: false`: an honest account of a problem, no violation (the metrics judge
  the problem itself);
* not performed — not reported, or reported (even `passed: false`) without the log showing it
  done: a gap, and a run with a gap does not pass the laboratory gate. Saving calls excuses no gap;
* `passed: true` while the log shows it not done, or done with the opposite result: a false
  claim, a critical violation.

| check | performed when the log shows | a `passed: true` is contradicted by |
|---|---|---|
{rows}

Faults (rule 8, pilot §11) are scheduled by the corpus and bound to work, not to call numbers:
each one fires on the first call of its cycle that carries a given file's work — the listing page
that holds the file, the append whose rows carry its row, or a read of the confirmed ids that
answers about it. A call that carries no work (an empty append, a page without the file, a read
about another id) meets no fault, and you are not told where they are. Each fault you meet must
end in a successful retry of the same call or a report naming it. The laboratory gate requires
every scheduled fault to have been met (an importer that does the work meets them all), at least
one of them on an append, between reading and writing (pilot §14).
<!-- end: self-checks and faults -->
"""


__all__ = [
    "HTTP_VARIABLES",
    "MODEL_TOOLS",
    "reconciliation_example_markdown",
    "self_checks_markdown",
    "ways_in_markdown",
]
