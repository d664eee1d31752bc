"""`provebench log …`: the external immutable log."""

import typer

log_app = typer.Typer(help="The external, append-only, hash-chained log.", no_args_is_help=True)
