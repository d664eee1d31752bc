"""`provebench pilot publish`: the publication bundle of pilot §16 (layout: `_layout.py`).

Everything goes into a staging folder beside the target, the verdicts are evaluated from the
staged copies (so each verdict is about exactly the bytes a reader gets), the manifest and the
signature come last, and the folder is renamed into place: a crash leaves no bundle, never a
partial one that looks complete.

The manifest lists exactly the files publish copied or wrote, by the digests of the bytes it
copied or wrote — never a walk of the staging folder read back (red team round 12, A14: a
`CERTIFIED.json` planted in the staging folder, and `residual-risks.md` rewritten to "None.",
were listed and signed). Just before the signature the staging folder must hold exactly those
files with exactly those bytes, or nothing is signed and no bundle is left.

Inputs are checked before anything is copied: every run is finished and signed, every run's
corpus is among those given (matched by the corpus manifest's sha256 the run recorded), the
red-team report verifies, and every seal has been revealed (an unrevealed seal's seed is still
secret: it is refused, and its opening is never copied). Nothing is signed about a run whose own
evaluation here found its files altered, missing or unsigned, nor a comparison that is not
signed by the laboratory or not the comparison of the bundle's verdicts (red team round 13, H4,
H6): the bundle's signature vouches only for what verify-bundle would accept.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Any

from provebench import __version__
from provebench._canonical import (
    canonical_json,
    current_umask,
    sha256_file,
    write_atomic,
    written_sha256,
)
from provebench._errors import ProvebenchError
from provebench._jsonfile import read_json_file
from provebench._paths import check_output_dir
from provebench._read_once import copy_once, handed_on, open_folder
from provebench.attest import TrustedKey, envelope_path_for, load_trusted_key
from provebench.attest._envelope import AttestationError, read_verified, sign_files
from provebench.pilot.corpus import Corpus, load_corpus
from provebench.pilot.corpus._folder import MANIFEST_FILE as CORPUS_MANIFEST
from provebench.pilot.evaluate import evaluate_run, write_verdict
from provebench.pilot.evaluate._compare import COMPARISON_PREDICATE, compare_verdicts
from provebench.pilot.evaluate._rules import EVALUATOR_VERSION
from provebench.pilot.evaluate._verdict import Verdict
from provebench.pilot.publish._layout import (
    BUNDLE_FORMAT,
    BUNDLE_PREDICATE,
    COMPARISONS,
    CORPORA,
    ENVELOPE_FILE,
    INDEX_FILE,
    MANIFEST_FILE,
    PUBLIC_KEY_FILE,
    REDTEAM,
    REDTEAM_FILES,
    RISKS_FILE,
    RUNS,
    SEAL_FILES,
    SEALS,
    VERDICTS,
    BundledCorpus,
    BundledRun,
    BundleIndex,
    BundleManifest,
)
from provebench.pilot.publish._risks import read_operator_risks, residual_risks_markdown
from provebench.pilot.record._rundir import RUN_ENVELOPE_FILE, RUN_RECORD_FILE
from provebench.pilot.record._seal import open_seal

# A run whose evaluation of the staged copy found one of these is not the run the laboratory
# signed (pilot §15): its files were altered, added, removed, or its signature fails. Publish
# signs nothing about it (red team round 13, H4: a run file hard-linked to the private key was
# evaluated as a configuration error and published all the same).
_ALTERED_RUN = frozenset(
    {
        "file_altered",
        "file_missing",
        "file_unrecorded",
        "run_unsigned",
        "run_signature",
        "run_envelope_mismatch",
        "run_identity_mismatch",
        "ledger_export_mismatch",
    }
)


def _run_record(run_dir: Path) -> dict[str, Any]:
    path = run_dir / RUN_RECORD_FILE
    if not path.is_file() or not (run_dir / RUN_ENVELOPE_FILE).is_file():
        raise ProvebenchError(
            "not a finished, signed run (run.json and run.dsse.json are needed)",
            path=run_dir,
            field="RUNDIR",
        )
    record = read_json_file(path)
    if not isinstance(record, dict) or not isinstance(record.get("files_sha256"), dict):
        raise ProvebenchError("not a run record this laboratory wrote", path=path)
    return record


def corpus_digest(corpus: Corpus) -> str:
    return sha256_file(corpus.directory / CORPUS_MANIFEST)


def _corpus_name(corpus: Corpus) -> str:
    config = corpus.info.config
    return f"{config.profile}-{config.seed}-{corpus_digest(corpus)[:12]}"


def bundled_corpus(corpus: Corpus) -> BundledCorpus:
    """A corpus's entry in the index, from the corpus folder itself (verify-bundle derives it
    again from the bundle's copy)."""
    return BundledCorpus(
        name=_corpus_name(corpus),
        profile=corpus.info.config.profile,
        seed=corpus.info.config.seed,
        generator=corpus.info.versions.generator,
        manifest_sha256=corpus_digest(corpus),
    )


