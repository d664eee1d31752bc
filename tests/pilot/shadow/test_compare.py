"""`pilot compare`: the laboratory verdict against the shadow verdict, and the §15 stopping
condition on a material discrepancy (`lab-shadow-material/1`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from provebench.pilot import run_lab
from provebench.pilot.evaluate import evaluate_run, write_verdict
from provebench.pilot.shadow import derive_shadow_corpus
from tests.helpers.pilot_evaluation import make_small_corpus
from tests.helpers.pilot_lab import run_cli
from tests.helpers.pilot_shadow_drive import daily_captures
from tests.helpers.shared_run import made_once

pytestmark = pytest.mark.slow

SLACKER = str(Path(__file__).parent / "importers" / "shadow_slacker.py") + ":ShadowSlacker"


@dataclass
class Verdicts:
    lab: Path
    shadow: Path


def _verdict(corpus: Path, agent: str, folder: Path) -> Path:
    run_lab(corpus, agent, folder / "run")
    path = folder / "verdict.json"
    write_verdict(evaluate_run(folder / "run", corpus), path)
    return path


# The corpora and the two candidates' verdicts are made once per test run and shared by the
# xdist workers (tests/helpers/shared_run.py); read only: every test writes its own output.
@pytest.fixture(scope="module")
def corpora(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    def make(root: Path) -> None:
        make_small_corpus(root)
        derive_shadow_corpus(daily_captures(root / "snapshots", 5), root / "shadow")

    root = made_once(tmp_path_factory, "compare-corpora", make)
    return make_small_corpus(root), root / "shadow"  # made above: its path only


def _verdicts(
    factory: pytest.TempPathFactory, name: str, corpora: tuple[Path, Path], agent: str
) -> Verdicts:
    def make(root: Path) -> None:
        _verdict(corpora[0], agent, root / "lab")
        _verdict(corpora[1], agent, root / "shadow")

    root = made_once(factory, name, make)
    return Verdicts(root / "lab" / "verdict.json", root / "shadow" / "verdict.json")


@pytest.fixture(scope="module")
def reference(corpora: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Verdicts:
    return _verdicts(tmp_path_factory, "compare-reference", corpora, "reference")


@pytest.fixture(scope="module")
def slacker(corpora: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Verdicts:
    return _verdicts(tmp_path_factory, "compare-slacker", corpora, SLACKER)


def test_the_reference_operates_as_in_the_laboratory(reference: Verdicts, tmp_path: Path) -> None:
    out = tmp_path / "comparison.json"
    done = run_cli("pilot", "compare", str(reference.lab), str(reference.shadow), "--out", str(out))
    assert done.returncode == 0, done.stderr
    comparison = json.loads(out.read_text(encoding="utf-8"))
    assert comparison["rule"] == "lab-shadow-material/1" and comparison["tolerance"] == 0.01
    assert comparison["material"] is False and comparison["stopping_condition"] == "clear"
    assert [m["metric"] for m in comparison["metrics"]][:2] == ["completeness", "precision"]
    assert (tmp_path / "comparison.dsse.json").is_file()
    assert "no material discrepancy" in done.stdout


def test_a_candidate_that_games_the_laboratory_stops_the_pilot(
    slacker: Verdicts, tmp_path: Path
) -> None:
    lab = json.loads(slacker.lab.read_text(encoding="utf-8"))
    assert lab["laboratory_pass"] is True  # the laboratory alone is fooled
    out = tmp_path / "comparison.json"
    done = run_cli("pilot", "compare", str(slacker.lab), str(slacker.shadow), "--out", str(out))
    assert done.returncode == 1, done.stderr
    comparison = json.loads(out.read_text(encoding="utf-8"))
    assert comparison["material"] is True and comparison["stopping_condition"] == "triggered"
    completeness = next(m for m in comparison["metrics"] if m["metric"] == "completeness")
    assert completeness["material"] and completeness["shadow"] < completeness["laboratory"] == 1.0
    assert any("laboratory gate passed" in reason for reason in comparison["reasons"])
    verified = run_cli("attest", "verify", str(tmp_path / "comparison.dsse.json"))
    assert verified.returncode == 0, verified.stderr


def test_bad_comparisons_are_refused(
    reference: Verdicts, slacker: Verdicts, corpora: tuple[Path, Path], tmp_path: Path
) -> None:
    out = str(tmp_path / "c.json")
    twin_shadow = _verdict(corpora[1], SLACKER.replace(":ShadowSlacker", ":DiligentTwin"),
                           tmp_path / "twin")  # fmt: skip
    cases = {
        "different candidates": (reference.lab, slacker.shadow, "different candidates"),
        # Same file, name, version and code digest; another class: not the same candidate.
        "another class of the same file": (slacker.lab, twin_shadow, "agent.spec"),
        "shadow first": (reference.shadow, reference.lab, "shadow verdict"),
        "two laboratory verdicts": (reference.lab, slacker.lab, "not a shadow verdict"),
    }
    for name, (first, second, said) in cases.items():
        done = run_cli("pilot", "compare", str(first), str(second), "--out", out)
        assert done.returncode == 2 and said in done.stderr, name
        assert len(done.stderr.strip().splitlines()) == 1, name
    altered = tmp_path / "verdict.json"
    altered.write_bytes(
        reference.shadow.read_bytes().replace(b'"perf_shadow": 1.0', b'"perf_shadow": 0.9')
    )
    (tmp_path / "verdict.dsse.json").write_bytes(
        (reference.shadow.parent / "verdict.dsse.json").read_bytes()
    )
    done = run_cli("pilot", "compare", str(reference.lab), str(altered), "--out", out)
    assert done.returncode == 2 and "sha256" in done.stderr
    assert not Path(out).exists()
