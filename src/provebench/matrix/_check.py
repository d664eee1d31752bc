"""What the matrix driver accepts of a finished job (red team round 13c, A3, A4).

A worker is not trusted with the outcome it reports. Anything that can reach the executor —
a process that joined an unauthenticated Dask scheduler, a worker that holds no laboratory
key — can return `{"success": true}` for a job it never ran. So the driver takes nothing from
the worker but "the job finished": it reads the job's verdict and the laboratory's signature
on it once, from the job's folder, and each kind's `JobCheck` decides from those bytes alone

* that the laboratory's key signed exactly these verdict bytes;
* that the signature names **this job, this attempt and this spec** (`job_binding`: the job's
  key, the attempt suffix the driver drew when it submitted it, unguessable and never reused,
  and the digest of every field of the spec the worker ran), so a genuine signed verdict of
  another job, another agent, other options or an earlier attempt is refused;
* that the verdict is of what the job was planned to run: the candidate's code digest, the
  corpus or the scenario bytes;

and derives every outcome field the summary counts (success, status, metrics, escrow, sealed)
from the verified verdict. A job that fails any of it is a harness fault with the reason, never
the agent's pass or fail. The driver then signs its record of the job over the bytes it
checked (`job.dsse.json`), so a resumed matrix keeps what the driver itself derived.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from provebench._canonical import canonical_json, sha256_bytes
from provebench.matrix._jobs import JobSpec

if TYPE_CHECKING:
    from provebench.attest._keys import TrustedKey

# The signed predicate's field that names the job and attempt a verdict was made for.
BINDING_FIELD = "matrix_job"


class JobRejected(Exception):
    """The job's files do not show the outcome the laboratory vouches for (one-line reason)."""


@dataclass(frozen=True)
class CheckedJob:
    """A job's outcome as derived from its verified verdict, and the sha256 of each file it
    was derived from (name inside the job's folder -> digest of the bytes checked)."""

    outcome: dict[str, Any]
    subjects: dict[str, str] = field(default_factory=dict)


# Reads one file of the job's folder, once (None: absent).
JobReader = Callable[[str], bytes | None]


# A kind's check: (the job, a reader of its folder, the laboratory's key) -> what it holds.
JobCheck = Callable[[JobSpec, JobReader, "TrustedKey"], CheckedJob]


def job_binding(spec: JobSpec) -> dict[str, str]:
    """What a job's signed verdict must name: the job, the driver's attempt, and the sha256 of
    the whole spec the worker ran — agent, parameters, identity, folder — so that a verdict of
    the right job and attempt run with another agent or other options is refused (red team
    round 14, H1: a rogue worker handed an honest, key-holding worker the `noop` job's key and
    attempt with the `reference` agent; the two share provebench's code digest)."""
    return {"job": spec.key, "attempt": spec.attempt, "spec_sha256": spec_sha256(spec)}


def spec_sha256(spec: JobSpec) -> str:
    """The sha256 of the spec's canonical JSON: every field, as the driver issued it."""
    return sha256_bytes(canonical_json(dataclasses.asdict(spec)).encode("utf-8"))


def read_required(read: JobReader, *names: str) -> dict[str, bytes]:
    """Each named file of the job's folder, read once; a missing one rejects the job."""
    found: dict[str, bytes] = {}
    for name in names:
        data = read(name)
        if data is None:
            raise JobRejected(f"the job wrote no {name}")
        found[name] = data
    return found


@dataclass(frozen=True)
class SignedVerdict:
    """A job's verdict as read once, and what the laboratory's signature over it states."""

    data: bytes  # the verdict's bytes, exactly those the signature covers
    sha256: str
    facts: dict[str, Any]  # the signed predicate
    subjects: dict[str, str]  # the verdict and its envelope -> sha256 of the bytes checked


def signed_verdict(
    spec: JobSpec,
    read: JobReader,
    trusted: TrustedKey,
    *,
    verdict: str,
    envelope: str,
    predicate_type: str,
) -> SignedVerdict:
    """The job's `verdict` and its `envelope`, each read once: the laboratory's key must have
    signed exactly those verdict bytes, for this job, attempt and spec (`require_bound`); what
    a kind's check goes on to judge (`JobRejected` or `AttestationError` otherwise)."""
    from provebench.attest._envelope import statement_of

    files = read_required(read, verdict, envelope)
    signed = statement_of(
        files[envelope], Path(spec.folder) / envelope, trusted, predicate_type=predicate_type
    )
    digest = require_subject(signed.subjects, verdict, files[verdict])
    require_bound(spec, signed.predicate)
    subjects = {verdict: digest, envelope: sha256_bytes(files[envelope])}
    return SignedVerdict(files[verdict], digest, signed.predicate, subjects)


def require_bound(spec: JobSpec, predicate: Mapping[str, Any]) -> None:
    """Reject a verdict signed for another job or another attempt of this one."""
    if predicate.get(BINDING_FIELD) != job_binding(spec):
        raise JobRejected(
            "its verdict was signed for another job or attempt (a replayed or foreign verdict)"
        )


def require_subject(subjects: Mapping[str, str], name: str, data: bytes) -> str:
    """The sha256 of `data`, which the signature must cover under `name`."""
    digest = sha256_bytes(data)
    if subjects.get(name) != digest:
        raise JobRejected(f"its {name} is not the one the laboratory signed")
    return digest


def require_planned_code(spec: JobSpec, ran: object) -> None:
    """Reject a verdict of code other than the candidate's the matrix was planned for."""
    planned = spec.identity.get("candidate", {}).get("code_sha256")
    if planned is not None and ran != planned:
        raise JobRejected(
            f"its verdict names code {str(ran)[:16]}, not the planned candidate's "
            f"{str(planned)[:16]}"
        )


__all__ = [
    "BINDING_FIELD",
    "CheckedJob",
    "JobCheck",
    "JobReader",
    "JobRejected",
    "job_binding",
    "read_required",
    "require_bound",
    "require_planned_code",
    "require_subject",
    "spec_sha256",
]
