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

Bytecode is no exception (pilot red team 29, A2/A2b). A `__pycache__` folder is walked like any
other: Python imports one as a namespace package (`__pycache__.mod` runs `__pycache__/mod.py`), so
the only files allowed in it are the caches Python itself names after a listed source
(`mod.cpython-311.pyc` beside a listed `mod.py`), and those are never read inside a sandbox —
Python there reads bytecode only from the laboratory's own, compiled outside any sandbox and
shown read-only (`_bytecode`). A cache replaced beside its source, header kept, runs nothing.

An editable install (`pip install -e .`, what `make` does) puts provebench's package folder
outside `site-packages`, where no RECORD lists its files (pilot red team 29, A7: an untracked
module there ran as part of a sealed candidate). Its files must then be the ones the source
tree's git index tracks, the compiled accelerators built beside their C sources, and the caches
above; a package folder outside a git checkout that no RECORD covers is refused, since nothing
tells which of its files are provebench's. The standard library folders of provebench's
interpreter installation, ahead of `site-packages` on the import path, hold standard modules only,
by CPython's own list of their names (`standard_library_code`).
"""

from __future__ import annotations

import importlib.machinery
import importlib.metadata
import os
import re
import subprocess
import sys
from pathlib import Path

import provebench
from provebench._errors import ProvebenchError

# What makes a virtual environment, not what provebench needs: present in any environment.
INSTALLERS = frozenset({"pip", "setuptools", "wheel", "uv"})
_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_SITES = frozenset({"site-packages", "dist-packages"})  # where an installer puts code
_CACHE = "__pycache__"  # Python's own bytecode of the listed sources, written as they import


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()  # PEP 503


# provebench's package folder (`_policy.PACKAGE_DIR`, the same path).
_PACKAGE_DIR = Path(provebench.__file__).resolve().parent


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
        unlisted = _unlisted(folder, recorded)
        if unlisted is not None:
            return unlisted
    return None


def _unlisted(folder: Path, listed: set[str]) -> tuple[Path, str] | None:
    """The first file under `folder` that `listed` (normalised paths) does not hold and that is
    not a cache Python names after a listed source, with why; None when there is none."""
    for parent, subfolders, files in os.walk(folder):
        subfolders.sort()
        # `os.walk` puts a link to a folder among the folders and never enters it: checked like a
        # file, so one no RECORD lists is refused wherever it leads (pilot red team 31, A7).
        links = [n for n in subfolders if os.path.islink(os.path.join(parent, n))]  # noqa: PTH114, PTH118
        for name in sorted([*files, *links]):
            path = os.path.normpath(Path(parent) / name)
            if path in listed or _is_cache_of_listed(Path(path), listed):
                continue
            what = "a path file run at start-up" if name.endswith(".pth") else "a file"
            if name in links:
                what = "a link to a folder"
            return Path(path), f"holds {what} no installed distribution lists"
    return None


def _is_cache_of_listed(path: Path, listed: set[str]) -> bool:
    """`path` is `__pycache__/mod.TAG.pyc` beside a listed `mod.py`: bytecode written for a
    listed source, which no sandbox reads (`_bytecode.HELD_BYTECODE`; every `__pycache__` is
    shown empty). TAG is whatever follows the module's name after a dot — Python's
    `cpython-311`, `cpython-311.opt-1` (PEP 3147, PEP 488), or pytest's `cpython-311-pytest-9.2.0`
    for a plugin module it rewrote for its asserts, which it writes beside the plugin in
    `site-packages` wherever bytecode may be written: refused, every sandboxed test of a run
    after the first failed on a developer's machine. No import names a file whose name holds a
    dot, so only `mod.py` and the sourceless `mod.pyc` could run from a cache folder."""
    if path.parent.name != _CACHE or not path.name.endswith(".pyc"):
        return False
    name = path.name.removesuffix(".pyc")
    # The module's own name may hold a dot too (`hook-playwright.async_api.py`): any split.
    stems = [name[:at] for at, char in enumerate(name) if char == "." and 0 < at < len(name) - 1]
    # None for `mod.pyc`: a module of the namespace package `__pycache__`.
    return any(os.path.normpath(path.parent.parent / f"{stem}.py") in listed for stem in stems)


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


def package_folder_code(package: Path, folders: list[Path]) -> tuple[Path, str] | None:
    """The first file of provebench's package folder `package` that is not provebench's, with
    why, or None. Inside a checked `site-packages` (`folders`) its RECORD already lists it;
    otherwise (an editable install) its files must be those the git index of its source tree
    tracks, a compiled accelerator beside its tracked C source, or a cache of a tracked source."""
    if any(package.is_relative_to(folder) for folder in folders):
        return None
    tracked = tracked_files(package)
    if tracked is None:
        return package, (
            "is an editable install outside a git checkout: nothing tells which of its files "
            "are provebench's"
        )
    built = set()
    for name in tracked:
        if name.endswith(".c"):
            stem = name.removesuffix(".c")
            built |= {stem + ending for ending in importlib.machinery.EXTENSION_SUFFIXES}
    found = _unlisted(package, tracked | built)
    if found is None:
        return None
    return found[0], "holds a file provebench's source tree does not track"


def tracked_files(package: Path) -> set[str] | None:
    """The files git tracks under `package`, as normalised absolute paths, or None where it is
    no git checkout of it (git cannot be run, or tracks nothing there)."""
    try:
        listed = subprocess.run(
            ["git", "-C", str(package), "ls-files", "-z", "--full-name", "--", "."],
            capture_output=True,
            check=True,
            timeout=60,
        )
        top = subprocess.run(
            ["git", "-C", str(package), "rev-parse", "--show-toplevel"],
            capture_output=True,
            check=True,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    root = str(Path(top.stdout.strip())).rstrip(os.sep)  # `/` (a checkout at the root): empty
    names = [n for n in listed.stdout.decode("utf-8", "surrogateescape").split("\0") if n]
    if not names:
        return None
    # Joined as text: normpath makes of it what it made of `root / name`, without a Path each.
    return {os.path.normpath(f"{root}/{name}") for name in names}


# What a CPython installation keeps beside its standard modules in `lib/pythonX.Y` and
# `lib-dynload`: folders, its build's configuration, and its own test modules, by name (in no list
# of standard module names, `sys.stdlib_module_names`; a pattern such as `_test*` would let any
# module so named in).
_STDLIB_EXTRAS = re.compile(
    r"(site-packages|dist-packages|lib-dynload|__pycache__|test|LICENSE\.txt|EXTERNALLY-MANAGED"
    r"|config-[^/]*|_sysconfigdata_[^/]*\.py|__hello__\.py|__phello__)"
    r"|(_ctypes_test|_testbuffer|_testcapi|_testclinic|_testimportmultiple|_testinternalcapi"
    r"|_testmultiphase|_testsinglephase|_xxsubinterpreters|_xxinterpchannels|_xxtestfuzz"
    r"|xxlimited|xxlimited_35|xxsubtype)\.[^/]*\.so"
)


def standard_library_code(entries: list[Path]) -> tuple[Path, str] | None:
    """The first thing in provebench's interpreter's standard library folders (`entries`: its
    import path less its `site-packages`) that is no standard module, with why, or None. Those
    folders come before `site-packages` on the import path and no seal holds them: a
    `sitecustomize.py` placed there runs at the start of every sandboxed Python, and a
    `googleapiclient/` there hides the installed one from an unchanged importer (pilot red team
    29, A1, not played). Checked by name, as CPython lists them; the files inside a standard
    package are not (CPython ships no list of them: a limit, docs/attestation.md)."""
    for entry in entries:
        if entry.is_file():
            return entry, "holds a file on the import path where a standard library folder is"
        if not entry.is_dir():
            continue
        names = sorted(path.name for path in entry.iterdir())
        modules = {
            os.path.normpath(entry / name)
            for name in names
            if name.endswith(".py") and _is_standard(name)
        }
        for name in names:
            path = entry / name
            if name == _CACHE and path.is_dir():
                stray = next(
                    (
                        Path(parent, file)
                        for parent, _, files in os.walk(path)
                        for file in sorted(files)
                        if not _is_cache_of_listed(Path(parent, file), modules)
                    ),
                    None,
                )
                if stray is not None:
                    return stray, "holds a file that is no cache of a standard module"
                continue
            if _is_standard(name):
                continue
            return path, "holds something that is no standard module"
    return None


def _is_standard(name: str) -> bool:
    return name.split(".")[0] in sys.stdlib_module_names or bool(_STDLIB_EXTRAS.fullmatch(name))


def standard_library_entries(folders: list[Path], interpreters: list[Path]) -> list[Path]:
    """provebench's import path inside its base installation's `lib` folder (the standard
    library, its `lib-dynload`, the `pythonXY.zip` slot), less `site-packages` and its own
    package's folder — never the folder of the script that started it (`sys.path[0]`). Only an
    installation a sandbox shows as provebench's (`own_interpreter_paths`): the system's Python
    is the system's (docs/sandbox.md, "Who is trusted"); `interpreters` are those installations
    (`_policy.own_interpreter_paths`, given by the caller: this module reads nothing of the
    policy's, which reads it)."""
    from provebench.sandbox._containment import lies_inside

    library = Path(sys.base_prefix) / "lib"
    if not any(lies_inside(library, folder) for folder in interpreters):
        return []
    found = []
    for entry in dict.fromkeys(Path(p) for p in sys.path if p):
        if entry.name in _SITES or entry in folders or entry == _PACKAGE_DIR.parent:
            continue  # checked by `foreign_code` and `package_folder_code`
        if library in Path(os.path.abspath(entry)).parents:  # noqa: PTH100 (links kept)
            found.append(entry)
    return found


def refuse_foreign_environment(
    *, field: str, interpreters: list[Path], package_dir: Path | None = None
) -> None:
    """Refuse, in one line, a seal or a sealed run whose provebench environment holds code the
    seal does not: in its `site-packages` (`foreign_code`) or in its package folder
    (`package_folder_code`)."""
    folders = site_folders()
    found = foreign_code(folders)
    where = "provebench's site-packages"
    if found is None:
        found = package_folder_code(package_dir or _PACKAGE_DIR, folders)
        where = "provebench's package folder"
    if found is None:
        found = standard_library_code(standard_library_entries(folders, interpreters))
        where = "provebench's standard library"
    if found is not None:
        path, why = found
        raise ProvebenchError(
            f"the environment holds code the seal does not: {where} {why}; "
            "a sealed candidate could run it unsealed — install the candidate in a folder or "
            "virtual environment of its own, and remove it from provebench's",
            path=path,
            field=field,
        )


__all__ = [
    "INSTALLERS",
    "foreign_code",
    "package_folder_code",
    "refuse_foreign_environment",
    "site_folders",
    "standard_library_code",
    "standard_library_entries",
    "tracked_files",
]
