"""Where a job's folder lives: a local path, or an fsspec URL (`--store s3://bucket/matrix`,
`gcs://…`, `file:///…`, any filesystem fsspec knows, with its own package installed).

A job on a URL store runs in a private temporary folder on its worker, is uploaded to
`LOCATION.partial-ATTEMPT` and moved to `LOCATION` as its last step (never over an existing
one), so evidence goes from the worker to the store directly and never through the scheduler.
The driver reads back only the verdict (to check its sha256) and writes the job's record and
signature beside it; a rerun fetches those three files to verify them.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from provebench._errors import ProvebenchError

PARTIAL_SUFFIX = ".partial"


def is_remote(location: str) -> bool:
    return "://" in location


def _filesystem(location: str) -> tuple[Any, str]:
    try:
        from fsspec.core import url_to_fs  # type: ignore[import-untyped]
    except ImportError:
        raise ProvebenchError(
            "a URL store needs fsspec: pip install 'provebench[cluster]'", field="--store"
        ) from None
    try:
        fs, root = url_to_fs(location)
    except (ImportError, ValueError) as error:
        raise ProvebenchError(f"cannot open the store: {error}", field="--store") from None
    return fs, str(root)


def read_bytes(location: str, name: str) -> bytes | None:
    """The file `name` of a job's folder, or None when it is not there."""
    if not is_remote(location):
        path = Path(location) / name
        return path.read_bytes() if path.is_file() and not path.is_symlink() else None
    fs, root = _filesystem(location)
    target = f"{root}/{name}"
    if not fs.isfile(target):
        return None
    data: bytes = fs.cat_file(target)
    return data


def write_bytes(location: str, name: str, data: bytes) -> None:
    if not is_remote(location):
        from provebench._canonical import write_atomic

        write_atomic(Path(location) / name, data)
        return
    fs, root = _filesystem(location)
    fs.makedirs(root, exist_ok=True)
    fs.pipe_file(f"{root}/{name}", data)


def clear(location: str) -> None:
    """Remove a job's folder and every partial attempt of it (the job is redone)."""
    if not is_remote(location):
        folder = Path(location)
        if folder.parent.is_dir():
            for leftover in folder.parent.glob(f"{folder.name}{PARTIAL_SUFFIX}-*"):
                shutil.rmtree(leftover, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)
        return
    fs, root = _filesystem(location)
    for leftover in [*fs.glob(f"{root}{PARTIAL_SUFFIX}-*"), root]:
        if fs.exists(leftover):
            fs.rm(leftover, recursive=True)


def publish(local: Path, location: str, attempt: str) -> None:
    """Upload a finished job folder to its URL location, all or nothing."""
    fs, root = _filesystem(location)
    partial = f"{root}{PARTIAL_SUFFIX}-{attempt}"
    for path in sorted(local.rglob("*")):
        if path.is_file() and not path.is_symlink():
            target = f"{partial}/{path.relative_to(local).as_posix()}"
            fs.makedirs(target.rsplit("/", 1)[0], exist_ok=True)  # object stores: nothing to do
            fs.put_file(str(path), target)
    if fs.exists(root):
        fs.rm(partial, recursive=True)
        raise FileExistsError("another attempt of this job finished first")
    fs.mv(partial, root, recursive=True)


def fetch(location: str, names: list[str], into: Path) -> Path:
    """Copies of a job's files, under their names, in a local folder (to verify a signature)."""
    for name in names:
        data = read_bytes(location, name)
        if data is not None:
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            (into / name).write_bytes(data)
    return into


__all__ = ["PARTIAL_SUFFIX", "clear", "fetch", "is_remote", "publish", "read_bytes", "write_bytes"]
