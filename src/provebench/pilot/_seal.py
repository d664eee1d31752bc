"""The fresh hidden control as a commit–reveal (pilot §11, §16; docs/attestation.md).

Pilot §11 wants a control set generated *after* the candidate is fixed, so that nothing the
candidate was built or tuned on can be the control. `provebench pilot seal` makes that order
provable:

1. **Seal.** The candidate is fixed first, as it will run: every byte the sandbox shows of its
   code is copied into the seal, read-only (`code/`, listed in `code.json`), and its identity
   is its spec and the digest of that copy (`code_sha256`). Only then is a corpus seed drawn
   from the operating system's secure random source, with a random nonce, and the laboratory
   signs a commitment to it (`seal.json`, `seal.dsse.json`):
   `sha256("provebench.pilot.seal/1\\n" + nonce + "\\n" + seed)`. The seed and nonce stay in the
   seal folder, readable by the operator only (`.opening.json`); a sealed candidate never sees
   the opening (the folder lies outside everything a sandbox shows, and the opening is hidden).
2. **Generate** the control corpus from the sealed seed (`pilot control SEAL --out CONTROL`),
   which records its manifest sha256 in the signed control record (`control.json`); **run** the
   candidate from the seal (`pilot run --from-seal SEAL`: its checked copy, shown where its
   code was); **evaluate** it with `pilot evaluate --fresh-control SEAL`: the seal's signature
   must verify and its commitment open, the run's corpus must be the recorded control (its
   manifest sha256 the control record's; its `corpus.json` seed and profile, checked against
   that manifest, the opening's), and the run's candidate — spec and code — must be the sealed
   one, run from the seal's copy. Nothing here regenerates the corpus from the seed: what is
   checked is the recorded manifest and the seed and profile the corpus states (a stated limit,
   docs/pilot-redteam.md, round 12b K1).
3. **Reveal** (`pilot reveal SEAL --verdict RUN/verdict.json`): the seed, the nonce and the
   control verdict's result, signed, for publication (pilot §16). Anyone can then check that
   the commitment opens, and regenerate a corpus from the seed to compare with the published
   control's manifest.

Nothing here trusts the candidate: its identity is the digest of the bytes the sandbox shows,
computed by the laboratory, and the seed is unknowable to it until the reveal.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from provebench._canonical import canonical_json, still_written, write_atomic
from provebench._errors import ProvebenchError
from provebench._jsonfile import read_json_file
from provebench.attest._envelope import write_and_sign
from provebench.attest._keys import TrustedKey
from provebench.pilot._limits import (
    CONTROL_MIN_CYCLES,
    CONTROL_MIN_FILE_EVENTS,
    CONTROL_PROFILE,
    MAX_SEED,
)
from provebench.pilot.record._seal import (
    CODE_COPY_DIR,
    CODE_LISTING_FILE,
    CODE_WALK,
    CONTROL_ENVELOPE_FILE,
    CONTROL_FILE,
    CONTROL_FORMAT,
    CONTROL_PREDICATE,
    FROM_SEAL_KEY,
    OPENING_FILE,
    REVEAL_ENVELOPE_FILE,
    REVEAL_FILE,
    REVEAL_PREDICATE,
    SEAL_ENVELOPE_FILE,
    SEAL_FILE,
    SEAL_FORMAT,
    SEAL_PREDICATE,
    code_walk_problem,
    commitment,
    control_seed_problem,
    control_size_problem,
    environment_problem,
    identity_mismatch,
    open_seal,
    seal_values,
)
from provebench.sandbox import _policy
from provebench.sandbox._code_copy import SealedCode
from provebench.sandbox._containment import real_path
from provebench.sandbox._environment import refuse_foreign_environment
from provebench.sandbox._isolation import ENVIRONMENT_KEY
from provebench.sandbox._known_secrets import remember_secret, remember_secret_marks
from provebench.sandbox._manifest import environment_digest, refuse_changed_environment
from provebench.sandbox._policy import (
    code_paths_for_command,
    command_code_paths,
    hidden_from_every_candidate,
    program_outside,
    shown_to_every_candidate,
)


@dataclass(frozen=True)
class SealedCandidate:
    identity: dict[str, str]  # spec, code_sha256
    shown: tuple[Path, ...]  # the code a sandbox shows the candidate (the seal must not be in it)
    path_entry: str = ""  # a class's import path entry
    argv: tuple[str, ...] = ()  # a command's argv, resolved
    # Shown to every run of the candidate besides its code (its interpreter): never copied.
    also_shown: tuple[Path, ...] = ()


def _hidden_when_sealing() -> list[Path]:
    # What every sandbox hides whatever the run — the very set `policy_for` hides — is never
    # copied into a seal (pilot red team round 17, A1 and A6).
    return hidden_from_every_candidate()


def candidate_identity(agent: str | None, agent_cmd: str | None) -> SealedCandidate:
    """The candidate as the laboratory will identify it in a run from its seal
    (`LoadedAgent.code_sha256`): the spec, and every byte the sandbox shows of its code but
    Python's caches (which a seal never copies), computed without running it."""
    from provebench.pilot.agents._loader import builtin_agents, shipped_code_sha256
    from provebench.sandbox._candidate import is_shipped, listing_digest, locate

    if (agent is None) == (agent_cmd is None):
        raise ProvebenchError("give exactly one of --agent and --agent-cmd", field="--agent")
    if agent is not None:
        refuse_a_model_endpoint(agent, field="--agent")
    if agent_cmd is not None:
        from provebench.pilot.emulator._external import command_digest
        from provebench.sandbox._command import resolve_command
        from provebench.sandbox._python_command import refuse_unheld_module

        argv = resolve_command(agent_cmd, field="--agent-cmd")
        # Its code and its own interpreter (a venv's site-packages, `.pth` files, pyvenv.cfg):
        # all the candidate's process can load that is not the system's or provebench's (red
        # team round 16, A2: `venv/bin/python -m MOD` sealed only `venv/bin`).
        folders = command_code_paths(argv)
        refuse_unheld_module(argv, folders, field="--agent-cmd")
        outside = program_outside(argv, folders)
        if outside is not None:
            # A run shows only the seal's copy: a program leading elsewhere runs whatever is
            # placed there later, never sealed bytes (pilot red team 27, A2).
            raise ProvebenchError(
                f"the program leads to {outside}, outside the candidate's code, the system and "
                "provebench's interpreter: a seal cannot hold it — name the interpreter itself",
                field="--agent-cmd",
            )
        listing = _launchable_listing(folders, "--agent-cmd")
        digest = command_digest(agent_cmd, listing_digest(listing))
        return SealedCandidate(
            {"spec": f"cmd:{agent_cmd}", "code_sha256": digest},
            tuple(folders),
            argv=tuple(argv),
            also_shown=tuple(code_paths_for_command(argv)),
        )
    assert agent is not None
    if is_shipped(agent, builtin_agents()):
        _refuse_missing_shipped_module(agent, builtin_agents())
        return SealedCandidate({"spec": agent, "code_sha256": shipped_code_sha256()}, ())
    code = locate(agent, "--agent")
    _refuse_lone_module_in_shared_folder(code.shown, code.path_entry)
    _refuse_code_every_sandbox_shows(code.shown)
    digest = listing_digest(_launchable_listing(code.shown, "--agent"))
    _refuse_what_the_sandbox_refuses(agent)
    return SealedCandidate({"spec": code.spec, "code_sha256": digest}, code.shown, code.path_entry)


