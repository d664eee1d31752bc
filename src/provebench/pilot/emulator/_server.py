"""The emulator's HTTP server: Drive v3, Sheets v4 and OAuth routes over the current lab cycle.

Why `http.server.ThreadingHTTPServer`: it adds no dependency, speaks HTTP/1.1 keep-alive, and the
laboratory serializes every request anyway (one lock around the gateway, whose cycle record is
ordered), so a faster server would only wait on the same lock. It binds to loopback only: the
emulator hands out the laboratory's adapters, which are no one else's to reach.

Every request that arrives while a cycle is open is recorded in the cycle's record (kind
`http.request`: method, path template, decoded path parameters, query, body, status) before its
answer is written. Host, port, tokens and the OAuth assertion are never recorded, so the log does
not depend on the port or the clock. A request outside an open cycle is answered 503 and is not
recorded (there is no cycle to record it in; with `--agent-cmd` no importer runs then). Nor is a
request carrying a token of a closed cycle (answered 401): it comes from a process that outlived
its cycle, and recording it in the open one would make that cycle's record depend on timing.
What a cycle records of its requests is bounded: one budget for everything a request puts in
the ledger (its path and query as sent, its body, and a cost an entry: `CycleRecord.take_request`),
charged before anything of it is recorded; past it a request is answered 429 unserved and only
counted, and the cycle ends in an `agent_error` (pilot red team 45, H1; sandbox red team 46, P1).
A request the laboratory does not take (no valid token, unknown route, bad framing) is recorded
by the size and sha256 of its target and of its body, never their text.

What the laboratory holds for its requests is bounded too (sandbox red team 46, P2: twenty
connections each holding 32 MiB of an unauthenticated body made 727 MB of the laboratory's
memory). The token and the route are checked before a body is read: a body the laboratory will
not take is read into a digest and dropped, never held. At most `MAX_CONNECTIONS` connections are
served at once (one past it is answered 503 and closed unread), at most
`MAX_BODY_BYTES_IN_FLIGHT` bytes of bodies are held at once (a body past it is read into a digest
and answered 503), and a request must arrive whole within `REQUEST_DEADLINE_SEC` (its connection
is cut then), not only within `SOCKET_TIMEOUT_SEC` a receive.

A timeout fault (`timeout`, `applied_then_timeout`; pilot §5 "a temporary API error", §14) is
served as a timeout is met in the wild: no answer at all. The request is recorded (`status`
null, `answered` false) and the connection stays silent until the client gives up — its own
deadline passes and it closes the connection or sends on it again — or the cycle ends; then it
is closed without a byte. Why not close it at once: httplib2 (under google-api-python-client)
re-sends a request whose connection closes without a status line, so a Google client would
never see that failure, and the re-sent append would be the library's blind retry.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import socketserver
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlsplit

from provebench._canonical import sha256_bytes
from provebench._errors import ProvebenchError
from provebench._jsonfile import loads_strict
from provebench._local_http import LocalHTTPServer, LocalUnixServer
from provebench.pilot.emulator._auth import (
    CLIENT_EMAIL,
    OTHER_CYCLE,
    TOKEN_LIFETIME_SEC,
    ServiceAccount,
)
from provebench.pilot.emulator._diagnostics import TooManyMessages, apply_messages
from provebench.pilot.emulator._drive import RegisterFile, about_get, files_get, files_list
from provebench.pilot.emulator._errors import (
    GoogleApiError,
    bad_request,
    from_lab_error,
    length_required,
    no_cycle_open,
    not_found,
    unauthenticated,
)
from provebench.pilot.emulator._page_tokens import PageTokens
from provebench.pilot.emulator._routes import Route, match_route, refused_operation
from provebench.pilot.emulator._sheets import (
    REGISTER_TITLE,
    SheetLayout,
    SheetsView,
    spreadsheet_get,
    values_append,
    values_batch_get,
    values_get,
)
from provebench.pilot.lab import ApiTimeout, CycleContext, CycleRecord, Gateway, LabError, _record
from provebench.pilot.lab._record import plain
from provebench.sandbox._wait import readable

LOOPBACK = "127.0.0.1"
MAX_BODY_BYTES = 32 * 1024 * 1024
# A connection silent this long (idle keep-alive, partial headers or body) is dropped: each holds
# a thread, and an importer that stalls must not hold them for the whole run.
SOCKET_TIMEOUT_SEC = 30.0
# A request must arrive whole (request line, headers and body) within this long of the wait for
# it, however its bytes trickle: a receive every 29 s kept a connection, and what it held, forever
# (sandbox red team 46, P2).
REQUEST_DEADLINE_SEC = 60.0
# Connections served at once, and bytes of request bodies held at once, by one laboratory; past
# either the laboratory answers 503 (P2). The reference importer holds one connection, and a
# body of a few kB at a time; a Google client pool of a few connections is well within.
MAX_CONNECTIONS = 16
MAX_BODY_BYTES_IN_FLIGHT = 64 * 1024 * 1024
_DIGEST_CHUNK = 64 * 1024
# A method name is recorded as sent when it is this short; a longer one by size and sha256.
_MAX_METHOD_CHARS = 16
# The status `handle` returns for a request that gets no answer (a timeout fault).
NO_ANSWER = 0
_SILENCE_POLL_SEC = 0.1


@dataclass(frozen=True)
class UnreadBody:
    """A request body read into a digest and dropped, never held: its size and sha256."""

    size: int
    sha256: str

    def logged(self) -> dict[str, Any]:
        return {"bytes": self.size, "sha256": self.sha256}


def gateway_of(ctx: CycleContext) -> Gateway:
    """The gateway behind a cycle's facades: the emulator is a transport of the lab, not an
    importer, and needs the refusal and record paths the facades keep narrow."""
    gateway: Gateway = ctx.drive._gateway
    return gateway


def record_of(gateway: Gateway) -> CycleRecord:
    record: CycleRecord = gateway._record
    return record


@dataclass
class OpenCycle:
    ctx: CycleContext
    gateway: Gateway
    record: CycleRecord
    view: SheetsView
    run_version: str


class LabSession:
    """What the server serves: the layout, the service account, and the open cycle (if any)."""

    def __init__(
        self, layout: SheetLayout, *, serve_mode: bool = False, page_token_key: bytes | None = None
    ) -> None:
        self.layout = layout
        self.serve_mode = serve_mode
        self.account: ServiceAccount | None = None
        self.lock = threading.Lock()
        self.current: OpenCycle | None = None
        self.finished = threading.Event()
        # One run's opaque page tokens: valid across its cycles, as the lab's own are.
        self.page_tokens = PageTokens(page_token_key)
        # What the laboratory holds for its requests at once (module docstring; P2).
        self.connections = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._in_flight = 0
        self._in_flight_lock = threading.Lock()

    # -- what is held for requests (sandbox red team 46, P2) -----------------------------------
    def takes(self, method: str, target: str, authorization: str | None) -> bool:
        """Whether a request's body is to be read and held: a route, and the token route or a
        valid token. Asked before the body is read; `handle` decides again under the lock."""
        matched = match_route(method, urlsplit(target).path)
        if matched is None:
            return False
        if matched[0].operation == "oauth.token":
            return True
        return self.account is not None and self.account.authorized(authorization)

    def reserve(self, size: int) -> bool:
        """Whether a body of `size` bytes may be held now (`MAX_BODY_BYTES_IN_FLIGHT`)."""
        with self._in_flight_lock:
            if self._in_flight + size > MAX_BODY_BYTES_IN_FLIGHT:
                return False
            self._in_flight += size
            return True

    def release(self, size: int) -> None:
        with self._in_flight_lock:
            self._in_flight -= size

    def connection_refused(self) -> None:
        """A connection past `MAX_CONNECTIONS`, answered 503 unread: recorded as such in the
        open cycle, charged as an entry."""
        with self.lock:
            cycle = self.current
            if cycle is not None and cycle.record.take_request(0):
                cycle.record.add(
                    "http.request",
                    {"method": None, "route": "(too many connections)", "status": 503},
                )

    def open_cycle(self, ctx: CycleContext, confirmed_rows: list[list[str]]) -> None:
        gateway = gateway_of(ctx)
        view = SheetsView(self.layout, gateway, confirmed_rows, ctx.time_zone)
        with self.lock:
            self.finished.clear()
            self.current = OpenCycle(ctx, gateway, record_of(gateway), view, ctx.run_version)
            if self.account is not None:
                self.account.open_cycle()

    def close_cycle(self) -> None:
        with self.lock:  # waits for a request in flight: nothing reaches a closed cycle
            self._end_cycle()

    def _end_cycle(self) -> None:
        # The cycle's tokens die with it: a caller that outlives the cycle can no longer act.
        self.current = None
        if self.account is not None:
            self.account.close_cycle()

    # -- one request ---------------------------------------------------------------------------
    def handle(
        self,
        method: str,
        target: str,
        authorization: str | None,
        body: bytes | UnreadBody,
        framing: GoogleApiError | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """Answer one request; `framing` is why its body could not be read (answered as is, and
        recorded as a bad call like any other, pilot §6). A body read into a digest
        (`UnreadBody`) is one the laboratory did not take, or could not hold (answered 503)."""
        split = urlsplit(target)
        query = parse_qs(split.query, keep_blank_values=True)
        matched = match_route(method, split.path)
        with self.lock:
            cycle = self.current
            if cycle is None:
                return self._error(no_cycle_open())  # not even a token: it would outlive nothing
            record = cycle.record
            if framing is None and matched is not None and matched[0].operation == "oauth.token":
                if not isinstance(body, bytes):
                    return self._error(_busy())
                if not record.take_request(len(target) + len(body)):
                    return self._error(_past_budget())
                return self._token(cycle, body)
            if self.account is not None and self.account.token_state(authorization) == OTHER_CYCLE:
                return self._error(unauthenticated())  # a late caller: recorded in no cycle
            template = matched[0].template if matched else None
            params = matched[1] if matched else {}
            authorized = self.account is not None and self.account.authorized(authorization)
            # The request is recorded as sent only when the laboratory takes it (read, routed,
            # authorized); any other by the size and sha256 of its target and body (pilot red
            # team 45, H1; sandbox red team 46, P1: the query of every request was recorded
            # whole). Either is charged to the cycle's budget before anything is recorded.
            taken = isinstance(body, bytes) and framing is None and matched is not None
            taken = taken and authorized
            size = len(method) + len(target) + len(body) if isinstance(body, bytes) and taken else 0
            if not record.take_request(size):
                return self._error(_past_budget())  # counted only: the cycle's agent_error says it
            logged = _logged_body(body, whole=taken)
            entry: dict[str, Any] = {"method": _logged_method(method)}
            if taken:
                entry["route"] = template
                entry["params"] = params
                entry["query"] = {k: plain(self._loggable(k, v)) for k, v in sorted(query.items())}
            else:
                entry["route"] = template if template is not None else "(unknown)"
                entry["target"] = _digest_of(target.encode("latin-1", "replace"))
            try:
                if framing is not None:
                    raise framing
                if matched is None:
                    raise not_found("Method not found.")
                if not authorized:
                    raise unauthenticated()
                if not isinstance(body, bytes):
                    raise _busy()  # taken, but past the bytes the laboratory holds at once
                status, answer = (
                    200,
                    self._dispatch(cycle, matched[0], method, params, query, body, logged),
                )
            except GoogleApiError as error:
                status, answer = error.code, error.body()
            except ApiTimeout:
                status, answer = NO_ANSWER, {}  # the answer never comes (module docstring)
            except LabError as error:
                mapped = from_lab_error(error)
                status, answer = mapped.code, mapped.body()
            except Exception as error:  # a defect of the emulator: answered and logged, not hidden
                status, answer = (
                    500,
                    GoogleApiError(
                        500, "INTERNAL", f"internal error ({type(error).__name__})", "backendError"
                    ).body(),
                )
            record.add(
                "http.request",
                {
                    **entry,
                    "body": logged,
                    "status": status if status != NO_ANSWER else None,
                    **({"answered": False} if status == NO_ANSWER else {}),
                },
            )
            return status, answer

    def _token(self, cycle: OpenCycle, body: bytes) -> tuple[int, dict[str, Any]]:
        form = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
        grant = form["grant_type"][0] if form.get("grant_type") else None
        assertion = form["assertion"][0] if form.get("assertion") else None
        token = None if self.account is None else self.account.exchange(grant, assertion)
        outcome = "issued" if token is not None else "invalid_grant"
        cycle.record.add(
            "http.request",
            {
                "method": "POST",
                "route": "/token",
                "grant_type": plain(grant),
                "result": outcome,
                "status": 200 if token is not None else 400,
            },
        )
        if token is None:
            return 400, {"error": "invalid_grant", "error_description": "Invalid JWT Signature."}
        return 200, {
            "access_token": token,
            "expires_in": TOKEN_LIFETIME_SEC,
            "token_type": "Bearer",
        }

    def _loggable(self, name: str, values: list[str]) -> list[str]:
        return self.page_tokens.readable(values) if name == "pageToken" else values

    @staticmethod
    def _error(error: GoogleApiError) -> tuple[int, dict[str, Any]]:
        return error.code, error.body()

    def _dispatch(
        self,
        cycle: OpenCycle,
        route: Route,
        method: str,
        params: dict[str, str],
        query: dict[str, list[str]],
        body: bytes,
        logged: Any,
    ) -> dict[str, Any]:
        operation, gateway, view = route.operation, cycle.gateway, cycle.view
        register = RegisterFile(self.layout.spreadsheet_id, REGISTER_TITLE)
        if operation == "drive.files.list":
            return files_list(gateway, register, query, self.page_tokens)
        if operation == "drive.files.get":
            return files_get(gateway, register, params["fileId"], query)
        if operation == "drive.about.get":
            return about_get(CLIENT_EMAIL, query)
        if operation == "sheets.spreadsheets.get":
            return spreadsheet_get(view, params["spreadsheetId"], query)
        if operation == "sheets.values.get":
            return values_get(view, params["spreadsheetId"], params["range"], query)
        if operation == "sheets.values.batchGet":
            return values_batch_get(view, params["spreadsheetId"], query)
        if operation == "sheets.values.append":
            return values_append(
                view, params["spreadsheetId"], params["range"], query, _json_body(body)
            )
        if operation == "lab.cycle":
            return {"open": True, "timeZone": cycle.ctx.time_zone, "runVersion": cycle.run_version}
        if operation == "lab.diagnostics":
            return _diagnostics(cycle, _json_body(body))
        if operation == "lab.finish":
            if not self.serve_mode:
                raise not_found("Method not found.")
            self.finished.set()
            self._end_cycle()  # nothing reaches a finished cycle; the next one opens anew
            return {"finished": True}
        # Every other route writes: refused through the gateway (logged as `refused`), 403.
        refused, arguments = refused_operation(route, method, params)
        return gateway.refuse(refused, {**arguments, "body": logged})  # NoReturn


def _diagnostics(cycle: OpenCycle, data: Any) -> dict[str, Any]:
    items = data if isinstance(data, list) else [data]
    try:
        return {"accepted": apply_messages(cycle.ctx, cycle.gateway, items)}
    except TooManyMessages as error:
        raise bad_request(str(error)) from None


def _body_length(values: list[str]) -> int:
    """The Content-Length, ASCII digits only (`"²".isdigit()` is true and `int("²")` raises)."""
    if not values:
        return 0
    text = values[0].strip()
    if len(set(values)) > 1 or not (text.isascii() and text.isdigit()):
        raise bad_request("Content-Length must be one non-negative decimal integer")
    length = int(text)
    if length > MAX_BODY_BYTES:
        raise GoogleApiError(413, "INVALID_ARGUMENT", "request body too large", "badRequest")
    return length


def _json_body(body: bytes) -> Any:
    if not body:
        return {}
    try:
        return loads_strict(body.decode("utf-8"))  # refused by the JSON policy: a ValueError too
    except (UnicodeDecodeError, ValueError) as error:
        raise bad_request(f"Invalid JSON payload received. {error}") from error


def _past_budget() -> GoogleApiError:
    return GoogleApiError(
        429,
        "RESOURCE_EXHAUSTED",
        f"this cycle's requests passed the {_record.MAX_RECORDED_REQUEST_BYTES} bytes the "
        "laboratory "
        "records of them (MAX_RECORDED_REQUEST_BYTES)",
        "rateLimitExceeded",
    )


def _busy() -> GoogleApiError:
    return GoogleApiError(
        503,
        "UNAVAILABLE",
        f"the laboratory holds {MAX_BODY_BYTES_IN_FLIGHT} bytes of request bodies at once "
        "(MAX_BODY_BYTES_IN_FLIGHT); send it again",
        "backendError",
    )


def _logged_method(method: str) -> Any:
    """The method as sent, or by size and sha256 when it is longer than a method name is."""
    if len(method) <= _MAX_METHOD_CHARS:
        return method
    return _digest_of(method.encode("latin-1", "replace"))


def _logged_body(body: bytes | UnreadBody, *, whole: bool) -> Any:
    """What the cycle's record keeps of a request body: the parsed JSON of one the laboratory
    takes (`whole`, charged to the cycle's budget by `handle`), else its size and sha256."""
    if isinstance(body, UnreadBody):
        return body.logged() if body.size else None
    if not body:
        return None
    if whole:
        return _body_for_log(body)
    return _body_digest(body)


def _digest_of(data: bytes) -> dict[str, Any]:
    return {"bytes": len(data), "sha256": sha256_bytes(data)}


def _body_digest(body: bytes) -> dict[str, Any]:
    return _digest_of(body)


def _body_for_log(body: bytes) -> Any:
    if not body:
        return None
    try:
        return plain(loads_strict(body.decode("utf-8")))
    except (UnicodeDecodeError, ValueError):
        return _body_digest(body)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "provebench-lab"
    sys_version = ""
    session: LabSession  # set on the subclass made per server
    timeout = SOCKET_TIMEOUT_SEC  # StreamRequestHandler sets it on the socket

    def setup(self) -> None:
        super().setup()
        if self.connection.family == socket.AF_INET:
            # Headers and body leave in separate writes; without TCP_NODELAY every keep-alive
            # answer waits for the client's delayed ACK (~40 ms per request).
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def address_string(self) -> str:
        return "lab-client"  # a Unix socket's peer has no address

    def handle_one_request(self) -> None:
        # The request must arrive whole within REQUEST_DEADLINE_SEC (module docstring; P2).
        self._deadline = _Deadline(self.connection, REQUEST_DEADLINE_SEC)
        try:
            super().handle_one_request()
        finally:
            self._deadline.cancel()

    def _serve(self) -> None:
        try:
            length, framing = _body_length(self.headers.get_all("Content-Length") or []), None
            if "Transfer-Encoding" in self.headers:
                raise length_required()
        except GoogleApiError as error:
            length, framing = 0, error
        authorization = self.headers.get("Authorization")
        reserved = 0
        try:
            body: bytes | UnreadBody | None = b""
            if framing is None and length:
                # Checked before the body is read: one the laboratory will not take, or cannot
                # hold now, is read into a digest and dropped (sandbox red team 46, P2).
                if self.session.takes(self.command, self.path, authorization):
                    if self.session.reserve(length):
                        reserved = length
                        body = self._read_body(length)
                    else:
                        body = self._digest_body(length)
                else:
                    body = self._digest_body(length)
            if body is None:
                return  # the request never arrived whole: nothing to answer or record
            self._deadline.cancel()
            status, answer = self.session.handle(
                self.command, self.path, authorization, body, framing
            )
        finally:
            if reserved:
                self.session.release(reserved)
        if framing is not None:
            # The body's bytes (chunks, an unknown length) are still on the wire: reading on
            # would take them for the next request.
            self.close_connection = True
        if status == NO_ANSWER:
            self._stay_silent()
            return
        self._send(status, answer)

    def _stay_silent(self) -> None:
        """A timeout: answer nothing until the client gives up (it closes the connection or
        sends on it again: whatever it sends is dropped unread, so it reaches no cycle) or the
        cycle this request reached ends; then close without a byte (module docstring)."""
        self.close_connection = True
        cycle = self.session.current
        while cycle is not None and self.session.current is cycle:
            try:
                # poll, not select: the laboratory may hold descriptors past 1024 (`_wait`).
                spoke = readable([self.connection.fileno()], _SILENCE_POLL_SEC)
            except (OSError, ValueError):  # the socket is gone
                return
            if spoke:
                return

    def _read_body(self, length: int) -> bytes | None:
        try:
            body = self.rfile.read(length)
        except OSError:  # the socket timeout: a stalled body
            body = b""
        if len(body) < length:
            self.close_connection = True
            return None
        return body

    def _digest_body(self, length: int) -> UnreadBody | None:
        """The body read in chunks into its sha256, none of it kept."""
        digest, left = hashlib.sha256(), length
        try:
            while left:
                chunk = self.rfile.read(min(left, _DIGEST_CHUNK))
                if not chunk:
                    break
                digest.update(chunk)
                left -= len(chunk)
        except OSError:  # the socket timeout, or the connection cut at its deadline
            pass
        if left:
            self.close_connection = True
            return None
        return UnreadBody(length, digest.hexdigest())

    def _send(self, status: int, answer: dict[str, Any]) -> None:
        # ASCII with escapes: an error message may echo the client's text, lone surrogates
        # included, and the answer recorded (pilot §6) must be the answer sent.
        data = json.dumps(answer, ensure_ascii=True).encode("ascii")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command == "HEAD":
            self.close_connection = True  # a HEAD answer has no body; the length is the GET's
            return
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve

    def __getattr__(self, name: str) -> Any:
        # Any other method (HEAD, OPTIONS, TRACE, `post`) is answered in the emulator's format
        # and recorded as a bad call (pilot §6), not as http.server's unlogged HTML 501.
        if name.startswith("do_"):
            return self._serve
        raise AttributeError(name)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own refusals (a malformed request line, headers too long) in Google's
        JSON format; they name no route and reach no cycle, so they are not recorded."""
        status = "INVALID_ARGUMENT" if code < 500 else "UNIMPLEMENTED"
        self.close_connection = True
        # Before the request line is parsed http.server assumes HTTP/0.9 and would send the
        # body without a status line; the emulator speaks HTTP/1.1 only.
        self.request_version = self.protocol_version
        self._send(
            code, GoogleApiError(code, status, message or "Bad request", "badRequest").body()
        )

    def log_message(self, format: str, *args: Any) -> None:
        return  # the ledger is the log


class _Deadline:
    """Cuts a connection (shut down both ways: what reads it meets its end) unless cancelled
    within `seconds`."""

    def __init__(self, connection: socket.socket, seconds: float) -> None:
        self._connection = connection
        self._lock = threading.Lock()
        self._done = False
        self._timer = threading.Timer(seconds, self._cut)
        self._timer.daemon = True
        self._timer.start()

    def _cut(self) -> None:
        with self._lock:
            if self._done:
                return
            self._done = True
        with contextlib.suppress(OSError):
            self._connection.shutdown(socket.SHUT_RDWR)

    def cancel(self) -> None:
        with self._lock:
            self._done = True
        self._timer.cancel()


_BUSY_ANSWER = json.dumps(
    GoogleApiError(
        503,
        "UNAVAILABLE",
        f"the laboratory serves {MAX_CONNECTIONS} connections at once (MAX_CONNECTIONS)",
        "backendError",
    ).body(),
    ensure_ascii=True,
).encode("ascii")
_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=UTF-8\r\n"
    b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(_BUSY_ANSWER), _BUSY_ANSWER)
)


class _CappedConnections(socketserver.ThreadingMixIn):
    """At most `MAX_CONNECTIONS` connections served at once: one past it is answered 503 without
    a thread or a byte read, and closed (sandbox red team 46, P2: nothing bounded them)."""

    lab_session: LabSession  # set when the server is made (`LabServer`)

    def process_request(self, request: Any, client_address: Any) -> None:
        session = self.lab_session
        if not session.connections.acquire(blocking=False):
            session.connection_refused()
            with contextlib.suppress(OSError):
                request.setblocking(False)
                request.send(_BUSY)
            with contextlib.suppress(OSError):
                request.close()
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            session.connections.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.lab_session.connections.release()


class _TcpServer(_CappedConnections, LocalHTTPServer):
    server_label = "provebench emulator"


class _HandedServer(_CappedConnections, LocalUnixServer):
    """The same emulator, for the connections a sandbox's forwarder hands over its channel
    (`LabServer.open_channel`): never bound to any path, so nothing on disk leads to it."""

    server_label = "provebench emulator"


class LabServer:
    """A running emulator: `start()` binds 127.0.0.1, `stop()` shuts it down and closes.

    `open_channel()` makes the private channel a sandboxed importer's forwarder reaches it by."""

    def __init__(self, session: LabSession, *, host: str = LOOPBACK, port: int = 0) -> None:
        if host not in (LOOPBACK, "localhost"):
            raise ProvebenchError(
                f"the emulator binds to {LOOPBACK} only, not {host!r}", field="--host"
            )
        handler = type("LabHandler", (_Handler,), {"session": session})
        try:
            self._httpd = _TcpServer((LOOPBACK, port), handler)
        except OSError as error:
            raise ProvebenchError(
                f"cannot listen on {LOOPBACK}:{port}: {error.strerror}", field="--port"
            ) from error
        self._httpd.lab_session = session
        self.session = session
        self.port: int = self._httpd.server_address[1]
        self._handler = handler
        self._thread: threading.Thread | None = None
        self._handed: _HandedServer | None = None

    def open_channel(self) -> socket.socket:
        """A private channel for one sandbox: the end to hand its forwarder (by descriptor),
        over which the forwarder passes one end of a new socket pair per connection, each
        served as a request here. No path names the emulator, so a candidate shown any host
        folder finds nothing to connect to, and only the forwarder holding this descriptor —
        not the candidate it starts, which inherits none — can reach it (pilot red team round
        16, A6: another run's candidate connected to a laboratory's socket by its path and
        imported for it). The channel ends when the sandbox's copy of it closes."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        if self._handed is None:
            self._handed = _HandedServer("", self._handler, bind_and_activate=False)
            self._handed.lab_session = self.session
        thread = threading.Thread(target=self._serve_channel, args=(ours,), daemon=True)
        thread.start()
        return theirs

    def _serve_channel(self, channel: socket.socket) -> None:
        handed = self._handed
        assert handed is not None
        with channel:
            while True:
                try:
                    data, fds, _, _ = socket.recv_fds(channel, 1, 1)
                except OSError:
                    return
                if not data:
                    for fd in fds:
                        os.close(fd)
                    return
                for fd in fds:
                    try:
                        connection = socket.socket(fileno=fd)
                    except OSError:  # not a socket: nothing to serve
                        os.close(fd)
                        continue
                    stream = (connection.family, connection.type)
                    if stream != (socket.AF_UNIX, socket.SOCK_STREAM):
                        connection.close()
                        continue
                    handed.process_request(connection, "")

    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def start(self) -> None:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join()
            self._thread = None
        self._httpd.server_close()
        if self._handed is not None:
            self._handed.server_close()
            self._handed = None

    def __enter__(self) -> LabServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


Callback = Callable[[], None]

__all__ = ["LOOPBACK", "LabServer", "LabSession", "OpenCycle", "gateway_of", "record_of"]
