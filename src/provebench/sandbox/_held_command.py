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
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from provebench.sandbox._code_copy import Listing, snapshot_code
from provebench.sandbox._held_code import HeldCode
from provebench.sandbox._limits import DEFAULT_LIMITS, Limits
from provebench.sandbox._policy import (
    NETWORK_NONE,
    SandboxPolicy,
    command_code_paths,
    interpreter_paths,
    outside_held_code,
    policy_for,
)


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
    (`command_code_paths`), or `shown` from `sources` (a seal's copy, checked against the
    `sealed` listing) — walked and held for the run (`snapshot_code`, released when `resources`
    closes); the rest of its interpreter, which is provebench's own or the system's, is shown as
    every candidate is shown it. One line naming `field` for what may not be shown."""
    code = list(command_code_paths(argv, field=field) if shown is None else shown)
    # What the held code holds is shown from it only: a folder inside it bound again from the
    # host would cover the held bytes with the folder's current ones.
    program = Path(argv[0])
    interpreter = outside_held_code(
        interpreter_paths(program, field=field) if os.sep in argv[0] else [], code
    )

    def policy(copies: Mapping[Path, Path], held: HeldCode | None = None) -> SandboxPolicy:
        return policy_for(
            [*interpreter, *code],
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
    return HeldCommand(policy(snapshot.copies, snapshot.held), snapshot.listing)


__all__ = ["HeldCommand", "held_command"]
