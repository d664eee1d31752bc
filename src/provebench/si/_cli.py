"""`provebench si …`: OASIS SI-profile scenarios and scoring."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

si_app = typer.Typer(
    help="OASIS Software Infrastructure profile: validate and score.", no_args_is_help=True
)


class ReportFormat(StrEnum):
    text = "text"
    json = "json"


@si_app.command("validate")
def validate_command(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Scenario files, or folders searched recursively for *.yaml/*.yml."),
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

    from provebench.si._validate import validate_paths
    from provebench.si._validate_render import render_json, render_text

    report = validate_paths(paths)
    if report_format is ReportFormat.json:
        typer.echo(render_json(report), nl=False)
    else:
        render_text(report, Console(highlight=False, soft_wrap=True))
    if not report.ok:
        raise typer.Exit(1)
