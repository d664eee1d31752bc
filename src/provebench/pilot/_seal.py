"""The fresh hidden control as a commit–reveal (pilot §11, §16; docs/attestation.md).

Pilot §11 wants a control set generated *after* the candidate is fixed, so that nothing the
candidate was built or tuned on can be the control. `provebench pilot seal` makes that order
provable:

1. **Seal.** The candidate's identity — the sha256 of its code (`code_digest`) — is fixed first.
   Only then is a corpus seed drawn from the operating system's secure random source, with a
   random nonce, and the laboratory signs a commitment to it (`seal.json`, `seal.dsse.json`):
   `sha256("provebench.pilot.seal/1\\n" + nonce + "\\n" + seed)`. The seed and nonce stay in the
   seal folder, readable by the operator only (`.opening.json`); a sealed candidate never sees the
   folder (it is hidden like the corpus).
2. **Generate** the control corpus from the sealed seed (`pilot seal generate`), **run** the
   candidate on it, **evaluate** it with `--fresh-control SEAL`: the commitment must open, the
   corpus must be the one the seed makes, and the run's candidate code must be the sealed one.
3. **Reveal** (`pilot seal reveal`): the seed, the nonce and the control verdict's result, signed,
   for publication (pilot §16). Anyone can then check the commitment and regenerate the corpus.

Nothing here trusts the candidate: its identity is the digest of the bytes the sandbox shows,
computed by the laboratory, and the seed is unknowable to it until the reveal.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from provebench._canonical import canonical_json, write_atomic
from provebench._errors import ProvebenchError
from provebench.attest._envelope import sign_files
from provebench.attest._keys import TrustedKey, key_dir
from provebench.pilot._limits import MAX_SEED
from provebench.pilot.record._seal import (
    OPENING_FILE,
    REVEAL_ENVELOPE_FILE,
    REVEAL_FILE,
    REVEAL_PREDICATE,
    SEAL_ENVELOPE_FILE,
    SEAL_FILE,
    SEAL_FORMAT,
    SEAL_PREDICATE,
    commitment,
    open_seal,
    seal_values,
)
from provebench.sandbox._policy import absolute, code_paths_for_command, shown_to_every_candidate


@dataclass(frozen=True)
class SealedCandidate:
    identity: dict[str, str]  # spec, code_sha256
    shown: tuple[Path, ...]  # the folders a sandbox shows the candidate (the seal must not be one)


def candidate_identity(agent: str | None, agent_cmd: str | None) -> SealedCandidate:
    """The candidate as the laboratory will identify it in the run (`LoadedAgent.code_sha256`),
    computed without running it."""
    from provebench.pilot.agents._loader import builtin_agents, shipped_code_sha256
    from provebench.sandbox._candidate import code_digest, is_shipped, locate

    if (agent is None) == (agent_cmd is None):
        raise ProvebenchError("give exactly one of --agent and --agent-cmd", field="--agent")
    if agent_cmd is not None:
        from provebench.pilot.emulator._external import command_code_sha256
        from provebench.sandbox._command import resolve_command

        argv = resolve_command(agent_cmd, field="--agent-cmd")
        digest = command_code_sha256(agent_cmd, argv, ())
        shown = tuple(code_paths_for_command(argv))
        return SealedCandidate({"spec": f"cmd:{agent_cmd}", "code_sha256": digest}, shown)
    assert agent is not None
    if is_shipped(agent, builtin_agents()):
        return SealedCandidate({"spec": agent, "code_sha256": shipped_code_sha256()}, ())
    code = locate(agent, "--agent")
    digest = code_digest(code.shown, (key_dir(),), field="--agent")
    return SealedCandidate({"spec": code.spec, "code_sha256": digest}, code.shown)


def seal_candidate(out: Path, candidate: SealedCandidate, profile: str) -> dict[str, Any]:
    """Commit to a fresh control seed for `candidate` (already fixed); returns seal.json."""
    # The seed's opening lies in the seal folder, which no run can name to its sandbox as a
    # secret: so it must lie outside everything a sandbox shows.
    for folder in (*candidate.shown, *shown_to_every_candidate()):
        if absolute(out) == absolute(folder) or absolute(folder) in absolute(out).parents:
            raise ProvebenchError(
                f"the seal folder lies inside {folder}, which the candidate's sandbox shows: "
                "choose a folder outside the candidate's code, the system and provebench",
                path=out,
                field="--out",
            )
    identity = candidate.identity
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ProvebenchError("the seal folder must be new or empty", path=out, field="--out")
    try:
        out.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        raise ProvebenchError(f"cannot create: {error.strerror}", path=out) from None
    # Drawn only now, after the identity: the OS's secure random source (pilot §11 "after the
    # candidate is fixed").
    seed = secrets.randbelow(MAX_SEED + 1)
    nonce = secrets.token_hex(32)
    descriptor = os.open(out / OPENING_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as handle:
        handle.write(canonical_json({"seed": seed, "nonce": nonce}))
    sealed = {
        "format": SEAL_FORMAT,
        "candidate": identity,
        "profile": profile,
        "commitment": commitment(seed, nonce),
    }
    write_atomic(out / SEAL_FILE, canonical_json(sealed))
    sign_files(out, [SEAL_FILE], out / SEAL_ENVELOPE_FILE, SEAL_PREDICATE, sealed)
    return sealed


def generate_control(folder: Path, out: Path, trusted: TrustedKey) -> Any:
    """The control corpus of a seal: the sealed profile, the sealed seed."""
    from provebench.pilot.corpus._folder import write_corpus
    from provebench.pilot.corpus._profiles import corpus_config

    opened = open_seal(folder, trusted)
    profile = opened.sealed.get("profile")
    if profile not in ("public", "control"):
        raise ProvebenchError("unknown profile", path=folder / SEAL_FILE, field="profile")
    config = corpus_config(seed=opened.seed, profile=profile)
    return write_corpus(config, out)


def reveal(folder: Path, verdict_path: Path, trusted: TrustedKey) -> dict[str, Any]:
    """Publish the seed and the control run's result, signed (pilot §16)."""
    from provebench.attest._envelope import envelope_path_for
    from provebench.pilot.record._signing import signed_verdict

    opened = open_seal(folder, trusted)
    signed = signed_verdict(envelope_path_for(verdict_path), trusted)
    facts = signed.predicate
    corpus, agent = seal_values(facts.get("corpus")), seal_values(facts.get("agent"))
    if corpus.get("seed") != opened.seed or corpus.get("profile") != opened.sealed["profile"]:
        raise ProvebenchError(
            "the verdict is not of the sealed control corpus", path=verdict_path, field="corpus"
        )
    if agent.get("code_sha256") != opened.sealed["candidate"].get("code_sha256"):
        raise ProvebenchError(
            "the verdict is not of the sealed candidate", path=verdict_path, field="agent"
        )
    revealed = {
        "format": SEAL_FORMAT,
        "commitment": opened.sealed["commitment"],
        "seed": opened.seed,
        "nonce": opened.nonce,
        "control": {
            "verdict_sha256": signed.subjects.get(verdict_path.name),
            "laboratory_pass": facts.get("laboratory_pass") is True,
            "corpus": corpus,
        },
    }
    write_atomic(folder / REVEAL_FILE, canonical_json(revealed))
    sign_files(folder, [REVEAL_FILE], folder / REVEAL_ENVELOPE_FILE, REVEAL_PREDICATE, revealed)
    return revealed


__all__ = [
    "SealedCandidate",
    "candidate_identity",
    "generate_control",
    "reveal",
    "seal_candidate",
]
