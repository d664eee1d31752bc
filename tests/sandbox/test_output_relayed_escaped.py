"""Pilot red team 27, A10: a candidate's output reached the operator's terminal byte for byte —
`ESC[1A ESC[2K` erased the laboratory's progress line and wrote a fake one, `ESC]0;…BEL` set the
window title. What reaches the terminal now has every control character escaped; what a launch
keeps of the output is the bytes as written."""

from __future__ import annotations

import io

from provebench.sandbox._launch import _relay_output
from provebench.sandbox._relayed import RelayedOutput

FAKE = (
    b"\x1b[1A\x1b[2K\r runs/real: 4 cycles; laboratory_pass=true \x1b]0;pwned\x07"
    b" \xc2\x9b2J caf\xc3\xa9\tok\n"
)


def _relayed(output: bytes, chunk: int) -> tuple[bytes, bytes]:
    source = io.BufferedReader(io.BytesIO(output), buffer_size=chunk)
    sink = io.BytesIO()
    captured = RelayedOutput(1 << 20)
    _relay_output(source, sink, captured)
    return sink.getvalue(), bytes(captured.kept)


def test_no_control_character_reaches_the_terminal() -> None:
    for chunk in (1, 7, 4096):  # a character split between two reads too
        shown, kept = _relayed(FAKE, chunk)
        assert not any(byte < 0x20 and byte not in b"\t\n" for byte in shown)
        assert b"\x7f" not in shown and b"\xc2\x9b" not in shown
        assert b"\\x1b[1A" in shown and b"\\x9b" in shown
        assert "café\tok\n".encode() in shown  # text, tabs and lines as written
        assert kept == FAKE  # what a launch keeps is the output itself