def _refuse_what_the_sandbox_refuses(agent: str) -> None:
    """The candidate's class read as every run of the seal reads it: loaded in the sandbox by
    its loader (`agents._worker`, mode `identify`, from a snapshot of its code), and refused in
    the loader's one line when it is or is made from provebench's model client or a relay
    (pilot red team 33, A3: `class Model(OpenAIImporter)` in the candidate's own file was
    sealed, and only its run refused it). The laboratory never imports the candidate's module,
    at a seal as at a run. A class that fails to load otherwise is still sealed, and refused
    by its run, as before (a limit, docs/attestation.md)."""
    from provebench.pilot.agents._no_candidate import HoldsNoCandidate
    from provebench.pilot.agents._sandboxed import NotLoaded, sandboxed_agent

    with contextlib.ExitStack() as resources:
        try:
            sandboxed_agent(agent, secrets={}, resources=resources)
        except HoldsNoCandidate:
            raise
        except NotLoaded:
            return  # the run's to report, in its own line; a sandbox that cannot start is not


MODEL_NOT_SEALABLE = (
    "an openai: candidate is the model behind its endpoint, which no seal holds: sealed, "
    "it would name the client's code (provebench's, the SDK's) as the candidate; a model's "
    "fresh control cannot be sealed (docs/attestation.md, 'What a seal can hold')"
)


