"""Containment by identity (docs/sandbox.md): whether a secret lies inside a shown folder is
decided on real paths and `(st_dev, st_ino)`, never on spelling.

bubblewrap binds the folder a path resolves to. Before, the policy compared spellings: a code
folder given through a symbolic link to the folder that holds the corpus, the laboratory key, a
seal or a scenario showed them whole, since none of them was spelled under the link. Each attack
here reads through such a link from inside a real sandbox and is judged by what it copied out.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.sandbox import policy_for
from provebench.sandbox._candidate import code_digest
from provebench.sandbox._launch import run_sandboxed
from provebench.sandbox._policy import SANDBOX_ENV

pytestmark = pytest.mark.timeout(120)

SECRET_BYTES = {
    "corpus": ("corpus/expected_final_rows.csv", "file_id,expected-answer-key\n"),
    "laboratory-key": ("keys/laboratory.ed25519.pem", "-----BEGIN PRIVATE KEY-----\nsecret\n"),
    "seal-opening": ("seal/.opening.json", '{"nonce":"n","seed":424242}'),
    "scenario": ("scenario.yaml", "answer_key: the-root-cause\n"),
}


def workspace(tmp_path: Path) -> Path:
    """An operator's folder holding the candidate's code beside every kind of secret."""
    root = tmp_path / "workspace"
    for relative, text in SECRET_BYTES.values():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")
    (root / "importer.py").write_text("print('hello')\n", encoding="utf-8")
    return root


def secrets_of(root: Path) -> dict[str, Path]:
    """Each secret by role, as the laboratory names it: the folder, or the file itself."""
    return {
        "corpus": root / "corpus",
        "laboratory-key": root / "keys",
        "seal-opening": root / "seal" / ".opening.json",
        "scenario": root / "scenario.yaml",
    }


def read_in_sandbox(tmp_path: Path, code: Path, secrets: dict[str, Path], paths: list[Path]) -> str:
    """Everything `cat` could read of `paths` inside the sandbox showing the code folder `code`
    and hiding `secrets`."""
    private = tmp_path / "private"
    (private / "work").mkdir(parents=True, exist_ok=True)
    policy = policy_for([code], {k: v for k, v in secrets.items() if k != "laboratory-key"})
    # The key folder is hidden from every candidate by the policy itself (PROVEBENCH_KEY_DIR).
    script = "".join(f"cat '{p}' >> /sandbox/work/seen 2>/dev/null; " for p in paths)
    run_sandboxed(
        policy, ["/bin/sh", "-c", script], private_dir=private, env=SANDBOX_ENV, timeout=60
    )
    seen = private / "work" / "seen"
    return seen.read_text(encoding="utf-8") if seen.exists() else ""


@pytest.fixture
def key_in_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROVEBENCH_KEY_DIR", str(tmp_path / "workspace" / "keys"))


@pytest.mark.usefixtures("key_in_workspace")
def test_a_code_folder_given_through_a_link_shows_none_of_the_secrets_it_holds(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    alias = tmp_path / "alias"
    alias.symlink_to(root)  # the code folder, spelled through a link: bwrap binds the folder
    seen = read_in_sandbox(
        tmp_path,
        alias,
        secrets_of(root),
        [alias / relative for relative, _ in SECRET_BYTES.values()] + [alias / "importer.py"],
    )
    assert "print('hello')" in seen  # the code itself is shown: the attack did run
    for role, (_, text) in SECRET_BYTES.items():
        assert text not in seen, role


@pytest.mark.usefixtures("key_in_workspace")
def test_secrets_given_through_a_link_are_hidden_where_the_code_folder_shows_them(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    alias = tmp_path / "alias"
    alias.symlink_to(root)
    secrets = secrets_of(alias)  # the corpus, the seal, the scenario, spelled through the link
    seen = read_in_sandbox(
        tmp_path,
        root,
        secrets,
        [root / relative for relative, _ in SECRET_BYTES.values() if "keys" not in relative],
    )
    for role, (_, text) in SECRET_BYTES.items():
        assert text not in seen, role


def test_code_inside_a_secret_by_another_spelling_is_refused(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    (root / "corpus" / "importer.py").write_text("x = 1\n", encoding="utf-8")
    alias = tmp_path / "alias"
    alias.symlink_to(root / "corpus")
    with pytest.raises(ProvebenchError, match="lies inside"):
        policy_for([alias / "importer.py"], {"corpus": root / "corpus"})


def test_a_link_in_the_code_folder_into_a_hidden_folder_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    code = tmp_path / "code"
    code.mkdir()
    (code / "importer.py").write_text("x = 1\n", encoding="utf-8")
    (code / "answers").symlink_to(root / "corpus" / "expected_final_rows.csv")
    with pytest.raises(ProvebenchError, match="is a link into") as raised:
        code_digest([code], [root / "corpus"], field="--agent")
    assert "\n" not in str(raised.value)


def test_a_hard_link_to_a_hidden_file_in_the_code_folder_is_refused(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    code = tmp_path / "code"
    code.mkdir()
    os.link(root / "scenario.yaml", code / "notes.txt")
    with pytest.raises(ProvebenchError, match="by another name"):
        code_digest([code], [root / "scenario.yaml"], field="--agent")


THIEF = """\
from pathlib import Path

HERE = Path(__file__).parent


class Thief:
    name = "thief"
    version = "1"

    def run_cycle(self, ctx):
        loot = []
        key = HERE / "keys" / "laboratory.ed25519.pem"
        for path in (key, HERE / "corpus" / "expected_final_rows.csv"):
            try:
                loot.append(path.read_text())
            except OSError as error:
                loot.append(type(error).__name__)
        (Path(ctx.work_dir) / "loot.txt").write_text("\\n".join(loot))
        ctx.diagnostics.note("tried: " + " | ".join(text[:3000] for text in loot))
"""


@pytest.mark.slow
def test_the_laboratory_key_and_the_answers_never_reach_the_run_folder_or_its_checkpoints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key and the corpus lie in the folder that holds the candidate's code, which is given
    through a link: the candidate tries to copy them into its work folder (checkpointed into
    the run folder) and into its diagnostics (the published log)."""
    from provebench.attest import KEY_DIR_ENV, laboratory_signer
    from provebench.attest._keys import PRIVATE_KEY_FILE
    from provebench.pilot import run_lab
    from tests.helpers.pilot_evaluation import make_small_corpus

    root = tmp_path / "workspace"
    root.mkdir()
    (root / "thief.py").write_text(THIEF, encoding="utf-8")
    monkeypatch.setenv(KEY_DIR_ENV, str(root / "keys"))
    laboratory_signer(root / "keys")
    corpus = make_small_corpus(tmp_path)
    corpus.rename(root / "corpus")
    alias = tmp_path / "alias"
    alias.symlink_to(root)
    run = tmp_path / "run"
    run_lab(root / "corpus", f"{alias / 'thief.py'}:Thief", run)
    key_lines = (root / "keys" / PRIVATE_KEY_FILE).read_text(encoding="ascii").splitlines()[1:-1]
    answers = (root / "corpus" / "expected_final_rows.csv").read_text(encoding="utf-8")
    answer_rows = answers.splitlines()[1:]
    published = [p for p in run.rglob("*") if p.is_file()]
    assert any(p.parent.name.startswith("snapshot-") or "checkpoint" in p.parts for p in published)
    everything = b"".join(p.read_bytes() for p in published).decode("utf-8", "replace")
    assert "tried: " in everything  # the attack ran, and what it read was recorded
    assert not any(line in everything for line in key_lines)
    assert answer_rows and not any(row in everything for row in answer_rows)
