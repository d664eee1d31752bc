"""Red team round 9, A4 (docs/attestation.md, "Only what it ran"): the laboratory signs only the
files it wrote. A file put into a run folder — here into a complete run whose run.json and
signature were deleted, then resumed — is refused at publish in one line naming it, never listed
in run.json nor signed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent


@pytest.mark.parametrize(
    ("planted", "named"),
    [
        (("CERTIFIED.json", "extra/x.txt"), "CERTIFIED.json"),
        (("extra/x.txt",), "extra"),
        (("checkpoint/CERTIFIED.json",), "checkpoint/CERTIFIED.json"),
        # Red team round 11, A1: a hidden folder's files were listed and signed.
        ((".x/CERTIFIED.json",), ".x"),
        (("checkpoint/.y/NOTE.txt",), "checkpoint/.y"),
        ((".CERTIFIED.json",), ".CERTIFIED.json"),
    ],
    ids=["top", "folder", "checkpoint", "hidden", "checkpoint-hidden", "hidden-file"],
)
def test_a_file_the_laboratory_did_not_write_is_refused_at_publish(
    tmp_path: Path, planted: tuple[str, ...], named: str
) -> None:
    corpus = make_small_corpus(tmp_path, seed=3)
    out = run_agent(corpus, "noop", tmp_path / "run")
    signed = json.loads((out / "run.json").read_text(encoding="utf-8"))["files_sha256"]
    for name in ("run.json", "run.dsse.json"):
        (out / name).unlink()
    for name in planted:
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text('{"certified": true}\n', encoding="utf-8")
    with pytest.raises(ProvebenchError) as refused:
        run_agent(corpus, "noop", out)
    line = str(refused.value)
    assert "\n" not in line and repr(named) in line and "did not write" in line
    assert not (out / "run.json").exists() and not (out / "run.dsse.json").exists()
    # Removed, the run resumes and publishes only the laboratory's files.
    for name in planted:
        (out / name).unlink()
    shutil.rmtree(out / "extra", ignore_errors=True)
    for folder in (".x", "checkpoint/.y"):
        shutil.rmtree(out / folder, ignore_errors=True)
    run_agent(corpus, "noop", out)
    record = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert set(record["files_sha256"]) == set(signed)
    assert (out / "run.dsse.json").is_file()
