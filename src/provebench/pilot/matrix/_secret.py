"""A control matrix's corpora from a secret drawn per matrix, committed before any job runs and
revealed once every job ended (pilot §11, §16; docs/matrix.md, "Hidden control sets").

The public `--seeds` integer names a job, never its corpus: the generator is deterministic in
(seed, profile), so a corpus made from the public integer is one a candidate regenerates inside
its sandbox — provebench is its interpreter's package — and so holds its answer key and fault
schedule (pilot red team 28, H4: `regen.py` ran `pilot generate` for seeds 1–12, matched its
first listing, and passed with escrow 1.0). Each job's generator seed is derived from a secret
opening drawn per matrix, with the seal's own commit–reveal (`record._seal.commitment`, the
fresh control's secret seed, docs/attestation.md): the same opening format (`seed`, `nonce`)
and the same commitment, signed into the matrix folder (`commitment.json`) before any corpus
is made. The opening lies in the laboratory's private root, which every sandbox hides and no
candidate's folder may hold, and is recorded as a secret (by its path and bytes); a rerun of the
same matrix (its nonce) reads it back, a new matrix draws a new one. Once every job has a
verified verdict the opening is published, signed (`reveal.json`), and `pilot matrix-verify`
regenerates every corpus from it and checks that each job's signed record names that corpus.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from provebench._canonical import canonical_json
from provebench._errors import ProvebenchError
from provebench._jsonfile import read_json_file
from provebench.attest._envelope import read_verified, write_and_sign
from provebench.attest._keys import TrustedKey
from provebench.pilot._limits import MAX_SEED
from provebench.pilot.record._seal import commitment

COMMITMENT_FORMAT = "provebench.pilot.matrix-commitment/1"
COMMITMENT_FILE = "commitment.json"
COMMITMENT_ENVELOPE = "commitment.dsse.json"
COMMITMENT_PREDICATE = "urn:provebench:pilot-matrix-commitment:1"
REVEAL_FORMAT = "provebench.pilot.matrix-reveal/1"
REVEAL_FILE = "reveal.json"
REVEAL_ENVELOPE = "reveal.dsse.json"
REVEAL_PREDICATE = "urn:provebench:pilot-matrix-reveal:1"
# The folder of the private root that holds each open matrix's opening, by the matrix's nonce.
OPENINGS_DIR = "matrix-openings"
# The domain of a job's generator seed: versioned, so a reveal is recomputed as it was made.
GENERATOR_SEED_DOMAIN = "provebench.pilot.matrix-seed/1"


@dataclass(frozen=True)
class MatrixSecret:
    """A matrix's opening: the seal's (`seed`, `nonce`), its commitment signed in the folder."""

    seed: int
    nonce: str

    def generator_seed(self, public_seed: int) -> int:
        """The generator's seed of the job named `public_seed`: unknowable without the opening
        (a sha256 of it), one per public seed, in the generator's range (pilot §11)."""
        text = f"{GENERATOR_SEED_DOMAIN}\n{self.nonce}\n{self.seed}\n{public_seed}"
        digest = hashlib.sha256(text.encode("ascii")).digest()
        return int.from_bytes(digest[:8], "big") & MAX_SEED


def opening_path(matrix_nonce: str) -> Path:
    from provebench.sandbox._private import private_root

    return private_root() / OPENINGS_DIR / f"{matrix_nonce}.json"


def matrix_secret(
    out: Path, matrix_nonce: str, trusted: TrustedKey, request: Mapping[str, Any] | None = None
) -> MatrixSecret:
    """This matrix's secret: the one committed in `out` (read back from the private root, its
    commitment checked), or, in a matrix with no commitment yet, one drawn now and committed
    (signed) before anything is made from it. One line, nothing run, when the committed one is
    lost or revealed: a job run on a corpus that is no longer secret is no hidden control.
    `request` (what defines the job set: agents, candidates, seeds, trials, sizes, …) is signed
    with the commitment, before any job: `pilot matrix-verify` holds `matrix.json` to it (pilot
    red team 31, A3: an agent dropped from the unsigned request, with its jobs, passed)."""
    if os.path.lexists(out / COMMITMENT_ENVELOPE) or os.path.lexists(out / COMMITMENT_FILE):
        committed = _committed(out, matrix_nonce, trusted)
        if os.path.lexists(out / REVEAL_FILE) or os.path.lexists(out / REVEAL_ENVELOPE):
            raise ProvebenchError(
                "this matrix's secret is revealed: its control corpora are public now, so no job "
                "of it is run again (check it with `provebench pilot matrix-verify`); start a "
                "new matrix with a new --out",
                path=out / REVEAL_FILE,
            )
        found = _read_opening(opening_path(matrix_nonce), out)
        if commitment(found.seed, found.nonce) != committed:
            raise ProvebenchError(
                "the matrix's secret in the private root does not open its commitment; start a "
                "new matrix with a new --out",
                path=out / COMMITMENT_FILE,
                field="commitment",
            )
        return found
    return _draw(out, matrix_nonce, request)


def _draw(out: Path, matrix_nonce: str, request: Mapping[str, Any] | None) -> MatrixSecret:
    from provebench.sandbox._known_secrets import remember_secret

    drawn = MatrixSecret(secrets.randbelow(MAX_SEED + 1), secrets.token_hex(32))
    path = opening_path(matrix_nonce)
    path.parent.mkdir(mode=0o700, exist_ok=True)
    # Written beside and renamed: an opening left by a driver killed before its commitment was
    # signed committed nothing, and no corpus was made from it, so it is replaced.
    staged = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    descriptor = os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as handle:
        handle.write(canonical_json({"seed": drawn.seed, "nonce": drawn.nonce}))
    staged.replace(path)
    remember_secret(path)  # hidden from every candidate's runs, by its place and its bytes
    record = {
        "format": COMMITMENT_FORMAT,
        "matrix": matrix_nonce,
        "commitment": commitment(drawn.seed, drawn.nonce),
        **({} if request is None else {"request": json.loads(canonical_json(dict(request)))}),
    }
    write_and_sign(
        out / COMMITMENT_FILE,
        canonical_json(record),
        out / COMMITMENT_ENVELOPE,
        COMMITMENT_PREDICATE,
        record,
    )
    return drawn


