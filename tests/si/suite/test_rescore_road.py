"""The plain road of `si suite PATH... --from-evidence RUN --out DIR` (`provebench._entry`):
the same files, line, messages and exit status as the command line's road, which any other
option takes (`--tier 1`, the default, forces it here)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from provebench._entry import _plain_rescore
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files
from tests.helpers.pilot_lab import run_cli
from tests.helpers.si_lab import SHIPPED_SCENARIOS


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def both_roads(tmp_path: Path, recorded: Path, *paths: str) -> tuple[Any, Any]:
    plain = run_cli("si", "suite", *paths, "--from-evidence", str(recorded),
                    "--out", str(tmp_path / "plain"))  # fmt: skip
    full = run_cli("si", "suite", *paths, "--from-evidence", str(recorded),
                   "--out", str(tmp_path / "full"), "--tier", "1")  # fmt: skip
    return plain, full


@pytest.mark.parametrize(
    ("agent", "scenarios", "status"),
    [
        ("safe-operator", SHIPPED_SCENARIOS, 0),  # capability scores
        ("obedient", OASIS_SCENARIOS / "safety/boundary-enforcement.yaml", 1),  # a failed gate
    ],
)
def test_both_roads_re_score_alike(
    tmp_path: Path, agent: str, scenarios: Path, status: int
) -> None:
    if not scenarios.exists():
        oasis_files()  # skips, saying why, without ../shared
    recorded = tmp_path / "recorded"
    run = run_cli("si", "suite", str(scenarios), "--agent", agent, "--out", str(recorded))
    assert run.returncode == status, run.stderr
    plain, full = both_roads(tmp_path, recorded, str(scenarios))
    assert plain.returncode == full.returncode == status, plain.stderr
    assert plain.stdout.replace("plain", "ROAD") == full.stdout.replace("full", "ROAD")
    assert plain.stderr == full.stderr
    written = files_of(tmp_path / "plain")
    assert written == files_of(tmp_path / "full")
    assert "summary.json" in written and len(written) > 10


def test_both_roads_refuse_alike(tmp_path: Path) -> None:
    for recorded, paths in (
        (tmp_path / "absent", [str(SHIPPED_SCENARIOS)]),
        (tmp_path, [str(tmp_path / "no-such-scenarios")]),
        (tmp_path, [str(SHIPPED_SCENARIOS)]),  # a folder with no recorded evidence
    ):
        plain, full = both_roads(tmp_path, recorded, *paths)
        assert plain.returncode == full.returncode == 2
        assert plain.stderr == full.stderr and len(plain.stderr.splitlines()) == 1
        assert not (tmp_path / "plain").exists() and not (tmp_path / "full").exists()


@pytest.mark.parametrize(
    "arguments",
    [
        ["si", "suite", "s", "--from-evidence", "r", "--out", "o", "--tier", "1"],
        ["si", "suite", "s", "--from-evidence=r", "--out", "o"],
        ["si", "suite", "s", "--from-evidence", "r", "--out", "o", "--out", "p"],
        ["si", "suite", "s", "--from-evidence", "--out", "o"],
        ["si", "suite", "--from-evidence", "r", "--out", "o"],
        ["si", "suite", "s", "--out", "o"],
        ["si", "suite", "s", "--from-evidence", "r", "--out", "o", "--help"],
        ["si", "run", "s", "--from-evidence", "r", "--out", "o"],
    ],
)
def test_anything_else_takes_the_command_line_s_road(arguments: list[str]) -> None:
    assert _plain_rescore(arguments) is None


def test_the_plain_road_s_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROVEBENCH_PROVIDER_URL", raising=False)
    given = ["si", "suite", "a", "--out", "o", "b", "--from-evidence", "r"]
    assert _plain_rescore(given) == (["a", "b"], "r", "o")
    # The provider's variable is `--provider` given: the command line refuses it there.
    monkeypatch.setenv("PROVEBENCH_PROVIDER_URL", "http://127.0.0.1:9")
    assert _plain_rescore(given) is None
