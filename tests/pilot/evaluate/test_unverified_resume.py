"""A resumed run whose log does not bind its work-directory checkpoint (a `cycle_confirmed`
without `work_sha256`) gets no fresh-control credit (docs/pilot-lab.md, "Crash safety"): whoever
resumed it could have changed what the sealed importer found in its work directory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from provebench.ledger._entry import LedgerEntry
from provebench.pilot.evaluate._core import _unverified_resume
from provebench.pilot.evaluate._inputs import RunInputs

DIGEST = "ab" * 32


def _inputs(resumed: object, *confirmed: dict[str, Any]) -> RunInputs:
    entries = [
        LedgerEntry(seq=seq, kind="cycle_confirmed", payload=payload, prev_hash="0", hash="0")
        for seq, payload in enumerate(confirmed, start=1)
    ]
    record = {"non_scoring": {} if resumed is None else {"resumed": resumed}}
    return RunInputs(run_dir=Path("run"), run_record=record, entries=entries)


@pytest.mark.parametrize("resumed", [True, None], ids=["resumed", "unsaid"])
@pytest.mark.parametrize(
    "digest", [None, "", "AB" * 32, "ab" * 31, 7], ids=["absent", "empty", "upper", "short", "int"]
)
def test_a_resumed_run_without_a_work_digest_is_not_verified(
    resumed: object, digest: object
) -> None:
    second: dict[str, Any] = {"cycle": 2} if digest is None else {"cycle": 2, "work_sha256": digest}
    problem = _unverified_resume(_inputs(resumed, {"cycle": 1, "work_sha256": DIGEST}, second))
    assert problem is not None
    assert "entry 2" in problem and "no fresh-control credit" in problem


def test_a_resumed_run_is_never_credited_even_with_every_digest() -> None:
    """Red-team finding (round 6): a resumer rewrote `work_sha256` with the checkpoint and
    re-chained the log. The keyed anchors now stop that at resume (run format /5), but a stopped
    run re-draws its uncommitted cycle, so a resumed control is still never credited."""
    bound = ({"cycle": 1, "work_sha256": DIGEST}, {"cycle": 2, "work_sha256": DIGEST})
    for resumed in (True, None):
        problem = _unverified_resume(_inputs(resumed, *bound))
        assert problem is not None and "only uninterrupted" in problem


def test_an_uninterrupted_run_is_verified() -> None:
    assert _unverified_resume(_inputs(False, {"cycle": 1})) is None