def _committed(out: Path, matrix_nonce: str, trusted: TrustedKey) -> str:
    """The commitment signed in `out` for the matrix `matrix_nonce`."""
    signed = read_verified(out / COMMITMENT_ENVELOPE, trusted, predicate_type=COMMITMENT_PREDICATE)
    facts = signed.predicate
    if facts.get("format") != COMMITMENT_FORMAT or facts.get("matrix") != matrix_nonce:
        raise ProvebenchError(
            "not the commitment of this matrix (another matrix's nonce); start a new matrix "
            "with a new --out",
            path=out / COMMITMENT_FILE,
            field="matrix",
        )
    said = facts.get("commitment")
    if not isinstance(said, str):
        raise ProvebenchError("no commitment", path=out / COMMITMENT_FILE, field="commitment")
    return said


def committed_request(out: Path, trusted: TrustedKey) -> dict[str, Any]:
    """The request signed with the matrix's commitment, before any job ran; a commitment that
    signs none (an earlier release's) is refused: nothing then binds the job set."""
    matrix_nonce = _matrix_nonce(out)
    _committed(out, matrix_nonce, trusted)
    signed = read_verified(out / COMMITMENT_ENVELOPE, trusted, predicate_type=COMMITMENT_PREDICATE)
    request = signed.predicate.get("request")
    if not isinstance(request, dict):
        raise ProvebenchError(
            "the matrix's commitment signs no request: nothing binds which jobs it made (a "
            "matrix of an earlier release); run it again with a new --out",
            path=out / COMMITMENT_FILE,
            field="request",
        )
    return request


def _read_opening(path: Path, out: Path) -> MatrixSecret:
    if not os.path.lexists(path):
        raise ProvebenchError(
            f"the secret of this matrix's control corpora is not in the private root ({path}): "
            "its jobs cannot be run again on the committed corpora; start a new matrix with a "
            "new --out",
            path=out / COMMITMENT_FILE,
        )
    return _opening_of(read_json_file(path), path)


def _opening_of(value: object, path: Path) -> MatrixSecret:
    seed = value.get("seed") if isinstance(value, dict) else None
    nonce = value.get("nonce") if isinstance(value, dict) else None
    if type(seed) is not int or not isinstance(nonce, str) or not 0 <= seed <= MAX_SEED:
        raise ProvebenchError("no seed and nonce", path=path, field="seed")
    return MatrixSecret(seed, nonce)


def reveal_matrix(out: Path, public_seeds: list[int], trusted: TrustedKey) -> dict[str, Any]:
    """Publish the matrix's opening, signed (`reveal.json`), once every job ended with a
    verified verdict, with each public seed's generator seed; the private copy is removed."""
    matrix_nonce = _matrix_nonce(out)
    committed = _committed(out, matrix_nonce, trusted)
    path = opening_path(matrix_nonce)
    found = _read_opening(path, out)
    if commitment(found.seed, found.nonce) != committed:
        raise ProvebenchError(
            "the matrix's secret does not open its commitment", path=out / COMMITMENT_FILE
        )
    record = {
        "format": REVEAL_FORMAT,
        "matrix": matrix_nonce,
        "commitment": committed,
        "seed": found.seed,
        "nonce": found.nonce,
        "generator_seeds": {str(s): found.generator_seed(s) for s in sorted(public_seeds)},
    }
    write_and_sign(
        out / REVEAL_FILE, canonical_json(record), out / REVEAL_ENVELOPE, REVEAL_PREDICATE, record
    )
    path.unlink(missing_ok=True)  # published: no longer the laboratory's secret
    return record


def revealed_secret(out: Path, trusted: TrustedKey) -> MatrixSecret:
    """The published opening of a revealed matrix, checked against its signed commitment."""
    matrix_nonce = _matrix_nonce(out)
    committed = _committed(out, matrix_nonce, trusted)
    facts = read_verified(out / REVEAL_ENVELOPE, trusted, predicate_type=REVEAL_PREDICATE).predicate
    if facts.get("format") != REVEAL_FORMAT or facts.get("matrix") != matrix_nonce:
        raise ProvebenchError("not this matrix's reveal", path=out / REVEAL_FILE, field="matrix")
    found = _opening_of(facts, out / REVEAL_FILE)
    if facts.get("commitment") != committed or commitment(found.seed, found.nonce) != committed:
        raise ProvebenchError(
            "the revealed secret does not open the matrix's commitment",
            path=out / REVEAL_FILE,
            field="commitment",
        )
    return found


def _matrix_nonce(out: Path) -> str:
    from provebench.matrix._engine import MANIFEST_FILE

    nonce = read_json_file(out / MANIFEST_FILE).get("nonce")
    if not isinstance(nonce, str):
        raise ProvebenchError("the matrix has no nonce", path=out / MANIFEST_FILE, field="nonce")
    return nonce


__all__ = [
    "COMMITMENT_ENVELOPE",
    "COMMITMENT_FILE",
    "REVEAL_ENVELOPE",
    "REVEAL_FILE",
    "MatrixSecret",
    "committed_request",
    "matrix_secret",
    "opening_path",
    "reveal_matrix",
    "revealed_secret",
]
