"""A TCP port on 127.0.0.1 that accepts and holds every connection, served from a thread: the
other end a pinned model client connects to when a test asks where its connection ended
(tests/llm/conftest.py's `listening`)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def accepting_every_connection() -> Iterator[int]:
    """Yields the port; each connection accepted is held open until the port is closed."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                accepted.append(server.accept()[0])
            except OSError:  # the port was closed
                return

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        # shut down before closing: a close alone leaves the thread blocked in accept()
        server.shutdown(socket.SHUT_RDWR)
        server.close()
        thread.join(timeout=5)
        for connection in accepted:
            connection.close()
