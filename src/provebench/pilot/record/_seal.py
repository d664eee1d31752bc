"""The seal of a fresh hidden control: its files, its commitment, and how a verdict reads it
(pilot §11, §16; docs/attestation.md).

The laboratory's `provebench pilot seal` writes a seal (`provebench.pilot._seal`); the evaluator's
`--fresh-control` reads it here, so the evaluator needs nothing of the laboratory to check that
the commitment opens and that the run is the sealed candidate's control.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from provebench._errors import ProvebenchError
from provebench._jsonfile import read_json_file
from provebench.attest._envelope import AttestationError, read_verified
from provebench.attest._keys import TrustedKey
from provebench.pilot._limits import (
    CONTROL_MIN_CYCLES,
    CONTROL_MIN_FILE_EVENTS,
    CONTROL_PROFILE,
    MAX_SEED,
)
from provebench.sandbox._isolation import ENVIRONMENT_KEY

# /2: the seal holds a read-only copy of the candidate's code (`code/`) and its listing
# (`code.json`), and runs start from that copy; a /1 seal bound less than what runs.
SEAL_FORMAT = "provebench.pilot.seal/2"
# The commitment's domain: unchanged since the first format, so a published reveal's
# commitment is recomputed as it always was.
COMMITMENT_DOMAIN = "provebench.pilot.seal/1"
# The walk of the candidate's code a seal's copy was read through (`sandbox._candidate.
# read_shown`), recorded in seal.json's `code.walk`. A copy holds bytes only: what the walk
# refused by identity when it read them (a hard link of a file named outside the code, a bind
# of a host file, a pseudo file system's file) cannot be told from the copy afterwards, so a
# seal is trusted only when the walk that made it is the current one, never by the paths it
# names. A new value whenever the walk refuses more than it did (/1: the link-count rule of
# issue 40, `sandbox._other_names`); an older seal is refused, "reseal".
CODE_WALK = "provebench.code-walk/1"
SEAL_FILE = "seal.json"
CODE_COPY_DIR = "code"  # the copy of every byte the sandbox shows of the candidate's code
CODE_LISTING_FILE = "code.json"  # its listing: name and sha256 of each file, as sealed
SEAL_ENVELOPE_FILE = "seal.dsse.json"
OPENING_FILE = ".opening.json"  # seed and nonce: the operator's secret until the reveal
REVEAL_FILE = "reveal.json"
REVEAL_ENVELOPE_FILE = "reveal.dsse.json"
# The control record (`pilot control`): the manifest sha256 of the one corpus that is the seal's
# fresh control. The seed and profile alone do not name it: `pilot generate --seed S --zone …`
# makes other corpora of the same seed and profile (pilot §11: *the* control set).
CONTROL_FORMAT = "provebench.pilot.control/1"
CONTROL_FILE = "control.json"
CONTROL_ENVELOPE_FILE = "control.dsse.json"
SEAL_PREDICATE = "urn:provebench:pilot-seal:1"
REVEAL_PREDICATE = "urn:provebench:pilot-reveal:1"
CONTROL_PREDICATE = "urn:provebench:pilot-control:1"
# Where the run's identity records that it ran from a seal's copy of the candidate's code
# (`pilot run --from-seal`): the seal's commitment, under the run's `isolation`.
FROM_SEAL_KEY = "from_seal"


def environment_problem(sealed: dict[str, Any], isolation: object) -> str | None:
    """Why a run's recorded environment is not the seal's, or None: provebench's environment
    by its bytes (`sandbox._manifest`), which a run from the seal must share — code added to it
    after the seal ran with the sealed candidate unsealed (pilot red team 30, A1, A2, A8)."""
    wanted = sealed.get(ENVIRONMENT_KEY)
    if not isinstance(wanted, str):
        return "the seal binds no environment digest: seal the candidate again"
    if seal_values(isolation).get(ENVIRONMENT_KEY) != wanted:
        return (
            "the run's provebench environment is not the one sealed (its environment_sha256 "
            "differs, or it records none)"
        )
    return None


def commitment(seed: int, nonce: str) -> str:
    return hashlib.sha256(f"{COMMITMENT_DOMAIN}\n{nonce}\n{seed}".encode("ascii")).hexdigest()


@dataclass(frozen=True)
class OpenedSeal:
    sealed: dict[str, Any]
    seed: int
    nonce: str
    revealed: dict[str, Any] | None  # the signed reveal, when published
    control_manifest: str | None  # the control corpus's manifest sha256, once `pilot control` ran
    # The sha256 of each signed file this opening rests on (seal.json, and control.json and
    # reveal.json when there are), as the verified signatures bind them: the bytes checked, so
    # a verdict names the seal that decided, never a later read of the folder (red team round
    # 13, H7: a seal.json swapped after the check was named by a second read).
    verified_sha256: dict[str, str]


def open_seal(folder: Path, trusted: TrustedKey) -> OpenedSeal:
    """The seal, verified against `trusted`, and its opening (the published reveal when there
    is one, else the operator's secret); the commitment must open; the control record, when
    there is one, must be signed and of this seal, and a reveal must name its corpus. One-line
    error otherwise."""
    sealed_statement = read_verified(
        folder / SEAL_ENVELOPE_FILE, trusted, predicate_type=SEAL_PREDICATE
    )
    sealed = sealed_statement.predicate
    verified = {SEAL_FILE: _signed_digest(sealed_statement.subjects, folder, SEAL_FILE)}
    # A /1 seal still opens (published evidence stays checkable); it holds no copy of the code,
    # so no run starts from it (`pilot._seal.sealed_code`), and its digest is of fewer bytes.
    known = sealed.get("format") in (SEAL_FORMAT, COMMITMENT_DOMAIN)
    if not known or not isinstance(sealed.get("candidate"), dict):
        raise AttestationError(f"not a {SEAL_FORMAT} seal", path=folder / SEAL_FILE)
    revealed = None
    if (folder / REVEAL_ENVELOPE_FILE).exists():
        revealed_statement = read_verified(
            folder / REVEAL_ENVELOPE_FILE, trusted, predicate_type=REVEAL_PREDICATE
        )
        revealed = revealed_statement.predicate
        verified[REVEAL_FILE] = _signed_digest(revealed_statement.subjects, folder, REVEAL_FILE)
        opening: object = revealed
    else:
        opening = read_json_file(folder / OPENING_FILE)
    seed = opening.get("seed") if isinstance(opening, dict) else None
    nonce = opening.get("nonce") if isinstance(opening, dict) else None
    if type(seed) is not int or not isinstance(nonce, str) or not 0 <= seed <= MAX_SEED:
        raise ProvebenchError("the seal's opening has no seed and nonce", path=folder, field="seed")
    if commitment(seed, nonce) != sealed.get("commitment"):
        raise AttestationError(
            "the commitment does not open: the seed or nonce is not the sealed one",
            path=folder / SEAL_FILE,
            field="commitment",
        )
    control = _control_manifest(folder, trusted, sealed, verified)
    if revealed is not None and control is not None:
        revealed_corpus = seal_values(revealed.get("control")).get("corpus_manifest_sha256")
        if revealed_corpus != control:
            raise AttestationError(
                "the revealed verdict is not of the recorded control corpus",
                path=folder / REVEAL_FILE,
                field="control.corpus_manifest_sha256",
            )
    return OpenedSeal(sealed, seed, nonce, revealed, control, dict(sorted(verified.items())))


def _signed_digest(subjects: dict[str, str], folder: Path, name: str) -> str:
    """The sha256 a verified signature binds for `name` (the file it was checked against)."""
    digest = subjects.get(name)
    if digest is None:
        raise AttestationError(f"the signature does not sign {name}", path=folder / name)
    return digest


def _control_manifest(
    folder: Path, trusted: TrustedKey, sealed: dict[str, Any], verified: dict[str, str]
) -> str | None:
    """The signed control record's corpus manifest sha256 (None before `pilot control`); the
    digest of the control record it verified goes into `verified`."""
    envelope = folder / CONTROL_ENVELOPE_FILE
    if not envelope.exists() and not envelope.is_symlink():
        return None
    statement = read_verified(envelope, trusted, predicate_type=CONTROL_PREDICATE)
    record = statement.predicate
    verified[CONTROL_FILE] = _signed_digest(statement.subjects, folder, CONTROL_FILE)
    manifest = record.get("corpus_manifest_sha256")
    if (
        record.get("format") != CONTROL_FORMAT
        or record.get("commitment") != sealed.get("commitment")
        or not (isinstance(manifest, str) and len(manifest) == 64)
    ):
        raise AttestationError(
            "not the control record of this seal", path=folder / CONTROL_FILE, field="commitment"
        )
    return manifest


def fresh_control_finding(
    folder: Path,
    trusted: TrustedKey,
    identity: dict[str, Any],
    laboratory_pass: bool,
    ledger_head: str | None,
    unverified_resume: str | None = None,
    opened: OpenedSeal | None = None,
) -> tuple[bool, str]:
    """Whether the evaluated run shows the sealed candidate passing its fresh control, and why.

    The control is one corpus, named by its manifest sha256 in the signed control record
    (`pilot control`), not by its seed and profile, which other corpora share. Before the
    reveal, a run of the sealed candidate on exactly that corpus *is* the control: its own
    laboratory gate decides. Once revealed, only the revealed run counts (by its log head): the
    seed is public, so no later run on the control corpus is fresh, and every other run of the
    candidate takes the revealed result. `opened`: the seal as the caller opened it (once, with
    `trusted`), judged instead of opening the folder again."""
    if opened is None:
        opened = open_seal(folder, trusted)
    walk = code_walk_problem(opened.sealed)
    if walk is not None:
        return False, walk
    agent, corpus = seal_values(identity.get("agent")), seal_values(identity.get("corpus"))
    mismatch = identity_mismatch(opened.sealed["candidate"], agent)
    if mismatch is not None:
        return False, mismatch
    # Only a run of the seal's own copy is the sealed candidate's: a run of its folder, even
    # byte-equal when it started, ran whatever that folder held (docs/attestation.md).
    if seal_values(identity.get("isolation")).get(FROM_SEAL_KEY) != opened.sealed["commitment"]:
        return False, (
            "the run did not run from this seal's copy of the code: only a run from the seal "
            "(pilot run --from-seal SEAL) is the sealed candidate's"
        )
    environment = environment_problem(opened.sealed, identity.get("isolation"))
    if environment is not None:
        return False, environment
    profile = opened.sealed.get("profile")
    small = control_size_problem(profile, None)
    if small is not None:
        return False, small
    if opened.control_manifest is None:
        return False, "the seal records no control corpus yet (pilot control SEAL)"
    revealed = None if opened.revealed is None else seal_values(opened.revealed.get("control"))
    if corpus.get("manifest_sha256") == opened.control_manifest:
        if revealed is not None and revealed.get("ledger_head_hash") != ledger_head:
            return False, (
                "this run on the control corpus is not the revealed control run: the seed is "
                "public since the reveal, and only the revealed run counts"
            )
        small = control_size_problem(profile, corpus) or control_seed_problem(opened, corpus)
        if small is not None:
            return False, small
        if unverified_resume is not None:
            return False, unverified_resume
        if not laboratory_pass:
            return False, "the sealed candidate did not pass the laboratory gate on its control"
        return True, "this run is the sealed fresh control, generated after the seal, and passed"
    if revealed is None:
        return False, "this run is not the sealed control, and the control is not revealed yet"
    small = control_size_problem(profile, seal_values(revealed.get("corpus")))
    if small is not None:
        return False, small
    if revealed.get("laboratory_pass") is not True:
        return False, "the revealed control run did not pass the laboratory gate"
    # Credited only from a control this laboratory ran (red team round 12b, F1): a reveal that
    # does not name its run's signer (an older one), or names another key, credits nothing.
    if revealed.get("run_signer") != trusted.keyid:
        return False, (
            "the revealed control run is not named as this laboratory's own run (its run's "
            "signer differs or is not recorded): only a control this laboratory ran is credited"
        )
    # Credited only from a control that itself earned the fresh-control credit: uninterrupted
    # (red team round 9, A1). A reveal that does not record it (an older one) credits nothing.
    if revealed.get("resumed") is not False:
        return False, (
            "the revealed control run does not record that it ran uninterrupted: only an "
            "uninterrupted control is credited; run the control again from its seal"
        )
    return True, "the revealed fresh control of the sealed candidate passed"


def code_walk_problem(sealed: dict[str, Any]) -> str | None:
    """Why a seal's copy of the code is not one the current walk read (`CODE_WALK`), as one
    line; None when it is. A seal made before the walk was recorded names none."""
    walk = seal_values(sealed.get("code")).get("walk")
    if walk == CODE_WALK:
        return None
    made_by = "records no walk of the code" if walk is None else f"was read by {walk!r}"
    return (
        f"the seal's copy of the candidate's code {made_by}, not by {CODE_WALK}, which refuses "
        "what an earlier walk copied (a hard link of a file named elsewhere); a copy cannot be "
        "judged afterwards: reseal the candidate (pilot seal)"
    )


def control_seed_problem(opened: OpenedSeal, corpus: dict[str, Any]) -> str | None:
    """Why a control run's corpus (its `seed` and `profile`, as the run's log or the corpus's
    own `corpus.json` states them) is not the one the sealed seed generates, as one line; None
    when it is. A corpus of a known seed swapped in before the control record was signed names
    its own seed (red team round 12b, K1): it is neither fresh nor hidden."""
    if corpus.get("seed") != opened.seed or corpus.get("profile") != opened.sealed.get("profile"):
        return (
            "the control corpus is not generated from the sealed seed and profile (its seed or "
            "profile differs from the seal's opening): it is not the fresh control"
        )
    return None


def control_size_problem(sealed_profile: object, corpus: dict[str, Any] | None) -> str | None:
    """Why a seal (its profile) or a control run's corpus (`profile`, `cycles`, `events` as the
    run's identity records them) is too small to be a fresh hidden control, as one line; None
    when it is one. Pilot §11 asks for at least 20 cycles and 500 file events: the `control`
    profile, never the public development one."""
    if sealed_profile != CONTROL_PROFILE:
        return (
            f"the seal's profile is {sealed_profile!r}: a fresh control needs the "
            f"{CONTROL_PROFILE} profile's size (pilot §11)"
        )
    if corpus is None:
        return None
    cycles, events = corpus.get("cycles"), corpus.get("events")
    if corpus.get("profile") != CONTROL_PROFILE:
        return f"the control corpus's profile is {corpus.get('profile')!r}, not {CONTROL_PROFILE}"
    if type(cycles) is not int or cycles < CONTROL_MIN_CYCLES:
        return f"the control corpus has {cycles!r} cycles: pilot §11 asks for {CONTROL_MIN_CYCLES}"
    if type(events) is not int or events < CONTROL_MIN_FILE_EVENTS:
        return (
            f"the control corpus has {events!r} file events: pilot §11 asks for "
            f"{CONTROL_MIN_FILE_EVENTS}"
        )
    return None


def identity_mismatch(sealed: dict[str, Any], agent: dict[str, Any]) -> str | None:
    """The first field of the candidate's full identity — its spec (module and class, or the
    command line) and the digest of every byte its sandbox showed — in which a run's agent is
    not the sealed one, as one line; None when it is the sealed candidate."""
    for field in ("spec", "code_sha256"):
        if agent.get(field) != sealed.get(field):
            return (
                f"the run's candidate is not the sealed candidate: agent.{field} differs "
                "(run it from the seal: pilot run --from-seal SEAL)"
            )
    return None


def seal_values(value: object) -> dict[str, Any]:
    """A signed document's field as a mapping (empty when it is not one)."""
    return value if isinstance(value, dict) else {}


