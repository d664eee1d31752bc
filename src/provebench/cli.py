"""The `provebench` command line: one sub-command group per area.

Each area owns its commands in its own `_cli.py`; this module only mounts them. The console
script (`provebench._entry.main`) runs this app and turns `ProvebenchError` into the one-line
error and exit status 2 promised in the README.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from provebench import __version__
from provebench._demo import DEFAULT_SEED, run_demo
from provebench._errors import ProvebenchError
from provebench.attest._cli import attest_app
from provebench.evidence._cli import evidence_app, schema_app
from provebench.ledger._cli import log_app
from provebench.pilot._cli import pilot_app
from provebench.pilot._limits import MAX_SEED
from provebench.report._cli import report
from provebench.si._cli import si_app

app = typer.Typer(
    name="provebench",
    help="Deterministic evaluation of AI agents and automation code from recorded evidence.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Docstrings are wrapped at 100 columns; markdown reflows their paragraphs to the terminal.
    rich_markup_mode="markdown",
    add_completion=False,
)
app.add_typer(si_app, name="si")
app.add_typer(evidence_app, name="evidence")
app.add_typer(schema_app, name="schema")
app.add_typer(log_app, name="log")
app.add_typer(pilot_app, name="pilot")
app.add_typer(attest_app, name="attest")
app.command("report")(report)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"provebench {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version_callback, is_eager=True, help="Print the version."
    ),
) -> None:
    """provebench: verdicts are a pure function of the evidence."""


@app.command()
def demo(
    out: Annotated[Path, typer.Option("--out", help="Folder for everything it writes.")] = Path(
        "out/demo"
    ),
    seed: Annotated[
        int,
        typer.Option("--seed", help="Seed of the generated pilot corpus.", min=0, max=MAX_SEED),
    ] = DEFAULT_SEED,
) -> None:
    """Run the main job on embedded defaults: SI scoring, the SI laboratory, a pilot 03 run."""
    raise typer.Exit(run_demo(out, seed))


def run_app(arguments: list[str] | None = None) -> int:
    """Run the command line; the exit status it ends with.

    Typer's own handling of a usage error (a bad option value, an unknown option, a missing or
    extra argument) prints a boxed, several-line message; here it is raised instead, as the one
    `provebench: error: ...` line every other bad input gets (exit status 2).
    """
    given = sys.argv[1:] if arguments is None else arguments
    if given[:1] == ["--version"] and len(given) > 1:
        # The eager option would print and exit before the rest is parsed, ignoring it.
        raise ProvebenchError("--version takes no other arguments (see 'provebench --help')")
    try:
        status = app(args=arguments, standalone_mode=False)
    except typer.TyperException as error:
        if type(error).__name__ == "NoArgsIsHelpError":
            # A group called bare: its help is printed (stdout); the error says why exit 2.
            raise ProvebenchError(f"missing command{_help_hint(error)}") from None
        raise _usage_error(error) from None
    # Without standalone mode, typer.Exit and --help come back as a status instead of exiting.
    return status if isinstance(status, int) else 0


def _usage_error(error: typer.TyperException) -> ProvebenchError:
    return ProvebenchError(f"{error.format_message()}{_help_hint(error)}")


def _help_hint(error: typer.TyperException) -> str:
    """Where to read how the command is called: ` (see 'provebench pilot --help')`."""
    context = getattr(error, "ctx", None)
    command = getattr(context, "command_path", None)
    return f" (see '{command} --help')" if command else ""
