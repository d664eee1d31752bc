"""A candidate's command line (`--agent-cmd`), resolved to what the sandbox runs."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench.sandbox._policy import absolute


def resolve_command(command: str, *, field: str) -> list[str]:
    """`command` split like a shell would, with the program and any argument that names an
    existing file (relative to the current directory) made absolute — the program runs in its
    work directory. `python`/`python3` as the program mean the interpreter running provebench.

    Paths are made absolute without following symbolic links: a virtual environment's
    `bin/python` is a link to the Python it was made from, and run through the link's target
    it would no longer be that environment (its packages would not import)."""
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise ProvebenchError(f"cannot parse the command: {error}", field=field) from error
    if not argv:
        raise ProvebenchError("the command is empty", field=field)
    program = argv[0]
    if program in ("python", "python3"):
        resolved = sys.executable
    elif os.sep in program:
        resolved = str(absolute(program))
        # Checked now, as a name on PATH is: otherwise every cycle would end in the same
        # agent_error and the run would "complete" without its importer ever starting.
        if not Path(resolved).is_file():
            raise ProvebenchError("program not found", path=program, field=field)
        if not os.access(resolved, os.X_OK):
            raise ProvebenchError("program is not executable", path=program, field=field)
    else:
        found = shutil.which(program)
        if found is None:
            raise ProvebenchError(f"program not found on PATH: {program}", field=field)
        resolved = str(absolute(found))
    arguments = [
        str(absolute(arg)) if not Path(arg).is_absolute() and Path(arg).is_file() else arg
        for arg in argv[1:]
    ]
    return [resolved, *arguments]


__all__ = ["resolve_command"]
