"""Where the published script crashes, `provebench pilot score-final` refuses in one line.

The published script (extracted from the seed) always runs as a real subprocess. Ours runs in
process for every crash case, and as the real console script for one case of each kind, so that
exit statuses, stdout and stderr are checked as a user sees them without an interpreter start
per case.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot import score_final_state
from provebench.pilot.score_final._csv import PUBLISHED_FIELD_SIZE_LIMIT
from tests.helpers.published_scorer import (
    Outcome,
    published_script_or_skip,
    run_published_script,
)

PROVEBENCH = Path(sys.executable).with_name("provebench")
GOOD = b"file_id,a\nf1,x\nf2,y\n"


def run_ours(*args: str | Path) -> Outcome:
    completed = subprocess.run(
        [str(PROVEBENCH), "pilot", "score-final", *map(str, args)],
        capture_output=True,
        check=False,
        timeout=120,
    )
    return Outcome(completed.returncode, completed.stdout, completed.stderr.decode("utf-8"))


@pytest.fixture(scope="module")
def script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return published_script_or_skip(tmp_path_factory.mktemp("published"))


def _files(tmp_path: Path, expected: bytes | None, candidate: bytes | None) -> tuple[Path, Path]:
    expected_path, candidate_path = tmp_path / "expected.csv", tmp_path / "candidate.csv"
    if expected is not None:
        expected_path.write_bytes(expected)
    if candidate is not None:
        candidate_path.write_bytes(candidate)
    return expected_path, candidate_path


OVER_LIMIT = b"file_id,a\nf1," + b"x" * (PUBLISHED_FIELD_SIZE_LIMIT + 1) + b"\n"
OVER_LIMIT_QUOTED = b'file_id,a\nf1,"' + b"x\n" * (PUBLISHED_FIELD_SIZE_LIMIT // 2 + 1) + b'"\n'

# name: (expected bytes or None for absent, candidate bytes or None, the file ours must name,
#        what the published script dies of)
CRASHES: dict[str, tuple[bytes | None, bytes | None, str, str]] = {
    "missing_expected": (None, GOOD, "expected", "FileNotFoundError"),
    "missing_candidate": (GOOD, None, "candidate", "FileNotFoundError"),
    "both_missing": (None, None, "expected", "FileNotFoundError"),
    "latin1_expected": (b"file_id,a\nf1,caf\xe9\n", GOOD, "expected", "UnicodeDecodeError"),
    "latin1_candidate": (GOOD, b"file_id,a\nf1,caf\xe9\n", "candidate", "UnicodeDecodeError"),
    "truncated_utf8_at_end": (GOOD + b"f3,\xd0", GOOD, "expected", "UnicodeDecodeError"),
    "utf16_candidate": (GOOD, GOOD.decode().encode("utf-16"), "candidate", "UnicodeDecodeError"),
    "both_bad_names_expected": (b"\xff", b"\xff", "expected", "UnicodeDecodeError"),
    "bad_expected_missing_candidate": (b"\xfe" + GOOD, None, "expected", "UnicodeDecodeError"),
    "field_over_limit_expected": (OVER_LIMIT, GOOD, "expected", "field larger than field limit"),
    "field_over_limit_candidate": (GOOD, OVER_LIMIT, "candidate", "field larger than field limit"),
    "quoted_field_over_limit": (GOOD, OVER_LIMIT_QUOTED, "candidate", "field larger than field"),
}


# One case of each kind also goes through the console script.
THROUGH_CONSOLE_SCRIPT = {"both_missing", "latin1_candidate", "field_over_limit_expected"}


@pytest.mark.parametrize("name", sorted(CRASHES))
def test_published_crash_is_a_one_line_refusal(script: Path, tmp_path: Path, name: str) -> None:
    expected_bytes, candidate_bytes, named, cause = CRASHES[name]
    expected, candidate = _files(tmp_path, expected_bytes, candidate_bytes)
    named_path = str(expected if named == "expected" else candidate)
    published = run_published_script(script, expected, candidate)
    assert published.exit_code == 1 and cause in published.stderr, published.stderr
    with pytest.raises(ProvebenchError) as refusal:
        score_final_state(expected, candidate)
    assert refusal.value.path == named_path
    assert "\n" not in refusal.value.one_line()
    if name in THROUGH_CONSOLE_SCRIPT:
        ours = run_ours(expected, candidate)
        assert ours.exit_code == 2
        assert ours.stdout == b""  # never a score for bad input
        lines = ours.stderr.splitlines()
        assert len(lines) == 1, ours.stderr
        assert lines[0].startswith(f"provebench: error: {named_path}")


@pytest.mark.parametrize("candidate_bytes", [None, b"\xff" + GOOD], ids=["missing", "not-utf8"])
def test_expected_file_is_named_first_even_when_its_fault_comes_later(
    script: Path, tmp_path: Path, candidate_bytes: bytes | None
) -> None:
    # The published script reads the whole expected file before it opens the candidate; ours
    # reads both side by side, and must still name the expected file when both are bad.
    expected, candidate = _files(tmp_path, GOOD + b"f3,ok\n" * 50 + b"f4,\xff\n", candidate_bytes)
    published = run_published_script(script, expected, candidate)
    assert published.exit_code == 1 and "UnicodeDecodeError" in published.stderr
    with pytest.raises(ProvebenchError) as refusal:
        score_final_state(expected, candidate, chunk_bytes=8)
    assert refusal.value.path == str(expected)
    assert refusal.value.line == 54


def test_directory_is_refused(script: Path, tmp_path: Path) -> None:
    expected, _ = _files(tmp_path, GOOD, None)
    published = run_published_script(script, expected, tmp_path)
    assert published.exit_code == 1 and "IsADirectoryError" in published.stderr
    ours = run_ours(expected, tmp_path)
    assert (ours.exit_code, ours.stdout) == (2, b"")
    assert f"{tmp_path}: cannot open file" in ours.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file_is_refused(script: Path, tmp_path: Path) -> None:
    expected, candidate = _files(tmp_path, GOOD, GOOD)
    candidate.chmod(0)
    assert run_published_script(script, expected, candidate).exit_code == 1
    ours = run_ours(expected, candidate)
    assert (ours.exit_code, ours.stdout) == (2, b"")
    assert str(candidate) in ours.stderr


@pytest.mark.parametrize("count", [1, 3])
def test_wrong_number_of_files(script: Path, tmp_path: Path, count: int) -> None:
    files = [*_files(tmp_path, GOOD, GOOD), tmp_path / "expected.csv"]
    published = run_published_script(script, *files[:count])
    assert published.exit_code == 1
    assert "usage: score_final_state.py expected.csv candidate.csv" in published.stderr
    ours = run_ours(*files[:count])
    # Ours keeps the CLI's convention for usage errors (exit 2) rather than the script's 1.
    assert (ours.exit_code, ours.stdout) == (2, b"")
    assert "provebench pilot score-final" in ours.stderr or "Usage:" in ours.stderr


@pytest.mark.parametrize(
    ("expected", "candidate"),
    [(GOOD, GOOD), (GOOD, b"file_id,a\nf2,y\nf1,x\n"), (b"", b"")],
    ids=["pass", "fail", "empty-on-empty"],
)
def test_console_script_prints_published_bytes_and_exits_zero(
    script: Path, tmp_path: Path, expected: bytes, candidate: bytes
) -> None:
    expected_path, candidate_path = _files(tmp_path, expected, candidate)
    published = run_published_script(script, expected_path, candidate_path)
    ours = run_ours(expected_path, candidate_path)
    assert published.exit_code == 0
    assert (ours.exit_code, ours.stdout, ours.stderr) == (0, published.stdout, "")
