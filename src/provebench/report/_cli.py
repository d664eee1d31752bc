"""`provebench report VERDICT.json [--out REPORT.html]`: the HTML report of a verdict."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def report(
    verdict: Annotated[
        Path,
        typer.Argument(
            help="A verdict.json of `pilot evaluate`, `si run` or `si score`; a red-team folder "
            "(`pilot redteam --out`) or its redteam-summary.json; an OASIS suite folder "
            "(`si suite --out`) or its summary.json; or a run folder holding verdict.json."
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Where to write the report (default: report.html beside it)."),
    ] = None,
    trust_key: Annotated[
        Path | None,
        typer.Option(
            "--trust-key",
            help="Public key (PEM) the signature beside the document is checked against "
            "(default: this laboratory's).",
        ),
    ] = None,
) -> None:
    """Write a self-contained HTML report of a verdict, a red team or a suite, saying whether a
    signature vouches for its bytes: same input bytes, same report bytes."""
    # Jinja2 and the renderer load only when the command runs (fast CLI start-up).
    from provebench._errors import shown
    from provebench.report._render import write_report

    written = write_report(verdict, out, trust_key=trust_key)
    typer.echo(shown(written))


__all__ = ["report"]
