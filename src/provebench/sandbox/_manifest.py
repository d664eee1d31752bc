"""The bytes of provebench's environment as every sandbox shows it, bound by one digest.

Every sandbox shows provebench's interpreter installations (its virtual environment and the
base Python it was made from) and its package folder as they are on the host
(`_policy.shown_to_every_candidate`), and no seal copies them. A check of that environment by
*names*, or of *some* of its folders, let code in through what it did not read (pilot red team
30): a `.pyc` planted beside a source read once the candidate set `sys.pycache_prefix = None`
(A1), a module `git add`ed to the package folder or a tracked one edited (A2), a Windows-only
standard module name or `test/evil.py` in the standard library (A3), a file in the venv's `share/`
that a sealed candidate `runpy`s (A8).

So the environment is described by its bytes: one manifest of `(root, path, kind, size, sha256)`
over every file each root shows (`environment_manifest`), less only what no sandbox shows — the
paths hidden from every candidate, the base installation's `site-packages` (shown empty), and
every `__pycache__` folder of the roots (shown empty: `shown_empty_caches`; the host writes them
as it runs, and an operator's `python -O` broke every outstanding seal: pilot red team 31, A9;
the walk hands them on, `_bytecode.environment_caches`, so no launch walks again). A seal records
the manifest's digest; every run from it, and `pilot control`, recomputes it once per command
and refuses any difference in one line naming the first path that changed
(`refuse_changed_environment`). Every sandboxed run records the digest in its isolation
(`_isolation.isolation_of`), sealed or not.

The digest also spares each command two walks that depend on nothing else but what is outside
those bytes: the held bytecode folder is not walked again for a digest it was last brought up to
date for (`_bytecode.built_for_environment`), and the check that the environment holds only
provebench's code (`_environment.refuse_foreign_environment`, 0.45 s of CPU) is not made again for a
digest it passed with the same folders to check and the same files tracked by git (`_passed_key`:
the inputs of that check the bytes do not hold). A seal makes that check itself, never from here.

A link is recorded by its target's text: what it leads to is bound only because it lies inside
a root, hashed by its own row. A link whose real target leaves the roots is refused (pilot red
team 31, A7: `site-packages/x -> /usr/local/lib/x`, changed after the seal, digest unchanged).
The digest is taken again after a sandboxed run's last cycle, before its record is signed
(`environment_moved`, A1): a swap undone before then is the limit docs/sandbox.md states.

Hashing two installations costs seconds, so each file's digest is kept in the private root
keyed by what any change of its bytes changes: device, inode, size, modification and change
time (`st_ctime_ns`, which no user can set). A re-check reads only the files whose key moved.
That cache is one file per set of roots (an environment: two virtual environments sharing the
private root do not evict each other) and holds only the keys of its last walk, so it stays the
environment's size: one kept across every change grew without end (60 MB on a machine with a
few environments, read at every launch: half a second of CPU each). An environment's file not
read for `_CACHE_KEPT_DAYS` is removed when another is saved (a removed environment's).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from provebench._canonical import canonical_json, sha256_bytes, write_atomic
from provebench._errors import ProvebenchError
from provebench.sandbox._bytecode import built_for_environment, forget_environment
from provebench.sandbox._private import private_root

_CACHE = "__pycache__"
_CACHE_FOLDER = "environment-digests"  # one file per set of roots (`_cache_file`)
_CACHE_KEPT_DAYS = 30
_MANIFESTS = "environments"  # the manifests of the digests seen, to name what changed
_CHUNK = 1 << 20
_seen: dict[str, str] = {}  # this command's digest (once per command), by the roots it covered
_walked_caches: list[str] = []  # the `__pycache__` folders the last manifest walk left out

Row = tuple[str, str, str, int, str]  # (root, path below it, kind, size, sha256 or link target)


def environment_roots() -> list[Path]:
    """What every sandbox shows as provebench's: its interpreter installations and package."""
    from provebench.sandbox._policy import PACKAGE_DIR, own_interpreter_paths

    return list(dict.fromkeys([*own_interpreter_paths(), PACKAGE_DIR]))


def _left_out() -> list[str]:
    from provebench.sandbox._policy import bytecode_skipped

    return [os.path.realpath(path) for path in bytecode_skipped()]


