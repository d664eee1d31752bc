"""Pilot red team round 17: what a sandbox shows and what a seal copies.

A11: a program named by path in `~/bin` showed (and sealed) the whole home folder as its
"interpreter installation". A7: a code folder spelled through a link to `/tmp` showed the host's
whole `/tmp`. A1/A6: `pilot seal` hid less than a run does, so another seal's opening, a control
corpus or the laboratory's private root kept in the candidate's folder were copied into the seal
and read by a run from it. A8: an output could be written into the key folder, and a garbled
record of the hidden secrets read as "nothing to hide". A2: an installed package sealed as the
candidate.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench._paths import check_output_dir, check_output_file
from provebench.attest import KEY_DIR_ENV, key_dir
from provebench.pilot._seal import candidate_identity, seal_candidate
from provebench.sandbox import _private
from provebench.sandbox._known_secrets import RECORD_FILE, known_secrets, remember_secret
from provebench.sandbox._policy import (
    code_folder,
    command_code_paths,
    interpreter_paths,
    policy_for,
    refuse_shown_folder,
)
from provebench.sandbox._private import private_root
from provebench.sandbox._pseudo_fs import PSEUDO_ROOTS

MINOR = f"python{sys.version_info.major}.{sys.version_info.minor}"
IMPORTER = (
    "class Imp:\n    name = 'imp'\n    version = '1'\n\n"
    "    def run_cycle(self, ctx):\n        pass\n"
)


def fake_home(root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder holding a private key and a program of the user's own in `~/bin`."""
    home = root / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text("PRIVATE", encoding="utf-8")
    (home / "bin").mkdir()
    (home / "bin" / "python3").write_text('#!/bin/sh\nexec /usr/bin/python3 "$@"\n')
    (home / "bin" / "python3").chmod(0o755)
    monkeypatch.setenv("HOME", str(home))
    return home


def test_a_program_in_the_home_bin_shows_no_home_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = fake_home(tmp_path, monkeypatch)
    code = tmp_path / "cand"
    code.mkdir()
    (code / "imp.py").write_text("print(1)\n", encoding="utf-8")
    program = home / "bin" / "python3"
    assert interpreter_paths(program) == []
    shown = command_code_paths([str(program), str(code / "imp.py")])
    assert home not in shown
    assert not any(home.is_relative_to(path) for path in shown)


def test_an_installation_is_shown_only_with_a_python_landmark(tmp_path: Path) -> None:
    prefix = tmp_path / "python"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "bin" / "python3").write_text("#!/bin/sh\n", encoding="utf-8")
    assert interpreter_paths(prefix / "bin" / "python3") == []
    (prefix / "lib" / MINOR).mkdir(parents=True)
    (prefix / "lib" / MINOR / "os.py").write_text("", encoding="utf-8")
    assert interpreter_paths(prefix / "bin" / "python3") == [prefix]


def test_an_installation_that_is_a_home_folder_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = fake_home(tmp_path, monkeypatch)
    (home / "lib" / MINOR).mkdir(parents=True)
    (home / "lib" / MINOR / "os.py").write_text("", encoding="utf-8")
    with pytest.raises(ProvebenchError, match="is a home folder or holds one") as caught:
        interpreter_paths(home / "bin" / "python3")
    assert "\n" not in caught.value.one_line()


def test_a_code_folder_spelled_through_a_link_to_tmp_is_tmp(tmp_path: Path) -> None:
    link = tmp_path / "tmplink"
    link.symlink_to("/tmp")
    assert code_folder(link / "imp.py") == link / "imp.py"
    (tmp_path / "code").mkdir(mode=0o755)
    assert code_folder(tmp_path / "code" / "imp.py") == tmp_path / "code"


def test_no_policy_shows_a_home_folder_or_tmp_whole_by_any_spelling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = fake_home(tmp_path, monkeypatch)
    (tmp_path / "homelink").symlink_to(home)
    (tmp_path / "tmplink").symlink_to("/tmp")
    for folder in (home, tmp_path / "homelink", tmp_path / "tmplink"):
        with pytest.raises(ProvebenchError, match=r"never shows it whole|cover the sandbox's"):
            policy_for([folder], {})