def bundled_run(
    name: str, corpus: str, verdict: Verdict, with_red_team: bool, control: str | None
) -> BundledRun:
    """A run's entry in the index, from the verdict evaluated from the bundle's own copy: who
    ran, how it was isolated, and what it earned, as the log says (`result_evidence`), never
    from a read of run.json beside the evaluation (red team round 12b, P1: a run.json swapped
    for the first of two reads named another agent and a sealed run in the signed index).
    verify-bundle builds it again from its own re-derivation and compares."""
    evidence = verdict.result_evidence
    return BundledRun(
        name=name,
        corpus=corpus,
        agent={} if evidence is None else dict(evidence.agent),
        isolation={} if evidence is None else dict(evidence.isolation),
        verdict=f"{VERDICTS}/{name}.json",
        evaluated_with_red_team=with_red_team,
        fresh_control=control,
        status=verdict.status,
        laboratory_pass=verdict.laboratory_pass,
        pilot_pass=verdict.pilot_pass,
        perf_shadow=verdict.perf_shadow,
        escrow_released_total=None if verdict.escrow is None else verdict.escrow.released_total,
    )


def _evaluated_corpus_manifest(verdict: Verdict) -> str | None:
    evidence = verdict.result_evidence
    return None if evidence is None else evidence.inputs_sha256.get(f"corpus/{CORPUS_MANIFEST}")


