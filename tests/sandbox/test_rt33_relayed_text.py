"""Pilot red team 33, A4: the relay of a sandboxed candidate's output escaped C0 and C1 but wrote
the bidi controls (U+202E reorders the rest of a line) and the line and paragraph separators
raw, which `_errors.shown` escapes everywhere else provebench prints text. The relay now
escapes by `shown`'s own set, written as `shown` writes it, whatever the pipe's chunks; each face
that relays a candidate's output (a pilot importer's, an SI agent's) is checked."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from provebench._errors import TERMINAL_ESCAPES, shown
from provebench.sandbox._launch import _relay_output
from provebench.sandbox._relayed import RelayedOutput
from tests.helpers.pilot_lab import make_corpus, run_cli
from tests.helpers.si_lab import write_fixture

# The red team's line, with the other characters a terminal line must not hold raw.
HOSTILE = "ERR\x1b[2J\u202eevil\u2028next\u2029\u2066\u061c\u200e\u200f\u202a done\n"
RAW = ("\u202e", "\u2028", "\u2029", "\u2066", "\u061c", "\u200e", "\u200f", "\u202a", "\x1b")


def _relayed(output: bytes, chunk: int) -> bytes:
    source = io.BufferedReader(io.BytesIO(output), buffer_size=chunk)
    sink = io.BytesIO()
    _relay_output(source, sink, RelayedOutput(1 << 20))
    return sink.getvalue()


def test_the_relay_escapes_bidi_controls_and_separators_whatever_the_chunks() -> None:
    for chunk in (1, 2, 7, 4096):  # a three-byte character split between reads too
        relayed = _relayed(HOSTILE.encode(), chunk).decode("utf-8")  # still UTF-8
        assert not any(raw in relayed for raw in RAW), relayed
        assert relayed == shown(HOSTILE.removesuffix("\n")) + "\n"


def test_the_relay_writes_what_shown_writes_for_every_character_it_escapes() -> None:
    # One escape set: a character `shown` escapes is escaped by the relay, spelled the same
    # (the newline kept, surrogates being no UTF-8 a program can write).
    for code, escape in TERMINAL_ESCAPES.items():
        if code == ord("\n") or 0xD800 <= code <= 0xDFFF:
            continue
        assert _relayed(chr(code).encode(), 4096) == escape.encode(), hex(code)


def test_a_byte_that_is_not_utf8_is_written_as_its_escape() -> None:
    assert _relayed(b"caf\xe9 \x9b[2J \xe2\x80", 3) == b"caf\\xe9 \\x9b[2J \\xe2\\x80"


# -- the faces: `pilot run` (an importer's output) and `si run` (an agent's) ---------------------
PRINTS = f"import sys\nsys.stderr.write({HOSTILE!r})\nsys.stderr.flush()\n"


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_pilot_run_relays_an_importers_output_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "candidate"
    folder.mkdir()
    # Printed when its module loads in the sandbox; then refused there (no run_cycle).
    (folder / "loud.py").write_text(PRINTS + "class Loud:\n    name = 'loud'\n    version = '1'\n")
    corpus = make_corpus(tmp_path / "corpora")
    done = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--agent", f"{folder / 'loud.py'}:Loud",
        "--out", str(tmp_path / "run"),
    )  # fmt: skip
    assert done.returncode == 2
    assert "ERR\\x1b[2J\\u202eevil\\u2028next" in done.stderr, done.stderr
    assert not any(raw in done.stderr for raw in RAW)


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_si_run_relays_an_agents_output_escaped(tmp_path: Path) -> None:
    scenario = write_fixture(tmp_path)
    folder = tmp_path / "agent"
    folder.mkdir()
    (folder / "loud.py").write_text(PRINTS)
    done = subprocess.run(
        [
            sys.executable, "-m", "provebench", "si", "run", str(scenario),
            "--agent-cmd", f"{sys.executable} {folder / 'loud.py'}", "--out", str(tmp_path / "out"),
        ],
        capture_output=True, text=True, check=False, timeout=150,
    )  # fmt: skip
    assert "ERR\\x1b[2J\\u202eevil\\u2028next" in done.stderr, done.stderr
    assert not any(raw in done.stderr for raw in RAW)
