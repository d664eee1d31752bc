"""A candidate's code, copied once and shown from the copy (the seal, docs/attestation.md).

`pilot seal` fixes the candidate *as it will run*: every byte the sandbox would show of its
code folders is copied into the seal, read-only, and every sealed run binds that copy where the
code was — so the bytes that run are the bytes that were sealed, whatever happens to the
original folder afterwards. Bytecode caches are never copied: Python in a sealed run compiles
the sealed sources (a forged `__pycache__` entry cannot stand in for them).

A copy is checked against the listing it was sealed with before anything runs: a file changed,
added or removed is one line naming it.

Every run takes its own snapshot the same way (`snapshot_code`): before the candidate's first
launch, what the sandbox would show of its code — its folder, or the seal's copy — is copied
into a private folder of the laboratory's run, the run's identity is the digest of that
snapshot, and the snapshot is then read into sealed memory, checked against that digest's
listing, and the folder removed (`_held_code`): every launch of the run shows the bytes from
memory where the code was. A file changed in the candidate's folder, in the seal's copy or in
the snapshot while the run goes on changes nothing that runs (docs/attestation.md, "What runs
is what was identified"; red team round 10, A10).
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench._read_once import TreeWriter
from provebench.sandbox._candidate import FOLDER_ENTRY, code_listing, read_shown
from provebench.sandbox._containment import real_path
from provebench.sandbox._held_code import HeldCode, hold_code
from provebench.sandbox._policy import refuse_never_shown
from provebench.sandbox._private import private_folder, remove_private_folder

Listing = list[tuple[str, str]]


@dataclass(frozen=True)
class SealedCode:
    """A sealed candidate as a run starts it: its spec, and its code shown from the seal's
    checked copy where it was when it was sealed."""

    spec: str  # `path.py:Class`, `module:Class`, or `cmd:COMMAND`
    code_sha256: str
    copies: tuple[tuple[Path, Path], ...]  # (where the sandbox shows it, the copy)
    path_entry: str  # a class's import path entry ("" for none)
    argv: tuple[str, ...]  # a command's argv as resolved when sealed (() for a class)
    opening: Path  # the seal's secret opening: hidden from the sealed candidate's every run
    commitment: str = ""  # the seal's commitment: a run from the copy records it (`from_seal`)
    listing: Listing = dataclasses.field(default_factory=list)  # the copy's listing, as sealed

    @property
    def shown(self) -> tuple[Path, ...]:
        return tuple(shown for shown, _ in self.copies)


def copy_root(folder: Path, index: int, shown: Path, *, is_file: bool) -> Path:
    """Where the copy of the `index`-th shown path lies: a folder's content in `folder/index`, a
    file as `folder/index/NAME` (its name is part of the listing)."""
    where = folder / str(index)
    return where / shown.name if is_file else where


def read_only_mode(mode: int) -> int:
    """A copy's mode: the source's permission bits without any write bit (nor set-id or sticky
    bit) — never wider than the source, so a file its owner kept to a group (0640) is not made
    everyone's to read in the seal (0444)."""
    return stat.S_IMODE(mode) & 0o555


def copy_code(
    shown: Sequence[Path], hidden: Sequence[Path], folder: Path, *, field: str
) -> Listing:
    """Copy what a sandbox shows of `shown` (less what it hides and Python's caches) into
    `folder`, read-only; the copy's listing, checked equal to the original's.

    The copy is written from the very bytes the listing hashed (`read_shown`: read once from
    held folder descriptors, each file checked to be the one listed and no hidden file or key
    file by any name), never from a second read by path; and every entry is created in a held
    descriptor of its folder in the copy (`TreeWriter`), so neither side follows a link put in
    the middle of a path (red team round 13c, A1: a hidden scenario renamed over a listed file
    after its checks was listed, copied and sealed).

    Each shown path passes `never_shown` by its real path before anything is read, a file as a
    folder, and every entry below it `never_shown_below` as it is read (`read_shown`): a seal
    copied `/etc/shadow` and the laboratory's own `/proc/self/environ`, named as file arguments
    (pilot red team round 19, A2–A4)."""
    for path in shown:
        refuse_never_shown(path, field=field, what="candidate's code")
    roots = [
        copy_root(folder, index, path, is_file=real_path(path).is_file())
        for index, path in enumerate(shown)
    ]
    writers: list[TreeWriter] = []
    original: list[tuple[int, str, str]] = []
    try:
        for root, path in zip(roots, shown, strict=True):
            # A shown file is written into its own folder, under its shown name (`copy_root`).
            holder = root.parent if root.parent != folder else root
            holder.mkdir(parents=True)
            # A shown folder's copy keeps the folder's own mode less writing, as its entries
            # do; a shown file's holder is the copy's own folder. Only the mode is read by path
            # here, and only ever narrowed: the owner keeps reading what it sealed.
            mode = 0o555 if holder != root else read_only_mode(path.stat().st_mode) | 0o500
            # Read-only once filled, like every folder of the copy: given through the
            # descriptor the writer holds, never by path (red team round 14b, B1: a chmod by
            # path after the last check followed a link put in the root's place, and made
            # the laboratory's private key world-readable).
            writers.append(TreeWriter(holder, mode=mode))
        # The whole walk first, then the copy: a refusal the walk can make only at its end (a
        # file with a name outside the code, `_other_names`; a key made meanwhile) leaves no
        # byte of the code in the copy. The bytes are held once either way (`MAX_CODE_BYTES`).
        for item in list(read_shown(shown, hidden, field=field, skip_caches=True)):
            if item.root_file != (roots[item.index].parent != folder):
                raise ProvebenchError(  # a shown file became a folder, or the other way
                    "the candidate's code changed while it was being sealed; seal it again",
                    field=field,
                )
            writer = writers[item.index]
            if item.entry == FOLDER_ENTRY:  # an empty folder too: the code can see it exists
                # Read-only once filled: nothing added.
                writer.folder(item.relative, read_only_mode(item.mode))
            elif item.entry.startswith("link:"):
                writer.link(item.relative, item.link)
            else:  # the source's own bits, less writing: the owner's execute bit is listed
                writer.file(item.relative, item.data, read_only_mode(item.mode))
            original.append((item.index, item.relative, item.entry))
    finally:
        for writer in writers:
            writer.close()
    copied = code_listing(roots, field=field)
    if copied != [(f"{index}/{relative}", entry) for index, relative, entry in sorted(original)]:
        raise ProvebenchError(
            "the candidate's code changed while it was being sealed; seal it again", field=field
        )
    return copied


