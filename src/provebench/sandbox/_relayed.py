"""What a launch relayed of a sandboxed program's output: its first bytes, up to the bound, and
how many bytes past the bound were read and dropped.

The bound keeps a candidate that prints gigabytes from costing the laboratory anything but its
own time; the count keeps the cut from being silent (SI red team 18, s1: a secret written past
1 MiB of padding on a sealed agent's standard error was dropped unflagged, and the disclosure
check passed). The cut point is fixed (the first `limit` bytes, whatever the pipe's chunks), so
the kept bytes are the same for the same output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# The control characters a terminal acts on: C0 but tab and newline (`\r` too: it rewrites the
# line), DEL, and C1 in its UTF-8 form (U+0080–U+009F: `\xc2\x9b` is CSI).
_TERMINAL_CONTROLS = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")


@dataclass
class RelayedOutput:
    """The first `limit` bytes of one output (`kept`, unless `keeps` is false: relayed only),
    and the count of those past it (`dropped`)."""

    limit: int
    keeps: bool = True
    kept: bytearray = field(default_factory=bytearray)
    taken: int = 0
    dropped: int = 0

    def take(self, chunk: bytes) -> bytes:
        """Keep what of `chunk` fits under the bound, count the rest; the part under it."""
        part = chunk[: max(0, self.limit - self.taken)]
        if self.keeps:
            self.kept += part
        self.taken += len(part)
        self.dropped += len(chunk) - len(part)
        return part


@dataclass
class TerminalText:
    """A candidate's output made safe for the operator's terminal: every control character a
    terminal acts on written as its `\\xNN` escape, so that a candidate cannot erase or rewrite
    the laboratory's own lines, set the window title or write the clipboard (pilot red team 27,
    A10). Only what reaches the terminal is escaped; what a launch keeps (`RelayedOutput`) is
    the bytes as written. A `\\xc2` ending one chunk waits for the next: a pipe's chunks may
    split a character."""

    carry: bytes = b""

    def escape(self, chunk: bytes, *, last: bool = False) -> bytes:
        data, self.carry = self.carry + chunk, b""
        if data.endswith(b"\xc2") and not last:
            data, self.carry = data[:-1], b"\xc2"
        return _TERMINAL_CONTROLS.sub(_escaped, data)


def _escaped(match: re.Match[bytes]) -> bytes:
    return b"".join(b"\\x%02x" % byte for byte in match.group())


__all__ = ["RelayedOutput", "TerminalText"]
