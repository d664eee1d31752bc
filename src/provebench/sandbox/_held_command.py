"""An external command's code as every launch of it shows it: walked, snapshotted and held.

Every program the laboratory starts on the candidate's side — an importer (`--agent-cmd`,
`--agent path.py:Class`), an SI agent, a `--model-cmd` model server — shows its code through
one decision and one walk: `policy_for` decides what may be shown at all, then `snapshot_code`
walks it once (`read_shown`: a mount point, a host source by the mount table, a hard link of a
file named outside the code (`_other_names`) or of a secret, a secret's bytes under another
name, a private root, a never-shown path by real path and identity, each refused in one line)
and holds the bytes it read in sealed memory; the launch shows those bytes where the code was.
What runs is what was checked, whatever is mounted, linked or moved into the folder afterwards.

A model server's folder was once shown live, from the policy alone, and never walked: a bind of
the key folder into it put the laboratory's private key into a signed run's diagnostics (pilot
red team 25, A7c; A7a, A7b, A4: a hard link to `/etc/hostname`, a bind of `/etc`, a seal's
opening moved under the folder).

The interpreter is looked up once. A second look-up after the walk, whose finds outside the
held code were bound live from disk, showed an interpreter installation planted between the two
— never walked, held or sealed — and ran it in every cycle of a sealed fresh control (pilot red
team 27, A2; A1b–f: `/etc/shadow` and the private key through a model server's). So every path a
launch shows of the candidate's is held; only what every candidate is shown (the system,
provebench's interpreter and package) is bound from the host, and the policy is refused
otherwise (`refuse_live_candidate_mounts`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from provebench.sandbox._code_copy import Listing, snapshot_code
from provebench.sandbox._containment import lies_inside
from provebench.sandbox._held_code import HeldCode
from provebench.sandbox._limits import DEFAULT_LIMITS, Limits
from provebench.sandbox._manifest import checked_environment_digest
from provebench.sandbox._policy import (
    NETWORK_NONE,
    SandboxPolicy,
    command_code_paths,
    policy_for,
    shown_to_every_candidate,
)
from provebench.sandbox._python_command import refuse_unheld_module


@dataclass(frozen=True)
class HeldCommand:
    """The policy every launch of a command runs under (its code shown from `policy.held`), and
    the listing of the snapshot (what the run's identity digests)."""

    policy: SandboxPolicy
    listing: Listing


def held_command(
    argv: Sequence[str],
    secrets: Mapping[str, Path],
    *,
    field: str,
    resources: contextlib.ExitStack | None,
    limits: Limits = DEFAULT_LIMITS,
    network: str = NETWORK_NONE,
    shown: Sequence[Path] | None = None,
    sources: Mapping[Path, Path] | None = None,
    sealed: Listing | None = None,
) -> HeldCommand:
    """`argv`'s code — the folders of the files it names and its own interpreter
    (`command_code_paths`, looked up once, here), or `shown` from `sources` (a seal's copy,
    checked against the `sealed` listing) — walked and held for the run (`snapshot_code`,
    released when `resources` closes). Nothing else of the candidate's is shown: the rest of
    its interpreter, provebench's own or the system's, is shown as every candidate is shown it.
    One line naming `field` for what may not be shown."""
    # provebench's environment checked (and its digest's walk made) before any policy is built:
    # the policy shows every `__pycache__` that walk found empty (`_policy.shown_empty_caches`).
    checked_environment_digest(field=field)
    code = list(command_code_paths(argv, field=field) if shown is None else shown)
    if not sources:  # a seal's copy was checked when sealed (`pilot._seal.candidate_identity`)
        refuse_unheld_module(argv, code, field=field)

    def policy(copies: Mapping[Path, Path], held: HeldCode | None = None) -> SandboxPolicy:
        return policy_for(
            code,
            secrets,
            limits=limits,
            network=network,
            field_name=field,
            copies=copies,
            held=held,
        )

    snapshot = snapshot_code(
        code, policy(sources or {}).hidden, resources, field=field, sources=sources,
        sealed=sealed,
    )  # fmt: skip
    held = policy(snapshot.copies, snapshot.held)
    refuse_live_candidate_mounts(held)
    return HeldCommand(held, snapshot.listing)


def refuse_live_candidate_mounts(policy: SandboxPolicy) -> None:
    """Every path a launch of held code binds from the host is one every candidate is shown
    (`shown_to_every_candidate`); anything else of the candidate's comes from the held snapshot
    only, never a live folder (pilot red team 27, A2). A breach is the laboratory's own fault,
    never the candidate's: a RuntimeError, before anything is launched."""
    shared = shown_to_every_candidate()
    for path in policy.code:
        if policy.held is not None and path in policy.held:
            continue
        if not any(lies_inside(path, folder) for folder in shared):
            raise RuntimeError(f"{path} would be shown live from disk, not from the held code")


__all__ = ["HeldCommand", "held_command", "refuse_live_candidate_mounts"]
