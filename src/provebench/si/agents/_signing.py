"""The laboratory's signature on an SI run (docs/attestation.md, "SI runs and suites").

A verdict is a pure function of its evidence (SI §1), so whoever can edit `evidence.json` can
buy any verdict `si score` will then print: the audit log and the state snapshots that safety
and the path primitives read are plain JSON once written. When provebench recorded the evidence
itself — `si run`, `si serve`, each scenario of `si suite`, where the simulator, never the agent,
writes the audit log — the laboratory signs what it recorded: `run.dsse.json` covers
`evidence.json`, `evidence.oasis.json` and `verdict.json`, and its predicate repeats what the
verdict rests on: the scenario (id, version, the scenario file's sha256), the agent as it was
identified and isolated, and the outcome. `provebench attest verify OUT/run.dsse.json` checks it
without rerunning anything.

Evidence recorded elsewhere (an Inspect log, an OASIS runner's artifact) is scored, never signed:
provebench did not see it happen.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from provebench import __version__
from provebench._canonical import canonical_json, sha256_bytes
from provebench._errors import ProvebenchError
from provebench._read_once import HeldBytes, read_once
from provebench.evidence import Evidence
from provebench.matrix._check import BINDING_FIELD
from provebench.si.scenario._scenario import Scenario
from provebench.si.scoring._safety import ScenarioVerdict
from provebench.si.scoring._verdict import Verdict

if TYPE_CHECKING:
    from provebench.attest._keys import TrustedKey

RUN_ENVELOPE_FILE: Final = "run.dsse.json"
SI_RUN_PREDICATE: Final = "urn:provebench:si-run:1"


def outcome_of(verdict: Verdict | ScenarioVerdict) -> dict[str, Any]:
    """What the verdict concluded, in the words of its kind: a band and a score (Form B), a
    status and, for capability, a score (Form A); and whether the agent was sealed, so that a
    signed score of an unsealed face (an MCP client that may have read the scenario) never
    reads as a sealed one."""
    if isinstance(verdict, Verdict):
        if verdict.provider_failure is not None:  # not scored (Core §3.6-3.7): no band
            return {"status": "PROVIDER_FAILURE", "sealed": verdict.sealed}
        return {"band": verdict.band, "score": verdict.score, "sealed": verdict.sealed}
    return {"status": verdict.status, "score": verdict.score, "sealed": verdict.sealed}


def run_predicate(
    scenario: Scenario,
    scenario_file_sha256: str,
    evidence: Evidence,
    verdict: Verdict | ScenarioVerdict,
    suite: Mapping[str, Any] | None = None,
    code_sha256: str = "",
    matrix_job: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """What the run's signature says it rests on; `suite`, for a run a suite started, names
    that suite (its nonce, agent and configuration: `si/suite/_runner.py:suite_identity`), so
    that a resumed suite keeps only its own runs (red team round 13, H1); `code_sha256`, for a
    sealed class, the digest of the snapshot of its code the run showed it (red team round
    13b, H1); `matrix_job`, for a matrix's job, the job and the driver's attempt it was run
    for, which the driver requires before it counts the run (red team round 13c, A3)."""
    metadata = evidence.metadata
    return {
        "recorded_by": f"provebench {__version__} SI simulator",
        "scenario": {
            "id": scenario.id,
            "version": scenario.version,
            "file_sha256": scenario_file_sha256,
        },
        "agent": {
            "name": metadata.agent_name,
            "version": metadata.agent_version,
            "identity_source": metadata.agent_identity_source,
            "isolation": metadata.agent_isolation,
            "model": metadata.model,
            **({"code_sha256": code_sha256} if code_sha256 else {}),
        },
        "outcome": outcome_of(verdict),
        **({} if suite is None else {"suite": dict(suite)}),
        **({} if matrix_job is None else {BINDING_FIELD: dict(matrix_job)}),
    }


def sign_si_run(out_dir: Path, written: Mapping[str, bytes], predicate: dict[str, Any]) -> Path:
    """Sign the run's files — `written` maps each name inside `out_dir` to the bytes the
    laboratory wrote there — and return the envelope's path.

    The digests are of the bytes in memory, never of the files read back: `si serve`'s MCP client
    runs unsandboxed as the same user, and a file it rewrote between the write and the signature
    would otherwise be signed as the laboratory's."""
    # The signing machinery is imported where it signs: re-scoring signs nothing.
    from provebench.attest._envelope import write_signed

    subjects = {name: sha256_bytes(data) for name, data in written.items()}
    return write_signed(out_dir / RUN_ENVELOPE_FILE, subjects, SI_RUN_PREDICATE, predicate)


def signature_problem(
    out_dir: Path,
    files: tuple[str, ...],
    trusted: TrustedKey,
    *,
    held: Mapping[str, HeldBytes] | None = None,
    suite: Mapping[str, Any] | None = None,
) -> str | None:
    """Why the run in `out_dir` is not the one the laboratory signed (None when it is): no or a
    foreign signature, a file changed since, or a signed file set that is not `files`; with
    `suite`, a run whose signed predicate does not name that suite (another agent's, another
    configuration's or another suite's run planted in the folder: red team round 13, H1).

    The envelope and each file are judged as `held` (each file's bytes read once, the envelope's
    under `RUN_ENVELOPE_FILE`), read once here where not given: a caller that goes on to use the
    files must pass the bytes it will use, so that what was checked is what is used (red team
    round 12, A9: a verdict renamed in between the check and the read was kept and signed)."""
    from provebench.attest._envelope import AttestationError, statement_of

    try:
        found = dict(held) if held is not None else {}
        for name in (RUN_ENVELOPE_FILE, *files):
            if name not in found:
                found[name] = read_once(out_dir / name)
    except ProvebenchError as error:
        return error.one_line()
    envelope = out_dir / RUN_ENVELOPE_FILE
    try:
        signed = statement_of(
            found[RUN_ENVELOPE_FILE].data, envelope, trusted, predicate_type=SI_RUN_PREDICATE
        )
    except AttestationError as error:
        return error.one_line()
    if sorted(signed.subjects) != sorted(files):
        return f"{envelope}: signs {', '.join(sorted(signed.subjects))}"
    for name in files:
        if found[name].sha256 != signed.subjects[name]:
            return f"{envelope}: subject {name} differs from the signed file"
    if suite is not None and signed.predicate.get("suite") != canonical_value(suite):
        return f"{envelope}: signed for another suite (or another agent or configuration)"
    return None


def canonical_value(value: Mapping[str, Any]) -> Any:
    """`value` as it reads back from canonical JSON (tuples as lists …), to compare with a
    signed predicate."""
    return json.loads(canonical_json(value))


__all__ = [
    "RUN_ENVELOPE_FILE",
    "SI_RUN_PREDICATE",
    "outcome_of",
    "run_predicate",
    "sign_si_run",
    "signature_problem",
]
