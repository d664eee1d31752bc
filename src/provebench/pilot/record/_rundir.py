"""The run directory: where a laboratory run keeps its log, checkpoint and published files.

```
RUNDIR/
  identity.json        corpus, importer and rule versions of this run (checked on resume)
  ledger.sqlite        the external immutable log: the write-ahead record of every cycle
  work/                the importer's private work directory (its journal)
  checkpoint/          snapshot-NNNNNN/ (work/ as at the start of cycle NNNNNN) + snapshot.json
  register.csv         the confirmed register      } written after the last cycle,
  ledger.jsonl         the log as canonical JSONL  } each atomically;
  diagnostics.jsonl    the importer's diagnostics  } run.json last: a folder without
  run.json             the run record              } run.json is an incomplete run
  run.dsse.json        the laboratory's signature on all of the above (docs/attestation.md)
```
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import shutil
import stat
from pathlib import Path
from typing import Any

from provebench._canonical import canonical_json, current_umask, write_atomic
from provebench._errors import ProvebenchError
from provebench._jsonfile import read_json_file
from provebench._read_once import copy_tree_once, empty_folder, open_folder
from provebench.pilot.record._work_digest import work_tree_sha256

# /3: the candidate's isolation (docs/sandbox.md); /4: the candidate's code sha256 and the
# laboratory's signature beside run.json (docs/attestation.md); /5: a keyed anchor on every
# commit and the run's nonce in its first entry (docs/attestation.md, "Keyed anchors").
RUN_FORMAT = "provebench.pilot.run/5"
IDENTITY_FILE = "identity.json"
LEDGER_FILE = "ledger.sqlite"
LEDGER_EXPORT_FILE = "ledger.jsonl"
REGISTER_FILE = "register.csv"
DIAGNOSTICS_FILE = "diagnostics.jsonl"
RUN_RECORD_FILE = "run.json"
WORK_DIR = "work"
CHECKPOINT_DIR = "checkpoint"
_POINTER = "snapshot.json"
# Made from a run and written beside it (`pilot evaluate`, `provebench report`), never part of it:
# the run record does not list them, and the evaluator does not count them as unrecorded files.
VERDICT_FILE = "verdict.json"
VERDICT_ENVELOPE_FILE = "verdict.dsse.json"  # the evaluator's signature on the verdict
REPORT_FILE = "report.html"
EVALUATION_OUTPUTS = (VERDICT_FILE, VERDICT_ENVELOPE_FILE, REPORT_FILE)
# The laboratory's signature on the published run (docs/attestation.md): written after run.json,
# which cannot list it; the evaluator verifies it and counts it as no unrecorded file.
RUN_ENVELOPE_FILE = "run.dsse.json"


def _is_identity_temporary(entry: Path) -> bool:
    """The temporary file `write_atomic` makes for identity.json (`_canonical.atomic_writer`)."""
    name = entry.name
    if not (name.startswith(f".{IDENTITY_FILE}.") and name.endswith(".tmp")):
        return False
    return stat.S_ISREG(entry.lstat().st_mode)  # a regular file, not a link to one


def _is_empty_ledger(entry: Path) -> bool:
    """The empty ledger a new run creates before identity.json (`RunDir._create_ledger`)."""
    if entry.name != LEDGER_FILE:
        return False
    status = entry.lstat()
    return stat.S_ISREG(status.st_mode) and status.st_size == 0


class RunDirBusy(ProvebenchError):
    """Another run holds the folder's lock: nothing in the folder is this attempt's."""


class RunDir:
    """Paths and the checkpoint protocol of one run directory."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.ledger_path = root / LEDGER_FILE
        self.work_dir = root / WORK_DIR
        self.checkpoint_dir = root / CHECKPOINT_DIR
        self._lock_fd: int | None = None
        # Set by `prepare`: the folder held a trace of an earlier attempt of this run.
        self.earlier_attempt = False

    def path(self, name: str) -> Path:
        return self.root / name

    @property
    def is_complete(self) -> bool:
        return (self.root / RUN_RECORD_FILE).is_file()

    # -- identity ------------------------------------------------------------------------------
    def prepare(self, identity: dict[str, Any]) -> bool:
        """Create the directory for a new run, or check that it belongs to this run.

        Returns True when the directory already held this run (a resume). Refuses a directory
        that holds another run (different corpus, importer or rules) or unrelated files.

        Sets `earlier_attempt` when the folder holds any trace of an earlier attempt of this
        run — its identity.json (and so whatever log, checkpoint or work/ it left), or the empty
        log and the writer's leftovers of an attempt killed before it: such a run is resumed,
        whether or not its log holds entries (red team round 12, A7: a control killed inside
        cycle 1, before its first commit, ran that cycle twice and was signed `resumed: false`).
        """
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ProvebenchError(
                f"cannot create run directory: {error.strerror}", path=self.root
            ) from error
        if not os.access(self.root, os.W_OK | os.X_OK):
            raise ProvebenchError("run directory is not writable", path=self.root)
        self._lock()
        identity_path = self.root / IDENTITY_FILE
        if identity_path.is_file():
            recorded = read_json_file(identity_path)  # bad JSON: one line naming the file
            found = recorded.get("format") if isinstance(recorded, dict) else None
            if found != identity.get("format"):
                raise ProvebenchError(
                    f"this run directory holds a run of format {str(found)[:60]!r}, whose log "
                    "has no keyed anchors this version can verify; it cannot be resumed; use a "
                    "new directory",
                    path=self.root,
                )
            if recorded != identity:
                raise ProvebenchError(
                    "this run directory belongs to another run (different "
                    f"{_first_difference(recorded, identity)}); use a new directory",
                    path=self.root,
                )
            self.earlier_attempt = True
            return True
        entries = list(self.root.iterdir())
        # A run killed while it wrote identity.json leaves only the atomic writer's temporary
        # file (`.identity.json.*.tmp`), and the empty ledger made just before it: still a
        # folder of this command, started again.
        unfinished = [
            entry for entry in entries if _is_identity_temporary(entry) or _is_empty_ledger(entry)
        ]
        if len(unfinished) != len(entries):
            raise ProvebenchError(
                "run directory is not empty and holds no provebench run", path=self.root
            )
        self.earlier_attempt = bool(unfinished)
        for entry in unfinished:
            entry.unlink()
        self._create_ledger()
        try:
            write_atomic(identity_path, canonical_json(identity))
        except OSError as error:
            raise ProvebenchError(f"cannot write: {error.strerror}", path=identity_path) from error
        return False

    def _create_ledger(self) -> None:
        """A new run's log is created here, empty and exclusively, before identity.json marks
        the folder as a run (red team round 9, A2): a file already at the path — planted in the
        moment between the folder's check and now — is refused in one line, never opened as
        this run's log. The runner still treats a log holding entries when it opens it as a
        resume, whoever made the file (`_runner._execute_locked`)."""
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            fd = os.open(self.ledger_path, flags, 0o644)
        except FileExistsError:
            raise ProvebenchError(
                "a ledger appeared in this new run folder before the run created its own; "
                "a new run never opens a log it did not create; use a new directory",
                path=self.ledger_path,
            ) from None
        except OSError as error:
            raise ProvebenchError(
                f"cannot create: {error.strerror}", path=self.ledger_path
            ) from error
        os.close(fd)

    # -- one run at a time ---------------------------------------------------------------------
    def _lock(self) -> None:
        """Hold an exclusive lock on the folder itself until `release`: two runs in one folder
        would interleave their cycles in one log, and the one that lost the race could not be
        resumed (its confirmed register no longer matches the log). The lock is on the
        directory's own open file description, so no file is added to the run folder; it is
        not inherited by the importer's processes (O_CLOEXEC) and the kernel drops it when the
        laboratory dies, so a crashed run never leaves a stale lock behind."""
        if self._lock_fd is not None:
            return
        fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise RunDirBusy(
                "another provebench run is using this run directory; wait for it to end or "
                "use a new directory",
                path=self.root,
            ) from None
        self._lock_fd = fd

    def release(self) -> None:
        """Let another run use the folder (a resume, later or in this process)."""
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    # -- the importer's work directory and its cycle-start snapshots ---------------------------
    def align_work_dir(self, committed_cycles: int, work_sha256: str | None) -> None:
        """Make work/ what it was at the start of cycle `committed_cycles + 1` (crash safety).

        The snapshot pointer names the cycle whose start the snapshot captures. If it equals the
        next cycle, the previous attempt died inside that cycle: work/ is restored from the
        snapshot. If it is one behind, the attempt died after the ledger commit and before the
        snapshot: work/ is then exactly the committed cycle's end state and is snapshotted now.

        Either way the folder the next cycle starts from must match `work_sha256`, the digest
        the log recorded with the last committed cycle (for none, an empty folder): a checkpoint
        changed while the run was stopped is refused before anything runs. None (a log that
        records no digest) cannot be verified and is refused too.
        """
        next_cycle = committed_cycles + 1
        pointer = self._read_pointer()
        if pointer is None and committed_cycles == 0:
            shutil.rmtree(self.work_dir, ignore_errors=True)
            self.work_dir.mkdir()
            self.snapshot_work(next_cycle)
        elif pointer == next_cycle:
            source = self.checkpoint_dir / _snapshot_name(next_cycle)
            if not source.is_dir():
                raise ProvebenchError("checkpoint snapshot is missing", path=source)
            _verify_against_log(source, work_sha256, committed_cycles)
            self._restore(next_cycle)
        elif pointer == committed_cycles:
            _verify_against_log(self.work_dir, work_sha256, committed_cycles)
            self.snapshot_work(next_cycle)
        else:
            raise ProvebenchError(
                f"checkpoint (cycle {pointer}) does not match the ledger "
                f"({committed_cycles} committed cycles)",
                path=self.checkpoint_dir,
            )

    def snapshot_dir(self, next_cycle: int) -> Path:
        """The checkpoint snapshot of the start of `next_cycle`."""
        return self.checkpoint_dir / _snapshot_name(next_cycle)

    @property
    def snapshot_pointer(self) -> Path:
        return self.checkpoint_dir / _POINTER

    @staticmethod
    def pointer_bytes(next_cycle: int) -> bytes:
        """The pointer file's bytes as `snapshot_work` writes them."""
        return canonical_json({"next_cycle": next_cycle}).encode("utf-8")

    def snapshot_work(self, next_cycle: int) -> None:
        """Copy work/ as the start state of `next_cycle`, then switch the pointer to it.

        Written through descriptors: the run folder (the one this run locked), `checkpoint/`
        opened in it with no link followed, the snapshot made, filled, and the pointer renamed
        into place in that held folder (red team round 14b, C2: `checkpoint/` swapped for a
        link mid-run sent every later snapshot and pointer where the link led)."""
        checkpoint = self._held_checkpoint(create=True)
        try:
            name = _snapshot_name(next_cycle)
            target = self.checkpoint_dir / name
            _remove_folder_at(checkpoint, name)
            try:
                os.mkdir(name, 0o700, dir_fd=checkpoint)
            except OSError as error:
                raise ProvebenchError(f"cannot create: {error.strerror}", path=target) from None
            snapshot = open_folder(target, dir_fd=checkpoint, name=name)
            try:
                # The importer's files as they are: a symbolic link is copied as a link
                # (following it would copy whatever it points at, /etc or a loop, into the
                # evidence), and a FIFO, socket or device is left out (opening one can block).
                # The published run lists neither, so the evaluator reports them as files the
                # lab did not record. Every file through the one opener, each folder held by
                # descriptor (red team round 13b, H4: a file swapped for a link to the key after
                # copytree's listing put the key's bytes in the snapshot); a refusal removes the
                # partial snapshot and stops the run (exit 2).
                try:
                    copy_tree_once(
                        self.work_dir, target, durable=True, into_empty=True, target_fd=snapshot
                    )
                except BaseException:
                    _remove_folder_at(checkpoint, name)
                    raise
                os.fsync(snapshot)
            finally:
                os.close(snapshot)
            _write_pointer(checkpoint, self.snapshot_pointer, self.pointer_bytes(next_cycle))
            self._drop_other_snapshots(next_cycle, checkpoint)
        finally:
            os.close(checkpoint)

    def _held_checkpoint(self, *, create: bool = False) -> int:
        """A descriptor of `checkpoint/` (made first with `create`), opened with no link
        followed in the run folder this run locked (or, before a lock, the folder as named)."""
        if self._lock_fd is not None:
            root = os.dup(self._lock_fd)
        else:
            try:
                root = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            except OSError as error:
                raise ProvebenchError(f"cannot open: {error.strerror}", path=self.root) from None
        try:
            if create:
                try:
                    os.mkdir(CHECKPOINT_DIR, 0o777, dir_fd=root)
                except FileExistsError:
                    pass
                except OSError as error:
                    raise ProvebenchError(
                        f"cannot create: {error.strerror}", path=self.checkpoint_dir
                    ) from None
            return open_folder(self.checkpoint_dir, dir_fd=root, name=CHECKPOINT_DIR)
        finally:
            os.close(root)

    def _drop_other_snapshots(self, next_cycle: int, checkpoint: int) -> None:
        """Every snapshot but the pointer's, in the held `checkpoint/`. Also on restore: an
        attempt killed between the pointer's switch and this cleanup leaves the previous
        snapshot behind, which the published run would otherwise list (the run would differ
        from an uninterrupted one)."""
        with os.scandir(checkpoint) as listing:
            names = sorted(entry.name for entry in listing)
        for name in names:
            if name.startswith("snapshot-") and name != _snapshot_name(next_cycle):
                _remove_folder_at(checkpoint, name)

    def _restore(self, next_cycle: int) -> None:
        source = self.checkpoint_dir / _snapshot_name(next_cycle)
        if not source.is_dir():
            raise ProvebenchError("checkpoint snapshot is missing", path=source)
        shutil.rmtree(self.work_dir, ignore_errors=True)
        copy_tree_once(source, self.work_dir)  # the one opener, as snapshot_work (H4)
        checkpoint = self._held_checkpoint()
        try:
            self._drop_other_snapshots(next_cycle, checkpoint)
        finally:
            os.close(checkpoint)

    def _read_pointer(self) -> int | None:
        pointer = self.checkpoint_dir / _POINTER
        if not pointer.is_file():
            return None
        document = read_json_file(pointer)  # bad JSON: one line naming the file
        value = document.get("next_cycle") if isinstance(document, dict) else None
        if type(value) is not int:
            raise ProvebenchError("unreadable checkpoint", path=pointer, field="next_cycle")
        return value


