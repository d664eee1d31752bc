"""A corpus is never shown to a candidate, wherever it was moved (pilot red team 28, A6: an older
matrix's `corpora/control-5`, 0600, left inside a candidate's code folder was shown to the next
matrix's sandbox — its answer key read by the candidate). Two rules close it: a matrix's control
corpora are secrets by their bytes (`remember_control_files`), and any folder holding a corpus
manifest is a corpus folder by its content (`sandbox._corpus_folders`), never shown — a corpus
this laboratory never recorded (another machine's, a public one) included."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.corpus import corpus_config, write_corpus
from provebench.pilot.corpus._folder import MANIFEST_FILE, CorpusManifest
from provebench.pilot.matrix._plan import corpus_for
from provebench.sandbox._candidate import code_listing
from provebench.sandbox._corpus_folders import CORPUS_MANIFEST_FIELDS, CORPUS_MANIFEST_FILE
from provebench.sandbox._policy import never_shown

SMALL = {"cycles": 4, "file_events": 30, "admissible_files": 12}


def _code(tmp_path: Path) -> Path:
    code = tmp_path / "code"
    code.mkdir()
    (code / "snoop.py").write_text("pass\n", encoding="utf-8")
    return code


def test_the_sandbox_knows_the_corpus_manifest() -> None:
    assert CORPUS_MANIFEST_FILE == MANIFEST_FILE
    assert set(CORPUS_MANIFEST_FIELDS) == set(CorpusManifest.model_fields)


def test_an_older_matrixs_control_corpus_in_a_code_folder_is_refused(tmp_path: Path) -> None:
    corpus_for(tmp_path / "older", "control", 5, {})
    code = _code(tmp_path)
    shutil.move(str(tmp_path / "older"), code / "mc")  # the operator's layout: a matrix left in it
    with pytest.raises(ProvebenchError, match=r"control-5"):
        code_listing([code], field="--agent")


@pytest.mark.parametrize("profile", ["public", "control"])
def test_a_corpus_no_laboratory_recorded_is_refused_by_its_content(
    tmp_path: Path, profile: str
) -> None:
    """A corpus written elsewhere (another machine's matrix, `pilot generate`): its bytes were
    never recorded here, and its manifest tells it all the same."""
    overrides = SMALL if profile == "public" else {}
    write_corpus(corpus_config(seed=5, profile=profile, overrides=overrides), tmp_path / "c")  # type: ignore[arg-type]
    code = _code(tmp_path)
    shutil.copytree(tmp_path / "c", code / "mc" / "corpora" / f"{profile}-5")
    with pytest.raises(ProvebenchError, match=rf"{profile}-5 in the candidate's code is a corpus"):
        code_listing([code], field="--agent")
    # …and a path inside one, named on its own (`never_shown`, the one decision).
    inside = code / "mc" / "corpora" / f"{profile}-5" / "expected_final_rows.csv"
    reason = never_shown(inside)
    assert reason is not None and "a corpus folder" in reason


def test_the_honest_controls_a_public_file_and_another_manifest_are_shown(tmp_path: Path) -> None:
    """A public corpus's bytes are no secret (pilot §11: published), so a file of it kept alone is
    shown; a `manifest.json` that is not a corpus manifest is any file."""
    write_corpus(corpus_config(seed=5, profile="public", overrides=SMALL), tmp_path / "c")
    code = _code(tmp_path)
    shutil.copy(tmp_path / "c" / "expected_final_rows.csv", code / "rows.csv")
    (code / "pkg").mkdir()
    (code / "pkg" / "manifest.json").write_text(json.dumps({"name": "pkg"}), encoding="utf-8")
    listed = dict(code_listing([code], field="--agent"))
    assert {"0/rows.csv", "0/pkg/manifest.json"} <= set(listed)
    assert never_shown(code / "pkg" / "manifest.json") is None
