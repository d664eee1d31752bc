"""`provebench pilot …`: pilot 03, call import."""

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from provebench._errors import shown
from provebench._session_options import (
    AgentNameOption,
    AgentVersionOption,
    ForceOption,
    PerSessionOption,
)
from provebench.llm._endpoint import RequestSettings
from provebench.llm._options import (
    PILOT_REQUEST_SETTINGS,
    BaseUrlOption,
    ModelCmdOption,
    request_options,
)
from provebench.pilot._limits import (
    MAX_COUNT,
    MAX_CYCLES,
    MAX_PAGE_SIZE,
    MAX_PORT,
    MAX_SEED,
    MAX_WORKERS,
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

pilot_app = typer.Typer(
    help="Pilot 03 (call import): laboratory, runner, evaluator.", no_args_is_help=True
)


class _ProfileChoice(StrEnum):
    public = "public"
    control = "control"


_SIZE_HELP = "Override the profile's size (control refuses values below pilot §11)."
# Every number has a range (pilot/_limits.py), checked before anything is written.
_Size = Annotated[int | None, typer.Option(help=_SIZE_HELP, min=0, max=MAX_COUNT)]
_Seed = Annotated[
    int, typer.Option("--seed", help="Corpus seed: same seed, same bytes.", min=0, max=MAX_SEED)
]


@pilot_app.command("generate")
def generate_command(
    seed: _Seed,
    out: Annotated[Path, typer.Option("--out", help="New (or empty) directory for the corpus.")],
    profile: Annotated[
        _ProfileChoice,
        typer.Option("--profile", help="public: development corpus; control: pilot §11 sizes."),
    ] = _ProfileChoice.public,
    zone: Annotated[
        list[str] | None,
        typer.Option("--zone", help="IANA zone of each run version, in order (repeat, ≥ 2)."),
    ] = None,
    page_size: Annotated[
        int | None, typer.Option("--page-size", help="Base page size.", min=1, max=MAX_PAGE_SIZE)
    ] = None,
    cycles: Annotated[int | None, typer.Option(help=_SIZE_HELP, min=1, max=MAX_CYCLES)] = None,
    file_events: _Size = None,
    admissible_files: _Size = None,
    repeated_events: _Size = None,
    renames_moves: _Size = None,
    corrupted_unsupported: _Size = None,
    temporary_failures: _Size = None,
    adversarial_items: _Size = None,
    same_name_files: _Size = None,
    added_during_scan: _Size = None,
    nonconforming_names: _Size = None,
    unmapped_managers: _Size = None,
    boundary_time_files: _Size = None,
) -> None:
    """Generate a seeded call-import corpus (drive events, expected rows, contract, manifest)."""
    from provebench.pilot.corpus._folder import write_corpus
    from provebench.pilot.corpus._profiles import corpus_config

    overrides = {
        "cycles": cycles,
        "file_events": file_events,
        "admissible_files": admissible_files,
        "repeated_events": repeated_events,
        "renames_moves": renames_moves,
        "corrupted_unsupported": corrupted_unsupported,
        "temporary_failures": temporary_failures,
        "adversarial_items": adversarial_items,
        "same_name_files": same_name_files,
        "added_during_scan": added_during_scan,
        "nonconforming_names": nonconforming_names,
        "unmapped_managers": unmapped_managers,
        "boundary_time_files": boundary_time_files,
    }
    config = corpus_config(
        seed=seed,
        profile=profile.value,
        overrides={name: value for name, value in overrides.items() if value is not None},
        zones=tuple(zone) if zone else None,
        page_size=page_size,
    )
    counts = write_corpus(config, out).counts
    kinds = " ".join(f"{kind}={count}" for kind, count in counts.by_kind.items())
    typer.echo(
        f"{shown(out)}: seed={seed} profile={profile.value} events={counts.events} "
        f"admissible={counts.admissible_files} refused={counts.refused_files} | {kinds}"
    )


@pilot_app.command("run")
@request_options
def run_command(
    corpus: Annotated[Path, typer.Option("--corpus", help="A corpus directory (pilot generate).")],
    out: Annotated[
        Path, typer.Option("--out", help="Run directory: new, or the same run to resume it.")
    ],
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent",
            help="reference | noop | openai:MODEL (a model behind an OpenAI-compatible "
            "endpoint, --base-url, or its own server started sealed, --model-cmd) | "
            "module:Class | path.py:Class",
        ),
    ] = None,
    agent_cmd: Annotated[
        str | None,
        typer.Option(
            "--agent-cmd",
            help="An external importer command, run once per cycle against the Drive v3 / "
            "Sheets v4 emulator (docs/pilot-emulator.md).",
        ),
    ] = None,
    cycle_timeout: Annotated[
        str,
        typer.Option(
            "--cycle-timeout",
            metavar="SECONDS",
            help="Time limit of one importer cycle, in seconds; a timeout is the cycle's "
            "agent_error (docs/pilot-lab.md, 'Time limit per cycle').",
        ),
    ] = "600",
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress output.")] = False,
    base_url: BaseUrlOption = None,
    request_settings: RequestSettings = PILOT_REQUEST_SETTINGS,  # the request options
    model_cmd: ModelCmdOption = None,
    sandbox_memory: MemoryOption = DEFAULT_MEMORY_MIB,
    sandbox_cpu: CpuOption = DEFAULT_CPU_SEC,
    sandbox_processes: ProcessesOption = DEFAULT_PROCESSES,
    sandbox_file_size: FileSizeOption = DEFAULT_FILE_SIZE_MIB,
    from_seal: Annotated[
        Path | None,
        typer.Option(
            "--from-seal",
            metavar="SEAL",
            help="Run the candidate of a seal (pilot seal) from the seal's read-only copy of "
            "its code, checked first (docs/attestation.md); --agent/--agent-cmd may be left out.",
        ),
    ] = None,
) -> None:
    """Run an importer in the laboratory, cycle by cycle; resume the same command after a crash.

    An importer provebench did not ship runs sealed in the sandbox, within the --sandbox-*
    limits (docs/sandbox.md)."""
    from provebench._errors import ProvebenchError
    from provebench._paths import check_output_dir
    from provebench.llm._model_cmd import check_model_cmd
    from provebench.pilot.lab._progress import progress_for_stderr
    from provebench.pilot.lab._runner import cycle_timeout as checked_timeout
    from provebench.pilot.lab._runner import run_lab

    # Parsed here rather than by the option's type: a bad value is a one-line ProvebenchError.
    timeout_sec = checked_timeout(cycle_timeout)
    # Before the corpus is read: a bad --out costs nothing. Never inside the corpus, whose
    # manifest would no longer match (and a later evaluation refuses such a run folder).
    check_output_dir(out, inputs=[corpus] if from_seal is None else [corpus, from_seal])
    sealed = None
    if from_seal is not None:  # checked, copy and all, before anything runs
        from provebench.attest import load_trusted_key
        from provebench.pilot._seal import sealed_code

        sealed = sealed_code(from_seal, load_trusted_key(None))
        if agent is None and agent_cmd is None:
            if sealed.spec.startswith("cmd:"):
                agent_cmd = sealed.spec.removeprefix("cmd:")
            else:
                agent = sealed.spec
    # Before the corpus is read: --model-cmd goes with --agent openai:MODEL alone.
    check_model_cmd(model_cmd is not None, agent=agent, base_url=base_url)
    progress = None if quiet else progress_for_stderr()
    limits = limits_from_options(sandbox_memory, sandbox_cpu, sandbox_processes, sandbox_file_size)
    if agent_cmd is not None and agent is None:
        from provebench.llm import check_base_url
        from provebench.pilot.emulator._commands import run_with_command

        check_base_url(None, base_url)
        outcome = run_with_command(
            corpus,
            agent_cmd,
            out,
            progress=progress,
            timeout_sec=timeout_sec,
            limits=limits,
            sealed=sealed,
        )
    elif agent is not None and agent_cmd is None:
        outcome = run_lab(
            corpus,
            agent,
            out,
            progress=progress,
            cycle_timeout_sec=timeout_sec,
            limits=limits,
            base_url=base_url,
            model_cmd=model_cmd,
            sealed=sealed,
            request_settings=request_settings,
        )
    else:
        raise ProvebenchError("give exactly one of --agent and --agent-cmd", field="--agent")
    if outcome.already_complete:
        typer.echo(f"{shown(out)}: already complete (run.json present); nothing to do")
        return
    typer.echo(
        f"{shown(out)}: {outcome.cycles} cycles, {outcome.register_rows} confirmed rows"
        f"{' (resumed)' if outcome.resumed else ''}{outcome.agent_errors_said()}; see run.json"
    )


