"""Red team round 12b, K1 (deep part; docs/pilot-redteam.md): a control corpus of a seed known in
advance, recorded as the seal's control (the record's digest taken after a swap), earned the
fresh-control credit and was revealed. The control run's corpus must be the one the sealed seed
and profile generate: its seed and profile are checked against the seal's opening."""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench._canonical import canonical_json, sha256_file
from provebench.attest import load_trusted_key
from provebench.attest._envelope import write_and_sign
from provebench.pilot._seal import candidate_identity, seal_candidate
from provebench.pilot.corpus._folder import write_corpus
from provebench.pilot.corpus._profiles import corpus_config
from provebench.pilot.record import open_seal
from provebench.pilot.record._seal import (
    CONTROL_ENVELOPE_FILE,
    CONTROL_FILE,
    CONTROL_FORMAT,
    CONTROL_PREDICATE,
    FROM_SEAL_KEY,
    fresh_control_finding,
)


def _identity(seal: Path, corpus: Path, seed: int) -> dict[str, object]:
    opened = open_seal(seal, load_trusted_key())
    return {
        "agent": dict(opened.sealed["candidate"]),
        "isolation": {FROM_SEAL_KEY: opened.sealed["commitment"],
                      "environment_sha256": opened.sealed["environment_sha256"]},
        "corpus": {"manifest_sha256": sha256_file(corpus / "manifest.json"), "seed": seed,
                   "profile": "control", "cycles": 20, "events": 500},
    }  # fmt: skip


@pytest.mark.parametrize("known", [True, False], ids=["known-seed", "sealed-seed"])
def test_a_control_of_another_seed_earns_no_fresh_control_credit(
    tmp_path: Path, known: bool
) -> None:
    trusted = load_trusted_key()
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("reference", None), "control")
    opened = open_seal(seal, trusted)
    seed = 424242 if known else opened.seed
    corpus = tmp_path / "control"
    write_corpus(corpus_config(seed=seed, profile="control"), corpus)
    # What the swap left: the signed control record naming this corpus (the racer's outcome).
    record = {"format": CONTROL_FORMAT, "commitment": opened.sealed["commitment"],
              "corpus_manifest_sha256": sha256_file(corpus / "manifest.json")}  # fmt: skip
    write_and_sign(seal / CONTROL_FILE, canonical_json(record), seal / CONTROL_ENVELOPE_FILE,
                   CONTROL_PREDICATE, record)  # fmt: skip
    credited, why = fresh_control_finding(
        seal, trusted, _identity(seal, corpus, seed), True, "a" * 64, None
    )
    assert credited is not known, why
    if known:
        assert "not generated from the sealed seed" in why