def environment_manifest() -> list[Row]:
    """Every file each environment root shows, in order, with its size and sha256 (a link: its
    target), less what no sandbox shows. Unreadable files are refused (fail closed). Strings, not
    `Path`s: tens of thousands of files, walked once per command."""
    left_out = _left_out()
    roots = list(map(str, environment_roots()))
    cache = _load_cache(roots)
    used: dict[str, str] = {}
    rows: list[Row] = []
    real_roots = [os.path.realpath(root) for root in roots]
    _refuse_mounts_below(real_roots, left_out)
    caches: list[str] = []
    for root, real_root in zip(roots, real_roots, strict=True):
        for path, below, names in _shown_folders(root, real_root, left_out, caches):
            for name in names:
                shown = f"{below}/{name}" if below else name
                rows.append(_row(root, shown, f"{path}/{name}", cache, used, real_roots))
    if used != cache:  # a file hashed anew, or one no longer there
        _save_cache(roots, used)
    _walked_caches[:] = caches
    return rows


def _refuse_mounts_below(real_roots: list[str], left_out: list[str]) -> None:
    """Refuse, in one line naming it, a mount point below a root this walk reads (read once from
    the mount table, `_mounts.mounts`, for each walk: a command's first and a run's last).

    Every sandbox shows the roots whole, and a secret is masked where the policy finds it under
    one by its own real path's ancestors (`_policy.policy_for`): a second name a mount makes is
    never found. The laboratory's key folder bound at `.venv/kb`, the run's corpus at `.venv/kc`,
    its scenario at `.venv/ks`, or a key folder over the base installation's `share/man`, were
    read by a probe (sandbox red team 39b, H2), as the walk of a candidate's code refuses a mount
    in the code (`_mounts`). An installation holds no mount of its own; one an operator made
    there is refused whatever its source. What is left out of the walk (shown empty) is not
    looked at, nor a mount at a root itself (a venv on a volume of its own)."""
    from provebench.sandbox._mounts import mounts

    below = tuple(root.rstrip(os.sep) + os.sep for root in real_roots)
    for mount in mounts():
        point = str(mount.point)
        if point.startswith(below) and not _inside(point, left_out):
            escaped = os.fsencode(point).decode("utf-8", "backslashreplace")
            raise ProvebenchError(
                f"provebench's environment holds a mount point ({mount.fs_type} mounted there), "
                "which every sandbox would show whole under a name no mask covers; unmount it",
                path=escaped,
            )


def _shown_folders(
    root: str, real_root: str, left_out: list[str], caches: list[str]
) -> Iterator[tuple[str, str, list[str]]]:
    """`(path, path below the root, the names of its files and links, sorted)` for each folder
    below `root` that a sandbox shows, parents first and each folder's subfolders by name (the
    order `os.walk` gave, whose rows the digests already sealed hold). A `__pycache__` folder is
    added to `caches` instead; a folder that cannot be listed is passed over, as `os.walk` did.

    One `os.scandir` per folder, each entry's type from the listing: `os.walk` with a
    `relpath`, `normpath` and `islink` per folder cost a fifth of a second of CPU per walk, and
    a sandboxed run walks twice (`environment_moved`). No link is followed: a link to a folder
    is a row (its target's text), never walked into, so a folder's real path is its root's
    plus its own path."""
    outside = tuple(left_out)
    outside_below = tuple(out + os.sep for out in left_out)
    stack = [(root, "", real_root)]
    while stack:
        path, below, real = stack.pop()
        if real in outside or real.startswith(outside_below):
            continue
        if os.path.basename(path) == _CACHE:  # noqa: PTH119 (cost)
            # Shown empty (`_policy.shown_empty_caches`): bytes the host writes as it runs.
            caches.append(path)
            continue
        try:
            with os.scandir(path) as listing:
                entries = list(listing)
        except OSError:
            continue
        names: list[str] = []
        folders: list[str] = []
        for entry in entries:
            if not _is_folder(entry):
                names.append(entry.name)
            elif _is_link(entry):
                names.append(entry.name)  # a link to a folder: recorded, never walked into
            else:
                folders.append(entry.name)
        names.sort()
        yield path, below, names
        for name in sorted(folders, reverse=True):  # popped, and so walked, by name
            stack.append(
                (
                    _joined(path, name),
                    f"{below}/{name}" if below else name,
                    _joined(real, name),
                )
            )


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()  # a link to a folder too, as `os.walk` listed it
    except OSError:
        return False


def _is_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_symlink()
    except OSError:
        return False


def _joined(folder: str, name: str) -> str:
    """`os.path.join(folder, name)` for a name from a listing (never absolute, never empty)."""
    return f"{folder}{name}" if folder.endswith(os.sep) else f"{folder}{os.sep}{name}"


def _inside(path: str, folders: list[str]) -> bool:
    return any(
        path == folder or path.startswith(folder.rstrip(os.sep) + os.sep) for folder in folders
    )


