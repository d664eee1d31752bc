"""Crash safety of the exact-set publish check (docs/pilot-lab.md): a run killed in the middle of
an atomic write of one of the laboratory's own files leaves the writer's temporary file
(`.NAME.<32 hex>.tmp`, `_canonical.create_temporary`) beside it. The resume removes exactly that
leftover and publishes the same bytes as an uninterrupted run; any other hidden name — another
length of hex, a name the laboratory does not own, a folder, a symbolic link — is still refused
as a file it did not write (red team round 11, A1), and a link is never followed.

The killed attempt is made deterministically: a complete run whose run.json and signature are
removed is the folder a kill just before run.json leaves (`publish:before_run_json`), made once
and copied for each test, and the leftover is planted in it as the kill mid-write would have left
it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent

# The files whose bytes a resume must reproduce exactly; the log itself is compared by the head
# hash and length run.json records (its SQLite header counts the opens for writing).
COMPARED_FILES = (
    "register.csv",
    "ledger.jsonl",
    "diagnostics.jsonl",
    "identity.json",
    "checkpoint/snapshot.json",
)
HEX32 = "0123456789abcdef" * 2


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_corpus(tmp_path_factory.mktemp("corpus"), seed=3)


@pytest.fixture(scope="module")
def uninterrupted(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run_agent(corpus, "reference", tmp_path_factory.mktemp("clean") / "run")


@pytest.fixture(scope="module")
def killed(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run folder as an attempt killed while publishing leaves it: no run.json, no signature.
    Made once for the module; each test resumes its own copy (`killed_before_run_json`)."""
    out = run_agent(corpus, "reference", tmp_path_factory.mktemp("killed") / "run")
    for name in ("run.json", "run.dsse.json"):
        (out / name).unlink()
    return out


def killed_before_run_json(killed: Path, out: Path) -> Path:
    shutil.copytree(killed, out, symlinks=True)
    return out


def scored_record(run: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((run / "run.json").read_text(encoding="utf-8"))
    record.pop("non_scoring")
    record["files_sha256"].pop("ledger.sqlite")
    return record


def assert_same_run(run: Path, reference: Path) -> None:
    for name in COMPARED_FILES:
        assert (run / name).read_bytes() == (reference / name).read_bytes(), name
    assert scored_record(run) == scored_record(reference)
    assert (run / "run.dsse.json").is_file()


def hidden_entries(run: Path) -> list[str]:
    return sorted(
        path.relative_to(run).as_posix()
        for folder in (run, run / "checkpoint")
        for path in folder.iterdir()
        if path.name.startswith(".")
    )


@pytest.mark.parametrize(
    "leftovers",
    [
        (f"checkpoint/.snapshot.json.{HEX32}.tmp",),
        (f".register.csv.{HEX32}.tmp",),
        (f".ledger.jsonl.{HEX32}.tmp", f"checkpoint/.snapshot.json.{'f' * 32}.tmp"),
        # A kill while run.json itself is written: no run.json, so the same command resumes.
        (f".run.json.{HEX32}.tmp",),
    ],
    ids=["checkpoint-pointer", "register", "export-and-pointer", "run-record"],
)
def test_the_writers_own_leftover_is_removed_and_the_resume_gives_identical_bytes(
    corpus: Path, uninterrupted: Path, killed: Path, tmp_path: Path, leftovers: tuple[str, ...]
) -> None:
    out = killed_before_run_json(killed, tmp_path / "run")
    for name in leftovers:
        (out / name).write_bytes(b'{"half": "writ')  # a write cut short by the kill
    run_agent(corpus, "reference", out)
    assert hidden_entries(out) == []  # the leftovers are gone, and nothing else was left
    assert_same_run(out, uninterrupted)
    record = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert record["non_scoring"]["resumed"] is True
    assert not any(".tmp" in name for name in record["files_sha256"])


def plant_file(path: Path) -> None:
    path.write_text('{"certified": true}\n', encoding="utf-8")


def plant_folder(path: Path) -> None:
    path.mkdir()
    plant_file(path / "CERTIFIED.json")


@pytest.mark.parametrize(
    ("name", "plant"),
    [
        (f".register.csv.{HEX32[:31]}.tmp", plant_file),  # one hex digit short
        (f".register.csv.{HEX32}0.tmp", plant_file),  # one too many
        (f".register.csv.{HEX32.upper()}.tmp", plant_file),  # not the writer's lower-case hex
        (f".register.csv.{HEX32}.tmp.x", plant_file),
        (f".CERTIFIED.json.{HEX32}.tmp", plant_file),  # a name the laboratory does not own
        (f".run.dsse.json.{HEX32}.tmp", plant_file),  # written after the check, never left to it
        (f".snapshot.json.{HEX32}.tmp", plant_file),  # the pointer's name, outside checkpoint/
        (f"checkpoint/.register.csv.{HEX32}.tmp", plant_file),  # a top-level name inside it
        (f"checkpoint/.CERTIFIED.json.{HEX32}.tmp", plant_file),
        (f".register.csv.{HEX32}.tmp", plant_folder),  # the right form, but a folder
        (f"checkpoint/.snapshot.json.{HEX32}.tmp", plant_folder),
    ],
    ids=[
        "hex-31",
        "hex-33",
        "hex-upper",
        "suffix",
        "not-owned",
        "signature",
        "pointer-at-top",
        "top-name-in-checkpoint",
        "checkpoint-not-owned",
        "folder",
        "checkpoint-folder",
    ],
)
def test_any_other_hidden_name_is_still_refused_at_publish(
    corpus: Path, uninterrupted: Path, killed: Path, tmp_path: Path, name: str, plant: object
) -> None:
    out = killed_before_run_json(killed, tmp_path / "run")
    plant(out / name)  # type: ignore[operator]
    with pytest.raises(ProvebenchError) as refused:
        run_agent(corpus, "reference", out)
    line = str(refused.value)
    assert "\n" not in line and "did not write" in line and repr(name) in line
    assert not (out / "run.json").exists() and not (out / "run.dsse.json").exists()
    assert (out / name).exists()  # refused, not removed: it is not the writer's to remove
    # Taken away, the same command resumes and publishes the uninterrupted run's bytes.
    shutil.rmtree(out / name) if (out / name).is_dir() else (out / name).unlink()
    run_agent(corpus, "reference", out)
    assert_same_run(out, uninterrupted)


@pytest.mark.parametrize(
    "name",
    [f".register.csv.{HEX32}.tmp", f"checkpoint/.snapshot.json.{HEX32}.tmp"],
    ids=["top", "checkpoint"],
)
def test_a_link_of_the_writers_form_is_refused_and_never_followed(
    corpus: Path, killed: Path, tmp_path: Path, name: str
) -> None:
    """The writer creates its temporary file exclusively, never through a link: a link under
    that name is someone else's. It is refused like any foreign entry, neither removed through
    nor written through — the file it points at is untouched."""
    out = killed_before_run_json(killed, tmp_path / "run")
    target = tmp_path / "outside.txt"
    target.write_bytes(b"not the laboratory's\n")
    (out / name).symlink_to(target)
    with pytest.raises(ProvebenchError) as refused:
        run_agent(corpus, "reference", out)
    assert "did not write" in str(refused.value) and repr(name) in str(refused.value)
    assert (out / name).is_symlink() and (out / name).readlink() == target
    assert target.read_bytes() == b"not the laboratory's\n"
    assert not (out / "run.json").exists()
