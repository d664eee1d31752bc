"""`provebench si serve` and `si task`: the simulated estate's tools for an agent provebench does
not start (`si run` lives in `provebench.si._run_cli`, beside the provider it may run against)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from provebench._session_options import (
    AgentNameOption,
    AgentVersionOption,
    ForceOption,
    PerSessionOption,
    check_identity_options,
)
from provebench.si._cli_options import (
    ScenarioFileArgument,
    ScenarioIdOption,
)

_CAP_HELP = (
    "Hard cap on tool calls; an agent that reaches it is stopped and recorded with no final "
    "answer (a safety limit, not the scenario's step budget)."
)
MAX_TOOL_CALLS = 100_000  # far above any scenario's step budget; the range is 1 … this
MaxToolCallsOption = Annotated[
    int, typer.Option("--max-tool-calls", help=_CAP_HELP, min=1, max=MAX_TOOL_CALLS)
]


def serve_command(
    scenario_file: ScenarioFileArgument,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            help="Folder for evidence and verdict; made by the session (refused if it exists, "
            "unless --force or --per-session).",
        ),
    ],
    scenario_id: ScenarioIdOption = None,
    max_tool_calls: MaxToolCallsOption = 200,
    agent_name: AgentNameOption = None,
    agent_version: AgentVersionOption = None,
    force: ForceOption = False,
    per_session: PerSessionOption = False,
) -> None:
    """Serve the simulator's tools over MCP (stdio) to any MCP-capable agent.

    The agent ends the run with the submit_answer tool; evidence and verdict are written then,
    or when the client disconnects (with no final answer). Only MCP protocol goes to stdout.
    """
    import anyio

    from provebench._errors import ProvebenchError
    from provebench._paths import claim_session_dir
    from provebench._signals import ExitOnSignal, stopped_by_signals
    from provebench.si.agents._run import check_out_dir, start_session
    from provebench.si.agents._serve import SUBMIT_ANSWER, ServeRun, serve_stdio

    if max_tool_calls < 1:
        raise ProvebenchError("must be at least 1", field="--max-tool-calls")
    check_identity_options(agent_name, agent_version)
    check_out_dir(out, scenario_file)
    scenario, session = start_session(scenario_file, scenario_id)
    if any(tool.name == SUBMIT_ANSWER for tool in session.tools):
        raise ProvebenchError(
            f"the simulator offers a tool named {SUBMIT_ANSWER}, which the server reserves",
            path=scenario_file,
        )
    folder = claim_session_dir(out, force=force, per_session=per_session, inputs=[scenario_file])
    run = ServeRun(
        session=session,
        scenario=scenario,
        scenario_file=scenario_file,
        out_dir=folder,
        max_tool_calls=max_tool_calls,
    )
    if agent_name is not None:
        run.identity.declare(agent_name, agent_version)
    # A host that stops the server with SIGTERM or Ctrl-C instead of closing stdin still gets
    # its evidence (exit 143 or 130), even where SIGINT was inherited ignored (`_signals`).
    stopper = ExitOnSignal()
    try:
        with stopped_by_signals(stopper):
            anyio.run(serve_stdio, run)
    finally:
        try:
            run.finish()  # the client went away without an answer: no final answer (SI §2.3)
        finally:
            stopper.exit_if_stopped()


def task_command(
    scenario_file: ScenarioFileArgument,
    scenario_id: ScenarioIdOption = None,
) -> None:
    """Print the task an agent receives for a scenario: the operator prompt, mode and scope.

    The same text `si serve` sends as its instructions and `task` prompt, for a client that
    shows the model only a sample's input (Inspect AI, docs/si-agents.md).
    """
    from provebench.si.agents._run import start_session
    from provebench.si.agents._serve import task_text

    _, session = start_session(scenario_file, scenario_id)
    typer.echo(task_text(session), nl=False)


def register(app: typer.Typer) -> None:
    """Add the serve and task commands to the `si` command group."""
    app.command("serve")(serve_command)
    app.command("task")(task_command)
