"""A matrix's control corpora are secrets by their bytes, wherever they are moved (pilot red team
28, A6: an older matrix's `corpora/control-5`, 0600, left inside a candidate's code folder was
shown to the next matrix's sandbox — its answer key read by the candidate)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.matrix._plan import corpus_for
from provebench.sandbox._candidate import code_listing


def test_an_older_matrixs_control_corpus_in_a_code_folder_is_refused(tmp_path: Path) -> None:
    corpus_for(tmp_path / "older", "control", 5, {})
    code = tmp_path / "code"
    code.mkdir()
    (code / "snoop.py").write_text("pass\n", encoding="utf-8")
    shutil.move(str(tmp_path / "older"), code / "mc")  # the operator's layout: a matrix left in it
    with pytest.raises(ProvebenchError, match=r"a copy of .*control-5"):
        code_listing([code], field="--agent")


def test_a_public_profiles_corpus_is_no_secret(tmp_path: Path) -> None:
    """A public profile's corpus is published (pilot §11): a candidate may keep a copy."""
    corpus_for(tmp_path / "public", "public", 5, {})
    code = tmp_path / "code"
    code.mkdir()
    shutil.copytree(tmp_path / "public", code / "mp")
    assert code_listing([code], field="--agent")
