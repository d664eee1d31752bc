"""Output paths checked before anything is written, and refused when writing would destroy.

Every file provebench writes goes through `_canonical.atomic_writer`, which writes a temporary
file and renames it over the target. A rename replaces whatever has the target's name: a FIFO or
a device (as root, /dev/full itself), a symbolic link (which would silently become a plain file),
or an input of the same command (`pilot evaluate RUN --out RUN/run.json` would replace the run
record with the verdict). So:

* `refuse_to_replace` — the one check the atomic writer makes on every target: a name that exists
  must be a regular file. A symbolic link is refused too, whatever it points to: following it
  would write somewhere the command line does not show, and replacing it would break the link.
* `check_output_file` / `check_output_dir` — what a command checks about its `--out` before any
  work starts, so that a bad path costs nothing and names the option: the same refusal, the
  folder to write into exists (or can be created) and is writable, and the output is none of
  the command's inputs.
* `claim_session_dir` — the folder of one served session (an MCP server the client starts, once
  per sample or epoch): claimed by `mkdir`, which exactly one process wins, so two sessions
  started with the same `--out` never write over each other.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench._key_location import KEY_DIR_ENV, key_dir
from provebench.sandbox._containment import lies_inside

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a symbolic link"),
)


def refuse_to_replace(path: str | Path, *, field: str | None = None) -> None:
    """Refuse a target that exists and is not a regular file (see the module docstring)."""
    try:
        mode = Path(path).lstat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return  # nothing to replace (a missing folder on the way is the caller's to report)
    except OSError as error:
        raise ProvebenchError(f"cannot inspect: {error.strerror}", path=path, field=field) from None
    if stat.S_ISREG(mode):
        return
    kind = file_kind(mode)
    raise ProvebenchError(
        f"exists and is {kind}; refusing to replace it with a file", path=path, field=field
    )


def file_kind(mode: int) -> str:
    """What a file of `mode` (from `lstat`) is, in words, when it is not a regular file."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def check_output_file(
    path: str | Path,
    *,
    inputs: Iterable[str | Path] = (),
    field: str | None = "--out",
) -> None:
    """Refuse an output file that cannot or must not be written, before any work starts.

    `inputs` are the files and folders the command reads: the output may be none of them and
    lie in none of those folders.
    """
    target = Path(path)
    refuse_to_replace(target, field=field)
    folder = target.parent
    if not folder.is_dir():
        problem = "does not exist" if not os.path.lexists(folder) else "is not a directory"
        raise ProvebenchError(f"the output directory {problem}", path=folder, field=field)
    _check_writable(folder, field)
    _refuse_inputs(target, inputs, field)
    # Only the inputs: a file written beside the key folder (in a home folder) carries nothing.
    _refuse_key_inside(inputs, field)
    _refuse_inside_key_folder(target, field)


def check_output_dir(
    path: str | Path,
    *,
    inputs: Iterable[str | Path] = (),
    field: str | None = "--out",
) -> None:
    """Refuse an output folder that is not a folder or cannot be created, before any work.

    `inputs` are the files and folders the command reads: the output folder may be none of them
    and lie in none of those folders (a run written into its corpus would change the corpus).
    """
    target = Path(path)
    existing = _nearest_existing(target)
    if existing == target and not target.is_dir():
        raise ProvebenchError("exists and is not a folder", path=target, field=field)
    if not existing.is_dir():
        raise ProvebenchError(
            "is not a folder; cannot make the output folder in it", path=existing, field=field
        )
    _check_writable(existing, field)
    _refuse_inputs(target, inputs, field)
    _refuse_key_inside([target, *inputs], field)
    _refuse_inside_key_folder(target, field)


SESSION_DIR_PREFIX = "session-"
MAX_SESSIONS = 99_999


