"""A fresh control has pilot §11's size: the control profile, never the public one.

Before, `pilot seal --profile public` was accepted; its control was a 6-cycle corpus, and a
run of it got the fresh-control credit and a signed reveal. Now the seal is refused, and the
credit, the control's generation and the reveal each check the profile and the size again (a
seal signed by an older build may say `public`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench._canonical import canonical_json, write_atomic
from provebench._errors import ProvebenchError
from provebench.attest import load_trusted_key
from provebench.attest._envelope import sign_files
from provebench.pilot._seal import candidate_identity, generate_control, seal_candidate
from provebench.pilot.corpus._profiles import PROFILE_MINIMUMS
from provebench.pilot.record._seal import (
    FROM_SEAL_KEY,
    SEAL_ENVELOPE_FILE,
    SEAL_FILE,
    SEAL_PREDICATE,
    control_size_problem,
    fresh_control_finding,
    open_seal,
)
from tests.helpers.pilot_lab import run_cli

CONTROL = {"profile": "control", "cycles": 20, "events": 500}


def test_pilot_seal_profile_public_is_one_line_exit_2_and_nothing_written(tmp_path: Path) -> None:
    out = tmp_path / "seal"
    result = run_cli("pilot", "seal", "--agent", "reference", "--profile", "public",
                     "--out", str(out))  # fmt: skip
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert "control profile's size" in line and "§11" in line
    assert not out.exists()


def test_the_seal_api_refuses_a_profile_other_than_control(tmp_path: Path) -> None:
    with pytest.raises(ProvebenchError, match="control profile's size"):
        seal_candidate(tmp_path / "seal", candidate_identity("reference", None), "public")
    assert not (tmp_path / "seal").exists()


@pytest.mark.parametrize(
    ("corpus", "said"),
    [
        ({**CONTROL, "profile": "public"}, "profile is 'public'"),
        ({**CONTROL, "cycles": 6}, "6 cycles"),
        ({**CONTROL, "events": 103}, "103 file events"),
        ({**CONTROL, "cycles": "20"}, "cycles"),
    ],
)
def test_a_control_corpus_below_pilot_11_is_no_fresh_control(
    corpus: dict[str, object], said: str
) -> None:
    problem = control_size_problem("control", corpus)
    assert problem is not None and said in problem
    assert control_size_problem("control", CONTROL) is None
    assert control_size_problem("public", CONTROL) is not None


def test_the_sizes_are_the_control_profiles_minimums() -> None:
    minimums = PROFILE_MINIMUMS["control"]
    assert (CONTROL["cycles"], CONTROL["events"]) == (minimums["cycles"], minimums["file_events"])


def test_a_signed_seal_of_profile_public_credits_nothing_and_makes_no_control(
    tmp_path: Path,
) -> None:
    """A seal an older build signed with profile public: generating its control is refused, and
    a run presented as its control gets no credit, whatever its identity says."""
    trusted = load_trusted_key()
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("reference", None), "control")
    opened = open_seal(seal, trusted)
    public = {**opened.sealed, "profile": "public"}
    write_atomic(seal / SEAL_FILE, canonical_json(public))  # the operator writes, then signs
    sign_files(seal, [SEAL_FILE], seal / SEAL_ENVELOPE_FILE, SEAL_PREDICATE, public)
    with pytest.raises(ProvebenchError, match="control profile's size"):
        generate_control(seal, tmp_path / "control", trusted)
    assert not (tmp_path / "control").exists()
    identity = {
        "agent": dict(public["candidate"]),
        "corpus": {**CONTROL, "manifest_sha256": "0" * 64},
        "isolation": {
            FROM_SEAL_KEY: public["commitment"],
            "environment_sha256": public["environment_sha256"],
        },
    }
    passed, basis = fresh_control_finding(seal, trusted, identity, True, None)
    assert not passed and "control profile's size" in basis
