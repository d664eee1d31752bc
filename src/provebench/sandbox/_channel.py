"""The laboratory's end of a sandboxed worker's channel: framed JSON over a socket pair.

A frame is a 4-byte big-endian length and that many bytes of UTF-8 JSON. The laboratory reads
what the worker sends by provebench's strict JSON policy (`loads_keeping_surrogates`: no NaN,
no duplicate keys, bounded depth) and never unpickles anything: the worker is the candidate.
A frame over `MAX_FRAME_BYTES`, a malformed one, or the worker's end closing mid-cycle is a
`ChannelBroken`, recorded as the cycle's agent_error.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import struct
import time
from collections.abc import Callable
from typing import IO, Any, Protocol

from provebench._jsonfile import loads_keeping_surrogates
from provebench.sandbox._wait import readable

MAX_FRAME_BYTES = 64 * 1024 * 1024
FRAME_HEADER = struct.Struct(">I")


class ChannelBroken(Exception):
    """The worker closed its end, or sent something that is not a frame of the protocol.

    `unread` holds the bytes the worker sent that the channel read and did not deliver: a line
    that is no strict JSON, or the unfinished line its end left. They are the agent's output
    all the same, and the laboratory records them (SI red team 20, S1: a line refused, or cut
    off by the end of the channel, was thrown away unsearched and the disclosure check passed).
    """

    def __init__(self, message: str, unread: bytes = b"") -> None:
        super().__init__(message)
        self.unread = unread


class LineTooLong(ChannelBroken):
    """A protocol line over its bound (`MAX_LINE_BYTES`): it is not read on, nor recorded, and
    the channel ends there. Its own type, so that the line's cut is recorded (SI red team 18)."""


class CandidateFailed(Exception):
    """A sealed candidate's own failure, as it reported it or as its channel ended: recorded
    under the candidate's exception type (`type_name`), as an in-process failure would be."""

    def __init__(self, type_name: str, message: str) -> None:
        super().__init__(message)
        self.type_name = type_name


def failure_type(error: BaseException) -> str:
    """The type an agent_error names: the candidate's own for a sealed candidate's failure."""
    return error.type_name if isinstance(error, CandidateFailed) else type(error).__name__


def _ascii_json(message: Any, default: Callable[[Any], Any] | None) -> bytes:
    """One message as the protocols carry it, both ways: compact ASCII JSON, no NaN (a lone
    surrogate travels as its escape; the reader decides what to make of it)."""
    text = json.dumps(
        message, ensure_ascii=True, allow_nan=False, separators=(",", ":"), default=default
    )
    return text.encode("ascii")


def encode_frame(message: Any, default: Callable[[Any], Any] | None = None) -> bytes:
    """A frame of the workers' channel: the body's length (4 bytes, big-endian), the body."""
    body = _ascii_json(message, default)
    return FRAME_HEADER.pack(len(body)) + body


def encode_line(message: Any) -> bytes:
    """A line of the SI agent protocol (docs/si-agents.md)."""
    return _ascii_json(message, None) + b"\n"


class Ended(Protocol):
    """What a channel asks of its sandbox: has the command itself exited? (A daemon it left
    may still hold the other end open, so an open channel does not mean a live worker.)"""

    status_fd: int

    def command_ended(self) -> bool: ...


def _wait_readable(fd: int, sandbox: Ended | None, timeout: float | None) -> bool:
    """Wait until `fd` has data (True), or the sandbox's command ended with none (False);
    `TimeoutError` after `timeout` seconds (None: no limit but the laboratory's alarm)."""
    watched = [fd] if sandbox is None else [fd, sandbox.status_fd]
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready = readable(watched, left)
        if fd in ready:
            return True
        if sandbox is not None and sandbox.command_ended():
            # One last look: what the command wrote before it exited is still to be read.
            return bool(readable([fd], 0))
        if not ready:
            raise TimeoutError