def not_the_sealed_candidate(opening: Path, sealed_spec: str, given: str) -> ProvebenchError:
    """A run from a seal runs the sealed candidate or nothing (docs/attestation.md): the
    one-line refusal of another candidate `given` with it, naming the seal (by its opening's
    folder) and the field."""
    return ProvebenchError(
        f"the seal's candidate is {sealed_spec!r}, not {given!r}: a run from a seal runs the "
        "sealed code or nothing; nothing was run",
        path=opening.parent / SEAL_FILE,
        field="candidate.spec",
    )


__all__ = [
    "CODE_COPY_DIR",
    "CODE_LISTING_FILE",
    "CODE_WALK",
    "COMMITMENT_DOMAIN",
    "CONTROL_ENVELOPE_FILE",
    "CONTROL_FILE",
    "CONTROL_FORMAT",
    "CONTROL_PREDICATE",
    "FROM_SEAL_KEY",
    "OPENING_FILE",
    "REVEAL_ENVELOPE_FILE",
    "REVEAL_FILE",
    "REVEAL_PREDICATE",
    "SEAL_ENVELOPE_FILE",
    "SEAL_FILE",
    "SEAL_FORMAT",
    "SEAL_PREDICATE",
    "OpenedSeal",
    "code_walk_problem",
    "commitment",
    "control_seed_problem",
    "control_size_problem",
    "environment_problem",
    "fresh_control_finding",
    "identity_mismatch",
    "not_the_sealed_candidate",
    "open_seal",
    "seal_values",
]