RELAY_NOT_SEALABLE = (
    "a relay of provebench's (the MCP desk of `pilot serve --mcp`, the sandbox's relay) holds "
    "no candidate code: its candidate is the client or program it relays to, which no seal "
    "holds (docs/attestation.md, 'What a seal can hold')"
)


def refuse_a_model_endpoint(spec: str, *, field: str, path: Path | None = None) -> None:
    """A seal fixes the candidate's code before the control's seed is drawn (pilot §11). An
    `openai:MODEL` candidate's deciding part is the model, served by whatever answers its
    endpoint (or by a `--model-cmd` server, whose files `pilot seal` does not copy): nothing a
    seal could copy is the candidate, and the spec read as `module:Class` names the installed
    SDK's package. Refused in one line, at sealing and at every use of a seal (an older build
    sealed such a spec), never recorded as a sealed identity (docs/sandbox.md, the trust
    boundary: what the operator runs outside the sandbox is never provebench's own code)."""
    from provebench.llm._endpoint import is_openai_spec

    if is_openai_spec(spec) or _names_a_model_client(spec):
        raise ProvebenchError(MODEL_NOT_SEALABLE, path=path, field=field)
    if _names_a_relay(spec):
        raise ProvebenchError(RELAY_NOT_SEALABLE, path=path, field=field)


def _names_a_model_client(spec: str) -> bool:
    """`module:Class` of provebench's own package whose class is the model client
    (`OpenAIImporter`, or a class made from it), however the module is spelled: judged by the
    class, not the text (pilot red team 27, A6: `provebench.pilot.agents._openai:OpenAIImporter`
    was sealed), by the rule the sandbox's loader applies (`agents._no_candidate.made_from`).
    Only provebench's own modules are imported to look; a candidate's own class is read in the
    sandbox (`_refuse_what_the_sandbox_refuses`)."""
    from provebench.pilot.agents._no_candidate import MODEL_CLIENT, made_from, no_candidate_classes

    held = no_candidate_classes(MODEL_CLIENT)
    return made_from(_shipped_class(spec), MODEL_CLIENT, held) is not None


def _names_a_relay(spec: str) -> bool:
    """`module:Class` of provebench's own package whose class relays a cycle to a candidate
    outside it: the MCP desk (`pilot serve --mcp`, whose candidate is the outside MCP client and
    the model behind it) and the sandbox's relay to a sealed candidate. Judged by the class, as
    `_names_a_model_client` judges the model client (pilot red team 31, A5:
    `provebench.pilot.agents._mcp_serve:DeskImporter` was sealed)."""
    from provebench.pilot.agents._no_candidate import RELAYS, made_from, no_candidate_classes

    return made_from(_shipped_class(spec), RELAYS, no_candidate_classes(RELAYS)) is not None


