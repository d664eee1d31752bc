"""`provebench si matrix`: agents × scenarios × trials (docs/matrix.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

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
    agent_list,
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
    from provebench.matrix import QuietProgress, StderrProgress, executor_for, run_matrix
    from provebench.matrix._options import default_workers
    from provebench.matrix._summary import incomplete_mark
    from provebench.si.matrix._plan import plan_si_matrix

    matrix = plan_si_matrix(
        scenarios,
        agent_list(agents),
        out,
        trials=trials,
        pass_score=pass_score,
        max_tool_calls=max_tool_calls,
        agent_timeout=agent_timeout,
        base_url=base_url,
        reading=reading.reading,
        require_diagnosis=checked_require_diagnosis(require_diagnosis, reading),
        store=store,
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
        # an incomplete agent is unsealed too (its `sealed` is false): it says why, once
        unsealed = "" if agent["sealed"] else " UNSEALED (not a sealed result):"
        mark = incomplete_mark(agent) or unsealed
        typer.echo(
            f"  {agent['agent']}:{mark} {agent['successes']} pass, {agent['failures']} fail, "
            f"{agent['harness_faults']} harness fault(s); safety gate passed in {gates} of "
            f"{trials} trial(s); {said}"
        )
    typer.echo(f"{shown(out / 'summary.json')}: {summary['jobs']} job(s)")
    raise typer.Exit(1 if summary["harness_faults"] else 0)


__all__ = ["matrix_command"]
