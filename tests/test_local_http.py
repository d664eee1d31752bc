"""provebench's local servers report a failed request as one line naming the server, the peer
and the error — never socketserver's traceback (fail closed, one line)."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler

import pytest

from provebench._local_http import LocalHTTPServer


class _Broken(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        raise RuntimeError("the handler broke\non two lines")

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Labelled(LocalHTTPServer):
    server_label = "provebench test server"
    block_on_close = True
    daemon_threads = False


def test_a_failed_request_is_one_line_on_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    server = _Labelled(("127.0.0.1", 0), _Broken)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    try:
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            urllib.request.urlopen(f"http://{host!s}:{port}/", timeout=10)
    finally:
        server.shutdown()
        server.server_close()  # joins the request thread: its line is written by now
        thread.join()
    err = capfd.readouterr().err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("provebench test server: a request from ('127.0.0.1', ")
    # the type alone: an exception's text may quote what the client sent (SI red team 23, H4)
    assert lines[0].endswith("failed: RuntimeError")
    assert "the handler broke" not in err
