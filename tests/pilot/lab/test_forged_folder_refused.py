"""Red team round 7, A1–A3 (docs/attestation.md, "Only what it ran" and "Keyed anchors"): the
laboratory signs only the run record it built in this process, and a resume trusts only a log
whose commits carry the laboratory's keyed anchor.

Each forgery is made as the red team made it, with no key: a `reference` run's evidence given
`noop`'s identity, the log re-chained (`rewrite_log_offline`), run.json recomputed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from provebench._canonical import canonical_json, sha256_file, write_atomic
from provebench.attest import KEY_DIR_ENV
from provebench.ledger import Ledger
from provebench.pilot.lab._runner import CRASH_ENV
from provebench.pilot.redteam._tamper import rewrite_log_offline
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent
from tests.helpers.pilot_lab import log_but_nonce, run_cli

EVALUATION = ("verdict.json", "verdict.dsse.json", "report.html")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    base = tmp_path_factory.mktemp("forged")
    corpus = make_small_corpus(base, seed=7)
    return (
        corpus,
        run_agent(corpus, "reference", base / "ref"),
        run_agent(corpus, "noop", base / "noop"),
    )


def _relabel(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _relabel(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_relabel(item) for item in value]
    return "noop" if value == "reference" else value


def _forge(good: Path, bad: Path, target: Path, **non_scoring: object) -> Path:
    """A1: noop's folder holds reference's evidence under noop's identity, signature removed."""
    shutil.copytree(good, target)
    for name in (*EVALUATION, "run.dsse.json"):
        (target / name).unlink(missing_ok=True)
    (target / "identity.json").write_bytes((bad / "identity.json").read_bytes())
    # noop's own first entry (its identity and the nonce the laboratory gave it), the rest
    # relabelled: only the keyed anchors tell this log from noop's.
    with Ledger.open_readonly(bad / "ledger.sqlite") as ledger:
        started = next(ledger.entries()).payload
    rewrite_log_offline(
        target,
        lambda kind, payload: (kind, started if kind == "run_started" else _relabel(payload)),
    )
    record = json.loads((target / "run.json").read_text(encoding="utf-8"))
    record["agent"] = json.loads((bad / "run.json").read_text(encoding="utf-8"))["agent"]
    record["non_scoring"].update(non_scoring)
    record["files_sha256"]["identity.json"] = sha256_file(target / "identity.json")
    write_atomic(target / "run.json", canonical_json(record))
    return target


def _run(corpus: Path, out: Path, **env: str) -> tuple[int, list[str]]:
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--agent", "noop", "--out", str(out), "--quiet",
        env=env,
    )  # fmt: skip
    return result.returncode, result.stderr.strip().splitlines()


@pytest.mark.parametrize(
    "claims", [{}, {"resumed": False}], ids=["a1-forged-run", "a2-claims-uninterrupted"]
)
def test_a_complete_folder_without_its_signature_is_refused_not_signed(
    runs: tuple[Path, Path, Path], tmp_path: Path, claims: dict[str, object]
) -> None:
    """A1 (and A2's root: whatever the forged run.json claims — `resumed: false` for a fresh
    control — the laboratory no longer signs a record it did not build)."""
    corpus, good, bad = runs
    forged = _forge(good, bad, tmp_path / "noop", **claims)
    before = {path.name: path.read_bytes() for path in forged.iterdir() if path.is_file()}
    code, lines = _run(corpus, forged)
    assert code == 2
    [line] = lines
    assert str(forged) in line and "without the laboratory's signature" in line
    assert "start a new run folder" in line
    assert not (forged / "run.dsse.json").exists()
    assert {path.name: path.read_bytes() for path in forged.iterdir() if path.is_file()} == before


def test_a_run_that_crashed_before_its_signature_is_not_signed_later(
    runs: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    corpus = runs[0]
    out = tmp_path / "run"
    code, _ = _run(corpus, out, **{CRASH_ENV: "publish:before_signature@0"})
    assert code != 0 and (out / "run.json").is_file() and not (out / "run.dsse.json").exists()
    code, lines = _run(corpus, out)
    assert code == 2 and len(lines) == 1 and "start a new run folder" in lines[0]
    assert not (out / "run.dsse.json").exists()
    # Run again in a new folder: the same log as the crashed attempt (its own nonce), signed.
    again = tmp_path / "again"
    assert _run(corpus, again)[0] == 0 and (again / "run.dsse.json").is_file()
    assert log_but_nonce(again / "ledger.jsonl") == log_but_nonce(out / "ledger.jsonl")


def test_a_resume_of_a_forged_log_is_refused(runs: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """A3: run.json and the signature deleted, the forged (re-chained) log 'resumed'."""
    corpus, good, bad = runs
    forged = _forge(good, bad, tmp_path / "noop")
    (forged / "run.json").unlink()
    code, lines = _run(corpus, forged)
    assert code == 2
    [line] = lines
    assert str(forged) in line and "cannot be resumed" in line
    assert "cycle_confirmed" in line and "seq " in line
    assert not (forged / "run.json").exists() and not (forged / "run.dsse.json").exists()


def _crashed(corpus: Path, out: Path, **env: str) -> Path:
    code, _ = _run(corpus, out, **{CRASH_ENV: "after_snapshot@2"}, **env)
    assert code != 0 and not (out / "run.json").exists()
    return out


def test_a_resume_of_a_log_stripped_of_its_anchors_is_refused(
    runs: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    corpus = runs[0]
    out = _crashed(corpus, tmp_path / "run")
    with Ledger.open_readonly(out / "ledger.sqlite") as ledger:
        entries = [(e.kind, {k: v for k, v in e.payload.items() if k != "anchor"})
                   for e in ledger.entries()]  # fmt: skip
    (out / "ledger.sqlite").unlink()
    with Ledger.open(out / "ledger.sqlite") as ledger:
        ledger.append_batch(entries)
    code, lines = _run(corpus, out)
    assert code == 2
    [line] = lines
    assert str(out) in line and "carries no keyed anchor" in line and "seq " in line


def test_a_resume_under_another_laboratory_key_is_refused(
    runs: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    corpus = runs[0]
    out = _crashed(corpus, tmp_path / "run")
    code, lines = _run(corpus, out, **{KEY_DIR_ENV: str(tmp_path / "another-lab")})
    assert code == 2
    [line] = lines
    assert "not the laboratory's" in line and "cycle_confirmed" in line


def test_an_anchored_log_resumes_to_the_uninterrupted_bytes(
    runs: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    corpus = runs[0]
    out = _crashed(corpus, tmp_path / "run")
    assert _run(corpus, out)[0] == 0
    whole = tmp_path / "whole"
    assert _run(corpus, whole)[0] == 0
    assert log_but_nonce(out / "ledger.jsonl") == log_but_nonce(whole / "ledger.jsonl")
    assert json.loads((out / "run.json").read_text())["non_scoring"]["resumed"] is True
    check = run_cli("pilot", "evaluate", str(out), "--corpus", str(corpus),
                    "--out", str(tmp_path / "verdict.json"))  # fmt: skip
    assert check.returncode == 1, check.stderr  # noop fails honestly, but it is evaluated
