"""The publication bundle `call-import-bundle/1` (pilot §16), its folders and its index.

```
BUNDLE/
├── bundle.json             the index: provebench and evaluator versions, every corpus (seed,
│                           profile, generator), run (candidate, corpus, verdict), red-team
│                           report, seal and comparison in the bundle
├── residual-risks.md       what the evaluation does not establish (`_risks.py`)
├── laboratory.pub.pem      the public key everything in the bundle is signed with
├── corpora/NAME/…          each corpus folder whole (public, fresh control, shadow)
├── runs/NAME/…             each run folder as the laboratory published it (run.json, its
│                           signature and every file it records: the log of every call and
│                           error of every cycle, the final register, the diagnostics)
├── verdicts/NAME.json      each run's verdict, evaluated from the bundle's own copies, signed
├── redteam/…               the signed red-team report (pilot §14)
├── seals/NAME/…            each fresh control's seal and its signed reveal (pilot §11)
├── comparisons/NN/…        laboratory-versus-shadow comparisons, signed (pilot §15)
├── manifest.json           sha256 of every file above
└── bundle.dsse.json        the laboratory's signature over manifest.json and the index
```

Nothing production-identifying is in a bundle: shadow corpora and runs hold only pseudonyms
(docs/pilot-shadow.md); capture folders, keys and a seal's unrevealed opening never enter one.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

BUNDLE_FORMAT = "call-import-bundle/1"
INDEX_FILE = "bundle.json"
MANIFEST_FILE = "manifest.json"
ENVELOPE_FILE = "bundle.dsse.json"
PUBLIC_KEY_FILE = "laboratory.pub.pem"
RISKS_FILE = "residual-risks.md"
CORPORA, RUNS, VERDICTS, REDTEAM, SEALS, COMPARISONS = (
    "corpora",
    "runs",
    "verdicts",
    "redteam",
    "seals",
    "comparisons",
)
BUNDLE_PREDICATE = "urn:provebench:pilot-bundle:1"
REDTEAM_FILES = ("redteam.json", "redteam-summary.json", "redteam.dsse.json")
SEAL_FILES = (
    "seal.json",
    "seal.dsse.json",
    "control.json",
    "control.dsse.json",
    "reveal.json",
    "reveal.dsse.json",
)
_MODEL = ConfigDict(extra="forbid", frozen=True)


class BundledCorpus(BaseModel):
    model_config = _MODEL

    name: str
    profile: str
    seed: int
    generator: str
    manifest_sha256: str


class BundledRun(BaseModel):
    model_config = _MODEL

    name: str
    corpus: str
    agent: dict[str, Any]
    isolation: dict[str, Any]
    verdict: str  # path in the bundle
    evaluated_with_red_team: bool
    fresh_control: str | None  # the seal (in seals/) of a run on its sealed fresh control
    status: str
    laboratory_pass: bool
    pilot_pass: bool | None
    perf_shadow: float | None
    escrow_released_total: float | None


class BundleIndex(BaseModel):
    model_config = _MODEL

    format: str
    provebench_version: str
    evaluator_version: str
    laboratory_keyid: str
    corpora: list[BundledCorpus]
    runs: list[BundledRun]
    redteam: bool
    seals: list[str]
    comparisons: list[str]
    residual_risks: str


class BundleManifest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    format: str
    sha256: dict[str, str]


__all__ = [
    "BUNDLE_FORMAT",
    "BUNDLE_PREDICATE",
    "COMPARISONS",
    "CORPORA",
    "ENVELOPE_FILE",
    "INDEX_FILE",
    "MANIFEST_FILE",
    "PUBLIC_KEY_FILE",
    "REDTEAM",
    "REDTEAM_FILES",
    "RISKS_FILE",
    "RUNS",
    "SEALS",
    "SEAL_FILES",
    "VERDICTS",
    "BundleIndex",
    "BundleManifest",
    "BundledCorpus",
    "BundledRun",
]
