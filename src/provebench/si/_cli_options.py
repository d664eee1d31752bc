"""Options shared by the `si` commands that take one scenario out of a scenario file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

# Scenarios §1: a file may hold several YAML documents; `select_scenario` picks the one named here,
# or else the file's only Form B scenario.
ScenarioIdOption = Annotated[
    str | None,
    typer.Option(
        "--scenario-id",
        help="The scenario to use when the file holds more than one Form B scenario.",
    ),
]
ScenarioFileArgument = Annotated[
    Path, typer.Argument(help="A scenario YAML file (Form B scoring).")
]

__all__ = ["ScenarioFileArgument", "ScenarioIdOption"]
