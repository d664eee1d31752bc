"""Pilot red team 27, A11: `pilot control --out` wrote the fresh control — its answer key, secret
until the reveal — with the umask's modes (0755, 0644), and another local user read it; a
matrix's `corpora/` the same. Both are now 0700 with files 0600 whatever the umask, as the
seal's opening is: the laboratory's secret, never a file handed on. A corpus `pilot generate`
hands on keeps the umask's modes."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from provebench.attest import load_trusted_key
from provebench.pilot._seal import candidate_identity, generate_control, seal_candidate
from provebench.pilot.corpus import corpus_config, write_corpus
from provebench.pilot.matrix._plan import corpus_for


@pytest.fixture
def open_umask() -> Iterator[None]:
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def _modes(folder: Path) -> tuple[int, set[int]]:
    files = {stat.S_IMODE(p.lstat().st_mode) for p in folder.iterdir()}
    return stat.S_IMODE(folder.lstat().st_mode), files


@pytest.mark.usefixtures("open_umask")
def test_a_control_corpus_is_private_whatever_the_umask(tmp_path: Path) -> None:
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("reference", None), "control")
    generate_control(seal, tmp_path / "control", load_trusted_key())
    assert _modes(tmp_path / "control") == (0o700, {0o600})


@pytest.mark.usefixtures("open_umask")
def test_a_matrix_corpus_is_private_whatever_the_umask(tmp_path: Path) -> None:
    folder, _ = corpus_for(tmp_path / "mx", "public", 1, {})
    assert _modes(folder) == (0o700, {0o600})


@pytest.mark.usefixtures("open_umask")
def test_a_corpus_handed_on_keeps_the_umasks_modes(tmp_path: Path) -> None:
    write_corpus(corpus_config(seed=1, profile="public"), tmp_path / "corpus")
    assert _modes(tmp_path / "corpus") == (0o755, {0o644})
