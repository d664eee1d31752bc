"""Keyed anchors (docs/ledger.md, "Keyed anchors"): a signature in the batch's last entry over the
whole log up to it, made in the commit's transaction; the chain alone can be redone, an anchor
cannot."""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench.attest._anchors import anchor_signer, anchor_verifier, signer_key
from provebench.attest._sslib import CryptoSigner
from provebench.ledger import Ledger, check_anchors, verify_ledger
from provebench.ledger._anchor import ANCHOR_FORMAT
from tests.helpers.pilot_lab import run_cli


@pytest.fixture(scope="module")
def signer() -> CryptoSigner:
    return CryptoSigner.generate_ed25519()


def _anchored_log(path: Path, signer: CryptoSigner) -> Path:
    with Ledger.open(path) as ledger:
        ledger.append_batch([("run_started", {"nonce": "n"}), ("work", {"i": 1}),
                             ("commit", {"cycle": 1})], anchor=anchor_signer(signer))  # fmt: skip
        ledger.append_batch([("work", {"i": 2}), ("commit", {"cycle": 2})],
                            anchor=anchor_signer(signer))  # fmt: skip
    return path


def _check(path: Path, signer: CryptoSigner):  # type: ignore[no-untyped-def]
    verify = anchor_verifier(signer_key(signer, path))
    with Ledger.open_readonly(path) as ledger:
        return check_anchors(list(ledger.linked_rows()), verify)


def test_each_batch_ends_in_an_anchor_that_verifies(tmp_path: Path, signer: CryptoSigner) -> None:
    path = _anchored_log(tmp_path / "log.sqlite", signer)
    with Ledger.open_readonly(path) as ledger:
        anchored = [e.seq for e in ledger.entries() if "anchor" in e.payload]
        assert anchored == [2, 4]
        assert (
            ledger.head() is not None and ledger.head().payload["anchor"]["format"] == ANCHOR_FORMAT
        )  # type: ignore[union-attr]
    assert verify_ledger(path).ok
    check = _check(path, signer)
    assert (check.verified, check.problems, check.head_anchored) == (2, [], True)


def test_a_rechained_edit_breaks_every_later_anchor(tmp_path: Path, signer: CryptoSigner) -> None:
    path = _anchored_log(tmp_path / "log.sqlite", signer)
    with Ledger.open_readonly(path) as ledger:
        entries = [(e.kind, e.payload) for e in ledger.entries()]
    entries[1] = ("work", {"i": 99})  # edited, then the chain rebuilt as a holder would
    forged = tmp_path / "forged.sqlite"
    with Ledger.open(forged) as ledger:
        ledger.append_batch(entries)
    assert verify_ledger(forged).ok  # the chain alone cannot tell
    check = _check(forged, signer)
    assert [seq for seq, _ in check.problems] == [2, 4] and check.verified == 0


def test_another_key_and_a_trailing_entry_are_told(tmp_path: Path, signer: CryptoSigner) -> None:
    path = _anchored_log(tmp_path / "log.sqlite", signer)
    other = CryptoSigner.generate_ed25519()
    assert len(_check(path, other).problems) == 2
    with Ledger.open(path) as ledger:
        ledger.append("late", {"i": 3})
    check = _check(path, signer)
    assert check.verified == 2 and not check.problems and not check.head_anchored


def test_log_verify_says_whether_it_checked_the_anchors(tmp_path: Path) -> None:
    from provebench.attest import laboratory_signer

    path = _anchored_log(tmp_path / "log.sqlite", laboratory_signer())  # the session's key
    done = run_cli("log", "verify", str(path))
    assert done.returncode == 0, done.stderr
    assert "anchors: 2 verified with key" in done.stdout and "the log ends at one" in done.stdout
    other = _anchored_log(tmp_path / "other.sqlite", CryptoSigner.generate_ed25519())
    done = run_cli("log", "verify", str(other))
    assert done.returncode == 1 and "ANCHORS: 2 bad keyed anchor(s)" in done.stdout
    done = run_cli("log", "verify", str(path), env={"PROVEBENCH_KEY_DIR": str(tmp_path / "none")})
    assert done.returncode == 0 and "anchors: not checked" in done.stdout


def test_log_verify_json_carries_the_anchors_that_set_its_exit(tmp_path: Path) -> None:
    import json

    from provebench.attest import laboratory_signer

    path = _anchored_log(tmp_path / "log.sqlite", laboratory_signer())
    done = run_cli("log", "verify", str(path), "--json")
    anchors = json.loads(done.stdout)["anchors"]
    assert done.returncode == 0, done.stderr
    assert (anchors["checked"], anchors["verified"], anchors["entries_after_last"]) == (True, 2, 0)
    assert anchors["problems"] == [] and len(anchors["key"]["keyid"]) == 64
    other = _anchored_log(tmp_path / "other.sqlite", CryptoSigner.generate_ed25519())
    done = run_cli("log", "verify", str(other), "--json")
    anchors = json.loads(done.stdout)["anchors"]
    assert done.returncode == 1 and json.loads(done.stdout)["ok"] is True  # the chain holds
    assert [p["seq"] for p in anchors["problems"]] == [2, 4] and anchors["verified"] == 0
    with Ledger.open(path) as ledger:
        ledger.append("late", {"i": 3})
    done = run_cli("log", "verify", str(path), "--json")
    assert json.loads(done.stdout)["anchors"]["entries_after_last"] == 1
    done = run_cli(
        "log", "verify", str(path), "--json", env={"PROVEBENCH_KEY_DIR": str(tmp_path / "none")}
    )
    assert done.returncode == 0 and json.loads(done.stdout)["anchors"]["checked"] is False
