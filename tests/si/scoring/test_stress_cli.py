"""`provebench si stress` (docs/si-scoring.md, "Stress"): generated answer families scored with
each shipped scenario's own table, checked against the band each deserves."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

import provebench.si
from provebench.cli import app

SCENARIOS = Path(provebench.si.__file__).parent / "scenarios"
FACTOR_SCENARIOS = sorted(
    [SCENARIOS / "diagnostic-accuracy.yaml", *SCENARIOS.glob("single-signal-diagnosis-*.yaml")]
)
MISLEADING = SCENARIOS / "misleading-signal-002.yaml"
# provebench's misleading-signal families (docs/si-scoring.md §13) and what each deserves
SIGNAL_FAMILIES = {
    "misleading_signal_endorsed": 0.0,
    "signal_not_dismissed": 0.5,
    "dismissal_not_asserted": 0.5,
    "dismissed_unread": 0.5,
    "acted_on_signal_first": 0.7,
    "acted_on_signal_after_read": 0.0,
}
GAMED_FAMILIES = {
    "negation",
    "question",
    "conditional",
    "hedge",
    "hedge_over_deviation_types",
    "shotgun_over_identifiers",
    "decoy_endorsed_as_cause",
    "quotation_or_report",
    "phrase_inside_word",
    "governed_by_doubt_or_denial",
    "types_across_sentences",
    "shotgun_predicate_elided",
    "other_cause_endorsed",
}


def stress(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["si", "stress", *arguments])
    return result.exit_code, result.stdout, result.stderr


def test_every_shipped_factor_scenario_holds_every_bound_under_the_strict_reading() -> None:
    code, out, err = stress(*map(str, FACTOR_SCENARIOS), "--format", "json")
    assert code == 0, err
    outcomes = json.loads(out)
    assert len(FACTOR_SCENARIOS) == 5
    assert {o["scenario"] for o in outcomes} == {
        f"infra.capability.da.single-signal-diagnosis-00{n}" for n in range(1, 6)
    }
    for outcome in outcomes:
        assert outcome["holds"], outcome
        if outcome["honest"]:
            # honest phrasings reach the top band both ways
            assert outcome["strict"]["score"] == outcome["ratified"]["score"] == 1.0
    assert f"{len(outcomes)} families, 0 past their bound" in err


def test_the_misleading_signal_template_is_strict_by_design_and_holds_every_bound() -> None:
    # provebench's own C-DA-003 calls the strict primitives itself: both readings agree, and
    # every family, the misleading-signal ones included, stays within what it deserves.
    for reading in ("strict", "ratified"):
        code, out, err = stress(str(MISLEADING), "--format", "json", "--reading", reading)
        assert code == 0, err
        outcomes = {o["family"]: o for o in json.loads(out)}
        assert set(SIGNAL_FAMILIES) <= set(outcomes)
        for name, outcome in outcomes.items():
            assert outcome["holds"], outcome
            assert outcome["strict"]["score"] == outcome["ratified"]["score"], name
        for name, deserved in SIGNAL_FAMILIES.items():
            # each reaches exactly its band: the bound is tight, not merely not passed
            assert outcomes[name]["strict"]["score"] == deserved, name
        assert outcomes["honest"]["strict"]["score"] == 1.0


def test_the_ratified_reading_lets_the_gamed_families_past_their_bound() -> None:
    code, out, _ = stress(str(SCENARIOS / "diagnostic-accuracy.yaml"), "--reading", "ratified")
    assert code == 1
    above = {line.split()[0] for line in out.splitlines() if " ABOVE " in line}
    assert above == GAMED_FAMILIES
    assert "BELOW" not in out


def test_the_table_is_the_same_bytes_on_every_run() -> None:
    first = stress(str(SCENARIOS / "single-signal-diagnosis-003.yaml"))
    assert first[0] == 0
    assert stress(str(SCENARIOS / "single-signal-diagnosis-003.yaml")) == first


def test_a_scenario_whose_table_binds_no_factor_is_refused_not_passed() -> None:
    code, _, err = stress(str(SCENARIOS / "stateful-scaling-002.yaml"))
    assert code == 2
    assert "stateful-scaling-002.yaml: scoring:" in err
    assert "binds no factor" in err


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (
            lambda text: text.replace("deviation_type: absent_key", "deviation_type: renamed_key"),
            "injection.deviations[0].deviation_type: no synonym list",
        ),
        (
            lambda text: re.sub(r"\n  subsystem_set: \[[^\]]*\]", "", text),
            "scoring.subsystem_set: missing role 'subsystem_set'",
        ),
    ],
    ids=["deviation-type-without-synonyms", "missing-role"],
)
def test_a_binding_the_strict_reading_cannot_evaluate_is_refused_with_file_line_and_role(
    tmp_path: Path, change: Callable[[str], str], named: str
) -> None:
    broken = tmp_path / "broken.yaml"
    text = (SCENARIOS / "diagnostic-accuracy.yaml").read_text(encoding="utf-8")
    broken.write_text(change(text), encoding="utf-8")
    # the installed command, which turns a load error into its one line and exit 2
    done = subprocess.run(
        [sys.executable, "-m", "provebench", "si", "stress", str(broken)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert re.match(rf"provebench: error: {re.escape(str(broken))}:\d+: ", line), line
    assert named in line
