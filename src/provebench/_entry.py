"""The console script: every command's errors reported as one line, and one short road in.

Bad input (`ProvebenchError`) prints `provebench: error: FILE:LINE: FIELD: message` and exits 2;
an internal fault prints one line too and exits 3 (`PROVEBENCH_DEBUG=1` shows the traceback).

`provebench pilot score-final EXPECTED.csv CANDIDATE.csv` is measured against the published
one-file script (pilot §7; bench/bench_score_final.py), and on a million-row register its whole
job takes about a second, so the tenth of a second that importing the full command line costs
(typer, rich and every area's commands) counts; so does `provebench si score SCENARIO
EVIDENCE`, whose whole job is start-up (bench/bench_si_batch.py). Called with exactly one of
those commands and two file names, it runs here without them; any other arguments (an option,
`--help`, another command) go through the full command line in `provebench.cli`, which has the
same commands. So does `si suite PATH... --from-evidence RUN --out DIR` with no other option:
re-scoring a recorded suite is mostly start-up too (bench/bench_si_suite.py).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TextIO

from provebench._collector import importing
from provebench._errors import EXIT_CONFIG_ERROR, ProvebenchError, shown

EXIT_INTERNAL_ERROR = 3
EXIT_INTERRUPTED = 130


def main() -> None:
    """Console-script entry point."""
    arguments = sys.argv[1:]
    if sys.stdout is None:
        # Closed (`>&-`): Python would drop every printed line, and a score or a verdict printed
        # there would be lost while the command exited 0.
        _error_line("error: standard output is closed; redirect it instead (e.g. to /dev/null)")
        sys.exit(EXIT_CONFIG_ERROR)
    sys.stdout = _WatchedStdout(sys.stdout)
    if _is_plain_score_final(arguments):
        _reporting_errors(lambda: print_final_score(arguments[2], arguments[3]))
    elif _is_plain(arguments, ["si", "score"]):
        _reporting_errors(lambda: print_si_verdict(arguments[2], arguments[3]))
    elif (plain := _plain_rescore(arguments)) is not None:
        _reporting_errors(lambda: rescore_suite(*plain))
    else:
        _reporting_errors(_full_command_line)


def _is_plain_score_final(arguments: list[str]) -> bool:
    return _is_plain(arguments, ["pilot", "score-final"])


def _is_plain(arguments: list[str], command: list[str]) -> bool:
    """The command with exactly two file names and no option: the short road applies."""
    return (
        len(arguments) == 4
        and arguments[:2] == command
        and not any(argument.startswith("-") for argument in arguments[2:])
    )


def _plain_rescore(arguments: list[str]) -> tuple[list[str], str, str] | None:
    """(paths, RUN, DIR) of `si suite PATH... --from-evidence RUN --out DIR` with no other option
    (each of the two once, its value not an option), or None: the command line's road. The
    provider variable is its option too (`--provider`'s envvar): set, it takes that road."""
    if arguments[:2] != ["si", "suite"] or "PROVEBENCH_PROVIDER_URL" in os.environ:
        return None
    paths: list[str] = []
    values: dict[str, str] = {}
    rest = iter(arguments[2:])
    for argument in rest:
        if argument in ("--from-evidence", "--out") and argument not in values:
            value = next(rest, None)
            if value is None or value.startswith("-"):
                return None
            values[argument] = value
        elif argument.startswith("-"):
            return None
        else:
            paths.append(argument)
    if not paths or len(values) != 2:
        return None
    return paths, values["--from-evidence"], values["--out"]


def rescore_suite(paths: list[str], recorded: str, out: str) -> None:
    """The plain road of `si suite PATH... --from-evidence RUN --out DIR`: the same re-scoring,
    line and exit status as the command line's road (`provebench.si.suite._rescore`), without
    importing the command line or scanning the installed packages for pydantic plugins (no
    agent runs, so no program inherits the setting)."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "1")
    with importing():
        from provebench.si.suite._rescore import rescore, summary_line

    out_dir = Path(out)
    line, status = summary_line(rescore([Path(p) for p in paths], Path(recorded), out_dir), out_dir)
    sys.stdout.write(line + "\n")
    sys.stdout.flush()  # here, where a failure is reported, not at exit
    sys.exit(status)


def print_si_verdict(scenario: str, evidence: str) -> None:
    """The plain road of `si score SCENARIO EVIDENCE`: the verdict the command line prints,
    without importing the command line (typer, rich, every area's commands) or scanning the
    installed packages for pydantic plugins, which provebench does not use."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "1")
    with importing():
        from provebench.si.scoring._score import score_files

    if Path(evidence).is_dir():  # a batch: the command line's road handles it
        _full_command_line()
    sys.stdout.write(score_files(scenario, evidence).to_json())


def print_final_score(expected: str, candidate: str) -> None:
    """The plain road of `pilot score-final` (the command line's road prints the same way)."""
    with importing():
        from provebench.pilot.score_final._score import print_final_score as print_document

    print_document(expected, candidate)


def _full_command_line() -> None:
    with importing():
        from provebench.cli import run_app

    status = run_app()
    sys.stdout.flush()  # here, where a failure is reported, not at exit, where it is not
    sys.exit(status)


def _reporting_errors(command: Callable[[], None]) -> None:
    try:
        command()
    except ProvebenchError as error:
        _error_line(f"error: {error.one_line()}")
        sys.exit(EXIT_CONFIG_ERROR)
    except KeyboardInterrupt:
        _error_line("interrupted")
        sys.exit(EXIT_INTERRUPTED)
    except OSError as error:
        if error.filename is None and _stdout_is_failing():
            # A full disk, a closed pipe, an I/O error behind standard output: the machine's
            # state, like a full disk met while an output file is written (README).
            _error_line(f"error: cannot write to standard output: {error.strerror or error}")
            sys.exit(EXIT_CONFIG_ERROR)
        if error.filename is None or _names_our_own_file(error):
            _internal_error(error)
        # An OS error on a named file (missing, a folder, unreadable, read-only, full) is about a
        # path the user gave or the machine's state, not a fault of ours: one line naming it,
        # exit 2. Commands check their paths first; this is the net under what they cannot see.
        _error_line(f"error: {_os_error_text(error)}")
        sys.exit(EXIT_CONFIG_ERROR)
    except Exception as error:  # an internal fault, not bad input: still one line unless asked
        _internal_error(error)


def _internal_error(error: Exception) -> NoReturn:
    if os.environ.get("PROVEBENCH_DEBUG"):
        raise error
    _error_line(
        f"internal error: {type(error).__name__}: {error} (set PROVEBENCH_DEBUG=1 for a traceback)"
    )
    sys.exit(EXIT_INTERNAL_ERROR)


class _WatchedStdout:
    """Standard output as it is, remembering the OS error a write or flush met (a full disk, a
    closed pipe), so that the error can be reported as what it is. Everything else is the
    stream's own (`__getattr__`): encoding, isatty, fileno, buffer."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.failure: OSError | None = None

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as error:
            self.failure = error
            raise

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as error:
            self.failure = error
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _stdout_is_failing() -> bool:
    """Whether standard output failed. If so, its descriptor is pointed at /dev/null, so that
    the flush at exit does not print a second, multi-line complaint."""
    if not isinstance(sys.stdout, _WatchedStdout) or sys.stdout.failure is None:
        return False
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return True


def _names_our_own_file(error: OSError) -> bool:
    """Whether the error names a file of the installed package (its data, its modules): no
    input of the user's, but a broken install — an internal error, not exit 2's bad input."""
    for name in (error.filename, error.filename2):
        if name is None:
            continue
        try:
            path = Path(os.fsdecode(name)).resolve()
        except (OSError, RuntimeError, TypeError, ValueError):
            continue  # not a path that can be resolved: left to the one-line report
        if path.is_relative_to(_PACKAGE_DIR):
            return True
    return False


_PACKAGE_DIR = Path(__file__).resolve().parent


def _os_error_text(error: OSError) -> str:
    names = [
        os.fsdecode(name) if isinstance(name, bytes) else str(name)
        for name in (error.filename, error.filename2)
        if name is not None
    ]
    return f"{' -> '.join(names)}: {error.strerror or error}"


def _error_line(text: str) -> None:
    # The message and the file name are data, and a file name can hold anything.
    print(shown(f"provebench: {text}"), file=sys.stderr, flush=True)


__all__ = ["main", "print_final_score", "print_si_verdict"]
