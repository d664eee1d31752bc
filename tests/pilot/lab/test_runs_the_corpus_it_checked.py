"""Red team round 11, A3 (docs/attestation.md, "Only what it ran"): the laboratory checks the
corpus against its manifest, then streams drive_events.jsonl by path, cycle by cycle. The round
swapped the events after the check (a3_corpus_swap_midrun.py) and the laboratory signed a run of
a corpus it did not run under the checked corpus's name. The bytes streamed are now hashed as
they are read: a swap is refused in one line at the end of the stream, before anything is
signed. Played here at the same point, deterministically (right after the manifest check)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.lab import _runner
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent


def _same_events_other_bytes(corpus: Path, tmp_path: Path) -> bytes:
    lines = (corpus / "drive_events.jsonl").read_bytes().splitlines(keepends=True)
    return b"".join([b"{ " + lines[0][1:], *lines[1:]])  # one space: the same events


def _another_corpus(corpus: Path, tmp_path: Path) -> bytes:
    other = make_small_corpus(tmp_path / "other", seed=4)
    return (other / "drive_events.jsonl").read_bytes()


@pytest.mark.parametrize("swapped", [_same_events_other_bytes, _another_corpus])
def test_events_swapped_after_the_manifest_check_are_refused_before_signing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, swapped: Any
) -> None:
    corpus = make_small_corpus(tmp_path, seed=3)
    events = corpus / "drive_events.jsonl"
    genuine = events.read_bytes()
    forged = swapped(corpus, tmp_path)
    assert forged != genuine
    original = _runner.load_corpus

    def load_then_swap(directory: Path, **kwargs: Any) -> Any:
        checked = original(directory, **kwargs)
        events.write_bytes(forged)
        return checked

    monkeypatch.setattr(_runner, "load_corpus", load_then_swap)
    out = tmp_path / "run"
    try:
        with pytest.raises(ProvebenchError) as refused:
            run_agent(corpus, "reference", out)
    finally:
        events.write_bytes(genuine)  # restored, as the round's script did
    line = str(refused.value)
    assert "\n" not in line and "drive_events.jsonl" in line, line
    assert "differ from the ones manifest.json names" in line, line
    assert not (out / "run.json").exists() and not (out / "run.dsse.json").exists()
