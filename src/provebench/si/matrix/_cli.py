"""`provebench si matrix`: agents × scenarios × trials (docs/matrix.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from provebench._errors import shown
from provebench.llm._options import BaseUrlOption
from provebench.matrix._options import (
    AddressOption,
    AgentsOption,
    OutOption,
    QuietOption,
    StoreOption,
    TrialsOption,
    WorkersOption,
)
from provebench.si._cli_options import (
    RequireDiagnosisOption,
    ScoreReading,
    ScoreReadingOption,
    checked_require_diagnosis,
)


def matrix_command(
    scenarios: Annotated[
        list[Path], typer.Argument(help="Scenario files or folders (searched for *.yaml).")
    ],
    agents: AgentsOption,
    out: OutOption,
    trials: TrialsOption = 1,
    workers: WorkersOption = None,
    address: AddressOption = None,
    pass_score: Annotated[
        float,
        typer.Option(
            "--pass-score", help="A capability score that counts as a success.", min=0.0, max=1.0
        ),
    ] = 1.0,
    max_tool_calls: Annotated[
        int, typer.Option("--max-tool-calls", help="Tool calls per run.", min=1, max=10_000)
    ] = 200,
    agent_timeout: Annotated[
        float, typer.Option("--agent-timeout", help="Seconds per sealed agent run.", min=1)
    ] = 600.0,
    base_url: BaseUrlOption = None,
    reading: ScoreReadingOption = ScoreReading.ratified,
    require_diagnosis: RequireDiagnosisOption = False,
    store: StoreOption = None,
    quiet: QuietOption = False,
) -> None:
    """Every agent on every scenario, every trial a sealed run, scored; one summary with pass^k
    per scenario and the safety gate per trial (docs/matrix.md). Exit 0 when every job ran, 1
    when a job was a harness fault (a provider failure included)."""
    from provebench._canonical import sha256_file
    from provebench.llm import is_openai_spec
    from provebench.matrix import (
        JobSpec,
        MatrixRequest,
        QuietProgress,
        StderrProgress,
        executor_for,
        run_matrix,
    )
    from provebench.matrix._engine import job_location
    from provebench.matrix._identity import candidate_identity, still_the_same
    from provebench.matrix._options import agent_list, default_workers, slug
    from provebench.sandbox._candidate import is_shipped
    from provebench.si.agents._loader import builtin_agents
    from provebench.si.matrix._job import si_job_check, si_section_for, task_of
    from provebench.si.suite._select import select

    required = checked_require_diagnosis(require_diagnosis, reading)
    chosen = agent_list(agents)
    selected = [item for item in select(scenarios) if item.not_applicable is None]
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
            for agent in chosen
        }

    candidates = identities()
    request: dict[str, Any] = {
        "agents": chosen,
        "candidates": candidates,
        "scenarios": [item.scenario.id for item in selected],
        "trials": trials,
        "pass_score": pass_score,
        "max_tool_calls": max_tool_calls,
        "base_url": base_url,
        "reading": reading.reading,
        # present only when asked, so that earlier matrices' requests stay the same
        **({"require_diagnosis": True} if required else {}),
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
                "reading": reading.reading,
                **({"require_diagnosis": True} if required else {}),
            },
            folder=job_location(out, f"{slug(agent)}/{item.scenario.id}/trial-{trial:03d}", store),
            identity={
                "candidate": candidates[agent],
                "scenario_file_sha256": item.scenario.source_sha256 or sha256_file(item.file),
                "max_tool_calls": max_tool_calls,
                "pass_score": pass_score,
                "base_url": base_url,
                "reading": reading.reading,
                "require_diagnosis": required,
                # a run past it is the agent's error: it decides the verdict (red team 13b)
                "agent_timeout": agent_timeout,
            },
        )
        for agent in chosen
        for item in selected
        for trial in range(1, trials + 1)
    ]
    matrix = MatrixRequest(
        "si",
        request,
        specs,
        task_of,
        si_section_for(safety, trials),
        si_job_check({item.scenario.id: item.scenario for item in selected}, pass_score),
        store=store,
        recheck=lambda: still_the_same(candidates, identities()),
    )
    count = default_workers(workers)
    progress = QuietProgress() if quiet else StderrProgress()
    summary = run_matrix(matrix, out, lambda: executor_for(address, count), progress)
    if summary["resumed"]:
        typer.echo(f"  RESUMED (not a sealed result): {len(summary['rerun'])} job(s) run again")
    for agent in summary["agents"]:
        gates = agent["safety_gate_passed_trials"]
        curve = agent["pass_hat_k"]
        said = " ".join(f"pass^{k}={v:.3f}" for k, v in curve.items())
        unsealed = "" if agent["sealed"] else " UNSEALED (not a sealed result):"
        typer.echo(
            f"  {agent['agent']}:{unsealed} {agent['successes']} pass, {agent['failures']} fail, "
            f"{agent['harness_faults']} harness fault(s); safety gate passed in {gates} of "
            f"{trials} trial(s); {said}"
        )
    typer.echo(f"{shown(out / 'summary.json')}: {summary['jobs']} job(s)")
    raise typer.Exit(1 if summary["harness_faults"] else 0)


__all__ = ["matrix_command"]
