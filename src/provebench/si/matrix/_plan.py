"""An SI matrix's jobs: one per (agent, scenario, trial), each a sealed run of the agent on the
scenario, scored (docs/matrix.md).

Each agent is identified by its code's digest (`matrix._identity`) in the request and in every
job's signed identity, with the scenario's bytes and every option that decides a verdict: a
resumed matrix keeps only this very candidate's jobs (red team round 13, H3, H8), and a
candidate whose code changed while the jobs ran gets no summary."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from provebench.matrix import JobSpec, MatrixRequest


def plan_si_matrix(
    scenarios: Sequence[Path],
    agents: list[str],
    out: Path,
    *,
    trials: int,
    pass_score: float,
    max_tool_calls: int,
    agent_timeout: float,
    base_url: str | None,
    reading: str,
    require_diagnosis: bool,
    store: str | None,
) -> MatrixRequest:
    """The matrix of `agents` over the applicable scenarios found in `scenarios`."""
    from provebench._canonical import sha256_file
    from provebench.llm import is_openai_spec
    from provebench.matrix._engine import job_location
    from provebench.matrix._identity import candidate_identity, still_the_same
    from provebench.matrix._options import slug
    from provebench.sandbox._candidate import is_shipped
    from provebench.si.agents._loader import builtin_agents
    from provebench.si.matrix._job import si_job_check, si_section_for, task_of
    from provebench.si.suite._select import select

    selected = [item for item in select(list(scenarios)) if item.not_applicable is None]
    safety = {item.scenario.id for item in selected if item.scenario.classification == "safety"}
    scenario_files = sorted({item.file.resolve() for item in selected})

    def identities() -> dict[str, dict[str, str]]:
        # Each agent by its code's digest (red team round 13, H3, H8): a resumed matrix keeps
        # only this code's jobs. An `openai:` agent's code is provebench's client.
        return {
            agent: candidate_identity(
                agent,
                shipped=is_openai_spec(agent) or is_shipped(agent, builtin_agents()),
                matrix_folder=out.resolve(),
                # every job hides every scenario file from the agent (`_job.py`): its code's
                # digest leaves them out too, so that it is the digest of what a job runs
                hidden=scenario_files,
            )
            for agent in agents
        }

    candidates = identities()
    request: dict[str, Any] = {
        "agents": agents,
        "candidates": candidates,
        "scenarios": [item.scenario.id for item in selected],
        "trials": trials,
        "pass_score": pass_score,
        "max_tool_calls": max_tool_calls,
        "base_url": base_url,
        "reading": reading,
        # present only when asked, so that earlier matrices' requests stay the same
        **({"require_diagnosis": True} if require_diagnosis else {}),
    }
    specs = [
        JobSpec(
            key=f"{slug(agent)}/{item.scenario.id}/trial-{trial:03d}",
            agent=agent,
            case=item.scenario.id,
            trial=trial,
            function="provebench.si.matrix._job:run_si_job",
            params={
                "scenario_file": str(item.file.resolve()),
                "scenario_files": [str(path) for path in scenario_files],
                "max_tool_calls": max_tool_calls,
                "pass_score": pass_score,
                "agent_timeout": agent_timeout,
                "base_url": base_url,
                "matrix_folder": str(out.resolve()),
                "reading": reading,
                **({"require_diagnosis": True} if require_diagnosis else {}),
            },
            folder=job_location(out, f"{slug(agent)}/{item.scenario.id}/trial-{trial:03d}", store),
            identity={
                "candidate": candidates[agent],
                "scenario_file_sha256": item.scenario.source_sha256 or sha256_file(item.file),
                "max_tool_calls": max_tool_calls,
                "pass_score": pass_score,
                "base_url": base_url,
                "reading": reading,
                "require_diagnosis": require_diagnosis,
                # a run past it is the agent's error: it decides the verdict (red team 13b)
                "agent_timeout": agent_timeout,
            },
        )
        for agent in agents
        for item in selected
        for trial in range(1, trials + 1)
    ]
    return MatrixRequest(
        "si",
        request,
        specs,
        task_of,
        si_section_for(safety, trials),
        si_job_check({item.scenario.id: item.scenario for item in selected}, pass_score),
        store=store,
        recheck=lambda: still_the_same(candidates, identities()),
    )


__all__ = ["plan_si_matrix"]
