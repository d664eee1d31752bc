"""A work file name no reader reads as stored is the candidate's error (pilot red team 37, H3).

work/'s names are published (run.json's `files_sha256`, the in-toto subjects of run.dsse.json).
Only names that are not UTF-8 were refused: `esc\\x1b[2J\\r\\nstatus,imported` and
`\\u202eevil` were signed as they are. A name holding a control, DELETE, a bidi control, tab,
newline or a line separator is now refused like a name that is not UTF-8: the cycle's work/ is
not kept and its agent_error is `WorkDirectoryNameUnreadable`. (Readable names are read for
claims: `tests/pilot/evaluate/test_rt37_report_seams.py`.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench.sandbox._channel import CandidateFailed
from provebench.sandbox._limits import Limits
from provebench.sandbox._workdir import cycle_folder, name_unreadable, work_dir_refused
from tests.helpers.pilot_evaluation import agent_errors, evaluate, make_small_corpus, run_agent

UNREADABLE_NAMES = [
    ("esc\x1b[2J\r\nstatus,imported", "U+001B"),
    ("\u202eevil", "U+202E"),
    ("tab\there", "U+0009"),
    ("new\nline", "U+000A"),
    ("del\x7f", "U+007F"),
    ("c1\x85", "U+0085"),
    ("ls\u2028", "U+2028"),
    ("isolate\u2066", "U+2066"),
]


@pytest.mark.parametrize(("name", "character"), UNREADABLE_NAMES)
def test_a_name_with_an_unreadable_character_is_refused(
    tmp_path: Path, name: str, character: str
) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / name).touch()
    found = name_unreadable(tmp_path)
    assert found is not None and found[1] == character
    refused = work_dir_refused(tmp_path, Limits())
    assert refused is not None and refused[0] == "WorkDirectoryNameUnreadable"
    assert character in refused[1]
    assert "\x1b" not in refused[1] and "\u202e" not in refused[1]  # named escaped


@pytest.mark.parametrize(
    "name", ["state.json", "cursor.txt", "ok \u00e9 ünïcode", "x" * 254, "a b; c,d"]
)
def test_readable_names_are_kept(tmp_path: Path, name: str) -> None:
    (tmp_path / name).touch()
    assert name_unreadable(tmp_path) is None
    assert work_dir_refused(tmp_path, Limits()) is None


def test_a_cycle_that_leaves_one_is_not_kept(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "journal").write_text("cycle 1\n", encoding="utf-8")
    with (
        pytest.raises(CandidateFailed, match=r"U\+001B \(work/esc\\x1b\[2J\\r\\nstatus") as failed,
        cycle_folder(work, Limits()) as folder,
    ):
        (folder / "work" / "journal").write_text("cycle 2\n", encoding="utf-8")
        (folder / "work" / "esc\x1b[2J\r\nstatus,imported").touch()
    assert failed.value.type_name == "WorkDirectoryNameUnreadable"
    assert sorted(p.name for p in work.iterdir()) == ["journal"]  # dropped: as committed
    assert (work / "journal").read_text(encoding="utf-8") == "cycle 1\n"


H3_IMPORTER = """
import os
from provebench.pilot.agents._reference import ReferenceImporter

class ControlName(ReferenceImporter):
    name = "controlname"
    version = "1"

    def run_cycle(self, ctx):
        super().run_cycle(ctx)
        for name in ("esc\\x1b[2J\\r\\nstatus,imported", "\\u202eevil"):
            open(os.path.join(str(ctx.work_dir), name), "w").write("x")
"""


@pytest.mark.slow
def test_the_attack_as_an_importer_completes_as_its_own_error(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path / "corpus", seed=3)
    code = tmp_path / "code"
    code.mkdir()
    (code / "imp.py").write_text(H3_IMPORTER)
    run = run_agent(corpus, f"{code / 'imp.py'}:ControlName", tmp_path / "run")
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    assert record["complete"] is True
    assert not any("status" in name or "evil" in name for name in record["files_sha256"])
    envelope = (run / "run.dsse.json").read_text(encoding="utf-8")
    assert "evil" not in envelope
    errors = agent_errors(run)
    assert errors and all(e["type"] == "WorkDirectoryNameUnreadable" for e in errors)
    assert "U+001B (work/esc\\x1b[2J\\r\\nstatus,imported)" in errors[0]["message"]
    verdict = evaluate(run, corpus)
    assert verdict.configuration_errors == [], verdict.configuration_errors
    assert verdict.status != "configuration_error"
