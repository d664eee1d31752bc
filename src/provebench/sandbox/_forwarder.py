"""Runs inside the sandbox, on provebench's interpreter with `-I -S` (standard library only):
listens on 127.0.0.1:PORT of the sandbox's own network namespace, relays every connection to
the laboratory through the channel it was handed as descriptor FD (for each connection, one end
of a new socket pair passed over the channel), starts the candidate's command — which inherits
no descriptor of it — and exits with its status. No path leads to the laboratory: only this
process holds the channel (pilot red team round 16, A6).

So the candidate reaches exactly one endpoint, at the address its documented variables name,
and nothing else: the namespace has no other interface. The forwarder runs as the candidate's
uid, so a candidate can kill it — and so lose the laboratory, nothing more; every rule is the
laboratory's, behind the socket.

Usage: python -I -S _forwarder.py PORT FD -- COMMAND [ARG...]
"""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading

BUFFER = 65536


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while True:
            data = source.recv(BUFFER)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for end, how in ((sink, socket.SHUT_WR), (source, socket.SHUT_RD)):
            with contextlib.suppress(OSError):
                end.shutdown(how)


def _relay(client: socket.socket, channel: socket.socket) -> None:
    # The answer's headers and body arrive in separate writes: without TCP_NODELAY each
    # keep-alive answer would wait for the client's delayed ACK (about 40 ms a request).
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    upstream, handed = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        socket.send_fds(channel, [b"c"], [handed.fileno()])
    except OSError:
        client.close()
        upstream.close()
        return
    finally:
        handed.close()
    back = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
    back.start()
    _pump(client, upstream)
    back.join()
    client.close()
    upstream.close()


def _serve(listener: socket.socket, channel: socket.socket) -> None:
    while True:
        client, _ = listener.accept()
        threading.Thread(target=_relay, args=(client, channel), daemon=True).start()


def main(argv: list[str]) -> int:
    port, channel_fd, separator, *command = argv
    if separator != "--" or not command:
        print("usage: _forwarder.py PORT FD -- COMMAND [ARG...]", file=sys.stderr)
        return 2
    channel = socket.socket(fileno=int(channel_fd))
    os.set_inheritable(channel.fileno(), False)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", int(port)))
    listener.listen(128)
    threading.Thread(target=_serve, args=(listener, channel), daemon=True).start()
    try:
        child = subprocess.Popen(command, close_fds=True)
    except OSError as error:
        print(f"cannot start the importer: {error.strerror}", file=sys.stderr)
        return 127
    status = child.wait()
    return 128 - status if status < 0 else status


def _not_traceable() -> None:
    """PR_SET_DUMPABLE 0: the candidate (same uid, no capability) cannot ptrace the forwarder,
    which as the namespace's first process holds the candidate's whole cycle."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)


if __name__ == "__main__":
    _not_traceable()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    os.umask(0o022)
    sys.exit(main(sys.argv[1:]))
