"""`provebench evidence …` and `provebench schema …`."""

import typer

evidence_app = typer.Typer(help="Evidence artifacts: import and inspect.", no_args_is_help=True)
schema_app = typer.Typer(
    help="Print the JSON Schema of provebench's file formats.", no_args_is_help=True
)
