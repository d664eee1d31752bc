"""`provebench si suite`: evaluate one agent on a whole profile (docs/si-suite.md)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Annotated, Any

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
    ScoreReading,
    ScoreReadingOption,
    checked_require_diagnosis,
    reading_book,
)
from provebench.si.provider._limits import DEFAULT_TIMEOUT_SEC


def parse_configuration(items: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` options as the agent's configuration (Scenarios §1.9): true/false are
    booleans, digits integers, anything else text."""
    from provebench._errors import ProvebenchError

    configuration: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise ProvebenchError(f"{item!r} is not KEY=VALUE", field="--configuration")
        value: Any = raw
        if raw in ("true", "false"):
            value = raw == "true"
        elif raw.isdigit():
            value = int(raw)
        configuration[key.strip()] = value
    return configuration


@request_options
def suite_command(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Scenario files, or folders searched recursively for *.yaml / *.yml."),
    ],
    out: Annotated[Path, typer.Option("--out", help="The run folder (resumable).")],
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent",
            help="A scripted agent's name (safe-operator, obedient, …), openai:MODEL (a model "
            "behind an OpenAI-compatible endpoint, --base-url), module:Class or path.py:Class "
            "(run sealed in the sandbox).",
        ),
    ] = None,
    agent_cmd: Annotated[
        str | None,
        typer.Option("--agent-cmd", help="A program speaking the SI agent protocol, sealed."),
    ] = None,
    agent_protocol: AgentProtocolOption = AgentProtocol.JSON_LINES,
    model_cmd: ModelCmdOption = None,
    agent_url: Annotated[
        str | None,
        typer.Option("--agent-url", help="An agent served over the OASIS HTTP contract."),
    ] = None,
    from_evidence: Annotated[
        Path | None,
        typer.Option(
            "--from-evidence",
            metavar="RUN_DIR",
            help="Re-score RUN_DIR/scenarios/<id>/evidence.json instead of running an agent.",
        ),
    ] = None,
    category: Annotated[
        list[str] | None, typer.Option("--category", help="Only this category (repeatable).")
    ] = None,
    scenario: Annotated[
        list[str] | None, typer.Option("--scenario", help="Only this scenario id (repeatable).")
    ] = None,
    safety_only: Annotated[
        bool, typer.Option("--safety-only", help="Run the safety gate only.")
    ] = False,
    tier: Annotated[
        int,
        typer.Option("--tier", min=1, max=3, help="Complexity tier claimed (scenarios up to it)."),
    ] = 1,
    configuration: Annotated[
        list[str] | None,
        typer.Option(
            "--configuration",
            metavar="KEY=VALUE",
            help="The agent's configuration, for applicability (repeatable).",
        ),
    ] = None,
    readings: ReadingsOption = None,
    reading: ScoreReadingOption = ScoreReading.ratified,
    require_diagnosis: RequireDiagnosisOption = False,
    max_tool_calls: Annotated[
        int, typer.Option("--max-tool-calls", min=1, max=100_000, help="Cap per scenario.")
    ] = 200,
    agent_timeout: Annotated[
        float,
        typer.Option(
            "--agent-timeout",
            metavar="SECONDS",
            help="Wall-clock limit of one scenario's run (sealed, HTTP or openai:MODEL agents).",
            min=1,
            max=86400,
        ),
    ] = 600.0,
    base_url: BaseUrlOption = None,
    request_settings: RequestSettings = DEFAULT_REQUEST_SETTINGS,  # the request options
    sandbox_memory: MemoryOption = DEFAULT_MEMORY_MIB,
    sandbox_cpu: CpuOption = DEFAULT_CPU_SEC,
    sandbox_processes: ProcessesOption = DEFAULT_PROCESSES,
    sandbox_file_size: FileSizeOption = DEFAULT_FILE_SIZE_MIB,
    provider: ProviderOption = None,
    provider_timeout: ProviderTimeoutOption = DEFAULT_TIMEOUT_SEC,
    kubectl: KubectlOption = False,
) -> None:
    """Run every selected scenario: the safety gate first, then capability; write summary.json.

    Exit 0 when the gate passed and no scenario had a provider failure, 1 when the gate did not
    pass (FAIL or PROVIDER_FAILURE), 3 when it passed but a capability scenario had a provider
    failure (the harness's fault: rerun it) or when a --provider suite aborted on a runtime
    PROVIDER_FAILURE (no further scenario runs: Core §3.7), 2 on bad input or on a --provider
    whose preflight does not meet the selected scenarios' needs (nothing is run then).
    Re-running the same command on the same folder resumes it; a finished run gives the same
    summary bytes.
    """
    from provebench._errors import ProvebenchError
    from provebench.llm._model_cmd import start_model_server
    from provebench.si.agents._sources import agent_source, hidden_from_candidate
    from provebench.si.suite._progress import progress_for_stderr
    from provebench.si.suite._rescore import rescore, selection_record
    from provebench.si.suite._runner import SuiteRequest, run_suite
    from provebench.si.suite._select import Selected, scenario_files, select

    book = reading_book(readings)
    config = parse_configuration(configuration or [])
    if from_evidence is not None:
        # Re-scoring runs no agent and asks no provider (`_rescore`: the same road as the
        # plain `si suite PATH... --from-evidence RUN --out DIR`).
        for given, name in ((kubectl, "--kubectl"), (provider is not None, "--provider")):
            if given:
                raise ProvebenchError(
                    f"--from-evidence re-scores a recorded run: give no {name}", field=name
                )
        if any(a is not None for a in (agent, agent_cmd, agent_url, model_cmd)):
            raise ProvebenchError(
                "--from-evidence re-scores a recorded run: give no agent", field="--from-evidence"
            )
        summary = rescore(
            paths,
            from_evidence,
            out,
            categories=category or [],
            scenario_ids=scenario or [],
            safety_only=safety_only,
            tier=tier,
            configuration=config,
            readings=book,
            reading=reading.reading,
            require_diagnosis=checked_require_diagnosis(require_diagnosis, reading),
            max_tool_calls=max_tool_calls,
        )
        _finish(summary, out)
        return

    def selection(config: dict[str, Any]) -> list[Selected]:
        return select(
            paths,
            categories=category or [],
            scenario_ids=scenario or [],
            safety_only=safety_only,
            tier=tier,
            configuration=config,
            readings=book,
        )

    selected = selection(config)
    files = scenario_files(paths)
    accepted = None
    if kubectl:
        from provebench.si.provider._kubectl import require_kubectl

        require_kubectl()  # one line when kubectl is absent, before anything starts
    if provider is not None:
        from provebench.si.provider._client import ProviderClient, provider_url
        from provebench.si.provider._preflight import preflight
        from provebench.si.provider._runner import ProviderRun

        # The handshake comes first, before any agent starts (08 §3.8.3), over every selected
        # scenario: one the agent's configuration later leaves out was checked all the same.
        client = ProviderClient(provider_url(provider), provider_timeout)
        accepted = ProviderRun(client, preflight(client, [i.scenario for i in selected], tier))
    # A --model-cmd server lives as long as the suite runs.
    with contextlib.ExitStack() as model_server:
        secrets = hidden_from_candidate(files, out, readings=[] if readings is None else [readings])
        limits = limits_from_options(
            sandbox_memory, sandbox_cpu, sandbox_processes, sandbox_file_size
        )
        served = start_model_server(
            model_server,
            model_cmd,
            agent=agent,
            base_url=base_url,
            secrets=secrets,
            limits=limits,
        )
        source, reported = agent_source(
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
        if reported:  # an HTTP agent reports its configuration (Execution §1): it decides
            config = {**reported, **config}
            selected = selection(config)
        request = SuiteRequest(
            selected=selected,
            agent=source,
            selection={
                **selection_record(paths, category or [], scenario or [], safety_only, tier),
                **({} if accepted is None else {"provider": accepted.client.shown}),
                **({"kubectl": True} if kubectl else {}),
            },
            configuration=config,
            tier=tier,
            safety_only=safety_only,
            max_tool_calls=max_tool_calls,
            readings=book,
            reading=reading.reading,
            require_diagnosis=checked_require_diagnosis(require_diagnosis, reading),
            provider=accepted,
            kubectl=kubectl,
            run_bounds={"agent_timeout_sec": agent_timeout, "sandbox": limits.describe()},
        )
        summary = run_suite(request, out, progress_for_stderr())
    _finish(summary, out)


def _finish(summary: dict[str, Any], out: Path) -> None:
    """Print the suite's line; exit with its status (`_rescore.summary_line`)."""
    from provebench.si.suite._rescore import summary_line

    line, status = summary_line(summary, out)
    typer.echo(line)
    if status:
        raise typer.Exit(status)


def register(app: typer.Typer) -> None:
    app.command("suite")(suite_command)
