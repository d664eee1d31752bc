"""Pilot red team round 16, A3 and A6: what a candidate's interpreter may bring into its sandbox.

A3: `pyvenv.cfg` is the candidate's to write; its `home` named any host folder, which every
launch bound read-only (a seal's opening, a control's answers, the laboratory's temporary
folder). A6: shown the temporary folder, a candidate reached another running laboratory's
private folder — its socket and its cycles' service-account keys — and imported for it.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.corpus import corpus_config, write_corpus
from provebench.sandbox import _policy, _private
from provebench.sandbox._known_secrets import known_secrets, remember_secret
from provebench.sandbox._policy import interpreter_paths, policy_for
from provebench.sandbox._private import private_folder, private_root, sweep_stale_folders
from tests.helpers.pilot_lab import run_cli

SMALL = {"cycles": 4, "file_events": 12, "admissible_files": 4}
REAL_PYTHON = Path(sys.executable).resolve()


def fake_venv(root: Path, home: Path) -> Path:
    """A virtual environment at `root` whose `pyvenv.cfg` names `home`, its `bin/python` a link
    to the real interpreter, as `python -m venv` makes it and a candidate may then edit it."""
    (root / "bin").mkdir(parents=True, exist_ok=True)
    (root / "bin" / "python").symlink_to(REAL_PYTHON)
    (root / "pyvenv.cfg").write_text(
        f"home = {home}\ninclude-system-site-packages = false\n", encoding="utf-8"
    )
    return root / "bin" / "python"


def test_pyvenv_home_names_no_folder_the_sandbox_shows(tmp_path: Path) -> None:
    secret = tmp_path / "SEAL"
    secret.mkdir()
    (secret / ".opening.json").write_text('{"seed": 1}', encoding="utf-8")
    python = fake_venv(tmp_path / "venv", home=secret)
    shown = interpreter_paths(python)
    assert shown == [tmp_path / "venv", REAL_PYTHON.parent.parent]
    assert not any(path == secret or secret.is_relative_to(path) for path in shown)


@pytest.mark.parametrize("location", ["/tmp", "/"])
def test_nothing_shown_may_cover_the_sandboxs_own_tmp(location: str) -> None:
    with pytest.raises(ProvebenchError, match="would cover the sandbox's own /tmp"):
        policy_for([Path(location)], {})


def test_the_private_root_is_masked_wherever_a_shown_folder_holds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.setattr(_private, "ROOT_PARENT", temp)  # the private root's place, moved here
    # The temporary folder itself, or one holding it, is never shown (pilot red team round 18,
    # A3) ...
    for shown in (temp, tmp_path):
        with pytest.raises(ProvebenchError, match="the host's temporary folder"):
            policy_for([shown], {})
    # ... and where a shown folder held the private root all the same (the refusal lifted
    # here), the mask over the root is the second wall.
    monkeypatch.setattr(_policy, "host_temp_folder", lambda: tmp_path / "elsewhere")
    policy = policy_for([temp], {})
    root = private_root()
    assert (root, root) in policy.masks
    assert root.stat().st_mode & 0o777 == 0o700  # unreadable to other users meanwhile
    # A laboratory started after this sandbox's policy was made puts its folder under the mask.
    later = private_folder("lab")
    try:
        assert later.parent == root
    finally:
        later.rmdir()


def test_the_sweep_removes_only_its_own_name_form_of_a_gone_process(tmp_path: Path) -> None:
    gone = 2**22 + 12345  # above pid_max's default: no such process
    stale = tmp_path / f"provebench-lab-{gone}-abcd_123"
    stale.mkdir()
    (stale / "service_account.json").write_text("{}", encoding="utf-8")
    look_alikes = [
        tmp_path / f"provebench-lab-{gone}-abcd_123-x",
        tmp_path / f"provebench-lab-{gone}-abc",
        tmp_path / f"provebench-Lab-{gone}-abcd_123",
    ]
    for folder in look_alikes:
        folder.mkdir()
    assert sweep_stale_folders(tmp_path) == [stale]
    assert not stale.exists()
    assert all(folder.is_dir() for folder in look_alikes)


PROBE = """
import json, os, sys
out = {}
# The paths are read from a file beside the probe: a file named on the command line is shown.
for path in json.load(open(os.path.join(os.path.dirname(__file__), "paths.json"))):
    try:
        out[path] = sorted(os.listdir(path)) if os.path.isdir(path) else open(path).read()
    except OSError as error:
        out[path] = type(error).__name__
with open(os.environ["PROVEBENCH_DIAGNOSTICS_FILE"], "a") as handle:
    handle.write(json.dumps({"channel": "note", "message": json.dumps(out)}) + "\\n")
