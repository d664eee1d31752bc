"""Red team round 13c, A1 (docs/sandbox.md, "Hard links"): the code listing checked one file and
read another. Its walk looked at every entry (`lstat`, the hidden paths' identities) before it
read any, then read each file again by path; a hard link of a hidden scenario renamed over a
listed file in between was hashed, copied into the run's snapshot and shown to a sealed agent,
which answered from it. The race is reproduced here at the instant the attacker acted — when the
laboratory opens a file, by whatever call — instead of by timing; the copy's target side, which
followed a link put in the middle of a path, is checked the same way."""

from __future__ import annotations

import builtins
import io
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from provebench import _read_once
from provebench._errors import ProvebenchError
from provebench._read_once import TreeEntry, copy_tree_once
from provebench.sandbox._candidate import code_digest, code_listing, listing_digest
from provebench.sandbox._code_copy import copy_code
from tests.helpers.listing_race import files_holding

SECRET = b"deviations:\n  - id: answer-key\n"
DECOY = b"decoy: nothing here\n"


@pytest.fixture
def scenario(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A hidden scenario, and a hard link of it staged outside the code, ready to be renamed."""
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(tmp_path / "keys"))
    (tmp_path / "scen").mkdir()
    (tmp_path / "stage").mkdir()
    secret = tmp_path / "scen" / "secret.yaml"
    secret.write_bytes(SECRET)
    os.link(secret, tmp_path / "stage" / "hl.yaml")
    return secret


@pytest.fixture
def code(tmp_path: Path) -> Path:
    """The attack's agent folder: a file read first, then the decoy the link replaces."""
    folder = tmp_path / "code"
    folder.mkdir()
    (folder / "aa_pad0").write_bytes(b"padding\n")
    (folder / "agent.py").write_text("x = 1\n", encoding="utf-8")
    (folder / "zz_leak.yaml").write_bytes(DECOY)
    return folder


def rename_when_opened(
    monkeypatch: pytest.MonkeyPatch, trigger: str, source: Path, over: Path
) -> list[Path]:
    """Rename `source` over `over` just before the laboratory opens a file named `trigger` —
    whether it opens it by path (`open`, `Path.read_bytes`) or in a held folder (`os.open` with
    `dir_fd`): the instant the red team's watcher acted on. Returns a list that holds `over`
    once the rename happened."""
    done: list[Path] = []

    def before(where: Any) -> None:
        if not done and isinstance(where, str | Path) and os.fspath(where).endswith(trigger):
            source.rename(over)
            done.append(over)

    def wrapped(real: Callable[..., Any]) -> Callable[..., Any]:
        def opener(where: Any, *args: Any, **kwargs: Any) -> Any:
            before(where)
            return real(where, *args, **kwargs)

        return opener

    monkeypatch.setattr(os, "open", wrapped(os.open))
    monkeypatch.setattr(io, "open", wrapped(io.open))
    monkeypatch.setattr(builtins, "open", wrapped(builtins.open))
    return done


# -- the attack: a hard link of the hidden scenario renamed in after the checks ------------------


@pytest.mark.parametrize("trigger", ["aa_pad0", "zz_leak.yaml"])
def test_a_hidden_file_renamed_in_after_the_checks_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scenario: Path, code: Path, trigger: str
) -> None:
    """`aa_pad0`: the red team's trigger (the first file read: every check was done by then);
    `zz_leak.yaml`: the rename lands between the look at the file and its open."""
    done = rename_when_opened(monkeypatch, trigger, tmp_path / "stage" / "hl.yaml",
                              code / "zz_leak.yaml")  # fmt: skip
    with pytest.raises(ProvebenchError, match=r"zz_leak\.yaml.*(by another name|changed)") as got:
        code_listing([code], [scenario], field="--agent", skip_caches=True)
    assert done, "the race was not reproduced"
    assert "\n" not in str(got.value)


def test_a_seal_never_copies_a_hidden_file_renamed_in_while_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scenario: Path, code: Path
) -> None:
    """What `pilot seal` and every run's snapshot copy (`copy_code`): refused, and no file the
    copy left holds the scenario's bytes."""
    done = rename_when_opened(monkeypatch, "zz_leak.yaml", tmp_path / "stage" / "hl.yaml",
                              code / "zz_leak.yaml")  # fmt: skip
    seal = tmp_path / "seal"
    with pytest.raises(ProvebenchError, match=r"zz_leak\.yaml.*by another name"):
        copy_code([code], [scenario], seal, field="--agent")
    assert done, "the race was not reproduced"
    assert files_holding(seal, SECRET) == []


