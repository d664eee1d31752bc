"""`provebench report VERDICT.json [--out REPORT.html]`: the HTML report of a verdict."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def report(
    verdict: Annotated[
        Path, typer.Argument(help="A verdict.json of `pilot evaluate`, `si run` or `si score`.")
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Where to write the report (default: report.html beside it)."),
    ] = None,
) -> None:
    """Write a self-contained HTML report of a verdict: same verdict bytes, same report bytes."""
    # Jinja2 and the renderer load only when the command runs (fast CLI start-up).
    from provebench._errors import shown
    from provebench.report._render import write_report

    written = write_report(verdict, out)
    typer.echo(shown(written))


__all__ = ["report"]
