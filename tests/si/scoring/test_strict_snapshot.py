"""The strict reading's verdicts over every stress answer, held to a snapshot.

`strict_stress_snapshot.json` was written once, by the strict reading before it was made faster
(the cue patterns grouped by first character, the word-game cues scanned on first use: docs/
benchmarks.md, `bench_si_batch`): for each answer of each stress family of each shipped Form B
scenario that has families (key: a digest of scenario, family and evidence), a digest of the
ratified band and score and the whole strict reading (band, score, row, every finding). A change
that is meant to be faster must leave every one of them the same bytes.

An answer a later change of the families no longer generates is not compared; most of the
snapshot must still be (below), so that the test cannot pass by comparing nothing. A change
meant to change the strict reading (a new cue list version) writes the snapshot again, from
`strict_digests()`, and says so in its commit.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import provebench.si
from provebench._errors import ProvebenchError
from provebench.si.scenario._binding import bind_scoring
from provebench.si.scenario._validate import load_scenarios
from provebench.si.scoring._evaluate import Prepared, evaluate_bound
from provebench.si.scoring._stress_families import families

SNAPSHOT = Path(__file__).with_name("strict_stress_snapshot.json")
SCENARIOS = Path(provebench.si.__file__).parent / "scenarios"
# how much of the snapshot the families must still generate for the comparison to mean much
LEAST_COMPARED = 0.8


def _digest(value: object) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def strict_digests() -> dict[str, str]:
    """Every stress answer's key -> the digest of its verdicts (both readings)."""
    digests: dict[str, str] = {}
    for path in sorted(SCENARIOS.glob("*.yaml")):
        for scenario in load_scenarios(str(path)):
            if scenario.form != "B":
                continue
            bound = bind_scoring(scenario)
            try:
                chosen = families(scenario, bound)
            except ProvebenchError:
                continue  # a table that binds no factor: its families are scripted runs
            prepared = Prepared(bound)
            for family in chosen:
                for evidence in family.answers:
                    key = _digest([scenario.id, family.name, evidence.model_dump(mode="json")])
                    verdict = evaluate_bound(prepared, scenario, evidence)
                    assert verdict.strict is not None
                    strict = verdict.strict.model_dump(mode="json")
                    digests[key] = _digest([verdict.band, verdict.score, strict])
    return digests


def test_every_stress_answer_reads_as_the_snapshot_says() -> None:
    expected: dict[str, str] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    found = strict_digests()
    compared = [key for key in expected if key in found]
    assert len(compared) >= LEAST_COMPARED * len(expected), (len(compared), len(expected))
    changed = [key for key in compared if found[key] != expected[key]]
    assert not changed, f"{len(changed)} of {len(compared)} stress answers read differently"