def _shipped_class(spec: str) -> object:
    """The object `spec` names in provebench's own package (not a built-in agent's name), or
    None: only provebench's own modules are imported to look."""
    from provebench.pilot.agents._loader import builtin_agents
    from provebench.sandbox._candidate import is_shipped

    if spec in builtin_agents() or not is_shipped(spec, builtin_agents()):
        return None
    module, _, name = spec.rpartition(":")
    try:
        return getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None  # refused as a module that does not exist (`_refuse_missing_shipped_module`)


def _launchable_listing(shown: Sequence[Path], field: str) -> list[tuple[str, str]]:
    """The candidate's code as every run of the seal will hold it, refused in one line before
    anything is written when no sandbox could show it (`check_launchable`): a seal must never
    succeed for code no run can launch."""
    from provebench.sandbox._candidate import code_listing
    from provebench.sandbox._held_code import check_launchable

    listing = code_listing(shown, _hidden_when_sealing(), field=field, skip_caches=True)
    if not any(entry.startswith(HELD_FILE_KINDS) for _, entry in listing):
        # A seal holding no file binds no code: whatever runs under the command later is "the
        # sealed candidate" (pilot red team 28, H5: `python -m MOD`, code.json `{"files": []}`).
        raise ProvebenchError(
            "the candidate's code holds no file: a seal of it would hold nothing of what runs; "
            "name the candidate's own program file or module",
            field=field,
        )
    check_launchable(listing, shown, field=field)
    return listing


HELD_FILE_KINDS = ("file:", "exec:")


def _refuse_missing_shipped_module(agent: str, builtins: dict[str, str]) -> None:
    """A `module:Class` of provebench's own package is sealed as provebench's code, so it must
    be some: a module that does not exist is a seal no run can launch (pilot red team round 17,
    A2). Found, not imported (`find_spec`: only its parent packages, provebench's own, load)."""
    if agent in builtins:
        return
    module = agent.rpartition(":")[0]
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        found = None
    if found is None:
        raise ProvebenchError(
            f"no module {module!r} in provebench's package; give a built-in name or the "
            "candidate's own module:Class or path.py:Class",
            field="--agent",
        )


def _refuse_code_every_sandbox_shows(shown: tuple[Path, ...]) -> None:
    """A `module:Class` that resolves inside what every sandbox shows — provebench's own
    interpreter (its venv's `site-packages`: `openai._client:OpenAI`), its package, the system —
    is not the candidate's code: sealed, it named an installed package as the candidate (pilot
    red team round 17, A2). Refused in one line."""
    from provebench.sandbox._containment import lies_inside

    for path in shown:
        for shared in shown_to_every_candidate():
            if lies_inside(path, shared):
                raise ProvebenchError(
                    f"the module lies in {shared}, which every sandbox shows (provebench's "
                    "interpreter, its package, the system): not a candidate's own code; seal "
                    "the candidate's module:Class or path.py:Class from a folder of its own",
                    path=path,
                    field="--agent",
                )


def _refuse_lone_module_in_shared_folder(shown: tuple[Path, ...], path_entry: str) -> None:
    """A `module:Class` whose module is one file is sealed as that file alone; when its folder
    is one every sandbox shows (provebench's interpreter's site-packages, the system), the
    modules beside it are importable by the sealed run but neither copied nor identified: one
    edited after sealing changes what the sealed candidate does. Refused, not sealed."""
    from provebench.sandbox._containment import lies_inside

    if len(shown) != 1 or not path_entry or real_path(shown[0]).is_dir():
        return  # a package folder, or a path.py:Class (whose whole folder is sealed)
    folder = Path(path_entry)
    for shared in shown_to_every_candidate():
        if lies_inside(folder, shared):
            raise ProvebenchError(
                f"the module is a lone file in {folder}, which every sandbox shows: the modules "
                "beside it would run unsealed; seal a package folder (with __init__.py) or "
                "give path.py:Class from a folder of its own",
                path=shown[0],
                field="--agent",
            )


