"""A test HTTP server on 127.0.0.1, any free port, served from a thread while in use.

Every request thread is joined when the server closes: a handler still running after its test
(a slow answer, an agent calling back a simulator that has gone) would otherwise print its
traceback while a later test runs, and on CPython 3.11 a traceback's caret positions come from
`ast.parse`, whose recursion bookkeeping is shared between threads (gh-106905) — a concurrent
`ast.parse` in the later test then fails with "AST constructor recursion depth mismatch"."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _JoiningServer(ThreadingHTTPServer):
    daemon_threads = False
    block_on_close = True  # server_close() joins every request thread


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[tuple[str, int]]:
    """Serve `handler`; yields (host, port), shut down and closed afterwards, once every
    request it was handling has ended."""
    server = _JoiningServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield str(host), int(port)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


__all__ = ["serving"]
