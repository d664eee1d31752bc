"""Pilot red team round 19: a file argument showed its folder whole.

The candidate writes its own command line. `python3 imp.py ~/.ssh/id_rsa` showed the whole
`~/.ssh` to the sandboxed importer, every key beside the one named, and `pilot seal` copied it;
so did `~/.aws/credentials` (`~/.aws/config` beside it) and `~/.config/gh/hosts.yml`. Now only
the program's folder — the file a Python runs, or the program itself — may be shown whole, and
only where it is the candidate's (its owner runs the laboratory and does not keep it to itself);
every other file argument is shown alone, after `never_shown`. Played with a throw-away home.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from provebench.pilot._seal import candidate_identity, seal_candidate
from provebench.sandbox._launch import run_sandboxed
from provebench.sandbox._policy import (
    SANDBOX_ENV,
    code_folder,
    code_paths_for_command,
    command_code_paths,
    policy_for,
)
from provebench.sandbox._python_command import program_argument

PYTHON = "/usr/bin/python3"
# Lists the folder of the file it is given and reads every file it finds there.
READER = """import os, sys
folder = os.path.dirname(sys.argv[-1])
seen = []
for name in sorted(os.listdir(folder)):
    try:
        seen.append(name + "=" + open(os.path.join(folder, name)).read())
    except OSError as error:
        seen.append(name + "!" + type(error).__name__)
open("/sandbox/work/seen.txt", "w").write("\\n".join(seen))
"""


def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """A throw-away home with credentials, each folder holding a second secret beside the one
    named; the real home is never touched."""
    home = tmp_path / "home"
    files = {
        "ssh": home / ".ssh" / "id_rsa",
        "aws": home / ".aws" / "credentials",
        "gh": home / ".config" / "gh" / "hosts.yml",
    }
    for name, file in files.items():
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(f"named-{name}", encoding="utf-8")
        (file.parent / "beside").write_text(f"BESIDE-{name}", encoding="utf-8")
    (home / ".ssh").chmod(0o700)
    monkeypatch.setenv("HOME", str(home))
    return files


def _reader(tmp_path: Path) -> Path:
    code = tmp_path / "code"
    code.mkdir(mode=0o755)
    (code / "imp.py").write_text(READER, encoding="utf-8")
    return code / "imp.py"


def test_a_credential_file_argument_is_shown_alone_never_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reader = _reader(tmp_path)
    for file in _home(tmp_path, monkeypatch).values():
        argv = [PYTHON, str(reader), str(file)]
        assert command_code_paths(argv) == [reader.parent, file]
        assert code_paths_for_command(argv) == [reader.parent, file]


def test_the_sandbox_shows_the_named_credential_and_nothing_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reader = _reader(tmp_path)
    credentials = _home(tmp_path, monkeypatch)["aws"]
    argv = [PYTHON, str(reader), str(credentials)]
    private = tmp_path / "private"
    (private / "work").mkdir(parents=True)
    policy = policy_for(code_paths_for_command(argv), {})
    run = run_sandboxed(policy, argv, private_dir=private, env=SANDBOX_ENV, timeout=60)
    assert run.returncode == 0
    seen = (private / "work" / "seen.txt").read_text(encoding="utf-8")
    assert "credentials=named-aws" in seen
    assert "BESIDE" not in seen and "beside" not in seen


def test_a_seal_copies_the_named_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reader = _reader(tmp_path)
    home = _home(tmp_path, monkeypatch)
    for name in ("ssh", "aws", "gh"):
        sealed = tmp_path / f"sealed-{name}"
        command = f"{PYTHON} {reader} {home[name]}"
        seal_candidate(sealed, candidate_identity(None, command), "control")
        copied = [path for path in (sealed / "code").rglob("*") if path.is_file()]
        contents = [path.read_text(encoding="utf-8") for path in copied]
        assert f"named-{name}" in contents
        assert not any("BESIDE" in text for text in contents)


@pytest.mark.parametrize(
    ("words", "program"),
    [
        (["imp.py", "data"], 1),
        (["-u", "-B", "imp.py", "data"], 3),
        (["-W", "ignore", "-X", "dev", "imp.py"], 5),
        (["-Wignore", "-Xdev", "imp.py"], 3),
        (["--check-hash-based-pycs", "never", "imp.py"], 3),
        (["--", "imp.py"], 2),
        (["-m", "mod", "imp.py"], None),
        (["-uc", "pass", "imp.py"], None),
        (["-", "imp.py"], None),
        ([], None),
    ],
)
def test_the_program_is_the_file_python_runs(words: list[str], program: int | None) -> None:
    """`program`: the index in the command line (`PYTHON` at 0) of the file Python runs."""
    assert program_argument([PYTHON, *words]) == program


def test_no_folder_is_shown_whole_for_a_program_that_is_not_a_python(tmp_path: Path) -> None:
    """`sh imp.sh ~/.aws/credentials`: which word `sh` runs is not read; every word alone."""
    reader = _reader(tmp_path)
    assert program_argument(["/bin/sh", str(reader)]) is None
    assert command_code_paths(["/bin/sh", str(reader)]) == [reader]


def test_a_configuration_beside_the_program_is_shown_with_its_folder(tmp_path: Path) -> None:
    reader = _reader(tmp_path)
    (reader.parent / "config.json").write_text("{}", encoding="utf-8")
    argv = [PYTHON, "-u", str(reader), str(reader.parent / "config.json")]
    assert command_code_paths(argv) == [reader.parent]
    # Named after a module (`-m`), the same file is data: alone.
    argv = [PYTHON, "-m", "imp", str(reader)]
    assert command_code_paths(argv) == [reader]


def test_a_program_folder_not_the_candidates_is_not_shown_whole(tmp_path: Path) -> None:
    reader = _reader(tmp_path)
    assert code_folder(reader) == reader.parent
    reader.parent.chmod(0o700)  # kept to its owner alone, as `~/.ssh` or `~/.gnupg`
    assert code_folder(reader) == reader
    assert command_code_paths([PYTHON, str(reader)]) == [reader]
    reader.parent.chmod(0o755)
    if os.getuid() != 0:
        pytest.skip("only root can give a folder to another user")
    os.chown(reader.parent, 65534, 65534)  # another user's folder (`nobody`)
    assert code_folder(reader) == reader
