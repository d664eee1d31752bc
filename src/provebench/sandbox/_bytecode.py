"""Bytecode the laboratory compiles and holds: the only bytecode a Python in a sandbox reads.

No Python in a sandbox may read the caches beside provebench's sources: no seal holds them and
no check can read their bytes (a `.pyc` replaced beside a listed source, its header kept, ran in
every cycle of a sealed fresh control: pilot red team 29, A2b). Compiling every import instead
cost about 0.7 s of CPU a sandboxed cycle (docs/sandbox.md, "Cost"). So the laboratory compiles
the sources every sandbox shows as provebench's — its package, its `site-packages`, the standard
library folders of its interpreter (`roots`) — itself, outside any sandbox, into one folder of
its private root, and every sandbox shows that folder read-only at `HELD_BYTECODE`, the prefix
where each Python there looks for bytecode (`_policy.SANDBOX_ENV`, `BYTECODE_OPTIONS`). Python
there reads only bytecode the laboratory wrote, and can write none.

Each entry is a checked hash-based `.pyc` (PEP 552): the Python that reads it compares the
siphash of the source it finds with the one the entry was compiled from, and compiles the source
instead when they differ. An entry made stale by a changed source is never run, whether or not
the folder was rebuilt since, so what runs is always what the source says (the same as with no
cache); a candidate's own code, held in memory, has no entry and compiles as it imports.

The folder is `private_root()/pycache-TAG-IDENTITY` (TAG: the interpreter's cache tag; IDENTITY:
provebench's version, interpreter and package folder), mode 0700, hidden from every sandbox with
the root (`_policy.laboratory_secrets`) except at `HELD_BYTECODE`. It is brought up to date once
per process (`held_bytecode`), under a lock against another laboratory doing the same, each entry
written atomically (`py_compile`: a temporary file renamed into place).

Bringing it up to date walks every source and its entry (about 0.4 s of CPU). A process that knows
the digest of provebench's environment's bytes (`_manifest.environment_digest`, which every
sandboxed launch computes first, and which covers every source compiled here) tells it with
`built_for_environment`; a folder last brought up to date for that digest is then not walked again
(its stamp, `_STAMP`). The stamp decides only what is worth walking, never what runs: an entry
stale for any reason is refused by the hash check above.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import py_compile
import stat
import sys
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path

import provebench
from provebench._canonical import write_atomic
from provebench.sandbox._private import private_root

# Where every sandbox shows the laboratory's bytecode, and where each Python there looks for
# bytecode (`PYTHONPYCACHEPREFIX`; `-X pycache_prefix` for the laboratory's `python -I`
# launches, which ignore every PYTHON* variable). Under `/run`, which no sandbox shows from the
# host (`_policy.HOST_STATE_DIRS`), so no candidate's code can lie there.
HELD_BYTECODE = "/run/provebench/pycache"
BYTECODE_OPTIONS = ("-X", f"pycache_prefix={HELD_BYTECODE}")
_built: list[Path | None] = []  # the folder this process brought up to date, or None: it failed
_STAMP = ".built-for-environment"  # the environment digest it was last brought up to date for
_environment: list[str] = []  # the environment digest this process computed, once known
# The `__pycache__` folders that digest's walk found and left out: every sandbox shows them empty.
_caches: list[tuple[str, ...]] = []


def built_for_environment(digest: str, caches: Iterable[str] = ()) -> None:
    """Record this process's environment digest (`_manifest.environment_digest`): a held folder
    already brought up to date for it is not walked again. `caches`: the `__pycache__` folders
    its walk found, which the digest leaves out (`environment_caches`)."""
    _environment[:] = [digest]
    _caches[:] = [tuple(caches)]


def forget_environment() -> None:
    """Forget this process's environment digest and its caches (a new walk will tell them)."""
    _environment.clear()
    _caches.clear()


def environment_caches() -> list[str] | None:
    """The `__pycache__` folders of provebench's environment that the digest's walk found, or
    None when this process computed no digest yet. No sandboxed Python reads them (it reads the
    held folder), yet one that clears `sys.pycache_prefix` could, and the host writes them as it
    runs (an operator's `python -O` broke every outstanding seal: pilot red team 31, A9): so the
    digest leaves them out and every sandbox shows them empty (`_policy.shown_empty_caches`),
    found by the walk the digest makes anyway, not by another walk per launch."""
    return list(_caches[0]) if _caches else None


def held_bytecode(roots: Iterable[Path], skipped: Iterable[Path]) -> Path | None:
    """The laboratory's bytecode folder, brought up to date once per process (kept while it is
    there: a private root moved within one process, as tests do, reuses it); None where it
    cannot be made — a sandbox then shows nothing at `HELD_BYTECODE` and Python compiles every
    import, as safely, only more slowly."""
    if _built and (_built[0] is None or _built[0].is_dir()):
        return _built[0]
    folder = private_root() / f"pycache-{sys.implementation.cache_tag}-{_identity()}"
    try:
        if not _up_to_date(folder):
            build_bytecode(folder, roots, skipped)
            _stamp(folder)
    except OSError:
        _built[:] = [None]  # not tried again in this process: each try walks every source
    else:
        _built[:] = [folder]
    return _built[0]


