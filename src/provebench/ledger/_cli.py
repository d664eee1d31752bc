"""`provebench log …`: the external immutable log (verify, export, show).

Heavy imports stay inside the commands so that `provebench --help` starts fast.
Exit status of `verify`: 0 intact, 1 tampered (one line per problem), 2 unreadable input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

log_app = typer.Typer(help="The external, append-only, hash-chained log.", no_args_is_help=True)

EXIT_TAMPERED = 1
# The format of `log verify --json` (docs/ledger.md).
VERIFY_FORMAT = "provebench.ledger.verify/1"
# A ledger's entries are numbered by SQLite integers: counts beyond are no ledger's.
_MAX_COUNT = 2**63 - 1


@log_app.command("verify")
def verify_command(
    path: Annotated[Path, typer.Argument(help="Ledger file (.sqlite) or its JSONL export.")],
    expect_head: Annotated[
        str | None,
        typer.Option("--expect-head", help="Head hash recorded elsewhere (e.g. run.json)."),
    ] = None,
    expect_length: Annotated[
        int | None,
        typer.Option(
            "--expect-length", help="Number of entries recorded elsewhere.", min=0, max=_MAX_COUNT
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the full report as JSON.")] = False,
    envelope: Annotated[
        Path | None,
        typer.Option(
            "--envelope",
            help="A run's signed envelope (RUNDIR/run.dsse.json): its head and length are the "
            "anchor, verified against --trust-key (docs/attestation.md).",
        ),
    ] = None,
    trust_key: Annotated[
        Path | None,
        typer.Option("--trust-key", help="Public key (PEM) of the signer; default: this lab's."),
    ] = None,
) -> None:
    """Recompute the hash chain; name every edited, deleted, inserted or reordered entry."""
    from provebench._canonical import canonical_json
    from provebench._errors import shown
    from provebench.ledger._verify import verify_ledger

    if envelope is not None:
        expect_head, expect_length = _anchor_of(envelope, trust_key, expect_head, expect_length)
    report = verify_ledger(path, expect_head=expect_head, expect_length=expect_length)
    # The anchors are read only on an intact chain: a broken one vouches for nothing.
    anchors = (
        _anchor_report(path, trust_key)
        if report.ok
        else {"checked": False, "reason": "the hash chain does not hold"}
    )
    if as_json:
        # The anchors are part of the verdict (they set the exit status), so the JSON carries
        # them too: a caller reading only --json must see what the text shows.
        # Named by its format as provebench's output, as every report it prints for machines
        # is (sandbox red team 41, SB7).
        whole = {"format": VERIFY_FORMAT, **report.model_dump(mode="json"), "anchors": anchors}
        typer.echo(canonical_json(whole), nl=False)
    else:
        typer.echo(report.summary())
        for problem in report.problems:
            typer.echo(shown(problem.one_line()))  # a found value is data
        hidden = report.problem_count - len(report.problems)
        if hidden > 0:
            typer.echo(f"... and {hidden} more problem(s)")
        for line in _anchor_lines(anchors):
            typer.echo(shown(line))
    if not report.ok or anchors.get("problems"):
        raise typer.Exit(EXIT_TAMPERED)


def _anchor_report(path: Path, trust_key: Path | None) -> dict[str, Any]:
    """The keyed anchors of an intact log (docs/ledger.md, "Keyed anchors"), verified with
    --trust-key or, when none is given, this laboratory's public key if there is one.

    `checked` false: no key to check them with. Otherwise the key, how many verified, each bad
    anchor by seq, and how many entries follow the last verified one (0: every entry is
    vouched for)."""
    from provebench._errors import ProvebenchError
    from provebench.attest import load_trusted_key
    from provebench.attest._anchors import anchor_verifier
    from provebench.ledger._anchor import check_anchors
    from provebench.ledger._rows import jsonl_rows, sqlite_rows
    from provebench.ledger._schema import looks_like_sqlite

    try:
        trusted = load_trusted_key(trust_key)
    except ProvebenchError:
        if trust_key is not None:
            raise
        return {"checked": False, "reason": "no laboratory key here; pass --trust-key PUB.pem"}
    rows = sqlite_rows(path) if looks_like_sqlite(path) else jsonl_rows(path)
    linked = (
        (row.seq, row.kind, row.payload_text, row.prev_hash, row.hash)
        for row in rows
        if row.seq is not None and row.kind and row.payload_text and row.prev_hash and row.hash
    )
    check = check_anchors(linked, anchor_verifier(trusted))
    after_last = (
        None if check.verified == 0 else (check.head_seq or 0) - (check.last_anchored_seq or 0)
    )
    return {
        "checked": True,
        "key": {"keyid": trusted.keyid, "source": str(trusted.source)},
        "verified": check.verified,
        "entries_after_last": after_last,
        "problems": [{"seq": seq, "problem": problem} for seq, problem in check.problems],
    }


def _anchor_lines(anchors: dict[str, Any]) -> list[str]:
    """The anchors' report in lines for humans."""
    if not anchors["checked"]:
        return [f"anchors: not checked ({anchors['reason']})"]
    key = f"key {anchors['key']['keyid'][:16]} ({anchors['key']['source']})"
    problems = anchors["problems"]
    if problems:
        return [f"ANCHORS: {len(problems)} bad keyed anchor(s) for {key}"] + [
            f"seq {p['seq']}: anchor: {p['problem']}" for p in problems
        ]
    if anchors["verified"] == 0:
        return ["anchors: none (this log carries no keyed anchor)"]
    after = anchors["entries_after_last"]
    tail = "the log ends at one" if after == 0 else f"{after} entries after the last"
    return [f"anchors: {anchors['verified']} verified with {key}; {tail}"]