def check_copy(roots: Sequence[Path], sealed: Listing, *, field: str) -> None:
    """One line naming the first entry of the copy (a file, a folder, a link) that is not as it
    was sealed."""
    found = dict(code_listing(roots, field=field))
    expected = dict(sealed)
    for name in sorted(expected.keys() | found.keys()):
        if found.get(name) == expected.get(name):
            continue
        index, _, relative = name.partition("/")
        root = roots[int(index)]
        where = root if root.is_file() else root / relative
        reason = (
            "added after sealing"
            if name not in expected
            else "missing since sealing"
            if name not in found
            else "changed after sealing"
        )
        raise ProvebenchError(f"the seal's copy of the candidate's code was altered: {reason}",
                              path=where, field=field)  # fmt: skip


@dataclass(frozen=True)
class CodeSnapshot:
    """A run's snapshot of a candidate's code: its bytes in sealed memory (`held`, shown at
    every launch), the snapshot's listing (what the run's identity digests), and where each
    shown path was copied from (`copies`: the seal's copy or the path itself, which the policy
    reads to place what it hides — never shown)."""

    copies: dict[Path, Path]  # (where the sandbox shows it, where it was copied from)
    listing: Listing
    held: HeldCode | None = None


def snapshot_code(
    shown: Sequence[Path],
    hidden: Sequence[Path],
    resources: contextlib.ExitStack | None,
    *,
    field: str,
    sources: Mapping[Path, Path] | None = None,
    sealed: Listing | None = None,
) -> CodeSnapshot:
    """Copy what a sandbox would show of `shown` — from `sources` (a seal's copy) where given,
    else from the path itself — less what it hides and Python's caches, into a new private
    folder of this run, then into sealed memory (`hold_code`, checked against the copy's
    listing), and remove the folder; the memory is released when `resources` closes (at the
    process's exit when None; a folder left by a killed run is swept by the next, `_private`).
    With `sealed`, the snapshot must be exactly the sealed listing (one line naming the first
    entry that is not): a seal's copy altered before the snapshot is refused, one altered after
    it is never shown.

    Taken once per run, not per cycle: every launch of the run shows the held bytes where the
    code was, so the digest of the snapshot is the digest of what every cycle runs."""
    if not shown:
        return CodeSnapshot({}, [])
    given = dict(sources or {})
    origins = [given.get(path, path) for path in shown]
    folder = private_folder("code")
    try:
        listing = copy_code(origins, hidden, folder, field=field)
        roots = [
            copy_root(folder, index, origin, is_file=real_path(origin).is_file())
            for index, origin in enumerate(origins)
        ]
        if sealed is not None and listing != sealed:
            check_copy(roots, sealed, field=field)
            raise ProvebenchError(  # the same entries in another order: not the sealed listing
                "the seal's copy of the candidate's code was altered", field=field
            )
        # From here on the bytes live in sealed memory, checked against the listing just
        # digested; the folder, which any process of this user could rewrite, goes.
        held = hold_code(list(shown), roots, listing, field=field)
    finally:
        remove_private_folder(folder)
    if resources is None:
        atexit.register(held.close)
    else:
        resources.callback(held.close)
    return CodeSnapshot(dict(zip(shown, origins, strict=True)), listing, held)


__all__ = [
    "CodeSnapshot",
    "Listing",
    "SealedCode",
    "check_copy",
    "copy_code",
    "copy_root",
    "read_only_mode",
    "snapshot_code",
]