def seal_candidate(out: Path, candidate: SealedCandidate, profile: str) -> dict[str, Any]:
    """Commit to a fresh control seed for `candidate` (already fixed), with a read-only copy of
    its code that every run of the seal starts from; returns seal.json."""
    from provebench._paths import check_output_dir
    from provebench.sandbox._code_copy import copy_code
    from provebench.sandbox._containment import lies_inside

    # provebench's own environment is shown to every run and held by no seal: it must hold only
    # what provebench's distributions ship (pilot red team 28, H5).
    refuse_foreign_environment(
        field="--agent-cmd" if candidate.argv else "--agent",
        interpreters=_policy.own_interpreter_paths(),
        package_dir=_policy.PACKAGE_DIR,
    )
    # Before anything is written: a seal commits to a fresh control, and a control smaller than
    # pilot §11's (the public development profile) is no control at all.
    if profile != CONTROL_PROFILE:
        raise ProvebenchError(
            f"a fresh control needs the {CONTROL_PROFILE} profile's size (pilot §11: at least "
            f"{CONTROL_MIN_CYCLES} cycles, {CONTROL_MIN_FILE_EVENTS} file events); "
            f"profile {profile} cannot be sealed",
            field="--profile",
        )

    # The seed's opening lies in the seal folder, which no run can name to its sandbox as a
    # secret: so it must lie outside everything a sandbox shows — by identity, however the
    # folder or the code is spelled (a link to the code folder is the code folder).
    for folder in (*candidate.shown, *candidate.also_shown, *shown_to_every_candidate()):
        if lies_inside(out, folder):
            raise ProvebenchError(
                f"the seal folder lies inside {folder}, which the candidate's sandbox shows: "
                "choose a folder outside the candidate's code, the system and provebench",
                path=out,
                field="--out",
            )
    check_output_dir(out)  # a file in the way, or the laboratory's key folder inside it
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ProvebenchError("the seal folder must be new or empty", path=out, field="--out")
    try:
        out.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        raise ProvebenchError(f"cannot create: {error.strerror}", path=out) from None
    field = "--agent-cmd" if candidate.argv else "--agent"
    listing = copy_code(candidate.shown, _hidden_when_sealing(), out / CODE_COPY_DIR, field=field)
    identity = dict(candidate.identity)
    if candidate.shown:  # the copy's digest, as every run from it will compute it
        identity["code_sha256"] = _sealed_digest(candidate, listing)
    write_atomic(out / CODE_LISTING_FILE, canonical_json({"files": listing}))
    # Drawn only now, after the identity: the OS's secure random source (pilot §11 "after the
    # candidate is fixed").
    seed = secrets.randbelow(MAX_SEED + 1)
    nonce = secrets.token_hex(32)
    descriptor = os.open(out / OPENING_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as handle:
        handle.write(canonical_json({"seed": seed, "nonce": nonce}))
    remember_secret(out / OPENING_FILE)  # hidden from every candidate's runs, not only this one's
    sealed = {
        "format": SEAL_FORMAT,
        "candidate": identity,
        "code": {
            "shown": [
                {"path": str(path), "file": real_path(path).is_file()} for path in candidate.shown
            ],
            "path_entry": candidate.path_entry,
            "argv": list(candidate.argv),
            "walk": CODE_WALK,  # what read the copy (`record._seal.code_walk_problem`)
        },
        "profile": profile,
        "commitment": commitment(seed, nonce),
        # provebench's environment by its bytes, which every run from the seal must share: a
        # file added to it or changed after the seal would run with the sealed candidate
        # unsealed (pilot red team 30, A1, A2, A3, A8; `sandbox._manifest`).
        ENVIRONMENT_KEY: environment_digest(),
    }
    # code.json is bound through `code_sha256` (its digest), checked by every run from the seal.
    write_and_sign(
        out / SEAL_FILE, canonical_json(sealed), out / SEAL_ENVELOPE_FILE, SEAL_PREDICATE, sealed
    )
    return sealed


def _sealed_digest(candidate: SealedCandidate, listing: list[tuple[str, str]]) -> str:
    from provebench.sandbox._candidate import listing_digest

    files = listing_digest(listing)
    if not candidate.argv:
        return files
    from provebench.pilot.emulator._external import command_digest

    return command_digest(candidate.identity["spec"].removeprefix("cmd:"), files)


def sealed_code(folder: Path, trusted: TrustedKey) -> SealedCode:
    """The sealed candidate as a run starts it: the seal verified and opened, and its copy of
    the code checked file by file against the sealed listing (one line naming the first file
    that differs, before anything runs)."""
    from provebench.sandbox._code_copy import check_copy, copy_root

    opened = open_seal(folder, trusted)
    # pilot red team 28, H5
    refuse_foreign_environment(
        field="--from-seal",
        interpreters=_policy.own_interpreter_paths(),
        package_dir=_policy.PACKAGE_DIR,
    )
    # …and the bytes the seal bound, once per command (pilot red team 30, A1, A2, A8).
    refuse_changed_environment(
        opened.sealed.get(ENVIRONMENT_KEY), path=folder / SEAL_FILE, field=ENVIRONMENT_KEY
    )
    if opened.sealed.get("format") != SEAL_FORMAT:
        raise ProvebenchError(
            f"not a {SEAL_FORMAT} seal: it holds no copy of the candidate's code to run; "
            "seal the candidate again",
            path=folder / SEAL_FILE,
            field="format",
        )
    walk = code_walk_problem(opened.sealed)
    if walk is not None:
        raise ProvebenchError(walk, path=folder / SEAL_FILE, field="code.walk")
    candidate = seal_values(opened.sealed.get("candidate"))
    code = seal_values(opened.sealed.get("code"))
    spec, digest = candidate.get("spec"), candidate.get("code_sha256")
    shown, argv = code.get("shown"), code.get("argv")
    if not (isinstance(spec, str) and isinstance(digest, str)):
        raise ProvebenchError(
            "the seal names no candidate", path=folder / SEAL_FILE, field="candidate"
        )
    refuse_a_model_endpoint(spec, path=folder / SEAL_FILE, field="candidate.spec")
    if not (isinstance(shown, list) and isinstance(argv, list)):
        raise ProvebenchError("the seal names no code", path=folder / SEAL_FILE, field="code")
    listing_file = folder / CODE_LISTING_FILE
    listed = seal_values(read_json_file(listing_file)).get("files")
    if not isinstance(listed, list) or not all(
        isinstance(row, list) and len(row) == 2 and all(isinstance(v, str) for v in row)
        for row in listed
    ):
        raise ProvebenchError("not a code listing", path=listing_file, field="files")
    listing = [(name, sha) for name, sha in listed]
    places = [
        (Path(str(seal_values(item).get("path"))), seal_values(item).get("file") is True)
        for item in shown
    ]
    sealed = SealedCandidate(
        {"spec": spec, "code_sha256": digest}, tuple(p for p, _ in places), argv=tuple(argv)
    )
    if argv and not any(entry.startswith(HELD_FILE_KINDS) for _, entry in listing):
        # An older build sealed `python -m MOD` with no file: it holds nothing of what runs
        # (pilot red team 28, H5).
        raise ProvebenchError(
            "the seal holds no file of the candidate's code; seal the candidate again",
            path=listing_file,
            field="files",
        )
    if places and _sealed_digest(sealed, listing) != digest:
        raise ProvebenchError(
            "the code listing is not the sealed one", path=listing_file, field="files"
        )
    roots = [
        copy_root(folder / CODE_COPY_DIR, index, path, is_file=is_file)
        for index, (path, is_file) in enumerate(places)
    ]
    check_copy(roots, listing, field="--from-seal")
    return SealedCode(
        spec=spec,
        code_sha256=digest,
        copies=tuple((path, root) for (path, _), root in zip(places, roots, strict=True)),
        path_entry=str(code.get("path_entry", "")),
        argv=tuple(str(a) for a in argv),
        opening=folder / OPENING_FILE,
        commitment=str(opened.sealed["commitment"]),
        listing=listing,
    )


def generate_control(folder: Path, out: Path, trusted: TrustedKey) -> Any:
    """The control corpus of a seal: the sealed profile, the sealed seed. Its manifest sha256
    is signed into the seal folder (`control.json`): that corpus, and no other of the same seed
    and profile, is the control (pilot §11). Generating it again must give the same corpus."""
    from provebench.pilot.corpus._folder import MANIFEST_FILE, PUBLISHED_FILES, write_corpus
    from provebench.pilot.corpus._profiles import corpus_config

    opened = open_seal(folder, trusted)
    spec = seal_values(opened.sealed.get("candidate")).get("spec")
    refuse_a_model_endpoint(str(spec), path=folder / SEAL_FILE, field="candidate.spec")
    # The control is drawn for the sealed candidate in the sealed environment (red team 30).
    refuse_changed_environment(
        opened.sealed.get(ENVIRONMENT_KEY), path=folder / SEAL_FILE, field=ENVIRONMENT_KEY
    )
    profile = opened.sealed.get("profile")
    small = control_size_problem(profile, None)  # a seal of an older build, of profile public
    if small is not None:
        raise ProvebenchError(small, path=folder / SEAL_FILE, field="profile")
    if opened.revealed is not None and opened.control_manifest is None:
        raise ProvebenchError(
            "the seal was revealed without a control record: seal the candidate again",
            path=folder / REVEAL_FILE,
            field="control",
        )
    config = corpus_config(seed=opened.seed, profile=CONTROL_PROFILE)
    remember_secret(out)  # before it holds anything: hidden from every candidate's runs
    info = write_corpus(config, out, private=True)  # the answer key until the reveal
    # …and by the bytes of each file that holds the seed's data (its answer key above all), so
    # that a copy anywhere in a candidate's folder is refused too (pilot red team round 20, H4).
    # Not the files every corpus of this build publishes alike: a candidate may keep those.
    remember_secret_marks(sorted(p for p in out.iterdir() if p.name not in PUBLISHED_FILES))
    # The digest of the manifest this process wrote, checked still in place: a manifest of another
    # corpus renamed in before the signature was signed as the control (red team round 12b, K1).
    manifest = still_written(out / MANIFEST_FILE)
    if opened.control_manifest is not None:
        if manifest != opened.control_manifest:
            raise ProvebenchError(
                f"this corpus (manifest {manifest[:16]}) is not the recorded control corpus "
                f"({opened.control_manifest[:16]}): it was made by another generator version",
                path=out,
                field="--out",
            )
        return info
    record = {
        "format": CONTROL_FORMAT,
        "commitment": opened.sealed["commitment"],
        "corpus_manifest_sha256": manifest,
    }
    write_and_sign(
        folder / CONTROL_FILE,
        canonical_json(record),
        folder / CONTROL_ENVELOPE_FILE,
        CONTROL_PREDICATE,
        record,
    )
    return info


def reveal(folder: Path, verdict_path: Path, trusted: TrustedKey) -> dict[str, Any]:
    """Publish the seed and the control run's result, signed (pilot §16): once, for the verdict
    of a run of the sealed candidate on the recorded control corpus."""
    from provebench.attest._envelope import envelope_path_for
    from provebench.pilot.corpus._folder import MANIFEST_FILE
    from provebench.pilot.record._signing import foreign_run_problem, signed_verdict

    opened = open_seal(folder, trusted)
    if opened.revealed is not None or (folder / REVEAL_FILE).exists():
        # Re-signing another verdict would replace a failed control. This folder's reveal is
        # final only once published: whoever deletes it can reveal again (docs/attestation.md).
        raise ProvebenchError(
            "the seal is already revealed; a second reveal from this folder is refused",
            path=folder / REVEAL_FILE,
        )
    if opened.control_manifest is None:
        raise ProvebenchError(
            "the seal records no control corpus (pilot control SEAL --out CONTROL)",
            path=folder / CONTROL_FILE,
        )
    signed = signed_verdict(envelope_path_for(verdict_path), trusted)
    facts = signed.predicate
    # Only a control this laboratory ran: its run verified by this key (red team round 12b, F1).
    foreign = foreign_run_problem(facts, trusted)
    if foreign is not None:
        raise ProvebenchError(foreign, path=verdict_path, field="result_evidence.run_signer")
    corpus, agent = seal_values(facts.get("corpus")), seal_values(facts.get("agent"))
    manifest = seal_values(facts.get("inputs_sha256")).get(f"corpus/{MANIFEST_FILE}")
    if manifest != opened.control_manifest:
        raise ProvebenchError(
            "the verdict is not of the recorded control corpus (its manifest sha256 differs)",
            path=verdict_path,
            field="corpus",
        )
    mismatch = identity_mismatch(seal_values(opened.sealed.get("candidate")), agent)
    if mismatch is not None:
        raise ProvebenchError(mismatch, path=verdict_path, field="agent")
    # The control run must have run the seal's copy, on a control of pilot §11's size: a run of
    # the candidate's folder ran whatever the folder held while it ran.
    # The isolation and `resumed` are taken from the signed predicate, which the evaluator built
    # from the verdict it computed, never from the file beside the envelope (red team round 11,
    # A4c: a verdict file rewritten while it was signed claimed a run from the seal). A verdict
    # whose signature does not state them (signed before it did) is refused.
    if seal_values(facts.get("isolation")).get(FROM_SEAL_KEY) != opened.sealed["commitment"]:
        raise ProvebenchError(
            "the verdict's run did not run from this seal's copy of the code "
            "(pilot run --from-seal SEAL)",
            path=verdict_path,
            field=f"isolation.{FROM_SEAL_KEY}",
        )
    environment = environment_problem(opened.sealed, facts.get("isolation"))
    if environment is not None:
        raise ProvebenchError(environment, path=verdict_path, field=f"isolation.{ENVIRONMENT_KEY}")
    small = control_size_problem(opened.sealed.get("profile"), corpus)
    small = small or control_seed_problem(opened, corpus)  # red team round 12b, K1
    if small is not None:
        raise ProvebenchError(small, path=verdict_path, field="corpus")
    # A resumed control may have re-drawn cycles (a stopped run runs its uncommitted cycle
    # again; red team round 9, A1): it is not revealed, so no other run is credited from it.
    # `resumed` is the laboratory's own word, signed in its run record's predicate and carried
    # into the signed verdict's; a verdict that does not say False is refused (fail closed).
    if facts.get("resumed") is not False:
        raise ProvebenchError(
            "the control's run was resumed (or does not say it was not): the control must be "
            "run again, uninterrupted, from its seal",
            path=verdict_path,
            field="non_scoring.resumed",
        )
    head = facts.get("ledger_head_hash")
    if not isinstance(head, str):
        raise ProvebenchError(
            "the verdict names no log head: the run was not evaluated",
            path=verdict_path,
            field="ledger_head_hash",
        )
    revealed = {
        "format": SEAL_FORMAT,
        "commitment": opened.sealed["commitment"],
        "seed": opened.seed,
        "nonce": opened.nonce,
        "control": {
            "verdict_sha256": signed.subjects.get(verdict_path.name),
            "laboratory_pass": facts.get("laboratory_pass") is True,
            "resumed": False,
            "corpus": corpus,
            "corpus_manifest_sha256": manifest,
            "ledger_head_hash": head,
            "run_signer": trusted.keyid,
        },
    }
    write_and_sign(
        folder / REVEAL_FILE,
        canonical_json(revealed),
        folder / REVEAL_ENVELOPE_FILE,
        REVEAL_PREDICATE,
        revealed,
    )
    return revealed


__all__ = [
    "SealedCandidate",
    "candidate_identity",
    "generate_control",
    "refuse_a_model_endpoint",
    "reveal",
    "seal_candidate",
    "sealed_code",
]
