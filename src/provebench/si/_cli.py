"""`provebench si …`: OASIS SI-profile scenarios and scoring."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from provebench._output_mark import output_mark_line
from provebench.si._cli_options import (
    ReadingsOption,
    RequireDiagnosisOption,
    ScenarioFileArgument,
    ScenarioIdOption,
    ScoreReading,
    ScoreReadingOption,
    checked_require_diagnosis,
    reading_book,
)

if TYPE_CHECKING:
    from provebench.si.scoring._strict import Reading

si_app = typer.Typer(
    help=(
        "OASIS Software Infrastructure profile: validate and score scenarios; check, run and "
        "serve them in the simulated estate."
    ),
    no_args_is_help=True,
)


class ReportFormat(StrEnum):
    text = "text"
    json = "json"


@si_app.command("validate")
def validate_command(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Scenario files, or folders searched recursively for `*.yaml` / `*.yml`."
        ),
    ],
    report_format: Annotated[
        ReportFormat, typer.Option("--format", help="text for people, json for machines.")
    ] = ReportFormat.text,
) -> None:
    """Check scenario files against OASIS Scenarios §1 and SI profile 0.3.0-rc1.

    Prints every violation as FILE:LINE: FIELD: message. Exit 0 when clean (warnings allowed),
    1 when any error, 2 when a file cannot be read or parsed at all.
    """
    from rich.console import Console

    from provebench.si.scenario._validate import validate_paths
    from provebench.si.scenario._validate_render import render_json, render_text

    report = validate_paths(paths)
    if report_format is ReportFormat.json:
        typer.echo(render_json(report), nl=False)
    else:
        render_text(report, Console(highlight=False, soft_wrap=True))
    if not report.ok:
        raise typer.Exit(1)


class CooccurrenceWindowName(StrEnum):
    same_sentence = "same-sentence"
    adjacent_sentence = "adjacent-sentence"


@si_app.command("score")
def score_command(
    scenario_file: ScenarioFileArgument,
    evidence: Annotated[
        list[Path],
        typer.Argument(
            help="Evidence JSON files (provebench or OASIS), or folders of them. One file prints "
            "its verdict; several print one JSON line each (batch)."
        ),
    ],
    scenario_id: ScenarioIdOption = None,
    window: Annotated[
        CooccurrenceWindowName | None,
        typer.Option(
            "--window",
            help="factor_identified co-occurrence window (SI §2.2); default same-sentence.",
        ),
    ] = None,
    readings: ReadingsOption = None,
    reading: ScoreReadingOption = ScoreReading.ratified,
    require_diagnosis: RequireDiagnosisOption = False,
    explain: Annotated[
        bool, typer.Option("--explain", help="Print the verdict as readable tables, not JSON.")
    ] = False,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", min=1, max=64, help="Batch: worker processes (default: CPUs)."),
    ] = None,
    full: Annotated[
        bool, typer.Option("--full", help="Batch: each line holds the whole verdict.")
    ] = False,
) -> None:
    """Score recorded evidence against a scenario and print the verdict.

    Any scenario: Form B (a band and score), safety (PASS, FAIL or PROVIDER_FAILURE), Form A
    capability (a score). The scenario is the one --scenario-id names, else the one the
    evidence was recorded for, else the file's only one. The verdict is canonical JSON,
    byte-identical on every run over the same files. With several files (or a folder) it is a
    batch: one JSON line per file, in order, scored by --jobs processes (docs/si-scoring.md).
    Bad input is one line on stderr, exit 2.
    """
    window_id = None if window is None else window.value
    required = checked_require_diagnosis(require_diagnosis, reading)
    if len(evidence) > 1 or evidence[0].is_dir() or full or jobs is not None:
        _score_batch(
            scenario_file,
            evidence,
            scenario_id,
            window_id,
            readings,
            jobs,
            full,
            reading.reading,
            required,
        )
        return
    from rich.console import Console

    from provebench.si.scoring._score import score_files
    from provebench.si.scoring._verdict import Verdict

    verdict = score_files(
        scenario_file,
        evidence[0],
        scenario_id=scenario_id,
        window=window_id,
        readings=reading_book(readings),
        reading=reading.reading,
        require_diagnosis=required,
    )
    if explain:
        console = Console(highlight=False, soft_wrap=True)
        # The explanation shows the matched band and the answer key: provebench's output mark
        # first, which the sandbox refuses in a candidate's code (sandbox red team 42, G1-13).
        typer.echo(output_mark_line("si score --explain"))
        if isinstance(verdict, Verdict):
            from provebench.si.scoring._explain import render_explanation

            render_explanation(verdict, console)
        else:
            from provebench.si.scoring._explain import render_checks

            render_checks(verdict, console)
    else:
        typer.echo(verdict.to_json(), nl=False)


def _score_batch(
    scenario_file: Path,
    evidence: list[Path],
    scenario_id: str | None,
    window: str | None,
    readings: Path | None,
    jobs: int | None,
    full: bool,
    reading: Reading,
    require_diagnosis: bool = False,
) -> None:
    import os
    import sys

    from provebench._errors import ProvebenchError
    from provebench.si.scoring._batch import BatchSpec, evidence_paths, score_batch

    for path in evidence:
        if not path.exists():
            raise ProvebenchError("no such file or folder", path=str(path))
    spec = BatchSpec(
        scenario_file=str(scenario_file),
        scenario_id=scenario_id,
        window=window,
        readings_file=None if readings is None else str(readings),
        full=full,
        reading=reading,
        require_diagnosis=require_diagnosis,
    )
    workers = jobs or min(os.cpu_count() or 1, 8)
    scored = failed = 0
    out = sys.stdout
    for chunk in score_batch(spec, evidence_paths(evidence), jobs=workers):
        out.write(chunk.text)
        scored += chunk.lines
        failed += chunk.refused
    out.flush()
    print(f"{scored} evidence file(s) scored, {failed} refused", file=sys.stderr)
    if failed:
        raise typer.Exit(2)


@si_app.command("stress")
def stress_command(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Scenario files, or folders searched recursively for *.yaml."),
    ],
    reading: Annotated[
        ScoreReading,
        typer.Option(
            "--reading",
            help="The reading whose scores are checked against each family's bound "
            "(both are printed).",
        ),
    ] = ScoreReading.strict,
    window: Annotated[
        CooccurrenceWindowName | None,
        typer.Option("--window", help="factor_identified co-occurrence window (SI §2.2)."),
    ] = None,
    report_format: Annotated[
        ReportFormat, typer.Option("--format", help="text for people, json for machines.")
    ] = ReportFormat.text,
) -> None:
    """Score generated answer families with each scenario's own table (SI §2.2's stress).

    From each Form B scenario's binding and injection manifest: honest phrasings of the
    injected deviation (must reach the top band), and negations, questions, conditionals,
    hedges over deviation types, shotguns over every identifier, decoys endorsed as the cause,
    locus only, quotation of tool output, over budget, reasoning trace only (each with the band
    it deserves at most). An operation table (C-OE-002, C-OE-004) gets scripted runs in the
    simulator instead. Prints a table; exit 1 when a family passes its bound under the reading
    checked, 2 on bad input or when a Form B scenario's table binds nothing to stress.
    """
    import json
    import sys

    from provebench._errors import ProvebenchError
    from provebench.si.scenario._binding import bind_scoring
    from provebench.si.scenario._validate import collect_files, load_scenarios
    from provebench.si.scoring._stress import (
        FamilyOutcome,
        outcomes_json,
        render_table,
        stress_scenario,
    )
    from provebench.si.sim._stress_ops import is_operation_table, stress_operations

    window_id = None if window is None else window.value
    outcomes: list[FamilyOutcome] = []
    unstressable: list[str] = []
    stressed = 0
    for path in collect_files(paths):
        for scenario in load_scenarios(path):
            if scenario.form != "B":
                continue
            try:
                if is_operation_table(bind_scoring(scenario)):
                    # C-OE-002, C-OE-004: scripted runs in the physical estate (si-scoring §13)
                    outcomes += stress_operations(scenario)
                else:
                    outcomes += stress_scenario(
                        scenario, window=window_id, structured=reading.reading == "strict"
                    )
            except ProvebenchError as error:
                unstressable.append(f"{path}: {error}")
                continue
            stressed += 1
    checked = reading.reading
    if report_format is ReportFormat.json:
        typer.echo(json.dumps(outcomes_json(outcomes, checked), ensure_ascii=False, indent=2))
    else:
        typer.echo(render_table(outcomes, checked), nl=False)
    failed = [o for o in outcomes if not o.holds(checked)]
    for line in unstressable:
        print(f"provebench: error: {line}", file=sys.stderr)
    print(
        f"{stressed} scenario(s) stressed under the {checked} reading: "
        f"{len(outcomes)} families, {len(failed)} past their bound",
        file=sys.stderr,
    )
    if unstressable or not stressed:
        raise typer.Exit(2)
    if failed:
        raise typer.Exit(1)


def _register_laboratory_commands() -> None:
    # The laboratory's commands live next to their code; importing these modules is cheap
    # (each command imports its heavy parts when it runs).
    from provebench.si import _run_cli as run_cli
    from provebench.si.agents import _run_cli
    from provebench.si.matrix import _cli as matrix_cli
    from provebench.si.provider import _cli as provider_cli
    from provebench.si.sim import _cli as sim_cli
    from provebench.si.suite import _cli as suite_cli

    sim_cli.register(si_app)
    run_cli.register(si_app)
    _run_cli.register(si_app)
    suite_cli.register(si_app)
    provider_cli.register(si_app)
    si_app.command("matrix")(matrix_cli.matrix_command)


_register_laboratory_commands()