@pilot_app.command("serve")
def serve_command(
    corpus: Annotated[Path, typer.Option("--corpus", help="A corpus directory (pilot generate).")],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Run directory (default: a new temporary directory; required with --mcp).",
        ),
    ] = None,
    port: Annotated[
        int, typer.Option("--port", help="Port on 127.0.0.1 (0: any free).", min=0, max=MAX_PORT)
    ] = 0,
    host: Annotated[
        str, typer.Option("--host", help="Bind address: 127.0.0.1 only (others are refused).")
    ] = "127.0.0.1",
    mcp: Annotated[
        bool,
        typer.Option(
            "--mcp",
            help="Serve the laboratory's tools over MCP on stdin/stdout instead of Google's "
            "HTTP APIs (docs/pilot-lab.md).",
        ),
    ] = False,
    agent_name: AgentNameOption = None,
    agent_version: AgentVersionOption = None,
    force: ForceOption = False,
    per_session: PerSessionOption = False,
) -> None:
    """Serve the laboratory a cycle at a time: as Google Drive v3 / Sheets v4 on 127.0.0.1, or
    with --mcp as tools for an MCP client.

    HTTP: prints the environment an importer needs; POST /provebench/v1/cycle:finish ends a cycle.
    SIGINT/SIGTERM stop cleanly (the open cycle is not committed; rerun with --out to resume).
    MCP: the agent's finish_cycle tool ends a cycle; only MCP protocol goes to stdout.
    """
    import sys

    from provebench._errors import ProvebenchError
    from provebench._paths import check_output_dir
    from provebench.pilot.emulator._commands import serve_lab
    from provebench.pilot.emulator._lab_run import EmulatedLab
    from provebench.sandbox._private import working_folder

    if mcp:
        _serve_mcp(corpus, out, agent_name, agent_version, force=force, per_session=per_session)
        return
    for name, given in (
        ("--agent-name", agent_name is not None),
        ("--agent-version", agent_version is not None),
        ("--force", force),
        ("--per-session", per_session),
    ):
        if given:
            raise ProvebenchError("applies to --mcp only", field=name)
    if out is not None:
        check_output_dir(out, inputs=[corpus])
    run_dir = out if out is not None else working_folder("serve")

    def announce(lab: EmulatedLab) -> None:
        typer.echo(
            f"# provebench lab emulator on {lab.server.base_url}; run directory {shown(run_dir)}"
        )
        for name, value in lab.client_environment().items():
            typer.echo(f"export {name}='{value}'")
        sys.stdout.flush()

    outcome = serve_lab(corpus, run_dir, port=port, host=host, on_ready=announce)
    if outcome is None:
        typer.echo(f"# stopped; committed cycles are kept in {shown(run_dir)}")
    else:
        typer.echo(
            f"# {shown(run_dir)}: {outcome.cycles} cycles, {outcome.register_rows} confirmed rows"
            f"{outcome.agent_errors_said()}"
        )


