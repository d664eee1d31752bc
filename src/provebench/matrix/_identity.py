"""A matrix candidate's identity: its spec and the digest of its code, computed without running
it, when the matrix is planned and again when its jobs are done (red team round 13, H8: a
resumed matrix kept the verdicts of code that had since changed, under the same spec).

The digest is of every byte the sandbox would show of the candidate's code folders
(`sandbox._candidate.code_listing`) but Python's caches, which change as code is imported and
which a sealed run never loads (pilot and SI alike run from a snapshot that leaves them out,
`sandbox._code_copy.snapshot_code`; red team round 13b, H5); the matrix folder and the key
folder are left out, as every sandbox hides them, and what else every job hides (`hidden`).
provebench's own agents (a built-in name, an `openai:` model's client) are provebench's code:
the digest of its package, and an `openai:` model served by `--model-cmd` adds the digest of
the server's code (`model_server_identity`). The same code gives the same identity wherever its
folder lies.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench._key_location import key_dir
from provebench.sandbox._candidate import code_digest, locate
from provebench.sandbox._policy import PACKAGE_DIR


@lru_cache(maxsize=1)
def _package_digest() -> str:
    return code_digest([PACKAGE_DIR], field="--agents", skip_caches=True)


def candidate_identity(
    spec: str, *, shipped: bool, matrix_folder: Path, hidden: Sequence[Path] = ()
) -> dict[str, str]:
    """`{"spec", "code_sha256"}` of one agent of a matrix (`shipped`: provebench's own code);
    `hidden`: what every job's sandbox hides besides the matrix and key folders."""
    if shipped:
        return {"spec": spec, "code_sha256": _package_digest()}
    code = locate(spec, "--agents")
    left_out = [p for p in (matrix_folder, key_dir(), *hidden) if p.exists()]
    return {
        "spec": spec,
        "code_sha256": code_digest(code.shown, left_out, field="--agents", skip_caches=True),
    }


def model_server_identity(model_cmd: str, *, matrix_folder: Path) -> str:
    """The digest of a `--model-cmd` server's code — the folders of the files its command names
    and its own interpreter, as `held_command` holds them — without running it: part of every
    `openai:` job's identity. A matrix rerun after the server's code changed kept the old
    verdicts, whose runs each held another server (pilot red team 27, A3)."""
    from provebench.sandbox._command import resolve_command
    from provebench.sandbox._policy import command_code_paths

    argv = resolve_command(model_cmd, field="--model-cmd")
    left_out = [p for p in (matrix_folder, key_dir()) if p.exists()]
    paths = command_code_paths(argv, field="--model-cmd")
    return code_digest(paths, left_out, field="--model-cmd", skip_caches=True)


def still_the_same(planned: dict[str, dict[str, str]], now: dict[str, dict[str, str]]) -> None:
    """Refuse a summary of candidates whose code changed while the matrix ran."""
    for agent, identity in planned.items():
        if now.get(agent) != identity:
            raise ProvebenchError(
                f"the code of agent {agent!r} changed while the matrix ran; its jobs ran "
                "another code than the one planned: no summary is written (run it again)",
                field="--agents",
            )


__all__ = ["candidate_identity", "model_server_identity", "still_the_same"]