def claim_session_dir(
    out: Path,
    *,
    force: bool,
    per_session: bool,
    inputs: Iterable[str | Path] = (),
    field: str = "--out",
) -> Path:
    """The folder this session writes, claimed before any work.

    Plain: `out` itself, made here; one that exists already is refused (it holds another run, or
    another session is writing it) unless `force`, which lets this session write its files into
    it. `per_session`: `out` holds one folder per session, `session-00001`, `session-00002`, …,
    each taken by the first session whose `mkdir` makes it.
    """
    check_output_dir(out, inputs=inputs, field=field)
    if per_session:
        out.mkdir(parents=True, exist_ok=True)
        for number in range(1, MAX_SESSIONS + 1):
            folder = out / f"{SESSION_DIR_PREFIX}{number:05d}"
            try:
                folder.mkdir()
            except FileExistsError:
                continue
            return folder
        raise ProvebenchError(f"holds {MAX_SESSIONS} sessions already", path=out, field=field)
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        out.mkdir()
    except FileExistsError:
        if not force:
            raise ProvebenchError(
                "exists; a served session writes a new folder (pass --force to write into this "
                "one, or --per-session to give each session its own folder inside it)",
                path=out,
                field=field,
            ) from None
    return out


def _refuse_inputs(target: Path, inputs: Iterable[str | Path], field: str | None) -> None:
    for source in map(Path, inputs):
        if _is_or_lies_in(target, source):
            where = "one of" if not source.is_dir() else f"inside {source}, one of"
            raise ProvebenchError(
                f"is {where} this command's inputs; write the output elsewhere",
                path=target,
                field=field,
            )


def _refuse_key_inside(folders: Iterable[str | Path], field: str | None) -> None:
    """Refuse a command whose inputs or output hold the laboratory's key folder: what it
    writes, copies or publishes from there would carry the private key with it (a run folder
    published, a seal's folder, an SI output; docs/attestation.md)."""
    keys = key_dir()
    for folder in map(Path, folders):
        if _holds(folder, keys):
            raise ProvebenchError(
                f"holds the laboratory's key folder {keys} ({KEY_DIR_ENV}); keep the key "
                "folder outside every folder provebench reads or writes",
                path=folder,
                field=field,
            )


def _refuse_inside_key_folder(target: Path, field: str | None) -> None:
    """Refuse an output that would land inside the laboratory's key folder, by identity (a link
    to the folder is the folder): written there it would replace the signing key or the record
    of the secrets every sandbox hides (pilot red team round 17, A8)."""
    keys = key_dir()
    if os.path.lexists(keys) and lies_inside(target, keys):
        raise ProvebenchError(
            f"lies inside the laboratory's key folder {keys} ({KEY_DIR_ENV}); "
            "nothing provebench outputs may be written there",
            path=target,
            field=field,
        )


def _holds(folder: Path, keys: Path) -> bool:
    """Whether `keys` is `folder` or lies inside it: by identity where `folder` exists, by the
    real path where it is still to be made (an output folder)."""
    if os.path.lexists(folder):
        return folder.is_dir() and lies_inside(keys, folder)
    wanted, where = os.path.realpath(folder), os.path.realpath(keys)
    return where == wanted or where.startswith(wanted.rstrip(os.sep) + os.sep)


def _check_writable(folder: Path, field: str | None) -> None:
    # os.access answers for this process (root may write anywhere); the write itself still
    # reports whatever this misses, as one line naming the file.
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ProvebenchError("the folder is not writable", path=folder, field=field)


def _nearest_existing(path: Path) -> Path:
    for candidate in (path, *path.parents):
        if os.path.lexists(candidate):
            return candidate
    return Path()


def _is_or_lies_in(target: Path, source: Path) -> bool:
    if not os.path.lexists(source):
        return False
    if os.path.lexists(target) and target.samefile(source):
        return True  # also a hard link, or the same file by another name
    # Inside a folder by identity, not by spelling (docs/sandbox.md, "Containment by identity").
    return source.is_dir() and lies_inside(target, source)


__all__ = [
    "SESSION_DIR_PREFIX",
    "check_output_dir",
    "check_output_file",
    "claim_session_dir",
    "file_kind",
    "refuse_to_replace",
]
