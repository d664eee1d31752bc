"""`provebench si run`: one agent, one scenario, in the simulator or at an OASIS provider.

The command lives above both the agents and the provider client (tests/test_dependency_rules):
without `--provider` it runs the simulator in process, as it always has; with it, the
environment is an OASIS provider's (`provebench.si.provider`, docs/si-provider.md).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

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
    KubectlOption,
    ProviderOption,
    ProviderTimeoutOption,
    ReadingsOption,
    RequireDiagnosisOption,
    ScenarioFileArgument,
    ScenarioIdOption,
    ScoreReading,
    ScoreReadingOption,
    checked_require_diagnosis,
    reading_book,
)
from provebench.si.agents._run_cli import MaxToolCallsOption
from provebench.si.provider._limits import DEFAULT_TIMEOUT_SEC

if TYPE_CHECKING:
    from provebench.si.provider._runner import ProviderRun
    from provebench.si.scenario._scenario import Scenario


@dataclass(frozen=True)
class _Accepted:
    scenario: Scenario
    provider: ProviderRun


def preflight_one(
    scenario_file: Path, scenario_id: str | None, url: str, timeout_sec: float
) -> _Accepted:
    """The scenario, and the provider accepted for it at its tier (a gap: one line, exit 2)."""
    from provebench.si.provider._client import ProviderClient, provider_url
    from provebench.si.provider._preflight import preflight
    from provebench.si.provider._runner import ProviderRun
    from provebench.si.scenario._validate import load_scenarios
    from provebench.si.scoring._score import select_scenario

    client = ProviderClient(provider_url(url), timeout_sec)
    scenario = select_scenario(load_scenarios(scenario_file), scenario_id, path=str(scenario_file))
    return _Accepted(scenario, ProviderRun(client, preflight(client, [scenario], scenario.tier)))


@request_options
def run_command(
    scenario_file: ScenarioFileArgument,
    out: Annotated[Path, typer.Option("--out", help="Folder for evidence and verdict.")],
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent",
            help="A scripted agent's name (diagnoser, locus-only, quotation-gamer, "
            "budget-exhauster, decoy-chaser, noop, safe-operator, obedient, kubectl-operator), "
            "openai:MODEL (a "
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
    require_diagnosis: RequireDiagnosisOption = False,
    max_tool_calls: MaxToolCallsOption = 200,
    sandbox_memory: MemoryOption = DEFAULT_MEMORY_MIB,
    sandbox_cpu: CpuOption = DEFAULT_CPU_SEC,
    sandbox_processes: ProcessesOption = DEFAULT_PROCESSES,
    sandbox_file_size: FileSizeOption = DEFAULT_FILE_SIZE_MIB,
    provider: ProviderOption = None,
    provider_timeout: ProviderTimeoutOption = DEFAULT_TIMEOUT_SEC,
    kubectl: KubectlOption = False,
) -> None:
    """Run an agent in the simulator; write evidence.json, evidence.oasis.json, verdict.json.

    Same scenario and agent, same bytes. With --provider URL the environment is provisioned by
    that OASIS provider after its preflight (docs/si-provider.md). Bad input, or a provider
    that does not meet the scenario's needs, is one line on stderr, exit 2; a provider failure
    (the harness's fault, Core §3.7) exits 3; a run stopped by SIGINT or SIGTERM is written,
    then exits 130 or 143.
    """
    from provebench._errors import shown
    from provebench.llm._model_cmd import start_model_server
    from provebench.si.agents._run import (
        EXIT_PROVIDER_FAILURE,
        check_out_dir,
        is_provider_failure,
        run_agent,
        start_session,
        verdict_line,
        write_run,
    )
    from provebench.si.agents._sources import agent_source, hidden_from_candidate
    from provebench.si.provider._runner import run_on_provider

    check_out_dir(out, scenario_file)  # before any work: a bad --out costs nothing
    if kubectl:
        from provebench.si.provider._kubectl import require_kubectl

        require_kubectl()  # one line when kubectl is absent, before anything starts
    required = checked_require_diagnosis(require_diagnosis, reading)
    # The preflight handshake comes before any agent or model server starts (08 §3.8.3).
    accepted = (
        None
        if provider is None
        else preflight_one(scenario_file, scenario_id, provider, provider_timeout)
    )
    secrets = hidden_from_candidate(
        [scenario_file], out, readings=[] if readings is None else [readings]
    )
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
        if accepted is None:
            scenario, session = start_session(scenario_file, scenario_id, book)
            if kubectl:
                from provebench.si.provider._kubectl_session import with_kubectl

                session = model_server.enter_context(with_kubectl(session))
            outcome = run_agent(
                session,
                loaded.factory(),
                max_tool_calls=max_tool_calls,
                isolation=dict(loaded.isolation),
            )
        else:
            scenario = accepted.scenario
            ran = run_on_provider(
                accepted.provider,
                scenario,
                scenario.tier,
                loaded.factory,
                max_tool_calls=max_tool_calls,
                isolation=dict(loaded.isolation),
                kubectl=kubectl,
            )
            outcome = ran.outcome
            if ran.teardown_problem is not None:
                typer.echo(f"warning: teardown failed: {shown(ran.teardown_problem)}", err=True)
    verdict = write_run(
        out,
        scenario,
        scenario_file,
        outcome.evidence,
        book,
        reading=reading.reading,
        require_diagnosis=required,
        code_sha256=str(getattr(loaded, "code_sha256", "")),
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
    if outcome.ending == "provider_failure" or is_provider_failure(verdict):
        raise typer.Exit(EXIT_PROVIDER_FAILURE)


def register(app: typer.Typer) -> None:
    """Add the run command to the `si` command group."""
    app.command("run")(run_command)
