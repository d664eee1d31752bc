"""`provebench si run` and `si serve`: an agent investigates the simulated estate."""

from __future__ import annotations

import contextlib
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
from provebench.llm._endpoint import RequestSettings
from provebench.llm._options import (
    DEFAULT_REQUEST_SETTINGS,
    BaseUrlOption,
    ModelCmdOption,
    request_options,
)
from provebench.sandbox._options import (
    DEFAULT_CPU_SEC,
    DEFAULT_FILE_SIZE_MIB,
    DEFAULT_MEMORY_MIB,
    DEFAULT_PROCESSES,
    CpuOption,
    FileSizeOption,
    MemoryOption,
    ProcessesOption,
    limits_from_options,
)
from provebench.si._cli_options import (
    AgentProtocol,
    AgentProtocolOption,
    ReadingsOption,
    ScenarioFileArgument,
    ScenarioIdOption,
    ScoreReading,
    ScoreReadingOption,
    reading_book,
)

_CAP_HELP = (
    "Hard cap on tool calls; an agent that reaches it is stopped and recorded with no final "
    "answer (a safety limit, not the scenario's step budget)."
)
MAX_TOOL_CALLS = 100_000  # far above any scenario's step budget; the range is 1 … this
_MaxToolCalls = Annotated[
    int, typer.Option("--max-tool-calls", help=_CAP_HELP, min=1, max=MAX_TOOL_CALLS)
]


@request_options
def run_command(
    scenario_file: ScenarioFileArgument,
    out: Annotated[Path, typer.Option("--out", help="Folder for evidence and verdict.")],
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent",
            help="A scripted agent's name (diagnoser, locus-only, quotation-gamer, "
            "budget-exhauster, decoy-chaser, noop, safe-operator, obedient), openai:MODEL (a "
            "model behind an OpenAI-compatible endpoint, --base-url), module:Class or "
            "path.py:Class (run sealed in the sandbox).",
        ),
    ] = None,
    agent_cmd: Annotated[
        str | None,
        typer.Option(
            "--agent-cmd",
            help="A program speaking the SI agent protocol (JSON lines on stdin/stdout, "
            "docs/si-agents.md), run sealed in the sandbox.",
        ),
    ] = None,
    agent_protocol: AgentProtocolOption = AgentProtocol.JSON_LINES,
    model_cmd: ModelCmdOption = None,
    agent_url: Annotated[
        str | None,
        typer.Option(
            "--agent-url",
            help="An agent served over the OASIS HTTP contract (docs/si-agents.md).",
        ),
    ] = None,
    agent_timeout: Annotated[
        float,
        typer.Option(
            "--agent-timeout",
            metavar="SECONDS",
            help="Wall-clock limit of the agent's run (sealed, HTTP or openai:MODEL); past it "
            "the run ends with the evidence gathered so far.",
            min=1,
            max=86400,
        ),
    ] = 600.0,
    base_url: BaseUrlOption = None,
    request_settings: RequestSettings = DEFAULT_REQUEST_SETTINGS,  # the request options
    scenario_id: ScenarioIdOption = None,
    readings: ReadingsOption = None,
    reading: ScoreReadingOption = ScoreReading.ratified,
    max_tool_calls: _MaxToolCalls = 200,
    sandbox_memory: MemoryOption = DEFAULT_MEMORY_MIB,
    sandbox_cpu: CpuOption = DEFAULT_CPU_SEC,
    sandbox_processes: ProcessesOption = DEFAULT_PROCESSES,
    sandbox_file_size: FileSizeOption = DEFAULT_FILE_SIZE_MIB,
) -> None:
    """Run an agent in the simulator; write evidence.json, evidence.oasis.json, verdict.json.

    Same scenario and agent, same bytes. Bad input is one line on stderr, exit 2; a provider
    failure (the harness's fault, Core §3.7) exits 3; a run stopped by SIGINT or SIGTERM is
    written, then exits 130 or 143.
    """
    from provebench._errors import shown
    from provebench.llm._model_cmd import start_model_server
    from provebench.si.agents._run import (
        EXIT_PROVIDER_FAILURE,
        check_out_dir,
        run_agent,
        start_session,
        verdict_line,
        write_run,
    )
    from provebench.si.agents._sources import agent_source

    check_out_dir(out, scenario_file)  # before any work: a bad --out costs nothing
    secrets = {"scenario": scenario_file, "output-folder": out}
    limits = limits_from_options(sandbox_memory, sandbox_cpu, sandbox_processes, sandbox_file_size)
    book = reading_book(readings)
    with contextlib.ExitStack() as model_server:
        served = start_model_server(
            model_server, model_cmd, agent=agent, base_url=base_url, secrets=secrets, limits=limits
        )
        loaded, _ = agent_source(
            agent=agent,
            agent_cmd=agent_cmd,
            agent_url=agent_url,
            secrets=secrets,
            timeout_sec=agent_timeout,
            limits=limits,
            base_url=base_url,
            agent_protocol=agent_protocol.value,
            model_server=served,
            request_settings=request_settings,
        )
        scenario, session = start_session(scenario_file, scenario_id, book)
        outcome = run_agent(
            session,
            loaded.factory(),
            max_tool_calls=max_tool_calls,
            isolation=dict(loaded.isolation),
        )
    verdict = write_run(
        out, scenario, scenario_file, outcome.evidence, book, reading=reading.reading
    )
    ending = outcome.ending if not outcome.detail else f"{outcome.ending}: {outcome.detail}"
    # The detail quotes the agent's exception, which is data: escaped, so the summary stays one
    # line and the terminal acts on none of it.
    typer.echo(
        f"{shown(scenario.id)}: {verdict_line(verdict)} "
        f"({len(outcome.evidence.actions)} tool calls; {shown(ending)}) -> {shown(out)}"
    )
    if outcome.signum is not None:
        raise typer.Exit(128 + outcome.signum)
    if outcome.ending == "provider_failure":
        raise typer.Exit(EXIT_PROVIDER_FAILURE)


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
    max_tool_calls: _MaxToolCalls = 200,
    agent_name: AgentNameOption = None,
    agent_version: AgentVersionOption = None,
    force: ForceOption = False,
    per_session: PerSessionOption = False,
) -> None:
    """Serve the simulator's tools over MCP (stdio) to any MCP-capable agent.

    The agent ends the run with the submit_answer tool; evidence and verdict are written then,
    or when the client disconnects (with no final answer). Only MCP protocol goes to stdout.
    """
    import signal

    import anyio

    from provebench._errors import ProvebenchError
    from provebench._paths import claim_session_dir
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
    # A host that stops the server with SIGTERM instead of closing stdin still gets its evidence.
    signal.signal(signal.SIGTERM, _exit_on_signal)
    try:
        anyio.run(serve_stdio, run)
    finally:
        run.finish()  # the client went away without an answer: no final answer (SI §2.3)


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


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def register(app: typer.Typer) -> None:
    """Add the run and serve commands to the `si` command group."""
    app.command("run")(run_command)
    app.command("serve")(serve_command)
    app.command("task")(task_command)