def _remove_folder_at(folder: int, name: str) -> None:
    """Remove the folder `name` of the held `folder` and all it holds, through descriptors
    (`empty_folder`): anything else at that name (a link, a file) is left, never followed."""
    flags = os.O_RDONLY | os.O_CLOEXEC | os.O_DIRECTORY | os.O_NOFOLLOW
    try:
        held = os.open(name, flags, dir_fd=folder)
    except OSError:
        return
    try:
        empty_folder(held, ignore_errors=True)
    finally:
        os.close(held)
    with contextlib.suppress(OSError):
        os.rmdir(name, dir_fd=folder)


def _write_pointer(checkpoint: int, shown: Path, data: bytes) -> None:
    """Write the snapshot pointer atomically in the held `checkpoint/`: a temporary file of an
    unpredictable name, created exclusively with no link followed, flushed to disk, renamed
    over the pointer in that same folder, and the folder synced (`_canonical.atomic_writer`'s
    steps, relative to a held descriptor rather than a path)."""
    temporary = f".{shown.name}.{secrets.token_hex(16)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(temporary, flags, 0o600, dir_fd=checkpoint)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fchmod(fd, 0o666 & ~current_umask())
                os.fsync(fd)
            os.replace(temporary, shown.name, src_dir_fd=checkpoint, dst_dir_fd=checkpoint)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=checkpoint)
            raise
        os.fsync(checkpoint)
    except OSError as error:
        raise ProvebenchError(f"cannot write: {error.strerror}", path=shown) from None