class Channel:
    """One end of the socket pair, as the laboratory uses it."""

    def __init__(self, sock: socket.socket, sandbox: Ended | None = None) -> None:
        self.sock = sock
        self.sandbox = sandbox

    def send(self, message: Any) -> None:
        try:
            self.sock.sendall(encode_frame(message))
        except OSError as error:
            raise ChannelBroken(f"the worker's end is closed ({error.strerror})") from error

    def receive(self) -> Any:
        (length,) = FRAME_HEADER.unpack(self._exactly(FRAME_HEADER.size))
        if length > MAX_FRAME_BYTES:
            raise ChannelBroken(f"a message of {length} bytes, over {MAX_FRAME_BYTES}")
        data = self._exactly(length)
        try:
            return loads_keeping_surrogates(data)
        except ValueError as error:
            raise ChannelBroken(f"a message that is not strict JSON: {error}") from error

    def _exactly(self, size: int) -> bytes:
        chunks: list[bytes] = []
        left = size
        while left:
            try:
                if not _wait_readable(self.sock.fileno(), self.sandbox, self.sock.gettimeout()):
                    raise ChannelBroken("the worker ended without finishing")
                chunk = self.sock.recv(min(left, 1 << 20))
            except TimeoutError as error:
                raise ChannelBroken("no message from the worker within its time limit") from error
            except OSError as error:
                raise ChannelBroken(f"the worker's end failed ({error.strerror})") from error
            if not chunk:
                raise ChannelBroken("the worker ended without finishing")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def close(self) -> None:
        self.sock.close()


MAX_LINE_BYTES = 16 * 1024 * 1024


class LineChannel:
    """JSON lines over a process's standard input and output (the SI agent protocol,
    docs/si-agents.md): one JSON object a line, each way. Reads are bounded by `deadline`
    (time.monotonic() seconds) and by `MAX_LINE_BYTES` a line."""

    def __init__(
        self,
        to_worker: IO[bytes],
        from_worker: IO[bytes],
        deadline: float,
        sandbox: Ended | None = None,
    ) -> None:
        self.to_worker = to_worker
        self.fd = from_worker.fileno()
        self.deadline = deadline
        self.sandbox = sandbox
        self.buffer = b""

    def send(self, message: Any) -> None:
        try:
            self.to_worker.write(encode_line(message))
            self.to_worker.flush()
        except (OSError, ValueError) as error:
            raise ChannelBroken("the agent closed its standard input") from error

    def receive(self) -> Any:
        while b"\n" not in self.buffer:
            if len(self.buffer) > MAX_LINE_BYTES:
                raise LineTooLong(f"a line of over {MAX_LINE_BYTES} bytes")
            left = self.deadline - time.monotonic()
            try:
                if left <= 0 or not _wait_readable(self.fd, self.sandbox, left):
                    raise self._ended("the agent ended without answering")
            except TimeoutError:
                raise self._ended("no message from the agent within its time limit") from None
            chunk = os.read(self.fd, 1 << 20)
            if not chunk:
                raise self._ended("the agent ended without answering")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            return loads_keeping_surrogates(line)
        except (ValueError, UnicodeDecodeError) as error:
            message = f"a line that is not strict JSON: {error}"
            raise ChannelBroken(message, unread=line) from error

    def rest(self, limit: int) -> tuple[bytes, bool]:
        """What the agent writes after the message that ended its run, to the end of its output:
        its standard input is closed (nothing more will be said to it), then its output is read
        until it closes it or exits, or the run's deadline passes, or more than `limit` bytes
        are read. The bytes, and whether reading stopped at `limit` with more perhaps to come.

        Anything it writes is its output (Core §3.5.5), recorded by the caller: read to the
        program's own end, not to an instant provebench chose, so the record depends on what
        the program wrote, never on when it was stopped — save a program that outlives its
        answer to its time limit, whose record ends there."""
        with contextlib.suppress(OSError, ValueError):
            self.to_worker.close()
        read, self.buffer = self.buffer, b""
        while len(read) <= limit:
            left = self.deadline - time.monotonic()
            try:
                if left <= 0 or not _wait_readable(self.fd, self.sandbox, left):
                    return read, False
            except TimeoutError:
                return read, False
            try:
                chunk = os.read(self.fd, min(1 << 20, limit + 1 - len(read)))
            except OSError:
                return read, False
            if not chunk:
                return read, False
            read += chunk
        return read, True

    def _ended(self, why: str) -> ChannelBroken:
        """The channel's end (or its time limit) before a line ended: the unfinished line, if
        any, is handed on with it, never dropped."""
        unread, self.buffer = self.buffer, b""
        return ChannelBroken(why, unread=unread)


__all__ = [
    "FRAME_HEADER",
    "MAX_FRAME_BYTES",
    "MAX_LINE_BYTES",
    "CandidateFailed",
    "Channel",
    "ChannelBroken",
    "LineChannel",
    "LineTooLong",
    "encode_frame",
    "encode_line",
    "failure_type",
]
