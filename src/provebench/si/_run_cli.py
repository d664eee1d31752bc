"""`provebench si run` and `si serve`: an agent investigates the simulated estate."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the run and serve commands to the `si` command group."""
    del app
