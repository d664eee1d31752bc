"""Red team round 13, H4 (docs/pilot-redteam.md): the laboratory's private key published in a
bundle that verified — `--risks` replaced by a symbolic link to it (A08), a run's
`work/journal.json` replaced by a hard link to it (A08b), a comparison's envelope a hard link to
it (A07). The one opener every reader and copier uses (`_read_once._open_regular`) refuses any
file that *is* a file of the key folder, by (st_dev, st_ino), in one line; `--risks` is read
through it, no link followed; and publish signs nothing about a run its own evaluation found
altered. Each attack is refused, and no file left behind holds the key's bytes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench._read_once import copy_once, read_once
from provebench.attest import KEY_DIR_ENV
from provebench.attest._keys import PRIVATE_KEY_FILE, PUBLIC_KEY_FILE, RETIRED_DIR
from provebench.pilot.publish import publish_bundle, verify_bundle
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent


def _keys() -> Path:
    return Path(os.environ[KEY_DIR_ENV])


def _key_bytes() -> bytes:
    return (_keys() / PRIVATE_KEY_FILE).read_bytes()


def _published_files(tmp_path: Path) -> list[Path]:
    """Every file left under `tmp_path` by publish (a bundle, or a staging folder it left)."""
    found = [p for p in tmp_path.rglob("*") if p.is_file() and not p.is_symlink()]
    return [p for p in found if "bundle" in p.relative_to(tmp_path).parts[0]]


def _no_key_anywhere(tmp_path: Path) -> None:
    key = _key_bytes().strip()
    for path in _published_files(tmp_path):
        assert key not in path.read_bytes(), f"the private key is in {path}"
        assert b"PRIVATE KEY" not in path.read_bytes(), f"a private key is in {path}"


def _a_recorded_file(run: Path) -> Path:
    """A file of the run that run.json records and publish copies (not run.json itself)."""
    recorded = json.loads((run / "run.json").read_text(encoding="utf-8"))["files_sha256"]
    return run / sorted(recorded)[0]


@pytest.fixture
def honest_run(tmp_path: Path) -> tuple[Path, Path]:
    """A small finished, signed run of the do-nothing importer, and its corpus."""
    corpus = make_small_corpus(tmp_path)
    run = run_agent(corpus, "noop", tmp_path / "run")
    return run, corpus


@pytest.mark.parametrize("name", [PRIVATE_KEY_FILE, PUBLIC_KEY_FILE])
def test_the_opener_refuses_a_key_file_by_any_name(tmp_path: Path, name: str) -> None:
    """A hard link, the file itself, and the file through a linked folder: all one identity."""
    linked = tmp_path / "journal.json"
    os.link(_keys() / name, linked)
    folder_link = tmp_path / "innocent"
    folder_link.symlink_to(_keys(), target_is_directory=True)
    for path in (linked, _keys() / name, folder_link / name):
        with pytest.raises(ProvebenchError, match="laboratory's key folder") as refused:
            read_once(path)
        assert str(path) in str(refused.value) and "\n" not in str(refused.value)
        with pytest.raises(ProvebenchError, match="laboratory's key folder"):
            copy_once(path, tmp_path / "copy")
        assert not (tmp_path / "copy").exists()


def test_the_opener_refuses_a_retired_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    keys = tmp_path / "keys"
    (keys / RETIRED_DIR).mkdir(parents=True)
    retired = keys / RETIRED_DIR / f"0123.{PRIVATE_KEY_FILE}"
    retired.write_bytes(b"-----BEGIN PRIVATE KEY-----\nretired\n")
    monkeypatch.setenv(KEY_DIR_ENV, str(keys))
    os.link(retired, tmp_path / "risks.md")
    with pytest.raises(ProvebenchError, match="laboratory's key folder"):
        read_once(tmp_path / "risks.md")


def test_the_opener_still_reads_a_copy_of_no_key(tmp_path: Path) -> None:
    """The honest control: equal bytes in another file are not the key's file (identity, not
    content), and an ordinary file reads as before."""
    (tmp_path / "plain.txt").write_bytes(b"plain")
    assert read_once(tmp_path / "plain.txt").data == b"plain"
    (tmp_path / "public.pem").write_bytes((_keys() / PUBLIC_KEY_FILE).read_bytes())
    assert read_once(tmp_path / "public.pem").data == (_keys() / PUBLIC_KEY_FILE).read_bytes()


@pytest.mark.parametrize("how", ["symlink", "hardlink"])
def test_publish_refuses_risks_that_are_the_key(
    tmp_path: Path, honest_run: tuple[Path, Path], how: str
) -> None:
    """A08: `--risks` a link to the private key; publish refuses in one line naming it."""
    run, corpus = honest_run
    risks = tmp_path / "risks.md"
    if how == "symlink":
        risks.symlink_to(_keys() / PRIVATE_KEY_FILE)
    else:
        os.link(_keys() / PRIVATE_KEY_FILE, risks)
    with pytest.raises(ProvebenchError) as refused:
        publish_bundle([run], [corpus], tmp_path / "bundle", risks=risks)
    assert refused.value.field == "--risks" and str(risks) in str(refused.value)
    assert "\n" not in str(refused.value)
    assert not (tmp_path / "bundle").exists()
    _no_key_anywhere(tmp_path)


def test_publish_refuses_a_run_file_that_is_the_key(
    tmp_path: Path, honest_run: tuple[Path, Path]
) -> None:
    """A08b: a run file the run records replaced by a hard link to the private key."""
    run, corpus = honest_run
    journal = _a_recorded_file(run)
    journal.unlink()
    os.link(_keys() / PRIVATE_KEY_FILE, journal)
    with pytest.raises(ProvebenchError, match="laboratory's key folder") as refused:
        publish_bundle([run], [corpus], tmp_path / "bundle")
    assert str(journal) in str(refused.value) and "\n" not in str(refused.value)
    assert not (tmp_path / "bundle").exists()
    _no_key_anywhere(tmp_path)


def test_publish_refuses_a_comparison_envelope_that_is_the_key(
    tmp_path: Path, honest_run: tuple[Path, Path]
) -> None:
    """A07: a comparison whose envelope is a hard link to the private key."""
    run, corpus = honest_run
    comparison = tmp_path / "forged" / "comparison.json"
    comparison.parent.mkdir()
    comparison.write_text('{"material": false}', encoding="utf-8")
    os.link(_keys() / PRIVATE_KEY_FILE, comparison.parent / "comparison.dsse.json")
    with pytest.raises(ProvebenchError, match="laboratory's key folder") as refused:
        publish_bundle([run], [corpus], tmp_path / "bundle", comparisons=[comparison])
    assert "\n" not in str(refused.value)
    assert not (tmp_path / "bundle").exists()
    _no_key_anywhere(tmp_path)


def test_publish_signs_nothing_about_a_run_its_evaluation_found_altered(
    tmp_path: Path, honest_run: tuple[Path, Path]
) -> None:
    """A run file changed after the laboratory signed the run: the staged copy's evaluation
    finds it altered, and publish refuses instead of signing a configuration-error run."""
    run, corpus = honest_run
    journal = _a_recorded_file(run)
    journal.write_bytes(journal.read_bytes() + b" ")
    with pytest.raises(ProvebenchError, match="file_altered") as refused:
        publish_bundle([run], [corpus], tmp_path / "bundle")
    assert str(journal) in str(refused.value) and "\n" not in str(refused.value)
    assert not (tmp_path / "bundle").exists()
    assert not list(tmp_path.glob(".bundle.*"))


def test_the_honest_run_with_plain_risks_still_publishes_and_verifies(
    tmp_path: Path, honest_run: tuple[Path, Path]
) -> None:
    """The control (C6): a plain `--risks` file and an untouched run publish, verify, and no
    published file holds the key."""
    run, corpus = honest_run
    risks = tmp_path / "risks.md"
    risks.write_text("The shadow period was two weeks.\n", encoding="utf-8")
    publish_bundle([run], [corpus], tmp_path / "bundle", risks=risks)
    assert verify_bundle(tmp_path / "bundle").verdicts_rederived == 1
    assert "two weeks" in (tmp_path / "bundle" / "residual-risks.md").read_text(encoding="utf-8")
    _no_key_anywhere(tmp_path)
