"""`provebench pilot shadow-key | capture | shadow-corpus`: the shadow level's commands
(docs/pilot-shadow.md)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from provebench._errors import ProvebenchError, shown
from provebench.pilot._limits import MAX_PAGE_SIZE


def register(app: typer.Typer) -> None:
    app.command("shadow-key")(shadow_key_command)
    app.command("capture")(capture_command)
    app.command("shadow-corpus")(shadow_corpus_command)


def shadow_key_command(
    out: Annotated[Path, typer.Option("--out", help="New file for the key (mode 0600).")],
) -> None:
    """Make a pseudonymisation key (pseudonym/1): keep it with the operator, never publish it."""
    from provebench.pilot.shadow._pseudonym import new_key_text
    from provebench.sandbox._known_secrets import remember_secret

    if out.exists() or out.is_symlink():
        raise ProvebenchError("exists: a key is never overwritten", path=out, field="--out")
    # The one file provebench makes private: whoever holds the key can test a guess of a
    # production identifier against a pseudonym.
    try:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as error:
        raise ProvebenchError(f"cannot create: {error.strerror}", path=out, field="--out") from None
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(new_key_text())
    # Hidden from every candidate's sandbox, by its path and by its bytes wherever they are
    # copied: the sandbox's user is the key's owner, so its mode 0600 kept nothing from a
    # candidate that named it (pilot red team 27, A9).
    remember_secret(out)
    typer.echo(f"{shown(out)}: a new pseudonymisation key (keep it private; it never leaves)")


def capture_command(
    out: Annotated[Path, typer.Option("--out", help="The capture folder (made, or appended to).")],
    key_file: Annotated[
        Path, typer.Option("--key-file", help="The pseudonymisation key (pilot shadow-key).")
    ],
    folder: Annotated[
        list[str] | None,
        typer.Option("--folder", help="A Drive folder id to capture (repeat; none: every file)."),
    ] = None,
    credentials: Annotated[
        Path | None,
        typer.Option(
            "--credentials",
            help="Service-account key file (default: $GOOGLE_APPLICATION_CREDENTIALS).",
        ),
    ] = None,
    endpoint: Annotated[
        str | None,
        typer.Option("--endpoint", help="Drive v3 endpoint (default: Google's)."),
    ] = None,
    captured_at: Annotated[
        str | None,
        typer.Option("--captured-at", help="The capture time to record (default: now, UTC)."),
    ] = None,
) -> None:
    """Append one pseudonymised snapshot of Drive metadata, read-only (pilot §2)."""
    from provebench.pilot.shadow._capture import capture

    if credentials is None:
        found = os.environ.get("GOOGLE_APPLICATION_CREDENTIALS")
        if not found:
            raise ProvebenchError(
                "no service-account key: give --credentials or set GOOGLE_APPLICATION_CREDENTIALS",
                field="--credentials",
            )
        credentials = Path(found)
    entry = capture(
        out,
        key_file=key_file,
        credentials=credentials,
        endpoint=endpoint,
        folders=list(folder or []),
        captured_at=captured_at,
    )
    typer.echo(f"{shown(out / entry.file)}: {entry.files} file(s) captured at {entry.captured_at}")


def shadow_corpus_command(
    snapshots: Annotated[Path, typer.Argument(help="A capture folder (pilot capture).")],
    out: Annotated[Path, typer.Option("--out", help="New (or empty) directory for the corpus.")],
    zone: Annotated[
        str, typer.Option("--zone", help="The configured IANA time zone of the register.")
    ] = "UTC",
    page_size: Annotated[
        int,
        typer.Option("--page-size", help="The Drive's page size.", min=1, max=MAX_PAGE_SIZE),
    ] = 100,
    period_days: Annotated[
        int,
        typer.Option(
            "--period-days",
            help="Shadow escrow period in calendar days (pilot §8 recommends 7).",
            min=1,
            max=366,
        ),
    ] = 7,
) -> None:
    """Derive a shadow corpus from consecutive snapshots (one cycle per snapshot)."""
    from provebench.pilot.shadow._derive import derive_shadow_corpus

    info = derive_shadow_corpus(
        snapshots, out, zone=zone, page_size=page_size, period_days=period_days
    )
    counts = info.counts
    kinds = " ".join(f"{k}={v}" for k, v in counts.by_kind.items() if v)
    typer.echo(
        f"{shown(out)}: shadow corpus, {info.config.sizes.cycles} cycle(s), "
        f"admissible={counts.admissible_files} refused={counts.refused_files} | {kinds}"
    )


__all__ = ["register"]
