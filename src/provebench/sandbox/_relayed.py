"""What a launch relayed of a sandboxed program's output: its first bytes, up to the bound, and
how many bytes past the bound were read and dropped.

The bound keeps a candidate that prints gigabytes from costing the laboratory anything but its
own time; the count keeps the cut from being silent (SI red team 18, s1: a secret written past
1 MiB of padding on a sealed agent's standard error was dropped unflagged, and the disclosure
check passed). The cut point is fixed (the first `limit` bytes, whatever the pipe's chunks), so
the kept bytes are the same for the same output.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

from provebench._errors import TERMINAL_ESCAPES

# What reaches the operator's terminal of a candidate's output is escaped by the one escape set
# of every place provebench prints text (`_errors.shown`): C0 but tab, DEL, C1, the bidi
# controls and the line and paragraph separators (pilot red team 33, A4: the relay left out the
# bidi controls and separators, and a candidate's U+202E reordered the laboratory's stderr
# line), each written as `shown` writes it. Two differences, both of a stream of bytes: its
# newlines are kept (the output is lines), and a byte that is not part of UTF-8 is written as its
# `\xNN` (read as UTF-8 it would show as a replacement character; a terminal in an 8-bit mode
# would act on a lone `\x9b` as CSI).
_RELAY_ESCAPES = {
    **TERMINAL_ESCAPES,
    ord("\n"): "\n",
    # `surrogateescape` decodes a byte that is not UTF-8 to U+DC80–U+DCFF
    **{0xDC00 + byte: f"\\x{byte:02x}" for byte in range(0x80, 0x100)},
}
_ESCAPED = re.compile(
    "["
    + "".join(re.escape(chr(code)) for code, to in _RELAY_ESCAPES.items() if to != chr(code))
    + "]"
)


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
    """A candidate's output made safe for the operator's terminal: every character `shown`
    escapes written as its escape, so that a candidate cannot erase or rewrite the laboratory's
    own lines, set the window title, write the clipboard (pilot red team 27, A10) or reorder a
    line (pilot red team 33, A4). Only what reaches the terminal is escaped; what a launch keeps
    (`RelayedOutput`) is the bytes as written. A character split between two chunks (a pipe's
    chunks may split one) waits for the rest in the decoder: it is judged whole."""

    decoder: codecs.IncrementalDecoder = field(
        default_factory=lambda: codecs.getincrementaldecoder("utf-8")("surrogateescape")
    )

    def escape(self, chunk: bytes, *, last: bool = False) -> bytes:
        text = self.decoder.decode(chunk, final=last)
        return _ESCAPED.sub(_escaped, text).encode("utf-8")


def _escaped(match: re.Match[str]) -> str:
    return _RELAY_ESCAPES[ord(match.group())]


__all__ = ["RelayedOutput", "TerminalText"]