class _Staged:
    """What publish put in the staging folder: each file's sha256, by its path in the bundle,
    taken from the bytes it copied or wrote (the manifest, never a walk read back)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.sha256: dict[str, str] = {}

    def copy(self, source: Path, target: Path, names: list[str]) -> None:
        mode = 0o666 & ~current_umask()
        for name in names:
            origin = source / name
            if not origin.is_file() or origin.is_symlink():
                raise ProvebenchError("a file to publish is missing", path=origin)
            destination = target / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            # One read: the bytes copied are hashed. A bundle is handed on: the mode a plain
            # copy would get (the user's umask), given through the descriptor that wrote it.
            digest = copy_once(origin, destination, mode=mode)
            self._add(destination, digest)

    def wrote(self, path: Path) -> None:
        """A file this process wrote with the atomic writer, by the digest of what it wrote."""
        digest = written_sha256(path)
        if digest is None:
            raise ProvebenchError("publish did not write this file", path=path)
        self._add(path, digest)

    def _add(self, path: Path, digest: str) -> None:
        name = path.relative_to(self.root).as_posix()
        if name in self.sha256:
            raise ProvebenchError("two files of the bundle have this path", path=path)
        self.sha256[name] = digest

    def refuse_changed(self) -> None:
        """Just before the signature: the staging folder holds exactly the files publish put
        there (the manifest besides), each with exactly the bytes it put there; otherwise one
        line naming the first that differs, and nothing is signed (A14)."""
        found = sorted(
            path for path in self.root.rglob("*") if not stat.S_ISDIR(path.lstat().st_mode)
        )
        names = {path.relative_to(self.root).as_posix(): path for path in found}
        for name in sorted(names.keys() | self.sha256.keys()):
            path = self.root / name
            if name == MANIFEST_FILE:
                continue
            if name not in self.sha256:
                raise ProvebenchError(
                    "a file publish did not write is in its staging folder; nothing is signed",
                    path=path,
                )
            try:
                regular = stat.S_ISREG(os.lstat(path).st_mode)
                held = sha256_file(path) if regular else None
            except (OSError, ProvebenchError):
                held = None
            if held != self.sha256[name]:
                raise ProvebenchError(
                    "a file publish wrote was changed or removed in its staging folder; "
                    "nothing is signed",
                    path=path,
                )


def _copy_corpus(staged: _Staged, corpus: Corpus, target: Path) -> None:
    names = [*sorted(corpus.manifest.sha256), CORPUS_MANIFEST]
    staged.copy(corpus.directory, target, names)


def publish_bundle(
    runs: list[Path],
    corpora: list[Path],
    out: Path,
    *,
    redteam: Path | None = None,
    seals: list[Path] | None = None,
    comparisons: list[Path] | None = None,
    risks: Path | None = None,
) -> BundleIndex:
    """Write the bundle of `runs` (with their `corpora`) into `out` (absent or empty);
    `risks`: the operator's own residual risks (Markdown), added to the bundle's page."""
    inputs = [*runs, *corpora, *(seals or []), *(comparisons or []), *([risks] if risks else [])]
    check_output_dir(out, inputs=inputs)
    operator_risks = None if risks is None else read_operator_risks(risks)  # before any write
    if out.exists() and any(out.iterdir()):
        raise ProvebenchError("output exists and is not an empty directory", path=out)
    if not runs:
        raise ProvebenchError("no run to publish", field="RUNDIR")
    loaded = [load_corpus(path) for path in corpora]
    by_manifest = {sha256_file(c.directory / CORPUS_MANIFEST): c for c in loaded}
    records: list[tuple[Path, dict[str, Any], Corpus]] = []
    names: set[str] = set()
    for run_dir in runs:
        record = _run_record(run_dir)
        wanted = (record.get("corpus") or {}).get("manifest_sha256")
        corpus = by_manifest.get(str(wanted))
        if corpus is None:
            raise ProvebenchError(
                "its corpus is not among --corpus (matched by the corpus manifest's sha256)",
                path=run_dir / RUN_RECORD_FILE,
                field="corpus.manifest_sha256",
            )
        if run_dir.name in names:
            raise ProvebenchError("two runs have this folder name", path=run_dir, field="RUNDIR")
        names.add(run_dir.name)
        records.append((run_dir, record, corpus))
    for seal in seals or []:
        for name in SEAL_FILES:
            if not (seal / name).is_file():
                raise ProvebenchError(
                    f"{name} is missing: a seal is published once revealed (pilot reveal)",
                    path=seal,
                    field="--seal",
                )
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    held = -1
    try:
        # Held from its creation: its mode is given through this descriptor (`handed_on`).
        held = open_folder(staging)
        index = _write_bundle(
            staging, records, redteam, seals or [], comparisons or [], operator_risks
        )
        if out.exists():
            out.rmdir()
        handed_on(held)  # mkdtemp's folder is private; a bundle is not
        staging.replace(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    finally:
        if held >= 0:
            os.close(held)
    return index


def _write_bundle(
    root: Path,
    records: list[tuple[Path, dict[str, Any], Corpus]],
    redteam: Path | None,
    seals: list[Path],
    comparisons: list[Path],
    operator_risks: str | None,
) -> BundleIndex:
    staged = _Staged(root)
    corpora: dict[str, Corpus] = {}
    for _, _, corpus in records:
        name = _corpus_name(corpus)
        if name not in corpora:
            corpora[name] = corpus
            _copy_corpus(staged, corpus, root / CORPORA / name)
    staged_redteam = None
    if redteam is not None:
        staged.copy(redteam, root / REDTEAM, list(REDTEAM_FILES))
        staged_redteam = root / REDTEAM
    trusted = load_trusted_key()  # the key the laboratory signs with, which runs must carry
    # Each seal by the manifest sha256 of its control corpus, as its signed control record
    # names it: another corpus of the same seed and profile is not the control.
    control_corpora: dict[str, str] = {}
    for seal in seals:
        if (root / SEALS / seal.name).exists():
            raise ProvebenchError("two seals have this folder name", path=seal, field="--seal")
        staged.copy(seal, root / SEALS / seal.name, list(SEAL_FILES))  # never the opening
        opened = open_seal(root / SEALS / seal.name, trusted)
        if opened.control_manifest is not None:
            control_corpora[opened.control_manifest] = seal.name
    bundled_runs: list[BundledRun] = []
    for run_dir, record, corpus in records:
        target = root / RUNS / run_dir.name
        published = [*sorted(record["files_sha256"]), RUN_RECORD_FILE, RUN_ENVELOPE_FILE]
        staged.copy(run_dir, target, published)
        corpus_name = _corpus_name(corpus)
        with_red_team = staged_redteam is not None and corpus.info.config.profile != "shadow"
        # A run on a fresh control is evaluated with its seal: its corpus is the recorded one.
        control = control_corpora.get(sha256_file(corpus.directory / CORPUS_MANIFEST))
        verdict = evaluate_run(
            target,
            root / CORPORA / corpus_name,
            trusted_key=trusted,
            laboratory_key=trusted,
            red_team=staged_redteam if with_red_team else None,
            fresh_control=None if control is None else root / SEALS / control,
        )
        _refuse_altered_run(verdict, run_dir)
        verdict_path = root / VERDICTS / f"{run_dir.name}.json"
        verdict_path.parent.mkdir(parents=True, exist_ok=True)
        write_verdict(verdict, verdict_path)
        staged.wrote(verdict_path)
        staged.wrote(envelope_path_for(verdict_path))
        evaluated_on = _evaluated_corpus_manifest(verdict)
        if evaluated_on is not None and evaluated_on != corpus_digest(corpus):
            raise ProvebenchError(
                "the run was evaluated on another corpus than the one publish matched it to "
                "(run.json changed while it was read)",
                path=run_dir / RUN_RECORD_FILE,
                field="corpus.manifest_sha256",
            )
        bundled_runs.append(bundled_run(run_dir.name, corpus_name, verdict, with_red_team, control))
    comparison_names = []
    for number, comparison in enumerate(comparisons, start=1):
        name = f"{number:02d}"
        # Under their own names: the envelope names the file it signs.
        envelope = envelope_path_for(comparison)
        staged.copy(comparison.parent, root / COMPARISONS / name, [comparison.name, envelope.name])
        _check_staged_comparison(root / COMPARISONS / name / comparison.name, staged, trusted)
        comparison_names.append(f"{name}/{comparison.name}")
    write_atomic(root / PUBLIC_KEY_FILE, trusted.source.read_bytes())
    staged.wrote(root / PUBLIC_KEY_FILE)
    listed = sorted(corpora.items())
    write_atomic(
        root / RISKS_FILE,
        residual_risks_markdown(listed, redteam=redteam is not None, operator=operator_risks),
    )
    staged.wrote(root / RISKS_FILE)
    index = BundleIndex(
        format=BUNDLE_FORMAT,
        provebench_version=__version__,
        evaluator_version=EVALUATOR_VERSION,
        laboratory_keyid=trusted.keyid,
        corpora=[bundled_corpus(corpus) for _, corpus in listed],
        runs=bundled_runs,
        redteam=redteam is not None,
        seals=sorted(seal.name for seal in seals),
        comparisons=comparison_names,
        residual_risks=RISKS_FILE,
    )
    write_atomic(root / INDEX_FILE, canonical_json(index))
    staged.wrote(root / INDEX_FILE)
    manifest = BundleManifest(format=BUNDLE_FORMAT, sha256=dict(sorted(staged.sha256.items())))
    write_atomic(root / MANIFEST_FILE, canonical_json(manifest))
    staged.refuse_changed()
    predicate = {"format": BUNDLE_FORMAT, "index": index.model_dump(mode="json")}
    sign_files(root, [MANIFEST_FILE], root / ENVELOPE_FILE, BUNDLE_PREDICATE, predicate)
    return index


def _refuse_altered_run(verdict: Verdict, run_dir: Path) -> None:
    """Refuse to publish a run whose evaluation of the staged copy found it is not the run the
    laboratory signed (`_ALTERED_RUN`): one line naming the first such file; nothing signed."""
    for error in verdict.configuration_errors:
        if error.code in _ALTERED_RUN:
            raise ProvebenchError(
                f"{error.message} [{error.code}]: the run is not the one the laboratory signed; "
                "nothing is published",
                path=run_dir / (error.path or RUN_ENVELOPE_FILE),
                field=error.field,
            )


def _check_staged_comparison(comparison: Path, staged: _Staged, trusted: TrustedKey) -> None:
    """A comparison is signed into the bundle only as verify-bundle would accept it (red team
    round 13, H6: a forged, unsigned "clear" comparison was signed by publish): its envelope
    verifies against the laboratory's key, it is about verdicts the bundle carries (red team
    round 12b, V2), and it is, byte for byte, the comparison of those verdicts derived again
    here. Checked on the staged copy, publish's own; the bytes compared are those the manifest
    lists, by their digest."""
    try:
        read_verified(envelope_path_for(comparison), trusted, predicate_type=COMPARISON_PREDICATE)
    except AttestationError as error:
        raise ProvebenchError(
            f"the comparison is not signed by the laboratory's key ({error.message})",
            path=comparison,
        ) from None
    bundled = {
        digest: staged.root / name
        for name, digest in staged.sha256.items()
        if name.startswith(f"{VERDICTS}/") and name.endswith(".json")
    }
    document = read_json_file(comparison)  # the staged copy: publish's own private bytes
    found: dict[str, Path] = {}
    for field in ("laboratory_verdict_sha256", "shadow_verdict_sha256"):
        value = document.get(field) if isinstance(document, dict) else None
        if not isinstance(value, str) or value not in bundled:
            raise ProvebenchError(
                "the comparison is about a verdict that is not in the bundle (compare the "
                "verdicts of the runs published, evaluated as publish evaluates them)",
                path=comparison,
                field=field,
            )
        found[field] = bundled[value]
    again = compare_verdicts(
        found["laboratory_verdict_sha256"], found["shadow_verdict_sha256"], trusted
    )
    name = comparison.relative_to(staged.root).as_posix()
    if hashlib.sha256(canonical_json(again).encode("utf-8")).hexdigest() != staged.sha256[name]:
        raise ProvebenchError(
            "the comparison is not the one derived from the bundle's verdicts (pilot compare "
            "them again); nothing is published",
            path=comparison,
        )


def bundle_digests(root: Path) -> dict[str, str]:
    """sha256 of every file of the bundle but the manifest and the signature, by relative path."""
    digests: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        name = path.relative_to(root).as_posix()
        if name in (MANIFEST_FILE, ENVELOPE_FILE) or path.is_dir():
            continue
        digests[name] = sha256_file(path)
    return digests


__all__ = ["bundle_digests", "bundled_corpus", "bundled_run", "corpus_digest", "publish_bundle"]
