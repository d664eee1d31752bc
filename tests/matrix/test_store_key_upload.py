"""Red team round 13b, H6 (docs/pilot-redteam.md): the laboratory's private key uploaded into a
matrix's `--store`. publish checked each listed path's last component and the store's client
re-opened the path: a job's folder swapped for a link to the key folder after the listing put
the key in the store (mode 0644). The upload now reads every file once through the one opener
from held folder descriptors and uploads those bytes: the swap is refused, the partial upload
removed, and no file of the store holds the key's bytes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.attest import KEY_DIR_ENV
from provebench.attest._keys import PRIVATE_KEY_FILE
from provebench.matrix._store import publish
from tests.helpers.listing_race import files_holding, swap_for_link_after_listing

pytest.importorskip("fsspec")


def _key() -> Path:
    return Path(os.environ[KEY_DIR_ENV]) / PRIVATE_KEY_FILE


def _job(tmp_path: Path) -> Path:
    """A finished job's folder: a record, and an importer's own file named like the key."""
    job = tmp_path / "job.partial-a"
    (job / "run" / "work" / "zz").mkdir(parents=True)
    (job / "job.json").write_text("{}\n", encoding="utf-8")  # uploaded before run/
    (job / "run" / "work" / "zz" / PRIVATE_KEY_FILE).write_text("its own bytes\n", encoding="utf-8")
    return job


def _swap_on_first_upload(monkeypatch: pytest.MonkeyPatch, folder: Path) -> list[Path]:
    """When the first file reaches the store (the job folder was listed), replace `folder` with
    a link to the key folder: the attack's race, at the point the attacker acts."""
    from fsspec.implementations.local import LocalFileSystem  # type: ignore[import-untyped]

    done: list[Path] = []

    def swap() -> None:
        if not done:
            for child in sorted(folder.rglob("*"), reverse=True):
                child.unlink()
            folder.rmdir()
            folder.symlink_to(_key().parent)
            done.append(folder)

    for method in ("put_file", "pipe_file"):
        real = getattr(LocalFileSystem, method)

        def racing(self: Any, *args: Any, _real: Any = real, **kwargs: Any) -> Any:
            result = _real(self, *args, **kwargs)
            swap()
            return result

        monkeypatch.setattr(LocalFileSystem, method, racing)
    return done


def test_control_the_store_holds_exactly_the_jobs_files(tmp_path: Path) -> None:
    job = _job(tmp_path)
    publish(job, (tmp_path / "store" / "job").as_uri(), "a")
    stored = tmp_path / "store" / "job"
    names = sorted(p.relative_to(stored).as_posix() for p in stored.rglob("*") if p.is_file())
    assert names == ["job.json", f"run/work/zz/{PRIVATE_KEY_FILE}"]
    assert (stored / "run/work/zz" / PRIVATE_KEY_FILE).read_bytes() == b"its own bytes\n"
    assert files_holding(tmp_path / "store", _key().read_bytes()) == []


def test_a_job_folder_swapped_for_a_link_to_the_key_folder_mid_upload_uploads_no_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attack as run: the swap when the upload has begun. The folder is read when its
    turn comes, by a descriptor opened without following a link: what is a link then is not
    uploaded (nor followed), and the upload holds exactly the files read."""
    job = _job(tmp_path)
    done = _swap_on_first_upload(monkeypatch, job / "run" / "work" / "zz")
    publish(job, (tmp_path / "store" / "job").as_uri(), "a")
    assert done, "the race was not reproduced"
    assert files_holding(tmp_path / "store", _key().read_bytes()) == []
    stored = tmp_path / "store" / "job"
    assert sorted(p.name for p in stored.rglob("*") if p.is_file()) == ["job.json"]


def test_a_job_folder_swapped_for_a_link_to_the_key_folder_after_its_listing_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The narrowest window: `zz` listed as a folder, then swapped before it is opened."""
    job = _job(tmp_path)
    work = job / "run" / "work"
    done = swap_for_link_after_listing(monkeypatch, work, "zz", _key().parent)
    with pytest.raises(ProvebenchError):
        publish(job, (tmp_path / "store" / "job").as_uri(), "a")
    assert done, "the race was not reproduced"
    assert files_holding(tmp_path / "store", _key().read_bytes()) == []
    assert not (tmp_path / "store" / "job").exists()
    assert list((tmp_path / "store").glob("job.partial-*")) == []  # the partial upload removed


def test_a_hard_link_to_the_key_is_never_uploaded(tmp_path: Path) -> None:
    job = _job(tmp_path)
    try:
        (job / "run" / "work" / "held.pem").hardlink_to(_key())
    except OSError:
        pytest.skip("the key folder is on another file system")
    with pytest.raises(ProvebenchError, match="key folder"):
        publish(job, (tmp_path / "store" / "job").as_uri(), "a")
    assert files_holding(tmp_path / "store", _key().read_bytes()) == []
