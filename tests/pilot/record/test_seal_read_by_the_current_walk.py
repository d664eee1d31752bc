"""Issue 40 (pilot red team 25, round 2): a seal made before the walk of the code refused a hard
link of a file named elsewhere may hold that file's bytes in its copy, and a copy cannot be
judged afterwards; such a seal was trusted by the paths it names. A seal records the walk that
read its copy (`code.walk`), and one that records none, or an older one, is refused for a run
from it (`--from-seal`) and earns no fresh control (`--fresh-control`): "reseal"."""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench._canonical import canonical_json
from provebench._errors import ProvebenchError
from provebench.attest import load_trusted_key
from provebench.attest._envelope import write_and_sign
from provebench.pilot._seal import candidate_identity, seal_candidate, sealed_code
from provebench.pilot.record._seal import (
    CODE_WALK,
    SEAL_ENVELOPE_FILE,
    SEAL_FILE,
    SEAL_PREDICATE,
    fresh_control_finding,
    open_seal,
)


def _seal(tmp_path: Path, walk: str | None) -> Path:
    """A seal of the reference importer, signed by this laboratory, whose `code.walk` is `walk`
    (None: left out, as every seal made before it was recorded)."""
    seal = tmp_path / "seal"
    sealed = seal_candidate(seal, candidate_identity("reference", None), "control")
    assert sealed["code"]["walk"] == CODE_WALK
    if walk is None:
        del sealed["code"]["walk"]
    else:
        sealed["code"]["walk"] = walk
    (seal / SEAL_FILE).chmod(0o600)
    write_and_sign(
        seal / SEAL_FILE, canonical_json(sealed), seal / SEAL_ENVELOPE_FILE, SEAL_PREDICATE, sealed
    )
    return seal


@pytest.mark.parametrize("walk", [None, "provebench.code-walk/0"])
def test_a_seal_not_read_by_the_current_walk_is_refused_reseal(
    tmp_path: Path, walk: str | None
) -> None:
    seal = _seal(tmp_path, walk)
    trusted = load_trusted_key(None)
    with pytest.raises(ProvebenchError) as refused:
        sealed_code(seal, trusted)
    assert refused.value.field == "code.walk"
    line = refused.value.one_line()
    assert "\n" not in line and "reseal the candidate" in line and str(seal / SEAL_FILE) in line
    assert (walk or "records no walk") in line
    opened = open_seal(seal, trusted)  # it still opens: published evidence stays checkable
    identity = {"agent": opened.sealed["candidate"]}
    credited, reason = fresh_control_finding(seal, trusted, identity, True, None, opened=opened)
    assert credited is False and "reseal the candidate" in reason


def test_a_seal_of_the_current_walk_is_run(tmp_path: Path) -> None:
    seal = _seal(tmp_path, CODE_WALK)
    trusted = load_trusted_key(None)
    assert sealed_code(seal, trusted).commitment == open_seal(seal, trusted).sealed["commitment"]
    identity = {"agent": open_seal(seal, trusted).sealed["candidate"]}
    credited, reason = fresh_control_finding(seal, trusted, identity, True, None)
    assert credited is False and "reseal" not in reason  # judged on: it did not run from it