"""


def _notes(run: Path) -> list[dict[str, object]]:
    lines = (run / "diagnostics.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(json.loads(line)["message"]) for line in lines]


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_a_candidates_venv_reaches_no_seal_and_no_laboratorys_private_folder(
    tmp_path: Path,
) -> None:
    """A3 and A6 played: the venv's `home` names a seal's folder, and another laboratory's
    private folder lies in the temporary folder. The candidate sees neither the opening nor any
    laboratory's private folder. A venv that is the laboratory's temporary folder itself is
    refused in one line (pilot red team round 18, A3): it would show every run's temporary
    files."""
    corpus = tmp_path / "corpus"
    write_corpus(corpus_config(seed=5, profile="public", overrides=SMALL), corpus)
    seal = tmp_path / "SEAL"
    seal.mkdir()
    (seal / ".opening.json").write_text('{"seed": 42}', encoding="utf-8")
    lab_tmp = tmp_path / "labtmp"
    lab_tmp.mkdir()
    venv = tmp_path / "venv"
    python = fake_venv(venv, home=seal)
    # Another laboratory's private folder, left with a key: in the same temporary folder.
    root = lab_tmp / f"provebench-private-{os.getuid()}"
    root.mkdir(mode=0o700)
    other = root / f"provebench-lab-{os.getpid()}-otherrun"
    other.mkdir()
    (other / "service_account.json").write_text('{"private_key": "x"}', encoding="utf-8")
    code = tmp_path / "code"
    code.mkdir()
    (code / "probe.py").write_text(PROBE, encoding="utf-8")
    looked_at = [str(seal), str(seal / ".opening.json"), str(venv), str(lab_tmp), str(root)]
    looked_at.append(str(other))
    (code / "paths.json").write_text(json.dumps(looked_at), encoding="utf-8")
    run = tmp_path / "run"
    refused = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--out", str(tmp_path / "refused"), "--quiet",
        "--agent-cmd", f"{python} {code / 'probe.py'}", env={"TMPDIR": str(venv)}, timeout=200,
    )  # fmt: skip
    assert refused.returncode == 2, refused.stderr
    assert "is or holds the host's temporary folder" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--out", str(run), "--quiet",
        "--agent-cmd", f"{python} {code / 'probe.py'}",
        env={"TMPDIR": str(lab_tmp)}, timeout=200,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    notes = _notes(run)
    assert len(notes) == SMALL["cycles"]
    for seen in notes:
        assert seen[str(seal)] == "FileNotFoundError"
        assert seen[str(seal / ".opening.json")] == "FileNotFoundError"
        # the venv is shown (held with the candidate's code, red team 16, A2), the
        # temporary folder and the laboratories' private folders in it are not
        assert "pyvenv.cfg" in seen[str(venv)]
        assert seen[str(lab_tmp)] == "FileNotFoundError"
        assert seen[str(root)] == "FileNotFoundError"
        assert seen[str(other)] == "FileNotFoundError"


def test_every_seal_opening_and_control_the_laboratory_made_is_hidden_from_every_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A3's second half: a seal's opening beside another candidate's code, a control corpus in
    the folder an interpreter lives in — hidden from a run that names neither."""
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(tmp_path / "keys"))
    shown = tmp_path / "author"
    (shown / "SEAL").mkdir(parents=True)
    opening = shown / "SEAL" / ".opening.json"
    opening.write_text('{"seed": 7}', encoding="utf-8")
    control = shown / "CONTROL"
    control.mkdir()
    before = policy_for([shown], {})
    assert not any(secret in (opening, control) for _, secret in before.masks)
    remember_secret(opening)
    remember_secret(control)
    remember_secret(tmp_path / "gone")  # removed since: skipped
    assert known_secrets() == [opening, control]
    after = policy_for([shown], {})
    assert (opening, opening) in after.masks
    assert (control, control) in after.masks
    assert before.digest() == after.digest()  # the same rule, whatever is recorded


def test_the_emulator_is_reached_only_through_the_channel_handed_to_a_forwarder() -> None:
    """A6: no socket lies in the laboratory's private folder for another sandbox to connect
    to; a connection passed over the channel (as the forwarder passes one) is served."""
    import socket

    from provebench.pilot.emulator._lab_run import EmulatedLab

    with EmulatedLab() as lab:
        assert not [p for p in lab.private_dir.rglob("*") if p.is_socket()]
        channel = lab.server.open_channel()
        ours, handed = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        with channel, ours:
            socket.send_fds(channel, [b"c"], [handed.fileno()])
            handed.close()
            request = b"GET /provebench/v1/cycle HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            ours.sendall(request + b"\r\n")
            ours.settimeout(10)
            answer = ours.recv(64)
        assert answer.startswith(b"HTTP/1.")


def test_an_extra_bind_is_checked_against_the_hidden_paths_by_identity(tmp_path: Path) -> None:
    secret = tmp_path / "corpus"
    secret.mkdir()
    (secret / "expected_final_rows.csv").write_text("x\n", encoding="utf-8")
    (tmp_path / "link").symlink_to(secret)
    policy = policy_for([], {"corpus": secret})
    for host in (tmp_path / "link" / "expected_final_rows.csv", tmp_path):
        with pytest.raises(RuntimeError, match="may not be bound"):
            policy.bwrap_args(tmp_path, [(str(host), "/run/x")])