def _serve_mcp(
    corpus: Path,
    out: Path | None,
    agent_name: str | None,
    agent_version: str | None,
    *,
    force: bool,
    per_session: bool,
) -> None:
    """`pilot serve --mcp`: stdout is the protocol's; what the operator reads goes to stderr."""
    import anyio

    from provebench._errors import ProvebenchError
    from provebench._paths import claim_session_dir
    from provebench._session_options import check_identity_options
    from provebench._signals import ExitOnSignal, stopped_by_signals
    from provebench.pilot.agents._mcp_serve import PilotServe, serve_stdio
    from provebench.pilot.corpus._folder import read_agent_contract
    from provebench.pilot.lab._runner import open_corpus

    if out is None:
        raise ProvebenchError("is required with --mcp (stdout carries the protocol)", field="--out")
    check_identity_options(agent_name, agent_version)
    lab_corpus = open_corpus(corpus)
    run_dir = claim_session_dir(out, force=force, per_session=per_session, inputs=[corpus])
    serve = PilotServe(lab_corpus, run_dir, read_agent_contract(corpus))
    if agent_name is not None:
        serve.identity.declare(agent_name, agent_version)

    # A host that stops the server with SIGTERM or Ctrl-C instead of closing stdin (exit 143 or
    # 130, even where SIGINT was inherited ignored: `_signals`): the open cycle is not
    # committed, the committed ones are kept (the same command with --force resumes).
    stopper = ExitOnSignal()
    try:
        with stopped_by_signals(stopper):
            anyio.run(serve_stdio, serve)
    finally:
        try:
            serve.close()
        finally:
            stopper.exit_if_stopped()
    desk = serve.desk
    if desk.failure is not None:
        raise ProvebenchError(desk.failure, path=run_dir)
    if desk.outcome is not None:
        said = f"{desk.outcome.cycles} cycles, {desk.outcome.register_rows} confirmed rows"
    elif serve.thread is None:
        said = "the client called no tool; nothing ran"
    else:
        said = "stopped before the last cycle; committed cycles are kept (--force resumes)"
    typer.echo(f"# {shown(run_dir)}: {said}", err=True)


