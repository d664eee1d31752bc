"""What a launch relayed of a sandboxed program's output: its first bytes, up to the bound, and
how many bytes past the bound were read and dropped.

The bound keeps a candidate that prints gigabytes from costing the laboratory anything but its
own time; the count keeps the cut from being silent (SI red team 18, s1: a secret written past
1 MiB of padding on a sealed agent's standard error was dropped unflagged, and the disclosure
check passed). The cut point is fixed (the first `limit` bytes, whatever the pipe's chunks), so
the kept bytes are the same for the same output.
"""

from __future__ import annotations

from dataclasses import dataclass, field


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


__all__ = ["RelayedOutput"]
