"""`provebench pilot …`: pilot 03, call import."""

import typer

pilot_app = typer.Typer(
    help="Pilot 03 (call import): laboratory, runner, evaluator.", no_args_is_help=True
)
