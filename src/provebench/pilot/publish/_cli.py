"""`provebench pilot publish | verify-bundle` (pilot §16; docs/pilot-shadow.md, "Publication")."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from provebench._errors import shown


def register(app: typer.Typer) -> None:
    app.command("publish")(publish_command)
    app.command("verify-bundle")(verify_bundle_command)


def publish_command(
    runs: Annotated[list[Path], typer.Argument(help="Finished, signed run folders (pilot run).")],
    out: Annotated[Path, typer.Option("-o", "--out", help="New (or empty) bundle folder.")],
    corpus: Annotated[
        list[Path],
        typer.Option("--corpus", help="The corpora of the runs (repeat; matched by manifest)."),
    ],
    redteam: Annotated[
        Path | None, typer.Option("--redteam", help="The signed red-team report's folder.")
    ] = None,
    seal: Annotated[
        list[Path] | None,
        typer.Option("--seal", help="A revealed fresh-control seal folder (repeat)."),
    ] = None,
    comparison: Annotated[
        list[Path] | None,
        typer.Option("--comparison", help="A signed comparison.json (pilot compare; repeat)."),
    ] = None,
    risks: Annotated[
        Path | None,
        typer.Option(
            "--risks",
            help="The operator's own residual risks (Markdown), added verbatim to the bundle's "
            "residual-risks.md.",
        ),
    ] = None,
) -> None:
    """Write the signed publication bundle of pilot §16: corpora, runs, verdicts, red team,
    seals, comparisons and residual risks, with a manifest of sha256 hashes."""
    from provebench.pilot.publish._bundle import publish_bundle

    index = publish_bundle(
        list(runs), list(corpus), out, redteam=redteam, seals=list(seal or []),
        comparisons=list(comparison or []), risks=risks,
    )  # fmt: skip
    for run in index.runs:
        typer.echo(
            f"  {shown(run.name)}: corpus {shown(run.corpus)}, {shown(run.status)}, "
            f"laboratory_pass={str(run.laboratory_pass).lower()}"
        )
    typer.echo(
        f"{shown(out)}: {len(index.runs)} run(s), {len(index.corpora)} corpus(es), signed by "
        f"{index.laboratory_keyid[:16]}"
    )


def verify_bundle_command(
    bundle: Annotated[Path, typer.Argument(help="A bundle folder (pilot publish).")],
    trust_key: Annotated[
        Path | None,
        typer.Option(
            "--trust-key",
            help="The laboratory's announced public key (default: the key in the bundle, "
            "whose id is printed to compare).",
        ),
    ] = None,
) -> None:
    """Re-derive every verdict from the bundle alone and check every hash and signature.

    Exit 0: it verifies; 1: it does not (the first difference is named); 2: not a bundle.
    """
    from provebench.pilot.publish._verify import BundleMismatch, verify_bundle

    try:
        report = verify_bundle(bundle, trust_key)
    except BundleMismatch as error:
        typer.echo(f"provebench: bundle does not verify: {shown(error.one_line())}", err=True)
        raise typer.Exit(1) from None
    typer.echo(
        f"{shown(bundle)}: verified: {report.files} files, {report.signatures} signatures, "
        f"{report.verdicts_rederived} verdict(s) re-derived; key {report.keyid[:16]} "
        f"({report.key_source})"
    )