def held_folders() -> list[Path]:
    """Every held bytecode folder in the private root (one per interpreter and provebench build):
    bytecode of sources every sandbox shows, no secret, so the walks that look for a hidden
    file by another name leave them out (tens of thousands of entries,
    `_containment.linked_files`). They stay hidden with the root all the same."""
    try:
        return sorted(entry for entry in private_root().glob("pycache-*") if entry.is_dir())
    except OSError:
        return []


def _up_to_date(folder: Path) -> bool:
    """`folder` was last brought up to date for this process's environment digest."""
    if not _environment:
        return False
    try:
        return (folder / _STAMP).read_text(encoding="ascii") == _environment[0]
    except (OSError, ValueError):
        return False


def _stamp(folder: Path) -> None:
    """Mark `folder` as brought up to date for the environment digest this process computed
    before it walked: a source changed since leaves a stale entry the hash check refuses, and
    the next digest differs, so the next process walks again."""
    if _environment:
        write_atomic(folder / _STAMP, _environment[0], private=True)


def _identity() -> str:
    """provebench's identity for its bytecode: its version, its interpreter, its package."""
    said = "\0".join([provebench.__version__, sys.version, sys.executable, provebench.__file__])
    return hashlib.sha256(said.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def build_bytecode(folder: Path, sources: Iterable[Path], skip: Iterable[Path] = ()) -> None:
    """Compile every `.py` under `sources` (none under `skip`, none in a `__pycache__`) into
    `folder`, where a Python with `pycache_prefix=folder` looks for it, as a checked hash-based
    `.pyc`; one that is up to date is kept. An entry is up to date when its modification time is
    its source's (set after it is written): a source changed since, its time kept, leaves a
    stale entry that Python's own hash check refuses at import (the module docstring), so this
    test decides only what is worth compiling, never what runs."""
    _own_folder(folder)
    lock = folder.parent / f"{folder.name}.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # another laboratory compiling waits, then skips
        left_out = [os.path.realpath(path) for path in skip]
        for source in _sources(sources, left_out):
            _compile(source, entry_for(folder, source))
    finally:
        os.close(fd)


def entry_for(folder: Path, source: Path) -> Path:
    """Where a Python with `pycache_prefix=folder` looks for `source`'s bytecode (what
    `importlib.util.cache_from_source` names under a prefix: the source's folder below it)."""
    name = f"{source.stem}.{sys.implementation.cache_tag}.pyc"
    return folder / str(source.parent).lstrip(os.sep) / name


def _own_folder(folder: Path) -> None:
    """Make `folder` (mode 0700) unless it is there; refuse one that is not a real folder of this
    user's own (a link there would have the laboratory write elsewhere)."""
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=0o700)
    status = folder.lstat()
    if not stat.S_ISDIR(status.st_mode) or status.st_uid != os.getuid():
        raise OSError(f"{folder} is not a folder of this user's own")


def _sources(roots: Iterable[Path], left_out: list[str]) -> Iterator[Path]:
    """The `.py` files under `roots`, in order: no `__pycache__`, nothing whose folder's real
    path lies in `left_out`, no link (a sandboxed Python compiles what a link leads to itself)."""
    for root in dict.fromkeys(roots):
        for parent, folders, files in os.walk(root):
            if _inside(parent, left_out):
                folders[:] = []
                continue
            folders[:] = sorted(name for name in folders if name != "__pycache__")
            for name in sorted(files):
                path = Path(parent, name)
                if name.endswith(".py") and not path.is_symlink():
                    yield path


def _inside(path: str, left_out: list[str]) -> bool:
    real = os.path.realpath(path)
    return any(real == out or real.startswith(out + os.sep) for out in left_out)


def _compile(source: Path, entry: Path) -> None:
    try:
        wanted = source.stat().st_mtime_ns
        if entry.lstat().st_mtime_ns == wanted:
            return
    except FileNotFoundError:
        pass
    try:
        with warnings.catch_warnings():  # a standard module's SyntaxWarning is not ours to say
            warnings.simplefilter("ignore")
            py_compile.compile(
                str(source),
                cfile=str(entry),
                doraise=True,
                invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH,
            )
    except (py_compile.PyCompileError, OSError, ValueError):
        return  # not Python this interpreter compiles (a template, a test's bad syntax)
    os.utime(entry, ns=(wanted, wanted), follow_symlinks=False)


__all__ = [
    "BYTECODE_OPTIONS",
    "HELD_BYTECODE",
    "build_bytecode",
    "built_for_environment",
    "entry_for",
    "environment_caches",
    "forget_environment",
    "held_bytecode",
    "held_folders",
]
