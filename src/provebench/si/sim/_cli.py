"""`provebench si check`: the counterfactual check of a Form B scenario (SI §5.1)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the simulator's commands to the `si` command group."""
    del app