def _anchor_of(
    envelope: Path, trust_key: Path | None, head: str | None, length: int | None
) -> tuple[str, int]:
    """The log's head and length as the laboratory signed them; one line when the envelope
    does not verify or disagrees with --expect-head/--expect-length."""
    from provebench._errors import ProvebenchError
    from provebench.attest import load_trusted_key, read_statement

    # Any signed statement whose predicate names a log by `ledger.head_hash` and `ledger.length`
    # (a pilot run's does): the log knows nothing of the areas that sign it.
    signed = read_statement(envelope, load_trusted_key(trust_key))
    ledger = signed.predicate.get("ledger")
    signed_head = ledger.get("head_hash") if isinstance(ledger, dict) else None
    signed_length = ledger.get("length") if isinstance(ledger, dict) else None
    if not isinstance(signed_head, str) or type(signed_length) is not int:
        raise ProvebenchError("the signed run names no log head and length", path=envelope)
    if (head is not None and head != signed_head) or (
        length is not None and length != signed_length
    ):
        raise ProvebenchError(
            "--expect-head/--expect-length differ from the signed anchor", path=envelope
        )
    return signed_head, signed_length


@log_app.command("export")
def export_command(
    path: Annotated[Path, typer.Argument(help="Ledger file (.sqlite).")],
    output: Annotated[
        Path, typer.Option("-o", "--output", help="Where to write the JSONL export.")
    ],
) -> None:
    """Write the ledger as canonical JSONL (one entry a line), atomically."""
    from provebench._errors import shown
    from provebench._paths import check_output_file
    from provebench.ledger._ledger import Ledger

    # Not a folder, FIFO, device or link, in a writable folder, and not the ledger itself.
    check_output_file(output, inputs=[path], field="--output")
    with Ledger.open_readonly(path) as ledger:
        count = ledger.export_jsonl(output)
        head = ledger.head()
    head_text = "none" if head is None else head.hash
    typer.echo(f"exported {count} entries to {shown(output)} (head hash {head_text})")


@log_app.command("show")
def show_command(
    path: Annotated[Path, typer.Argument(help="Ledger file (.sqlite) or its JSONL export.")],
    kind: Annotated[str | None, typer.Option("--kind", help="Only entries of this kind.")] = None,
    tail: Annotated[
        int | None,
        typer.Option("--tail", min=1, max=_MAX_COUNT, help="Only the last N shown entries."),
    ] = None,
    width: Annotated[
        int,
        typer.Option("--payload-width", min=10, max=1_000_000, help="Payload characters shown."),
    ] = 100,
) -> None:
    """Print entries as a table (seq, kind, payload, hash). Does not verify: use `verify`."""
    from collections import deque

    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from provebench._errors import shown
    from provebench.ledger._show import shown_rows

    rows = shown_rows(path, kind)
    selected = deque(rows, maxlen=tail) if tail is not None else list(rows)
    table = Table(show_lines=False, title=Text(shown(path)))
    for name in ("seq", "kind", "payload", "hash"):
        table.add_column(name, no_wrap=name != "payload", overflow="fold")
    for seq, row_kind, payload_text, entry_hash in selected:
        shown_payload = payload_text if len(payload_text) <= width else payload_text[: width - 1]
        if shown_payload != payload_text:
            shown_payload += "…"
        # Text(), never markup: a payload is data, whatever brackets it contains.
        table.add_row(Text(seq), Text(row_kind), Text(shown_payload), Text(entry_hash[:16]))
    Console(highlight=False, soft_wrap=False).print(table)
