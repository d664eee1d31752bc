"""Secrets hidden where the kernel finds them, hard links of secrets refused, the key folder kept
out of every folder a command reads or writes, and a candidate's code identified by everything a
sandbox shows of it (docs/sandbox.md, docs/attestation.md).

Each test is an attack that worked before: a secret spelled `x/link/../corpus` (the spelling,
normalised as text, named another folder than the one the laboratory read); a hard link of the
laboratory key or a scenario in the candidate's folder (only the hidden folders themselves were
compared, never the files in them); the SI readings, answer text, shown with provebench's package;
a key folder inside the run, seal or SI output folder (published with it); and code whose bytes
stayed the same while an empty folder, a FIFO, an execute bit or a name's raw bytes switched
what it did.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench._paths import check_output_dir, check_output_file
from provebench.sandbox import policy_for
from provebench.sandbox._candidate import code_digest, code_listing
from provebench.sandbox._code_copy import check_copy, copy_code
from provebench.sandbox._launch import run_sandboxed
from provebench.sandbox._policy import PACKAGE_DIR, SANDBOX_ENV, SHIPPED_SECRETS

pytestmark = pytest.mark.timeout(120)

ANSWERS = "file_id,expected-answer-key\n"
KEY_TEXT = "-----BEGIN PRIVATE KEY-----\nsecret\n"


@pytest.fixture
def code(tmp_path: Path) -> Path:
    folder = tmp_path / "cand"
    folder.mkdir()
    (folder / "importer.py").write_text("x = 1\n", encoding="utf-8")
    return folder


@pytest.fixture
def keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "keys"
    folder.mkdir()
    (folder / "laboratory.ed25519.pem").write_text(KEY_TEXT, encoding="utf-8")
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(folder))
    return folder


def seen_in_sandbox(tmp_path: Path, policy_code: list[Path], secrets: dict[str, Path],
                    paths: list[Path]) -> str:  # fmt: skip
    private = tmp_path / "private"
    (private / "work").mkdir(parents=True, exist_ok=True)
    policy = policy_for(policy_code, secrets)
    script = "".join(f"cat '{p}' >> /sandbox/work/seen 2>/dev/null; " for p in paths)
    run_sandboxed(
        policy, ["/bin/sh", "-c", script], private_dir=private, env=SANDBOX_ENV, timeout=60
    )
    seen = private / "work" / "seen"
    return seen.read_text(encoding="utf-8") if seen.exists() else ""


# -- root cause 4: a secret is hidden where the kernel finds it -----------------------------------


@pytest.mark.usefixtures("keys")
def test_a_corpus_spelled_through_a_link_and_dotdot_is_hidden_where_it_really_is(
    tmp_path: Path, code: Path
) -> None:
    (code / "sub").mkdir()
    (code / "corpus").mkdir()
    (code / "corpus" / "expected_final_rows.csv").write_text(ANSWERS, encoding="utf-8")
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "linkdir").symlink_to(code / "sub")
    spelled = tmp_path / "x" / "linkdir" / ".." / "corpus"  # the kernel: cand/corpus
    assert (spelled / "expected_final_rows.csv").read_text(encoding="utf-8") == ANSWERS
    seen = seen_in_sandbox(
        tmp_path, [code], {"corpus": spelled}, [code / "corpus" / "expected_final_rows.csv"]
    )
    assert ANSWERS not in seen


def test_a_key_folder_spelled_through_a_link_and_dotdot_is_hidden(
    tmp_path: Path, code: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (code / "sub").mkdir()
    (code / "k").mkdir()
    (code / "k" / "laboratory.ed25519.pem").write_text(KEY_TEXT, encoding="utf-8")
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "linkdir").symlink_to(code / "sub")
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(tmp_path / "x" / "linkdir" / ".." / "k"))
    seen = seen_in_sandbox(tmp_path, [code], {}, [code / "k" / "laboratory.ed25519.pem"])
    assert KEY_TEXT not in seen


# -- root cause 5: a hard link of a secret in the candidate's code --------------------------------


def test_a_hard_link_of_the_laboratory_key_in_the_code_is_refused_at_every_launch(
    code: Path, keys: Path
) -> None:
    os.link(keys / "laboratory.ed25519.pem", code / "lab.pem")
    with pytest.raises(ProvebenchError, match="hard link") as raised:
        policy_for([code], {})
    assert "\n" not in str(raised.value)


@pytest.mark.usefixtures("keys")
def test_a_hard_link_of_a_file_inside_a_hidden_folder_is_refused(
    tmp_path: Path, code: Path
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "expected_final_rows.csv").write_text(ANSWERS, encoding="utf-8")
    os.link(corpus / "expected_final_rows.csv", code / "answers.csv")
    with pytest.raises(ProvebenchError, match="by another name"):
        policy_for([code], {"corpus": corpus})
    with pytest.raises(ProvebenchError, match="by another name"):  # what the seal copies
        code_digest([code], [corpus], field="--agent")


@pytest.mark.usefixtures("keys")
def test_a_hard_link_of_a_scenario_file_is_refused(tmp_path: Path, code: Path) -> None:
    scenario = tmp_path / "suite" / "s.yaml"
    scenario.parent.mkdir()
    scenario.write_text("answer: x\n", encoding="utf-8")
    os.link(scenario, code / "a.yaml")
    with pytest.raises(ProvebenchError, match="hard link"):
        policy_for([code], {"scenario": scenario})


def test_a_seal_never_copies_a_hard_link_of_the_key(tmp_path: Path, code: Path, keys: Path) -> None:
    os.link(keys / "laboratory.ed25519.pem", code / "lab.pem")
    with pytest.raises(ProvebenchError, match="by another name"):
        copy_code([code], [keys], tmp_path / "seal" / "code", field="--agent")
    assert not any((tmp_path / "seal").rglob("lab.pem"))


@pytest.mark.usefixtures("keys")
def test_hard_links_between_the_candidates_own_files_are_allowed(
    tmp_path: Path, code: Path
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "expected_final_rows.csv").write_text(ANSWERS, encoding="utf-8")
    os.link(code / "importer.py", code / "same.py")
    assert policy_for([code], {"corpus": corpus}).code


# -- root cause 6: provebench's package shows no answer text --------------------------------------


@pytest.mark.usefixtures("keys")
def test_the_si_readings_are_hidden_from_every_candidate(tmp_path: Path, code: Path) -> None:
    readings = PACKAGE_DIR / "si" / "profile" / "readings" / "oasis-si.yaml"
    assert readings.parent in SHIPPED_SECRETS
    text = readings.read_text(encoding="utf-8")
    assert text
    seen = seen_in_sandbox(tmp_path, [code], {}, [readings])
    assert text not in seen


# -- root cause 7: the key folder inside what a command reads or writes ---------------------------


@pytest.mark.parametrize("inside", ["out/keys", "out"])
def test_an_output_folder_holding_the_key_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inside: str
) -> None:
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(tmp_path / inside))
    with pytest.raises(ProvebenchError, match="key folder"):
        check_output_dir(tmp_path / "out")  # still to be made
    (tmp_path / "out").mkdir()
    with pytest.raises(ProvebenchError, match="key folder"):
        check_output_dir(tmp_path / "out")


def test_an_input_folder_holding_the_key_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = tmp_path / "run"
    (run / "keys").mkdir(parents=True)
    alias = tmp_path / "alias"
    alias.symlink_to(run)
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(alias / "keys"))  # by identity, not spelling
    with pytest.raises(ProvebenchError, match="key folder"):
        check_output_dir(tmp_path / "bundle", inputs=[run])
    with pytest.raises(ProvebenchError, match="key folder"):
        check_output_file(tmp_path / "verdict.json", inputs=[run])


def test_a_key_folder_beside_the_outputs_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(tmp_path / "keys"))
    (tmp_path / "run").mkdir()
    check_output_dir(tmp_path / "out", inputs=[tmp_path / "run"])
    check_output_dir(tmp_path / "outkeys")  # a name that starts like it is another folder
    check_output_file(tmp_path / "report.html")  # a file beside the key folder carries nothing


# -- root cause 1: the code's identity is everything the sandbox shows ----------------------------


def digest(code: Path) -> str:
    return code_digest([code], field="--agent")


def test_an_empty_folder_changes_the_code_digest(code: Path) -> None:
    before = digest(code)
    (code / "evil").mkdir()
    assert digest(code) != before


def test_an_execute_bit_changes_the_code_digest(code: Path) -> None:
    before = digest(code)
    (code / "importer.py").chmod(0o755)
    assert digest(code) != before


def test_a_link_and_a_file_holding_its_target_text_differ(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    (one / "entry").symlink_to("target.txt")
    (two / "entry").write_text("target.txt", encoding="utf-8")
    assert digest(one) != digest(two)


def test_a_fifo_in_the_code_is_refused(code: Path) -> None:
    os.mkfifo(code / "evil.fifo")
    with pytest.raises(ProvebenchError, match="FIFO"):
        digest(code)


def test_a_name_that_is_not_utf8_is_refused(code: Path) -> None:
    (code / os.fsdecode(b"mode-\xfe")).mkdir()  # the raw byte 0xfe, as Linux allows
    with pytest.raises(ProvebenchError, match="not UTF-8"):
        digest(code)


def test_a_file_its_owner_may_not_read_is_refused(code: Path) -> None:
    (code / "hidden.txt").write_text("x", encoding="utf-8")
    (code / "hidden.txt").chmod(0o000)
    with pytest.raises(ProvebenchError, match="may not read"):
        digest(code)


def test_a_seal_copies_empty_folders_and_execute_bits_and_refuses_a_folder_added(
    tmp_path: Path, code: Path
) -> None:
    (code / "good").mkdir()
    (code / "run.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    (code / "run.sh").chmod(0o755)
    listing = copy_code([code], [], tmp_path / "seal", field="--agent")
    assert listing == code_listing([code], field="--agent", skip_caches=True)
    root = tmp_path / "seal" / "0"
    assert (root / "good").is_dir()
    assert os.access(root / "run.sh", os.X_OK)
    check_copy([root], listing, field="--from-seal")
    root.chmod(0o755)
    (root / "evil").mkdir()
    with pytest.raises(ProvebenchError, match="added after sealing"):
        check_copy([root], listing, field="--from-seal")
