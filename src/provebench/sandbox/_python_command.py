"""Which word of a command line is the file a Python runs: the candidate's program, the one file
whose folder a sandbox may show whole (docs/sandbox.md, "Only the program's folder is shown
whole"). Read as Python reads its own command line (`python --help`), running nothing."""

from __future__ import annotations

import importlib.machinery
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from provebench._errors import ProvebenchError

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
    kind, index = _operand(argv)
    if kind != "file" or index >= len(argv) or argv[index] == "-":
        return None
    return index


def module_argument(argv: Sequence[str]) -> str | None:
    """The module a Python interpreter runs with `-m MODULE` (joined, `-mMODULE`, or the next
    word), or None: the program is not a Python, or it runs no module."""
    kind, index = _operand(argv)
    if kind != "module":
        return None
    word = argv[index]
    joined = word[word.index("m") + 1 :]
    if joined:
        return joined
    return argv[index + 1] if index + 1 < len(argv) else None


def refuse_unheld_module(argv: Sequence[str], held: Sequence[Path], *, field: str) -> None:
    """Refuse, in one line, `python -m MODULE` whose module is no file of the held code `held`
    (the candidate's folders, its own virtual environment's `site-packages`). Found by the
    import system's path search, which executes nothing. A module found only in provebench's
    own environment or the system's is shown to every sandbox and held by no seal: sealed, the
    command named a candidate whose code the seal did not hold, and whatever was placed under
    that name after `pilot control` ran as the sealed candidate (pilot red team 28, H5)."""
    module = module_argument(argv)
    if module is None:
        return
    top = module.split(".")[0]
    search = [str(p) for p in _import_folders(held)]
    found = importlib.machinery.PathFinder.find_spec(top, search) if top else None
    # A namespace package (a folder with no `__init__.py`) has no origin, only its folders
    if found is None or (
        found.origin in (None, "built-in", "frozen") and not found.submodule_search_locations
    ):
        raise ProvebenchError(
            f"`-m {module}` names no module of the candidate's held code (its folders, its own "
            "virtual environment): a module of provebench's environment or the system's is no "
            "candidate's code, and no seal holds it — name the candidate's own program file",
            field=field,
        )


def _import_folders(held: Sequence[Path]) -> list[Path]:
    """The folders of `held` an import may search: each held folder, and the `site-packages`
    of a held interpreter installation or virtual environment."""
    folders: list[Path] = []
    for path in held:
        if path.is_dir():
            folders.append(path)
            folders += sorted(path.glob("lib/python3*/site-packages"))
    return folders


def _operand(argv: Sequence[str]) -> tuple[str, int]:
    """What ends a Python's options: `("file", index)` of the first word that is not an option,
    `("module", index)` / `("code", index)` of the word holding `-m` / `-c`, or `("none", 0)`
    when the program is not a Python."""
    if not _is_python(argv[0]):
        return "none", 0
    index = 1
    while index < len(argv):
        word = argv[index]
        if word == "--":
            return "file", index + 1
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
                return ("module" if letter == "m" else "code"), index
            if letter in _PYTHON_VALUE_OPTIONS:
                index += 0 if position + 1 < len(letters) else 1
                break
        index += 1
    return "file", index


__all__ = ["module_argument", "program_argument", "refuse_unheld_module"]