def test_any_file_renamed_over_a_listed_one_after_its_look_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: Path
) -> None:
    """Not a hidden file: the listing reads only the file it looked at, whatever was put in its
    place (the same (st_dev, st_ino) as its `lstat`)."""
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(tmp_path / "keys"))
    other = tmp_path / "other.yaml"
    other.write_bytes(b"other bytes\n")
    done = rename_when_opened(monkeypatch, "zz_leak.yaml", other, code / "zz_leak.yaml")
    with pytest.raises(ProvebenchError, match=r"zz_leak\.yaml.*changed while it was read"):
        code_listing([code], field="--agent")
    assert done, "the race was not reproduced"


def test_a_key_file_renamed_in_while_it_is_read_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: Path
) -> None:
    """The key folder's files are refused by identity even when the caller hides nothing."""
    keys = tmp_path / "keys"
    keys.mkdir()
    (keys / "laboratory.ed25519.pem").write_bytes(b"-----BEGIN PRIVATE KEY-----\n")
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(keys))
    os.link(keys / "laboratory.ed25519.pem", tmp_path / "lab.pem")
    done = rename_when_opened(monkeypatch, "zz_leak.yaml", tmp_path / "lab.pem",
                              code / "zz_leak.yaml")  # fmt: skip
    with pytest.raises(ProvebenchError, match=r"zz_leak\.yaml.*key folder"):
        code_listing([code], field="--agent")
    assert done, "the race was not reproduced"


# -- the honest control: the same listing, digest and copy as before -----------------------------


def honest_code(folder: Path) -> Path:
    """A normal agent's folder: nested packages, an executable, an empty folder, a link, a hard
    link between its own files, names whose order by path differs from a tree's (`a-b`, `a/b`)."""
    (folder / "a" / "b").mkdir(parents=True)
    (folder / "a-b").mkdir()
    (folder / "empty").mkdir()
    (folder / "a" / "b" / "x.py").write_text("print(1)\n", encoding="utf-8")
    (folder / "a-b" / "data.json").write_text("{}\n", encoding="utf-8")
    (folder / "a.b").write_text("text\n", encoding="utf-8")
    (folder / "run.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    (folder / "run.sh").chmod(0o755)
    (folder / "lnk").symlink_to("a/b/x.py")
    os.link(folder / "a.b", folder / "same")
    (folder / "a" / "__pycache__").mkdir()
    (folder / "a" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"\0")
    return folder


# Computed by the listing before the fix (the same entries, the same order): an honest agent's
# identity, and so its seals and fresh controls, is unchanged.
HONEST_DIGEST = "e87d80c1a76b5c8f1bbfef6cad2689cd45b24b4eddccdef224ec0cb5b6efc557"
HONEST_DIGEST_WITH_CACHES = "4c979e53734212d7ffc9eb0c9535aac0ff64dd0d47f3d34fd957f3da09bbe286"


def test_control_an_honest_folder_lists_and_seals_with_the_same_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(tmp_path / "keys"))
    folder = honest_code(tmp_path / "code")
    assert code_digest([folder], field="--agent", skip_caches=True) == HONEST_DIGEST
    assert code_digest([folder], field="--agent") == HONEST_DIGEST_WITH_CACHES
    listing = copy_code([folder], [], tmp_path / "seal", field="--agent")
    assert listing_digest(listing) == HONEST_DIGEST
    assert (tmp_path / "seal" / "0" / "lnk").readlink() == Path("a/b/x.py")
    assert os.access(tmp_path / "seal" / "0" / "run.sh", os.X_OK)


# -- the copy's target side: no link followed in the middle of a path ----------------------------


def test_a_copy_writes_into_the_folder_it_made_not_where_a_link_put_in_its_place_leads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder of the copy renamed away and replaced by a link once it was made: what goes in
    it lands in the folder made (now renamed), never where the link leads."""
    source = tmp_path / "work"
    (source / "sub").mkdir(parents=True)
    (source / "sub" / "x.txt").write_text("x\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = tmp_path / "copy"
    real_tree = _read_once.read_tree_once

    def swapped(folder: Path) -> Iterator[TreeEntry]:
        for entry in real_tree(folder):
            yield entry
            if entry.relative == "sub":  # the copy has just made its `sub`
                (target / "sub").rename(target / "moved")
                (target / "sub").symlink_to(elsewhere)

    monkeypatch.setattr(_read_once, "read_tree_once", swapped)
    copy_tree_once(source, target)
    assert list(elsewhere.iterdir()) == []
    assert (target / "moved" / "x.txt").read_text(encoding="utf-8") == "x\n"


def test_a_tree_writer_refuses_an_entry_before_its_folder(tmp_path: Path) -> None:
    from provebench._read_once import TreeWriter

    (tmp_path / "copy").mkdir()
    with (
        pytest.raises(RuntimeError, match="before its folder"),
        TreeWriter(tmp_path / "copy") as writer,
    ):
        writer.file("sub/x.txt", b"x", 0o644)
