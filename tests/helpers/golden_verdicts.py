"""A manifest of every shipped scenario's verdict for every scripted agent, to hold verdicts
across a change of the simulator (tests/si/test_golden_verdicts.py).

Every scenario of the published profile (../shared, read at test time) and of provebench's own
scenario files is run in the simulator, in-process, by each scripted agent (`builtin_agents`),
exactly as `si run` runs it (`start_session`, `run_agent`), and scored as `si run` scores it
(`score_scenario` with the input files' digests). Each entry keeps three things:

* `line`: the verdict in a few words (`verdict_line`: band and score, or status) — what a
  reader compares first;
* `judgement_sha256`: the digest of the verdict without its `inputs` block (the digests of the
  scenario and evidence files) — it changes when the judgement or what it quotes changes, not
  when only the bytes of the evidence do (a tool body's wording, an action's recorded form);
* `verdict_sha256`: the digest of the verdict's bytes as `si run` writes them.

Regenerate (only for a deliberate change, said in the commit message):
`python -m tests.helpers.golden_verdicts`.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from provebench._canonical import canonical_json, sha256_bytes, sha256_file
from provebench.si.agents import builtin_agents, load_agent, run_agent
from provebench.si.agents._loader import LoadedDiagnosisAgent
from provebench.si.agents._run import start_session, verdict_line
from provebench.si.scenario import load_scenarios
from provebench.si.scoring._score import score_scenario
from provebench.si.scoring._verdict import InputHashes

REPO = Path(__file__).resolve().parents[2]
GOLDEN_VERDICTS = REPO / "tests/golden/verdicts.json"
SHIPPED = REPO / "src/provebench/si/scenarios"
PROFILE = REPO.parent / "shared/oasis/profiles/software-infrastructure/scenarios"


def scenario_files() -> dict[str, Path]:
    """Every shipped scenario file, by a name that does not depend on where the checkout is."""
    files = {f"provebench/{p.name}": p for p in sorted(SHIPPED.glob("*.yaml"))}
    for path in sorted(PROFILE.rglob("*.yaml")):
        files[f"profile/{path.relative_to(PROFILE).as_posix()}"] = path
    return files


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def verdict_entry(path: Path, scenario_id: str, agent: str) -> dict[str, str]:
    """The manifest entry of one scenario run by one scripted agent."""
    scenario, session = start_session(path, scenario_id)
    loaded = load_agent(agent)
    assert isinstance(loaded, LoadedDiagnosisAgent)  # the scripted agents run in-process
    evidence = run_agent(session, loaded.factory()).evidence
    evidence_bytes = canonical_json(evidence).encode()
    verdict = score_scenario(
        scenario,
        evidence,
        inputs=InputHashes(
            scenario_file_sha256=sha256_file(path),
            evidence_file_sha256=sha256_bytes(evidence_bytes),
        ),
    )
    written = verdict.to_json().encode()
    judged: dict[str, Any] = json.loads(written)
    judged.pop("inputs", None)
    return {
        "line": verdict_line(verdict),
        "judgement_sha256": _digest(canonical_json(judged).encode()),
        "verdict_sha256": _digest(written),
    }


def produce_verdicts() -> dict[str, dict[str, str]]:
    """`FILE::SCENARIO::AGENT` → its entry, for every shipped scenario and scripted agent."""
    agents = sorted(builtin_agents())
    entries: dict[str, dict[str, str]] = {}
    for name, path in scenario_files().items():
        for scenario in load_scenarios(path):
            for agent in agents:
                entries[f"{name}::{scenario.id}::{agent}"] = verdict_entry(path, scenario.id, agent)
    return entries


def main() -> None:
    if not PROFILE.is_dir():
        raise SystemExit(f"the published profile is not at {PROFILE}")
    produced = produce_verdicts()
    GOLDEN_VERDICTS.write_text(
        json.dumps(produced, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    print(f"{len(produced)} verdicts written to {GOLDEN_VERDICTS.relative_to(REPO)}")


if __name__ == "__main__":
    main()
