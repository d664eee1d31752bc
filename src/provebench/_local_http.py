"""The request-handling errors of provebench's own local servers, as one line each.

`socketserver` prints a whole traceback on stderr when a request thread fails — a client that
drops its connection mid-answer is enough. provebench's servers (the pilot's Google API
emulator, the SI tool endpoint an HTTP agent calls back) report such a failure as one line that
names the server, the peer and the error, as every other provebench error is reported. The
record of what was asked and answered is the ledger or the evidence, never this line.
"""

from __future__ import annotations

import socketserver
import sys
from http.server import ThreadingHTTPServer
from typing import Any


class OneLineErrors:
    """Mixin for a `socketserver` server: `handle_error` writes one line, not a traceback."""

    server_label = "provebench server"

    def handle_error(self, request: Any, client_address: Any) -> None:
        error = sys.exc_info()[1]
        # The type alone: an exception's text may quote what the client sent (an agent's
        # header, its body), and this line reaches the operator's terminal, where what a
        # candidate wrote must not be shown unrecorded (SI red team 23, H4).
        detail = type(error).__name__ if error is not None else "unknown error"
        peer = client_address if client_address else "a local client"
        print(
            f"{self.server_label}: a request from {peer} failed: {detail}".replace("\n", " "),
            file=sys.stderr,
        )


class LocalHTTPServer(OneLineErrors, ThreadingHTTPServer):
    """A threading HTTP server whose failed requests are one line each on stderr."""


class LocalUnixServer(OneLineErrors, socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    """The same, on a Unix stream socket (request threads are daemons, as `ThreadingHTTPServer`
    makes them)."""

    daemon_threads = True


__all__ = ["LocalHTTPServer", "LocalUnixServer", "OneLineErrors"]