@pilot_app.command("score-final")
def score_final_command(
    expected: Annotated[
        Path | None, typer.Argument(help="Expected final rows (CSV).", show_default=False)
    ] = None,
    candidate: Annotated[
        Path | None, typer.Argument(help="Candidate final rows (CSV).", show_default=False)
    ] = None,
    selftest: Annotated[
        bool,
        typer.Option("--selftest", help="Score the scorer's self-test sets (pilot §10) instead."),
    ] = False,
    sets: Annotated[
        Path | None,
        typer.Option("--sets", help="With --selftest: a directory of sets (default: shipped)."),
    ] = None,
) -> None:
    """Final-state scorer (pilot §7): the published score_final_state.py JSON, byte for byte.

    Exit 0 whenever a score is printed (read scorer_pass), 2 for bad input; with --selftest,
    1 when a set does not score as its reason.json documents.
    """
    import sys

    from provebench._errors import ProvebenchError

    if selftest:
        if expected is not None:
            raise ProvebenchError("--selftest takes no files")
        from provebench.pilot.score_final._selftest import (
            SELFTEST_ROOT,
            run_selftest,
            selftest_table,
        )

        results = run_selftest(SELFTEST_ROOT if sets is None else sets)
        sys.stdout.write(selftest_table(results))
        raise typer.Exit(0 if all(result.agrees for result in results) else 1)
    if sets is not None:
        raise ProvebenchError("--sets is only for --selftest")
    if expected is None or candidate is None:
        raise ProvebenchError("usage: provebench pilot score-final EXPECTED.csv CANDIDATE.csv")
    from provebench.pilot.score_final._score import print_final_score

    print_final_score(str(expected), str(candidate))