def _verify_against_log(folder: Path, work_sha256: str | None, committed_cycles: int) -> None:
    """Refuse to resume from `folder` unless it is what the log says the last committed cycle
    left (docs/pilot-lab.md, "Crash safety"; pilot §6)."""
    if work_sha256 is None:
        raise ProvebenchError(
            f"the ledger records no work-directory digest for cycle {committed_cycles}; the "
            "checkpoint cannot be verified and the run cannot be resumed; use a new directory",
            path=folder,
        )
    if not folder.is_dir() or work_tree_sha256(folder) != work_sha256:
        recorded = (
            f"recorded after cycle {committed_cycles}"
            if committed_cycles
            else "of an empty folder (no cycle was committed)"
        )
        raise ProvebenchError(
            f"checkpoint does not match the work-directory digest {recorded}; it was changed "
            "while the run was stopped, and the run cannot be resumed; use a new directory",
            path=folder,
        )


def _snapshot_name(next_cycle: int) -> str:
    return f"snapshot-{next_cycle:06d}"


def _first_difference(recorded: object, expected: dict[str, Any]) -> str:
    if not isinstance(recorded, dict):
        return "identity format"
    for key, value in expected.items():
        if recorded.get(key) != value:
            return key
    return "identity"


__all__ = [
    "DIAGNOSTICS_FILE",
    "IDENTITY_FILE",
    "LEDGER_EXPORT_FILE",
    "LEDGER_FILE",
    "REGISTER_FILE",
    "RUN_FORMAT",
    "RUN_RECORD_FILE",
    "RunDir",
    "RunDirBusy",
]
