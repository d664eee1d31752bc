"""Which word of a command line is the file a Python runs: the candidate's program, the one file
whose folder a sandbox may show whole (docs/sandbox.md, "Only the program's folder is shown
whole"). Read as Python reads its own command line (`python --help`), running nothing."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

# Python's own short options that take a value (`python --help`): `-c` and `-m` end the options
# and name no file to run; `-W` and `-X` take the next word when not joined to it.
_PYTHON_VALUE_OPTIONS = frozenset("cmWX")
_PYTHON_LONG_VALUE_OPTIONS = frozenset({"--check-hash-based-pycs"})
_PYTHON_NAME = re.compile(r"python[0-9.]*t?")


def _is_python(program: str) -> bool:
    """`program` is a Python interpreter: by its name as given, or by the file it leads to."""
    names = (Path(program).name, Path(program).resolve().name)
    return program == sys.executable or any(_PYTHON_NAME.fullmatch(n) for n in names)


def program_argument(argv: Sequence[str]) -> int | None:
    """The index in `argv` of the file a Python interpreter runs — its first word that is not
    one of its options, read as Python reads its command line — or None: the program is not a
    Python (it is its own program, `argv[0]`), or Python runs no file (`-c`, `-m`, `-`)."""
    if not _is_python(argv[0]):
        return None
    index = 1
    while index < len(argv):
        word = argv[index]
        if word == "--":
            index += 1
            break
        if word in _PYTHON_LONG_VALUE_OPTIONS:
            index += 2
            continue
        if word.startswith("--"):
            index += 1
            continue
        if not word.startswith("-") or word == "-":
            break
        letters = word[1:]
        for position, letter in enumerate(letters):
            if letter in "cm":
                return None
            if letter in _PYTHON_VALUE_OPTIONS:
                index += 0 if position + 1 < len(letters) else 1
                break
        index += 1
    if index >= len(argv) or argv[index] == "-":
        return None
    return index


__all__ = ["program_argument"]
