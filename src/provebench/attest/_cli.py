"""`provebench attest …`: the laboratory key and signed evidence (docs/attestation.md).

Exit status of `verify`: 0 the signature checks and every subject file matches; 1 a subject
differs or is missing; 2 the envelope or key is unusable (one line).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

attest_app = typer.Typer(
    help="Signed evidence: the laboratory key, and verifying what it signed.", no_args_is_help=True
)


@attest_app.command("verify")
def verify_command(
    envelope: Annotated[Path, typer.Argument(help="A signed envelope (*.dsse.json).")],
    trust_key: Annotated[
        Path | None,
        typer.Option("--trust-key", help="Public key (PEM) of the signer; default: this lab's."),
    ] = None,
) -> None:
    """Check a signature and the files it covers (relative to the envelope's folder)."""
    from provebench._canonical import compact_json
    from provebench._errors import shown
    from provebench.attest import load_trusted_key, read_statement, subject_problems

    signed = read_statement(envelope, load_trusted_key(trust_key))
    problems = subject_problems(signed, envelope.parent)
    typer.echo(
        f"{shown(envelope)}: {signed.predicate_type} signed by {signed.keyid[:16]}; "
        f"{len(signed.subjects)} subject(s), "
        + ("all match" if not problems else f"{len(problems)} differ")
    )
    for problem in problems:
        typer.echo(shown(problem))
    typer.echo(shown(compact_json(signed.predicate)))  # the signed facts, on the last line
    if problems:
        raise typer.Exit(1)


@attest_app.command("key")
def key_command() -> None:
    """Show the laboratory key (made on first use): where it is and its public key id."""
    from provebench.attest import key_dir, laboratory_signer, load_trusted_key
    from provebench.attest._keys import PUBLIC_KEY_FILE

    laboratory_signer()
    public = key_dir() / PUBLIC_KEY_FILE
    typer.echo(f"{public}: keyid {load_trusted_key(public).keyid}")


@attest_app.command("rotate-key")
def rotate_command() -> None:
    """Retire the laboratory key (kept in retired/ to verify old evidence) and make a new one."""
    from provebench.attest import rotate_laboratory_key

    old, new = rotate_laboratory_key()
    typer.echo(f"retired {old or '(none)'}; signing with {new}")
