"""`provebench evidence …` and `provebench schema …`."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from provebench.evidence._models import Evidence

evidence_app = typer.Typer(help="Evidence artifacts: import and inspect.", no_args_is_help=True)
schema_app = typer.Typer(
    help="Print the JSON Schema of provebench's file formats.", no_args_is_help=True
)


class ImportFormat(StrEnum):
    openai = "openai"
    oasis = "oasis"
    inspect = "inspect"


@evidence_app.command("import")
def import_command(
    source: Annotated[Path, typer.Argument(help="The transcript or artifact to import.")],
    source_format: Annotated[
        ImportFormat,
        typer.Option(
            "--format",
            help="openai: chat-completions messages; oasis: an OASIS artifact; inspect: an "
            "Inspect AI log (.eval or .json), one evidence file per sample and epoch.",
        ),
    ],
    output: Annotated[
        Path,
        typer.Option(
            "--output",
            "-o",
            help="Where to write the evidence JSON (with --format inspect: a folder).",
        ),
    ],
    scenario_id: Annotated[
        str | None, typer.Option(help="The scenario this run belongs to.")
    ] = None,
    agent_name: Annotated[
        str | None, typer.Option(help="Non-scoring metadata: the agent's name.")
    ] = None,
    agent_version: Annotated[
        str | None, typer.Option(help="Non-scoring metadata: the agent's version.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace OUTPUT if it exists.")] = False,
) -> None:
    """Convert a transcript to provebench evidence (canonical JSON, written atomically)."""
    from provebench._errors import ProvebenchError
    from provebench._paths import check_output_file
    from provebench.evidence._openai import import_openai
    from provebench.evidence._readers import import_oasis
    from provebench.evidence._stamp import with_run_facts

    if source_format is ImportFormat.inspect:
        _import_inspect(source, output, scenario_id, agent_name, agent_version, force=force)
        return
    if output.is_file() and not force:
        raise ProvebenchError("already exists; pass --force to replace it", path=output)
    # Not a folder, FIFO, device or link, in a writable folder, and not the transcript itself.
    check_output_file(output, inputs=[source], field="--output")
    reader = import_openai if source_format is ImportFormat.openai else import_oasis
    evidence = with_run_facts(
        reader(source),
        source=str(source),
        scenario_id=scenario_id,
        agent_name=agent_name,
        agent_version=agent_version,
    )
    _write_evidence(output, evidence)


def _write_evidence(path: Path, evidence: Evidence) -> None:
    """Write one evidence file (canonical JSON, atomically) and say so on stderr."""
    from provebench._canonical import canonical_json, write_atomic
    from provebench._errors import ProvebenchError, shown

    try:
        write_atomic(path, canonical_json(evidence))
    except OSError as error:
        raise ProvebenchError(f"cannot write: {error.strerror}", path=path) from None
    typer.echo(
        f"wrote {shown(path)}: {len(evidence.actions)} actions, "
        f"final answer {'present' if evidence.has_final_answer() else 'absent'}",
        err=True,
    )


def _import_inspect(
    source: Path,
    output: Path,
    scenario_id: str | None,
    agent_name: str | None,
    agent_version: str | None,
    *,
    force: bool,
) -> None:
    """Every sample of an Inspect log, as `OUTPUT/<sample>.epoch-<n>.evidence.json`; read and
    checked whole before the first file is written."""
    from provebench._errors import ProvebenchError
    from provebench._paths import check_output_dir, check_output_file
    from provebench.evidence._stamp import with_run_facts
    from provebench.integrations.inspect._evidence import read_inspect_log

    check_output_dir(output, inputs=[source], field="--output")
    converted = [
        (
            output / name,
            with_run_facts(
                evidence,
                source=str(source),
                scenario_id=scenario_id,
                agent_name=agent_name,
                agent_version=agent_version,
            ),
        )
        for name, evidence in read_inspect_log(source)
    ]
    for path, _ in converted:
        if path.is_file() and not force:
            raise ProvebenchError("already exists; pass --force to replace it", path=path)
        if output.is_dir():
            check_output_file(path, inputs=[source], field="--output")
    output.mkdir(parents=True, exist_ok=True)
    for path, evidence in converted:
        _write_evidence(path, evidence)


@evidence_app.command("show")
def show_command(
    source: Annotated[Path, typer.Argument(help="Evidence (provebench or OASIS format).")],
) -> None:
    """Summarise an evidence file: channels, steps, tool calls, non-scoring metadata."""
    from rich.console import Console

    from provebench._errors import shown
    from provebench.evidence._readers import load_evidence
    from provebench.evidence._summary import print_summary

    evidence = load_evidence(source)
    print_summary(evidence, source=shown(source), console=Console(highlight=False))


@schema_app.command("evidence")
def schema_evidence_command() -> None:
    """Print the JSON Schema of provebench evidence (the same bytes on every run)."""
    import sys

    from provebench.evidence._schema import evidence_schema_text

    sys.stdout.write(evidence_schema_text())
