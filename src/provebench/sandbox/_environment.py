"""provebench's own environment, checked to hold only what its distributions ship.

Every sandbox shows provebench's interpreter and its `site-packages` as they are, never as the
candidate's code (`_policy.shown_to_every_candidate`): no seal copies them and no identity
digests them. So a module placed there — `python -m MOD`, a launcher that `runpy`s it, a
`.py` shim that imports it, a `.pth` file that runs at start-up — is code a sealed candidate
runs that no seal holds: changed after `pilot control`, it earned the fresh control for another
program (pilot red team 28, H5). A seal and every run from a seal refuse such an environment in
one line: every file of the `site-packages` must be one an installed distribution's RECORD
lists, and every installed distribution must be one provebench's own requirements (all extras,
transitively) name, or an installer's (`INSTALLERS`).
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import sys
from pathlib import Path

from provebench._errors import ProvebenchError

# What makes a virtual environment, not what provebench needs: present in any environment.
INSTALLERS = frozenset({"pip", "setuptools", "wheel", "uv"})
_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_CACHE = "__pycache__"  # Python's own bytecode of the listed sources, written as they import


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()  # PEP 503


def site_folders() -> list[Path]:
    """provebench's interpreter's `site-packages` folders (where an installer puts code)."""
    return sorted(
        {Path(p) for p in sys.path if Path(p).name == "site-packages" and Path(p).is_dir()}
    )


def foreign_code(folders: list[Path]) -> tuple[Path, str] | None:
    """The first thing in `folders` that provebench's distributions do not ship, with why, or
    None: a distribution outside provebench's requirements, or a file no RECORD lists."""
    distributions = {
        _normal(d.metadata["Name"] or ""): d
        for d in importlib.metadata.distributions(path=[str(f) for f in folders])
    }
    needed = _requirement_closure(distributions)
    recorded: set[str] = set()
    for name in sorted(distributions):
        found = distributions[name]
        if name not in needed and name not in INSTALLERS:
            where = Path(str(found.locate_file("")))
            return where, f"holds the distribution {name!r}, which provebench does not require"
        for entry in found.files or []:
            recorded.add(os.path.normpath(str(found.locate_file(entry))))
    for folder in folders:
        for parent, subfolders, files in os.walk(folder):
            subfolders[:] = sorted(s for s in subfolders if s != _CACHE)
            for name in sorted(files):
                path = os.path.normpath(Path(parent) / name)
                if path not in recorded:
                    what = "a path file run at start-up" if name.endswith(".pth") else "a file"
                    return Path(path), f"holds {what} no installed distribution lists"
    return None


def _requirement_closure(
    distributions: dict[str, importlib.metadata.Distribution],
) -> set[str]:
    """provebench and every distribution its requirements name, all extras, transitively."""
    needed: set[str] = set()
    waiting = ["provebench"]
    while waiting:
        name = waiting.pop()
        if name in needed or name not in distributions:
            continue
        needed.add(name)
        for requirement in distributions[name].requires or []:
            match = _NAME.match(requirement)
            if match:
                waiting.append(_normal(match.group(1)))
    return needed


def refuse_foreign_environment(*, field: str) -> None:
    """Refuse, in one line, a seal or a sealed run whose provebench environment holds code the
    seal does not (`foreign_code`)."""
    found = foreign_code(site_folders())
    if found is not None:
        path, why = found
        raise ProvebenchError(
            f"the environment holds code the seal does not: provebench's site-packages {why}; "
            "a sealed candidate could run it unsealed — install the candidate in a folder or "
            "virtual environment of its own, and remove it from provebench's",
            path=path,
            field=field,
        )


__all__ = ["INSTALLERS", "foreign_code", "refuse_foreign_environment", "site_folders"]
