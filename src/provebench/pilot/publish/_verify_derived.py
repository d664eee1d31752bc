"""What `verify-bundle` re-derives besides the verdicts: the exact set of files publish puts in a
bundle, and every text publish derives (red team round 12, A14: a `CERTIFIED.json` planted in
the staging folder and a `residual-risks.md` rewritten to "None." were listed in the manifest,
signed, and verified).

The set is a function of the signed index and of the signed files it names: each corpus's own
manifest, each run's signed record (`files_sha256`), the red-team report, the seals, the
comparisons. A file listed in the manifest outside that set, or one of the set missing from it,
is one line naming it. `residual-risks.md` is derived again from the bundle's corpora and index
(and the operator's own section, which publish copies verbatim under its heading) and must be
those bytes; `bundle.json` must be the canonical bytes of the signed index.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from provebench._canonical import canonical_json
from provebench._errors import ProvebenchError
from provebench.attest import envelope_path_for
from provebench.pilot.corpus import load_corpus
from provebench.pilot.corpus._folder import MANIFEST_FILE as CORPUS_MANIFEST
from provebench.pilot.publish._layout import (
    COMPARISONS,
    CORPORA,
    INDEX_FILE,
    PUBLIC_KEY_FILE,
    REDTEAM,
    REDTEAM_FILES,
    RISKS_FILE,
    RUNS,
    SEAL_FILES,
    SEALS,
    BundleIndex,
)
from provebench.pilot.publish._risks import residual_risks_markdown
from provebench.pilot.record._rundir import RUN_ENVELOPE_FILE, RUN_RECORD_FILE

# The heading under which publish copies the operator's own risks (`residual_risks_markdown`).
_OPERATOR_HEADING = "\n## Stated by the operator\n\n"


def expected_files(bundle: Path, index: BundleIndex) -> set[str]:
    """The paths (relative to the bundle) of every file publish puts in this bundle, the
    manifest and the bundle's signature aside."""
    names = {INDEX_FILE, PUBLIC_KEY_FILE, RISKS_FILE}
    for corpus in index.corpora:
        folder = f"{CORPORA}/{corpus.name}"
        listed = _json_object(bundle / folder / CORPUS_MANIFEST, "sha256")
        names |= {f"{folder}/{name}" for name in listed} | {f"{folder}/{CORPUS_MANIFEST}"}
    if index.redteam:
        names |= {f"{REDTEAM}/{name}" for name in REDTEAM_FILES}
    for seal in index.seals:
        names |= {f"{SEALS}/{seal}/{name}" for name in SEAL_FILES}
    for run in index.runs:
        folder = f"{RUNS}/{run.name}"
        listed = _json_object(bundle / folder / RUN_RECORD_FILE, "files_sha256")
        names |= {f"{folder}/{name}" for name in listed}
        names |= {f"{folder}/{RUN_RECORD_FILE}", f"{folder}/{RUN_ENVELOPE_FILE}", run.verdict}
        names.add(envelope_path_for(Path(run.verdict)).as_posix())
    for comparison in index.comparisons:
        names.add(f"{COMPARISONS}/{comparison}")
        names.add(envelope_path_for(Path(COMPARISONS) / comparison).as_posix())
    return names


def derived_problem(bundle: Path, index: BundleIndex) -> tuple[Path, str] | None:
    """The first text publish derives that the bundle does not hold byte for byte: (the file,
    what differs); None when every one matches."""
    index_path = bundle / INDEX_FILE
    if index_path.read_bytes() != canonical_json(index).encode("utf-8"):
        return index_path, "not the canonical bytes of the signed index"
    corpora = [
        (corpus.name, load_corpus(bundle / CORPORA / corpus.name, check_lines=False))
        for corpus in index.corpora
    ]
    risks_path = bundle / RISKS_FILE
    try:
        text = risks_path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return risks_path, "not UTF-8 text"
    _, heading, operator = text.partition(_OPERATOR_HEADING)
    derived = residual_risks_markdown(
        sorted(corpora, key=lambda item: item[0]),
        redteam=index.redteam,
        operator=operator if heading else None,
    )
    if text != derived:
        return risks_path, "differs from the residual risks derived from the bundle's own facts"
    return None


def _json_object(path: Path, key: str) -> dict[str, Any]:
    try:
        value = json.loads(path.read_bytes()).get(key)
    except (OSError, ValueError, AttributeError):
        value = None
    if not isinstance(value, dict):
        raise ProvebenchError(f"not readable: no {key} object", path=path, field=key)
    return value


__all__ = ["derived_problem", "expected_files"]