def test_a_seal_copies_no_secret_a_run_hides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = tmp_path / "code"
    (code / "sealA").mkdir(parents=True)
    (code / "imp.py").write_text(IMPORTER, encoding="utf-8")
    opening = code / "sealA" / ".opening.json"
    opening.write_text('{"seed": 1}', encoding="utf-8")
    remember_secret(opening)
    (code / "helper.py").write_text("", encoding="utf-8")
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity(f"{code}/imp.py:Imp", None), "control")
    copied = {path.name for path in (seal / "code").rglob("*")}
    assert {"imp.py", "helper.py", "sealA"} <= copied
    assert ".opening.json" not in copied
    # The laboratory's private root inside the candidate's folder (TMPDIR there): the folder
    # holds the host's temporary folder, so the file alone is sealed (pilot red team round 18,
    # A3), nothing of the private root.
    (code / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(code / "tmp"))
    monkeypatch.setattr(_private, "ROOT_PARENT", code / "tmp")  # an earlier build's place
    root = private_root()
    (root / "lab").mkdir()
    (root / "lab" / "service_account.json").write_text("KEY", encoding="utf-8")
    again = tmp_path / "seal-again"
    seal_candidate(again, candidate_identity(f"{code}/imp.py:Imp", None), "control")
    copied = {path.name for path in (again / "code").rglob("*")}
    assert copied == {"0", "imp.py"}


def test_no_output_lands_in_the_key_folder_by_any_spelling(tmp_path: Path) -> None:
    keys = key_dir()
    link = tmp_path / "keylink"
    link.symlink_to(keys)
    for target in (keys / RECORD_FILE, link / "x.json", keys / "laboratory.pem"):
        with pytest.raises(ProvebenchError, match="inside the laboratory's key folder"):
            check_output_file(target)
    with pytest.raises(ProvebenchError, match="inside the laboratory's key folder"):
        check_output_dir(link / "run")
    check_output_file(tmp_path / "verdict.json")  # beside it: fine


def test_a_garbled_record_of_hidden_secrets_stops_the_launch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_DIR_ENV, str(tmp_path / "keys"))
    secret = tmp_path / "opening.json"
    secret.write_text("{}", encoding="utf-8")
    remember_secret(secret)
    assert known_secrets() == [secret]
    (tmp_path / "keys" / RECORD_FILE).write_text('{"verdict": "pass"}\n', encoding="utf-8")
    with pytest.raises(ProvebenchError, match="garbled"):
        known_secrets()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("openai._client:OpenAI", "which every sandbox shows"),
        ("provebench.llm._no_such_agent:OpenAIAgent", "no module"),
    ],
)
def test_a_spec_that_is_no_candidates_code_is_not_sealed(spec: str, message: str) -> None:
    with pytest.raises(ProvebenchError, match=message):
        candidate_identity(spec, None)


HOST_FOLDERS = ["/etc", "/etc/ssl", "/var/lib", "/run", "/proc", "/dev", "/opt"]


@pytest.mark.parametrize("folder", HOST_FOLDERS)
def test_no_folder_of_the_hosts_configuration_or_state_nor_a_top_level_one_is_shown_whole(
    folder: str,
) -> None:
    """Pilot red team round 18, A1: `--agent-cmd "python3 imp.py /etc/hostname"` showed `/etc`
    whole (`shadow` included), and the seal copied it. Round 19, A2: a file named there was
    then shown alone, and sealed: now refused like its folder. In a top-level folder of no
    configuration (`/opt`), a file is shown alone."""
    with pytest.raises(ProvebenchError, match="a sandbox never shows it"):
        refuse_shown_folder(Path(folder), field="--agent-cmd", what="folder")
    if Path(folder) in PSEUDO_ROOTS:  # nothing there is code at all (round 18, `_pseudo_fs`)
        with pytest.raises(ProvebenchError, match="a file system the kernel writes"):
            code_folder(Path(folder) / "hostname")
    elif folder == "/opt":
        assert code_folder(Path(folder) / "hostname") == Path(folder) / "hostname"
    else:
        with pytest.raises(ProvebenchError, match="configuration or state"):
            code_folder(Path(folder) / "hostname")


def test_a_recorded_secret_whose_name_holds_a_line_separator_stays_one_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pilot red team round 18, A4: the record was split with `splitlines`, so a seal under
    `vault\u2028/` was read back as two paths and its opening never hidden."""
    monkeypatch.setenv(KEY_DIR_ENV, str(tmp_path / "keys"))
    odd = tmp_path / "vault\u2028" / "seal"
    odd.mkdir(parents=True)
    opening = odd / ".opening.json"
    opening.write_text("{}", encoding="utf-8")
    remember_secret(opening)
    assert known_secrets() == [opening]
    broken = tmp_path / "line\nbreak"
    broken.mkdir()
    with pytest.raises(ProvebenchError, match="line break"):
        remember_secret(broken)
    assert known_secrets() == [opening]
