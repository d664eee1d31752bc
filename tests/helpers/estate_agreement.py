"""Whether the two estates judge alike: the measure behind docs/si-profile.md's "Do the two
estates agree?" (tests/si/sim/test_estate_agreement.py keeps the two in step).

For every scenario of the published profile whose whole state the physical estate accepts
(`physical_coverage.measure`), each scripted agent (`builtin_agents`, the golden-verdict
agents) runs once in the declared estate (`DeclaredSession`, where the scenario runs today)
and once in the physical estate (`Session.start`), in-process as `si run` runs it, and each run
is scored as `si run` scores it. Two runs agree on the verdict when its line (band and score,
or status) is the same; on the judgement when the verdict without its `inputs` block is the
same, byte for byte (what it quotes, the checks' notes, the vacuous passes). Nothing switches a
scenario's estate: this only measures. A scenario the physical estate refuses to run (a
stimulus it does not place: `si.sim._session.check_stimuli`) is reported as refused, with the
field, and not run.

For a run that differs, the first answer that differs (the agents are deterministic, so the
runs part at the first answer that differs) and the first check whose status or vacuity
differs are reported: where to look for the rule that differs.

Print the measure: `python -m tests.helpers.estate_agreement`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from provebench._canonical import canonical_json
from provebench._errors import ProvebenchError
from provebench.si.agents import builtin_agents, load_agent, run_agent
from provebench.si.agents._loader import LoadedDiagnosisAgent
from provebench.si.agents._run import verdict_line
from provebench.si.scenario import Scenario
from provebench.si.scoring._score import score_scenario
from provebench.si.scoring._verdict import InputHashes
from provebench.si.sim import Session
from provebench.si.sim.declared import DeclaredSession
from tests.helpers.physical_coverage import PROFILE, measure, published_scenarios

# the scenario and evidence digests are the files', which both runs share: left out
_NO_FILES = InputHashes(scenario_file_sha256="0" * 64, evidence_file_sha256="0" * 64)


@dataclass(frozen=True)
class Run:
    line: str  # the verdict in a few words
    judgement: dict[str, Any]  # the verdict without its `inputs`
    actions: list[dict[str, Any]]  # the recorded calls, each with its answer


@dataclass(frozen=True)
class Difference:
    scenario: str
    agent: str
    declared: str  # the declared estate's verdict line
    physical: str
    answer: str  # the first answer that differs: `TOOL {arguments}`, or "none"
    check: str  # the first check whose status or vacuity differs, or "none"

    @property
    def verdict_differs(self) -> bool:
        return self.declared != self.physical

    @property
    def parted_at(self) -> str:
        """Where the runs part, in a few words: ``a pod listing``, ``orchestration_events``,
        ``no answer`` (the same answers: the verdict reads the state snapshots apart)."""
        if self.answer == "none":
            return "no answer"
        tool, _, arguments = self.answer.partition(" ")
        kind = json.loads(arguments).get("kind") if arguments.startswith("{") else None
        return f"a {kind} listing" if tool == "orchestration_list" and kind else tool


@dataclass(frozen=True)
class Agreement:
    runs: int
    same_verdict: int
    same_judgement: int
    differences: tuple[Difference, ...]
    refused: tuple[str, ...]  # `SCENARIO: FIELD: why` of each the physical estate will not run

    def parted(self) -> Counter[str]:
        """Where the runs with the same verdict and a different judgement part (`parted_at`)."""
        return Counter(d.parted_at for d in self.differences if not d.verdict_differs)


def _run(scenario: Scenario, agent: str, start: Callable[[Scenario], Any]) -> Run:
    loaded = load_agent(agent)
    assert isinstance(loaded, LoadedDiagnosisAgent)  # the scripted agents run in-process
    evidence = run_agent(start(scenario), loaded.factory()).evidence
    verdict = score_scenario(scenario, evidence, inputs=_NO_FILES)
    judgement: dict[str, Any] = json.loads(verdict.to_json())
    judgement.pop("inputs", None)
    recorded: dict[str, Any] = json.loads(canonical_json(evidence))
    return Run(verdict_line(verdict), judgement, list(recorded.get("actions") or []))


def _first_answer(declared: list[dict[str, Any]], physical: list[dict[str, Any]]) -> str:
    for mine, theirs in zip(declared, physical, strict=False):
        asked = (mine["tool"], mine["arguments"])
        if asked != (theirs["tool"], theirs["arguments"]) or (
            mine["result"],
            mine["error"],
        ) != (theirs["result"], theirs["error"]):
            return f"{mine['tool']} {json.dumps(mine['arguments'], sort_keys=True)}"
    if len(declared) != len(physical):
        return f"one estate's agent called {abs(len(declared) - len(physical))} more"
    return "none"


def _checked(check: Mapping[str, Any]) -> tuple[Any, Any]:
    return check.get("status"), check.get("vacuous")


def _first_check(declared: Mapping[str, Any], physical: Mapping[str, Any]) -> str:
    for mine, theirs in zip(
        declared.get("checks") or [], physical.get("checks") or [], strict=False
    ):
        if _checked(mine) != _checked(theirs):
            return f"{mine.get('id', '?')}: {mine.get('detail')} | {theirs.get('detail')}"
    return "none"


def compare(scenario: Scenario, agent: str) -> Difference | None:
    """None when both estates judge the run alike, byte for byte; else where they part."""
    declared = _run(scenario, agent, DeclaredSession)
    physical = _run(scenario, agent, Session.start)
    if declared.judgement == physical.judgement:
        return None
    return Difference(
        scenario=scenario.id,
        agent=agent,
        declared=declared.line,
        physical=physical.line,
        answer=_first_answer(declared.actions, physical.actions),
        check=_first_check(declared.judgement, physical.judgement),
    )


def agreement(profile: Path = PROFILE) -> Agreement:
    whole = set(measure(profile).whole)
    agents = sorted(builtin_agents())
    runs = 0
    differences: list[Difference] = []
    refused: list[str] = []
    for scenario in published_scenarios(profile):
        if scenario.id not in whole:
            continue
        try:
            Session.start(scenario)
        except ProvebenchError as error:
            refused.append(f"{scenario.id}: {error}")
            continue
        for agent in agents:
            runs += 1
            found = compare(scenario, agent)
            if found is not None:
                differences.append(found)
    same_verdict = runs - sum(d.verdict_differs for d in differences)
    return Agreement(
        runs, same_verdict, runs - len(differences), tuple(differences), tuple(refused)
    )


def main() -> None:
    if not PROFILE.is_dir():
        raise SystemExit(f"the published profile is not at {PROFILE}")
    found = agreement()
    print(
        f"{found.runs} runs: the same verdict in {found.same_verdict}, the same judgement "
        f"byte for byte in {found.same_judgement}"
    )
    for why in found.refused:
        print(f"  refused {why}")
    for difference in found.differences:
        if difference.verdict_differs:
            print(
                f"  verdict {difference.scenario} {difference.agent}: declared "
                f"{difference.declared}, physical {difference.physical}; first answer "
                f"{difference.answer}; first check {difference.check[:160]}"
            )
    parted = found.parted()
    for where, count in sorted(parted.items(), key=lambda item: (-item[1], item[0])):
        print(f"  {count:3}  same verdict, judgements part at {where}")


if __name__ == "__main__":
    main()
