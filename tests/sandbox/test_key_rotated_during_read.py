"""Red team round 14b, A1: the key identities a read refuses were taken before it started. A
process of the operator's user ran `rotate_laboratory_key()` while the code listing (and, in
F1, a checkpoint's copy) read a large file, then renamed a hard link of the **new** private key
over a file not yet read: it was hashed, copied and shown — into a sealed importer's `work/`, a
checkpoint, a seal's code copy and a sealed SI agent's signed evidence. Once a read is done the
key folder is looked at again, by identity and by every private key's bytes
(`_read_once.KeyMaterialCheck`). The seam below does the round's racer at the first file read,
deterministically. The honest control: the same tree, no racer, reads whole."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from provebench import _read_once
from provebench._errors import ProvebenchError
from provebench.attest._keys import PRIVATE_KEY_FILE, laboratory_signer, rotate_laboratory_key
from provebench.sandbox import _candidate
from provebench.sandbox._candidate import read_shown


@pytest.fixture()
def keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "keys"
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(folder))
    laboratory_signer()  # the laboratory's key, made on first use
    return folder


def _code(tmp_path: Path) -> Path:
    code = tmp_path / "code"
    code.mkdir()
    (code / "a_importer.py").write_text("class Importer: ...\n", encoding="utf-8")
    (code / "zz_notes.txt").write_text("placeholder\n", encoding="utf-8")
    return code


def _racer(module: Any, keys: Path, code: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At the first file read: rotate the key, then rename a hard link of the new private key
    over `zz_notes.txt`, which the read has not reached yet."""
    original: Callable[..., Any] = module._read_descriptor
    fired: list[bool] = []

    def racing(*args: Any, **kwargs: Any) -> Any:
        if not fired:
            fired.append(True)
            rotate_laboratory_key()
            os.link(keys / PRIVATE_KEY_FILE, code / "zz.new")
            (code / "zz.new").replace(code / "zz_notes.txt")
        return original(*args, **kwargs)

    monkeypatch.setattr(module, "_read_descriptor", racing)


def test_the_code_listing_refuses_a_key_made_and_linked_in_while_it_read(
    tmp_path: Path, keys: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = _code(tmp_path)
    _racer(_candidate, keys, code, monkeypatch)
    with pytest.raises(ProvebenchError, match="key folder"):
        list(read_shown([code], field="--agent"))


def test_a_tree_copy_refuses_a_key_made_and_linked_in_while_it_read(
    tmp_path: Path, keys: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = _code(tmp_path)
    _racer(_read_once, keys, code, monkeypatch)
    target = tmp_path / "copy"
    with pytest.raises(ProvebenchError, match="key folder"):
        _read_once.copy_tree_once(code, target)
    assert not target.exists()  # no partial copy holds it


def test_a_copy_of_a_private_keys_bytes_is_refused(tmp_path: Path, keys: Path) -> None:
    """Not a name of the key: its bytes, copied (what identity alone never sees)."""
    code = _code(tmp_path)
    (code / "zz_notes.txt").write_bytes((keys / PRIVATE_KEY_FILE).read_bytes())
    with pytest.raises(ProvebenchError, match="private key's bytes"):
        list(read_shown([code], field="--agent"))
    with pytest.raises(ProvebenchError, match="private key's bytes"):
        _read_once.copy_tree_once(code, tmp_path / "copy")


def test_the_honest_tree_reads_whole(tmp_path: Path, keys: Path) -> None:
    code = _code(tmp_path)
    (code / "laboratory.ed25519.pub.pem").write_bytes(
        (keys / "laboratory.ed25519.pub.pem").read_bytes()  # a public key is no secret
    )
    shown = [entry.relative for entry in read_shown([code], field="--agent")]
    assert shown == ["a_importer.py", "laboratory.ed25519.pub.pem", "zz_notes.txt"]
    _read_once.copy_tree_once(code, tmp_path / "copy")
    assert (tmp_path / "copy" / "zz_notes.txt").read_text(encoding="utf-8") == "placeholder\n"
