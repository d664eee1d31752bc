"""A file of the shown code that has a name outside it: refused by identity, not by folder.

A hard link is the same file under another name, and the name the candidate's folder gives it
says nothing of where its others lie: `ln /var/lib/x/state code/s`, a link to a file of a home
folder or of another laboratory's run. The walk cannot list every folder of the host to find
the other names, but it need not: the kernel counts a file's names (`st_nlink`), and the walk
sees every name the code holds. A regular file whose count is more than the names the walk
found for it in the code has a name elsewhere, and is refused in one line naming it
(docs/sandbox.md, "Hard links"; pilot red team 25 round 2: only `/etc`'s files were known).

Nothing is accepted as harmless: which file another name belongs to cannot be told from the
code's side, so a venv installed by linking from a cache (uv's default), a local `git clone`'s
linked objects and a `cp -al` copy are refused too, and the operator gives the candidate a
copy of its own. A name moved in (a rename) leaves one name, inside: that file is the code's.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench.sandbox._containment import FileIdentity


class OtherNames:
    """The names the walk found for each file of the code that has more than one, and the most
    names the kernel counted for it at any read."""

    def __init__(self) -> None:
        self._found: dict[FileIdentity, set[Path]] = {}
        self._counted: dict[FileIdentity, int] = {}

    def note(self, path: Path, status: os.stat_result) -> None:
        """Record `path`, a name of the code, with `status` (the fstat of what was read)."""
        if status.st_nlink < 2 or not stat.S_ISREG(status.st_mode):
            return
        identity = (status.st_dev, status.st_ino)
        self._found.setdefault(identity, set()).add(path)
        self._counted[identity] = max(self._counted.get(identity, 0), status.st_nlink)

    def refuse_unfound(self, field: str) -> None:
        """Refuse, once the whole code is walked, a file with a name the walk did not find: the
        first such name of the code in path order, so the same folder gives the same line."""
        outside = [
            (min(names), len(names), self._counted[identity])
            for identity, names in self._found.items()
            if self._counted[identity] > len(names)
        ]
        if not outside:
            return
        path, found, counted = min(outside)
        raise ProvebenchError(
            f"{path} in the candidate's code has {counted} names and {found} of them in the code "
            "shown: a hard link of a file named elsewhere (under /var, a home folder, another "
            "laboratory's files), which a candidate may not be shown; give the candidate a copy "
            'of its own (docs/sandbox.md, "Hard links")',
            field=field,
        )


__all__ = ["OtherNames"]