@pilot_app.command("evaluate")
def evaluate_command(
    run_dir: Annotated[Path, typer.Argument(help="A finished run directory (pilot run --out).")],
    corpus: Annotated[
        Path, typer.Option("--corpus", help="The corpus directory the run was made on.")
    ],
    external_checks: Annotated[
        Path | None,
        typer.Option(
            "--external-checks",
            help="external_checks_template.json filled in with outcomes and evidence.",
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Where to write the verdict (RUNDIR/verdict.json).")
    ] = None,
    explain: Annotated[
        bool, typer.Option("--explain", help="Print a readable summary of the verdict.")
    ] = False,
    trust_key: Annotated[
        Path | None,
        typer.Option(
            "--trust-key",
            help="The public key (PEM, Ed25519) the run must be signed with "
            "(default: this machine's laboratory key; docs/attestation.md).",
        ),
    ] = None,
    red_team: Annotated[
        Path | None,
        typer.Option(
            "--red-team",
            help="A signed red-team report (the folder of pilot redteam, or its "
            "redteam.dsse.json): evidence for pilot_pass.",
        ),
    ] = None,
    fresh_control: Annotated[
        Path | None,
        typer.Option(
            "--fresh-control",
            help="A seal folder (pilot seal): the sealed fresh control, evidence for pilot_pass.",
        ),
    ] = None,
) -> None:
    """Evaluate a laboratory run → verdict.json + verdict.dsse.json (docs/pilot-evaluator.md).

    Exit 0: laboratory_pass (scorer_pass, every metric 1.0, no critical violation or stopping
    condition, the §12 probe in every cycle); 1: evaluated and failed; 2: configuration error
    (the verdict lists it) or unreadable input.
    """
    from provebench._errors import ProvebenchError
    from provebench.pilot.evaluate import VERDICT_FILE, evaluate_run, exit_code, write_verdict
    from provebench.pilot.evaluate._core import configuration_error_line
    from provebench.pilot.record._rundir import IDENTITY_FILE, RUN_RECORD_FILE

    if not any((run_dir / name).is_file() for name in (IDENTITY_FILE, RUN_RECORD_FILE)):
        # Not even an incomplete run: write nothing into a folder that is not ours.
        raise ProvebenchError(
            f"not a pilot run directory (no {IDENTITY_FILE} or {RUN_RECORD_FILE})",
            path=run_dir,
            field="RUNDIR",
        )
    target = out if out is not None else run_dir / VERDICT_FILE
    _check_verdict_target(target, run_dir, corpus, external_checks)
    # A verdict already there answers for the run as it was then: it must not outlive an
    # evaluation of the run as it is now that stops on unreadable input (fail closed).
    from provebench.attest import envelope_path_for, load_trusted_key

    target.unlink(missing_ok=True)
    envelope_path_for(target).unlink(missing_ok=True)
    trusted = load_trusted_key(trust_key)
    # The bytes judged are held in this process's memory (docs/pilot-evaluator.md): not
    # dumpable, no process of the same user may trace it or read or write that memory through
    # /proc (red team round 12; root, or a kernel that allows it, still can: the trust boundary).
    from provebench.sandbox import protect_laboratory

    protect_laboratory()
    verdict = evaluate_run(
        run_dir,
        corpus,
        external_checks=external_checks,
        trusted_key=trusted,
        red_team=red_team,
        fresh_control=fresh_control,
    )
    write_verdict(verdict, target)
    error_line = configuration_error_line(verdict, run_dir, target)
    if error_line is not None:  # one line; verdict.json lists every error
        typer.echo(shown(error_line), err=True)
    if explain:
        from rich.console import Console

        from provebench.pilot.evaluate._explain import explain as explain_verdict

        explain_verdict(verdict, Console(highlight=False, markup=False, soft_wrap=True))
    elif error_line is None:  # a configuration error prints only the error: no numbers beside it
        pilot = "null" if verdict.pilot_pass is None else str(verdict.pilot_pass).lower()
        typer.echo(
            f"{shown(target)}: {verdict.status} scorer_pass={str(verdict.scorer_pass).lower()} "
            f"laboratory_pass={str(verdict.laboratory_pass).lower()} pilot_pass={pilot} "
            f"critical_violations={verdict.critical_violation_count}"
        )
    raise typer.Exit(exit_code(verdict))


@pilot_app.command("compare")
def compare_command(
    laboratory: Annotated[
        Path, typer.Argument(help="The candidate's laboratory verdict.json (pilot evaluate).")
    ],
    shadow: Annotated[
        Path, typer.Argument(help="The same candidate's shadow verdict.json (a shadow run's).")
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Where to write comparison.json (beside SHADOW_VERDICT)."),
    ] = None,
    trust_key: Annotated[
        Path | None,
        typer.Option(
            "--trust-key",
            help="The public key (PEM) both verdicts must be signed with (default: this "
            "machine's laboratory key).",
        ),
    ] = None,
) -> None:
    """Laboratory versus shadow, metric by metric and by critical violation (pilot §15).

    Exit 0: no material discrepancy (lab-shadow-material/1); 1: material, the §15 stopping
    condition is triggered and the pilot stops; 2: bad input (an unsigned or unevaluated
    verdict, two different candidates, not one laboratory and one shadow verdict).
    """
    from provebench.attest import load_trusted_key
    from provebench.pilot.evaluate._compare import compare_verdicts, write_comparison

    target = out if out is not None else shadow.parent / "comparison.json"
    comparison = compare_verdicts(laboratory, shadow, load_trusted_key(trust_key))
    write_comparison(comparison, target)
    for metric in comparison.metrics:
        mark = "  MATERIAL" if metric.material else ""
        typer.echo(
            f"  {metric.metric:<18} lab {metric.laboratory:.4f}  shadow {metric.shadow:.4f}"
            f"  diff {metric.difference:+.4f}{mark}"
        )
    # Every text that comes from a verdict passes the one escape set, as `--explain` does
    # (pilot red team 35, A4): a kind is read from a file.
    for violation in comparison.critical_violations:
        mark = "  MATERIAL" if violation.material else ""
        typer.echo(
            f"  violation {shown(violation.kind)}: lab {violation.laboratory}, shadow "
            f"{violation.shadow}{mark}"
        )
    said = "; ".join(comparison.reasons) if comparison.reasons else "no material discrepancy"
    typer.echo(
        f"{shown(target)}: {comparison.rule} stopping_condition={comparison.stopping_condition}"
        f" ({shown(said)})"
    )
    raise typer.Exit(1 if comparison.material else 0)


def _check_verdict_target(
    target: Path, run_dir: Path, corpus: Path, external_checks: Path | None
) -> None:
    """Before any work: the verdict's path can be written and replaces none of the inputs.

    Inside the run folder only RUNDIR/verdict.json is the evaluator's own; any other path there
    (run.json, the log, the register) or in the corpus is an input it must not overwrite.
    """
    from provebench._paths import check_output_file
    from provebench.pilot.evaluate import VERDICT_FILE

    inputs = [corpus] if external_checks is None else [corpus, external_checks]
    if target.resolve() != (run_dir / VERDICT_FILE).resolve():
        inputs.append(run_dir)
    check_output_file(target, inputs=inputs)


@pilot_app.command("seal")
def seal_command(
    out: Annotated[Path, typer.Option("--out", help="New (or empty) folder for the seal.")],
    agent: Annotated[
        str | None,
        typer.Option("--agent", help="The candidate: reference | module:Class | path.py:Class"),
    ] = None,
    agent_cmd: Annotated[
        str | None, typer.Option("--agent-cmd", help="The candidate: an external command.")
    ] = None,
    profile: Annotated[
        _ProfileChoice,
        typer.Option(
            "--profile",
            help="The control corpus's profile: control (pilot §11 sizes); public is refused.",
        ),
    ] = _ProfileChoice.control,
) -> None:
    """Fix the candidate, then commit to a fresh control seed (pilot §11; docs/attestation.md).

    Copies every byte the sandbox shows of the candidate's code into the seal, read-only, and
    records its spec and the copy's sha256; then draws a seed from the OS's secure random
    source and signs a commitment to it. Next: pilot control, pilot run --from-seal, pilot
    evaluate --fresh-control, pilot reveal."""
    from provebench.pilot._seal import candidate_identity, seal_candidate

    candidate = candidate_identity(agent, agent_cmd)
    sealed = seal_candidate(out, candidate, profile.value)
    identity = sealed["candidate"]
    typer.echo(
        f"{shown(out)}: sealed {shown(identity['spec'])} (code {identity['code_sha256'][:16]}); "
        f"commitment {sealed['commitment'][:16]}"
    )


@pilot_app.command("control")
def control_command(
    seal: Annotated[Path, typer.Argument(help="A seal folder (pilot seal).")],
    out: Annotated[Path, typer.Option("--out", help="New (or empty) folder for the corpus.")],
    trust_key: Annotated[
        Path | None, typer.Option("--trust-key", help="The seal's signer (default: this lab).")
    ] = None,
) -> None:
    """Generate the sealed fresh control corpus from the seal's secret seed, and sign its
    manifest sha256 into the seal (control.json): that corpus alone is the control."""
    from provebench.attest import load_trusted_key
    from provebench.pilot._seal import generate_control

    info = generate_control(seal, out, load_trusted_key(trust_key))
    typer.echo(f"{shown(out)}: control corpus, {info.counts.events} events")


@pilot_app.command("reveal")
def reveal_command(
    seal: Annotated[Path, typer.Argument(help="A seal folder (pilot seal).")],
    verdict: Annotated[
        Path, typer.Option("--verdict", help="The control run's signed verdict.json.")
    ],
    trust_key: Annotated[
        Path | None, typer.Option("--trust-key", help="The signer (default: this lab).")
    ] = None,
) -> None:
    """Publish the sealed seed with the control run's result, signed (pilot §16). A second
    reveal from this seal folder is refused, and after a reveal only the revealed run counts on
    the control corpus; a reveal is final only once published (docs/attestation.md)."""
    from provebench.attest import load_trusted_key
    from provebench.pilot._seal import reveal
    from provebench.pilot.record._seal import REVEAL_FILE

    revealed = reveal(seal, verdict, load_trusted_key(trust_key))
    passed = str(revealed["control"]["laboratory_pass"]).lower()
    typer.echo(
        f"{shown(seal / REVEAL_FILE)}: seed {revealed['seed']}, control laboratory_pass={passed}"
    )


class _BudgetChoice(StrEnum):
    ci = "ci"
    full = "full"


@pilot_app.command("redteam")
def redteam_command(
    seed: _Seed = 0,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="New (or empty) folder for corpora, runs and redteam.json."),
    ] = None,
    budget: Annotated[
        _BudgetChoice,
        typer.Option("--budget", help="full: the pilot §14 minimum budget; ci: one small corpus."),
    ] = _BudgetChoice.full,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", help="Worker processes (default: up to 2).", min=1, max=MAX_WORKERS
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress output.")] = False,
) -> None:
    """Red team (pilot §14): every attack as a defective importer, judged by the evaluator.

    Exit 0: every attack exercised (its situation arose in the run) and caught (no
    laboratory_pass, no escrow released, no scorer_pass for a final-state defect), the reference
    importer clean, and at the full budget (the default) the §14 minimum met; 1 otherwise; 2 for
    bad input. docs/pilot-redteam.md.
    """
    import sys

    from rich.console import Console

    from provebench.pilot.lab._progress import redteam_progress_for_stderr
    from provebench.pilot.redteam import REPORT_FILE, run_redteam
    from provebench.pilot.redteam._table import print_report
    from provebench.sandbox._private import working_folder

    target = out if out is not None else working_folder("redteam")
    progress = None if quiet else redteam_progress_for_stderr()
    report = run_redteam(target, seed=seed, level=budget.value, workers=workers, progress=progress)
    width = None if sys.stdout.isatty() else 160  # a file or a pipe gets the whole table
    print_report(report, Console(highlight=False, markup=False, soft_wrap=False, width=width))
    typer.echo(f"{shown(target / REPORT_FILE)}: {'passed' if report.passed else 'FAILED'}")
    raise typer.Exit(0 if report.passed else 1)


# The shadow level (docs/pilot-shadow.md): its commands live with it.
from provebench.pilot.shadow._cli import register as _register_shadow  # noqa: E402

_register_shadow(pilot_app)

# The publication bundle (pilot §16).
from provebench.pilot.publish._cli import register as _register_publish  # noqa: E402

_register_publish(pilot_app)

# Matrix runs (docs/matrix.md).
from provebench.pilot.matrix._cli import register as _register_matrix  # noqa: E402

_register_matrix(pilot_app)
