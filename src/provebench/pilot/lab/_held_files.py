"""The files a run folder holds that the laboratory signs but did not derive at publish: each is
read ONCE, checked from the bytes read, and signed by the digest of those bytes (pilot §15;
docs/attestation.md, "Only what it ran").

A check that reads a file by path and a digest that reads it again judge two different files
when someone renames another in between (red team round 12, A5: a log with payloads edited in
place and its stored hashes kept, renamed over `ledger.sqlite` after the check of its count and
stored head, was signed; A13: `work/CERTIFIED.json` planted after the check of work/ and before
it was listed was signed). So:

- the log: its bytes are read once — copied, and hashed as copied, into a private folder of
  this process — and every entry of that copy re-hashed and linked from seq 0 to exactly
  the head this process committed last; its digest is of those bytes;
- work/ and the last snapshot: each is read once (`work_listing`: every file's bytes hashed
  once) and must equal, entry for entry, the listing the laboratory kept in memory since the
  last commit, and that listing the log's last `work_sha256`; each file's digest in run.json
  is the one read there;
- then, just before the signature, every file on disk must still hold exactly those bytes
  (`still_holds`, `still_listed`), or nothing is signed.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
from pathlib import Path

from provebench._canonical import sha256_file
from provebench._errors import ProvebenchError
from provebench._read_once import copy_once
from provebench.ledger._entry import GENESIS_HASH, hash_text, hashed_text
from provebench.pilot.record._work_digest import WorkListing, listing_sha256, work_listing
from provebench.sandbox._private import private_folder

_ROWS = "SELECT seq, kind, payload, prev_hash, hash FROM entries ORDER BY seq"


def read_closed_log(path: Path, length: int, head_hash: str) -> str:
    """The sha256 of the log file at `path`, read once, after its every entry was re-hashed
    from those bytes and linked from seq 0 to the head this process committed last (`length`
    entries ending at `head_hash`). Otherwise one line naming the file; nothing is signed.

    The log can be larger than the memory a run may use (1.6 GB at a million events), so the
    one read is a copy (`copy_once`: hashed as copied, 0600) into a private folder (0700) made
    for it, which SQLite reads and which is removed once checked — as the evaluator holds its
    private copies (`provebench/_read_once.py`)."""
    folder = private_folder("log")  # in the private root: hidden from every candidate
    expected, prev = 0, GENESIS_HASH
    try:
        copy = folder / "ledger.sqlite"
        digest = copy_once(path, copy)
        connection = sqlite3.connect(f"{copy.as_uri()}?mode=ro&immutable=1", uri=True)
        try:
            for seq, kind, text, prev_hash, entry_hash in connection.execute(_ROWS):
                if (
                    seq != expected
                    or prev_hash != prev
                    or hash_text(hashed_text(seq, kind, text, prev_hash)) != entry_hash
                ):
                    raise _not_the_log(path, f"the first entry that does not chain is seq {seq}")
                expected, prev = seq + 1, entry_hash
        finally:
            connection.close()
    except (sqlite3.Error, TypeError, ValueError, AttributeError) as error:
        raise _not_the_log(path, f"it cannot be read as a log ({error})") from None
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if expected != length or (length and prev != head_hash):
        raise _not_the_log(path, f"it holds {expected} entries, not the {length} committed")
    return digest


def _not_the_log(path: Path, said: str) -> ProvebenchError:
    return ProvebenchError(
        f"ledger.sqlite is not the log the laboratory closed a moment ago ({said}); the "
        "laboratory signs nothing for it; use a new directory",
        path=path,
    )


def read_committed_work(
    folder: Path, committed: WorkListing, work_sha256: str, *, shown: str, said: str
) -> dict[str, str]:
    """The sha256 of each listed file of `folder` (work/ or the last snapshot), by its path
    relative to the folder, from ONE read of the folder that equals `committed` — the listing
    the laboratory kept in memory since the last commit — whose digest is the log's
    `work_sha256`. Hidden file names are the importer's, bound by the work digest, and not
    listed (as run.json always listed them)."""
    if listing_sha256(committed) != work_sha256:
        raise ProvebenchError(
            f"the work listing the laboratory kept does not match the digest the log recorded "
            f"{said}; the laboratory signs nothing",
            path=folder,
        )
    if folder.is_symlink() or not folder.is_dir() or work_listing(folder) != committed:
        raise _work_changed(folder, shown, said)
    return {
        os.fsdecode(relative): content.decode("ascii")
        for kind, _, relative, content in committed
        if kind == b"f" and not os.fsdecode(relative).rsplit("/", 1)[-1].startswith(".")
    }


def still_listed(folder: Path, committed: WorkListing, *, shown: str, said: str) -> None:
    """Just before the signature: `folder` still holds exactly the committed listing."""
    if folder.is_symlink() or not folder.is_dir() or work_listing(folder) != committed:
        raise _work_changed(folder, shown, said)


def _work_changed(folder: Path, shown: str, said: str) -> ProvebenchError:
    return ProvebenchError(
        f"{shown}/ does not match the work-directory digest the log "
        f"recorded {said} (a file was changed or added after the last commit); the laboratory "
        "signs nothing; use a new directory",
        path=folder,
    )


def still_holds(path: Path, sha256: str) -> None:
    """Just before the signature: the regular file at `path` still holds the bytes whose digest
    the record lists (read once, checked, signed), or one line naming it; nothing is signed."""
    try:
        found = sha256_file(path) if stat.S_ISREG(os.lstat(path).st_mode) else None
    except (OSError, ProvebenchError):
        found = None
    if found != sha256:
        raise ProvebenchError(
            "the file is not the one the laboratory read and checked (changed or replaced "
            "after it was checked); nothing is signed",
            path=path,
        )


__all__ = ["read_closed_log", "read_committed_work", "still_holds", "still_listed"]