def _row(
    root: str,
    below: str,
    path: str,
    cache: dict[str, str],
    used: dict[str, str],
    real_roots: list[str],
) -> Row:
    status = os.lstat(path)
    if stat.S_ISLNK(status.st_mode):
        # A link is recorded by its target's text; what it leads to is bound only where that is
        # inside a root, hashed by its own row. One that leads out (a folder under `/usr`, which
        # every sandbox shows whole) ran code no digest holds (pilot red team 31, A7).
        target = os.path.realpath(path)
        if not _inside(target, real_roots):
            raise ProvebenchError(
                f"provebench's environment holds a link that leads out of it, to {target}: "
                "what it leads to is bound by no digest — remove the link, or install what it "
                "leads to in provebench's environment",
                path=Path(path),
            )
        return (root, below, "link", 0, os.readlink(path))  # noqa: PTH115
    if not stat.S_ISREG(status.st_mode):
        return (root, below, "special", 0, "")
    key = (
        f"{status.st_dev}:{status.st_ino}:{status.st_size}:"
        f"{status.st_mtime_ns}:{status.st_ctime_ns}"
    )
    digest = cache.get(key)
    if digest is None:
        try:
            with open(path, "rb") as handle:  # noqa: PTH123
                hasher = hashlib.sha256()
                while chunk := handle.read(_CHUNK):
                    hasher.update(chunk)
        except OSError as error:
            raise ProvebenchError(
                f"provebench's environment holds a file the laboratory cannot read "
                f"({error.strerror}): its bytes cannot be bound",
                path=Path(path),
            ) from None
        digest = hasher.hexdigest()
    used[key] = digest
    return (root, below, "file", status.st_size, digest)


def manifest_digest(rows: list[Row]) -> str:
    """sha256 of the manifest's canonical JSON text: the text each seal's digest was taken of,
    and the one kept to name a later change (`_first_change`)."""
    try:
        text = canonical_json([list(row) for row in rows], indent=None).encode()
    except UnicodeEncodeError:
        raise _name_not_utf8(rows) from None
    return sha256_bytes(text)


def _name_not_utf8(rows: list[Row]) -> ProvebenchError:
    """The one-line refusal of an environment holding a name (or a link's target) that is not
    UTF-8 (sandbox red team 39b, A07 v1b: an internal error at every launch). Refused, not
    digested by its bytes: the manifest is JSON text, kept to name what changed and read back
    as UTF-8, and a name with no text form would need a second spelling of names in it, one
    every sealed digest would have to be read against; the walk of a candidate's code refuses
    such a name too (`_candidate._utf8_name`). The name is shown with its bytes escaped."""
    for root, below, _kind, _size, target in rows:
        for text in (root, below, target):
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                escaped = os.fsencode(f"{root}/{below}").decode("utf-8", "backslashreplace")
                return ProvebenchError(
                    "provebench's environment holds a name that is not UTF-8 (a file, a folder "
                    "or a link's target), which no environment digest can hold; rename it",
                    path=escaped,
                )
    return ProvebenchError("provebench's environment manifest is not UTF-8 text")


def environment_digest() -> str:
    """The digest of provebench's environment, computed once per command (a process), its
    manifest kept in the private root so that a later mismatch can name the path."""
    roots = "\0".join(map(str, environment_roots()))
    if roots not in _seen:
        rows = environment_manifest()
        digest = manifest_digest(rows)
        folder = private_root() / _MANIFESTS
        folder.mkdir(mode=0o700, exist_ok=True)
        kept = folder / f"{digest}.json"
        if not kept.exists():
            write_atomic(
                kept, canonical_json([list(row) for row in rows], indent=None), private=True
            )
        _seen[roots] = digest
        built_for_environment(digest, _walked_caches)
    return _seen[roots]


def checked_environment_digest(*, field: str) -> str:
    """`environment_digest`, after `refuse_foreign_environment` (once per command): every
    sandboxed launch's record, sealed or not — a control matrix and a development run too, which
    no seal checked before (pilot red team 30, A12). An environment whose digest already passed
    that check, with the same folders to check and git index, is not checked again (the module
    docstring): its bytes are the ones that passed."""
    from provebench.sandbox import _environment
    from provebench.sandbox._policy import PACKAGE_DIR, own_interpreter_paths

    roots = "\0".join(map(str, environment_roots()))
    if roots in _seen:
        return _seen[roots]
    interpreters = own_interpreter_paths()
    digest = environment_digest()
    key = _passed_key(interpreters, PACKAGE_DIR)
    marker = private_root() / _MANIFESTS / f"{digest}-{key[:32]}.passed"
    if marker.is_file():
        return digest
    _environment.refuse_foreign_environment(
        field=field, interpreters=interpreters, package_dir=PACKAGE_DIR
    )
    # The check passed on the bytes as they were while it ran: marked only where they are still
    # those the digest was taken of (a file removed for the check and put back is not marked).
    forget_environment_digest()
    if environment_digest() == digest:
        with contextlib.suppress(OSError):  # only slower next time
            write_atomic(marker, key, private=True)
    return environment_digest()


