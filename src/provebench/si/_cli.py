"""`provebench si …`: OASIS SI-profile scenarios and scoring."""

import typer

si_app = typer.Typer(
    help="OASIS Software Infrastructure profile: validate and score.", no_args_is_help=True
)
