"""The laboratory's signature on a run, and the evaluator's on a verdict (pilot §9, §15).

`run.json` lists the sha256 of every file of the run folder, but it lies in that folder: on its
own it anchors nothing, since whoever rewrites the folder can recompute the chain and the hashes.
So when a run is published the laboratory signs an in-toto Statement (`run.dsse.json`) whose
subjects are `run.json` and every file it records, and whose predicate repeats the facts a
verdict rests on: the run's identity (agent, code, isolation, corpus, rule versions), the log's
head and length, and the register's rows and chain hash. `pilot evaluate` verifies it against the
trusted public key before anything counts; a verdict is signed the same way (`verdict.dsse.json`),
so a published verdict is checked without rerunning (`provebench attest verify`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from provebench._canonical import compact_json, sha256_file
from provebench.attest._envelope import (
    AttestationError,
    Statement,
    envelope_path_for,
    read_statement,
    read_verified,
    sign_files,
    write_and_sign,
    write_signed,
)
from provebench.attest._keys import TrustedKey
from provebench.ledger import LedgerEntry
from provebench.ledger._anchor import ANCHOR_KEY
from provebench.pilot.record._rundir import RUN_ENVELOPE_FILE, RUN_RECORD_FILE

RUN_PREDICATE = "urn:provebench:pilot-run:1"
VERDICT_PREDICATE = "urn:provebench:pilot-verdict:1"
REDTEAM_PREDICATE = "urn:provebench:pilot-redteam:1"
REDTEAM_ENVELOPE_FILE = "redteam.dsse.json"
# What the run's predicate repeats from run.json (and so from the log, which run.json must match).
RUN_FACTS = (
    "format",
    "agent",
    "isolation",
    "corpus",
    "rule_versions",
    "cycles",
    "register",
    "ledger",
)
# Besides them, whether the run was resumed (run.json's non_scoring.resumed): a resumed run is
# read, not credited (docs/attestation.md), so the laboratory signs the fact itself and the
# evaluator takes it only from a record that matches this predicate (red team round 11, A19: a
# run.json saying `resumed: false` parsed in place of the signed one). A run signed before the
# predicate carried it does not match and is refused (`run_envelope_mismatch`): run it again.
RESUMED_FACT = "resumed"


def run_predicate(record: dict[str, Any]) -> dict[str, Any]:
    predicate = {key: record[key] for key in RUN_FACTS}
    predicate[RESUMED_FACT] = record["non_scoring"]["resumed"]
    return predicate


def sign_run(root: Path, record: dict[str, Any], record_sha256: str | None = None) -> Path:
    """Sign a published run (`record` is its run.json); returns the envelope's path.

    The laboratory passes `record_sha256`, the digest of the run.json bytes it wrote, so what it
    signs is the record it built in memory from what it ran, never a file read back (a holder of
    the folder could have rewritten it). Without it (a test playing the operator) the file on
    disk is hashed."""
    subjects = dict(record["files_sha256"])
    subjects[RUN_RECORD_FILE] = (
        sha256_file(root / RUN_RECORD_FILE) if record_sha256 is None else record_sha256
    )
    return write_signed(root / RUN_ENVELOPE_FILE, subjects, RUN_PREDICATE, run_predicate(record))


def run_envelope_problems(
    root: Path, record: dict[str, Any], hashed: dict[str, str], trusted: TrustedKey
) -> list[tuple[str, str, str]]:
    """(code, field, message) for every way the run differs from what the laboratory signed.

    `hashed` holds the sha256 of each run file as the evaluator read it (`run/NAME`), so nothing
    is hashed twice. Empty when the signature checks and every fact and digest is the signed one."""
    try:
        signed = read_statement(root / RUN_ENVELOPE_FILE, trusted, predicate_type=RUN_PREDICATE)
    except AttestationError as error:
        code = "run_unsigned" if error.message == "no signed envelope" else "run_signature"
        return [(code, error.field or "", error.message)]
    # run.json records the sha256 of every other file, which the evaluator checks one by one
    # (`file_altered`); so the signed run.json digest covers them all, and a changed file is
    # reported there once, not twice.
    signed_record = signed.subjects.get(RUN_RECORD_FILE)
    if signed_record is None or signed_record != hashed.get(f"run/{RUN_RECORD_FILE}"):
        return [
            (
                "run_envelope_mismatch",
                f"subject.{RUN_RECORD_FILE}",
                "run.json differs from the run the laboratory signed",
            )
        ]
    problems: list[tuple[str, str, str]] = []
    recorded = {**record["files_sha256"], RUN_RECORD_FILE: signed_record}
    if signed.subjects != recorded:  # a run.json the signer did not describe: never ours
        problems.append(
            (
                "run_envelope_mismatch",
                "subject",
                "the signed subjects are not the files run.json records",
            )
        )
    expected = run_predicate(record)
    for key in (*RUN_FACTS, RESUMED_FACT):
        if signed.predicate.get(key) != expected[key]:
            problems.append(
                (
                    "run_envelope_mismatch",
                    f"predicate.{key}",
                    f"run.json's {key} differs from the signed run",
                )
            )
    return problems


def log_anchor_problems(
    entries: Sequence[LedgerEntry], trusted: TrustedKey
) -> list[tuple[str, str, str]]:
    """(code, field, message) for every way the log's keyed anchors fail (docs/attestation.md,
    "Keyed anchors"): each `cycle_confirmed` must carry an anchor that verifies with `trusted`,
    and the log must end at one. The chain must already verify (`verify_ledger`)."""
    from provebench.attest._anchors import anchor_verifier
    from provebench.ledger import check_anchors

    rows = ((e.seq, e.kind, compact_json(e.payload), e.prev_hash, e.hash) for e in entries)
    check = check_anchors(rows, anchor_verifier(trusted))
    problems: list[tuple[str, str, str]] = []
    if check.problems:  # one error, the first named: a re-chained log breaks every later one
        seq, message = check.problems[0]
        problems.append(
            (
                "log_anchor",
                f"seq {seq}",
                f"{len(check.problems)} keyed anchor(s) fail, the first at seq {seq}: {message}",
            )
        )
    bad = {seq for seq, _ in check.problems}
    unanchored = [
        e.seq
        for e in entries
        if e.kind == "cycle_confirmed" and e.seq not in bad and ANCHOR_KEY not in e.payload
    ]
    if unanchored:
        problems.append(
            (
                "log_anchor",
                f"seq {unanchored[0]}",
                f"{len(unanchored)} cycle_confirmed entr(ies) carry no keyed anchor, the first "
                f"at seq {unanchored[0]}",
            )
        )
    if entries and not problems and not check.head_anchored:
        problems.append(
            (
                "log_anchor",
                f"seq {check.head_seq}",
                "the log's last entry carries no keyed anchor: entries were added after the "
                "last commit",
            )
        )
    return problems


def sign_verdict(path: Path, facts: dict[str, Any]) -> Path:
    """Sign a written verdict file; the envelope goes beside it (`verdict.dsse.json`)."""
    return sign_files(path.parent, [path.name], envelope_path_for(path), VERDICT_PREDICATE, facts)


def write_signed_verdict(path: Path, data: bytes | str, facts: dict[str, Any]) -> Path:
    """Write a verdict and sign it (`verdict.dsse.json` beside it), both or neither
    (`attest._envelope.write_and_sign`)."""
    return write_and_sign(path, data, envelope_path_for(path), VERDICT_PREDICATE, facts)


RUN_SIGNER_FACT = "run_signer"


def foreign_run_problem(facts: dict[str, Any], trusted: TrustedKey) -> str | None:
    """Why a signed verdict's run is not this laboratory's own (one line), or None: the key
    that verified its run.dsse.json, as the verdict's signature states it, must be `trusted`. A
    verdict evaluated with `--trust-key OTHER` is signed with this laboratory's key, but its run
    is the other key's (red team round 12b, F1); a verdict whose signature does not name its
    run's signer (signed before it did) is refused, as round 11 did for `resumed`."""
    signer = facts.get(RUN_SIGNER_FACT)
    if signer == trusted.keyid:
        return None
    if not isinstance(signer, str):
        return (
            "the verdict's signature does not name the key that verified its run: evaluate "
            "the run again with this build"
        )
    return (
        f"the verdict's run was signed by key {signer[:16]}, not this laboratory's "
        f"{trusted.keyid[:16]}: a run evaluated with --trust-key OTHER is not this laboratory's"
    )


def signed_verdict(path: Path, trusted: TrustedKey) -> Statement:
    """The verified statement of a verdict envelope, the verdict beside it unchanged
    (`AttestationError` otherwise)."""
    return read_verified(path, trusted, predicate_type=VERDICT_PREDICATE)


__all__ = [
    "REDTEAM_ENVELOPE_FILE",
    "REDTEAM_PREDICATE",
    "RUN_ENVELOPE_FILE",
    "RUN_PREDICATE",
    "RUN_SIGNER_FACT",
    "VERDICT_PREDICATE",
    "foreign_run_problem",
    "log_anchor_problems",
    "run_envelope_problems",
    "sign_run",
    "sign_verdict",
    "signed_verdict",
    "write_signed_verdict",
]