def _passed_key(interpreters: list[Path], package: Path) -> str:
    """What the foreign-code check reads beyond the environment's bytes: which folders it checks
    (the `site-packages` and standard library folders on the import path), the installations
    and package folder it is given, and the files git tracks in the package folder (an untracked
    file is refused though its bytes are in the manifest). A process with another import path
    (a test runner's) keeps a marker of its own."""
    from provebench.sandbox._environment import (
        site_folders,
        standard_library_entries,
        tracked_files,
    )

    folders = site_folders()
    tracked = tracked_files(package)
    said = {
        "interpreters": list(map(str, interpreters)),
        "package": str(package),
        "site_folders": list(map(str, folders)),
        "standard_library": list(map(str, standard_library_entries(folders, interpreters))),
        "tracked": sorted(tracked) if tracked is not None else None,
    }
    return sha256_bytes(canonical_json(said, indent=None).encode("utf-8", "surrogateescape"))


def forget_environment_digest() -> None:
    """Compute the digest again at the next call (a test that changes the environment; the
    check after a run, `environment_moved`)."""
    _seen.clear()
    forget_environment()


def refuse_changed_environment(sealed: object, *, path: Path, field: str) -> None:
    """Refuse, in one line naming the first path that differs, an environment whose digest is
    not `sealed` (the seal's): code that is not what the seal bound would run with the sealed
    candidate. A seal that records none is refused too (fail closed)."""
    if not isinstance(sealed, str):
        raise ProvebenchError(
            "the seal binds no environment digest: seal the candidate again",
            path=path,
            field=field,
        )
    current = environment_digest()
    if current == sealed:
        return
    changed = _first_change(sealed, current)
    raise ProvebenchError(
        f"provebench's environment is not the one sealed (environment {current[:16]}, sealed "
        f"{sealed[:16]}): {changed}; the sealed candidate would run code the seal does not bind "
        "— restore it, or seal the candidate again",
        path=path,
        field=field,
    )


def environment_moved(recorded: str) -> str | None:
    """Compute the digest again (a new walk, the stat-keyed cache: about 0.45 s of CPU) and say,
    in words naming the first path that changed, how it differs from `recorded` (the digest a run
    recorded at its start), or None. The digest is otherwise taken once per command: a module
    swapped after that check and restored after the run earned a sealed fresh control for another
    program (pilot red team 31, A1); the laboratory checks again after the last cycle, before
    it signs or publishes anything the run's record says (docs/sandbox.md, "What the environment
    digest does not cover")."""
    forget_environment_digest()
    current = environment_digest()
    if current == recorded:
        return None
    return (
        f"environment {current[:16]}, recorded {recorded[:16]}: {_first_change(recorded, current)}"
    )


def _first_change(sealed: str, current: str) -> str:
    folder = private_root() / _MANIFESTS
    try:
        before = {tuple(r[:2]): r for r in json.loads((folder / f"{sealed}.json").read_text())}
        after = {tuple(r[:2]): r for r in json.loads((folder / f"{current}.json").read_text())}
    except (OSError, ValueError):
        return "the sealed manifest is not kept in this laboratory's private root"
    for key in sorted(before.keys() | after.keys()):
        if before.get(key) != after.get(key):
            where = Path(*key)
            if key not in before:
                return f"{where} was added"
            if key not in after:
                return f"{where} was removed"
            return f"{where} was changed"
    return "the manifests differ"


def _cache_file(roots: list[str]) -> Path:
    named = sha256_bytes("\0".join(roots).encode("utf-8", "surrogateescape"))
    return private_root() / _CACHE_FOLDER / f"{named[:32]}.json"


def _load_cache(roots: list[str]) -> dict[str, str]:
    kept = _cache_file(roots)
    try:
        found: Any = json.loads(kept.read_text(encoding="utf-8"))
        os.utime(kept)  # read: kept (`_save_cache` removes those nobody read for long)
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _save_cache(roots: list[str], cache: dict[str, str]) -> None:
    kept = _cache_file(roots)
    with contextlib.suppress(OSError):  # only slower next time
        kept.parent.mkdir(mode=0o700, exist_ok=True)
        write_atomic(kept, json.dumps(cache, sort_keys=True), private=True)
        unread = kept.stat().st_mtime - _CACHE_KEPT_DAYS * 86400
        for other in kept.parent.glob("*.json"):
            with contextlib.suppress(OSError):
                if other.stat().st_mtime < unread:
                    other.unlink()


__all__ = [
    "checked_environment_digest",
    "environment_digest",
    "environment_manifest",
    "environment_moved",
    "environment_roots",
    "forget_environment_digest",
    "manifest_digest",
    "refuse_changed_environment",
]
