"""A work file whose name is not UTF-8 is the candidate's error, never an internal one (pilot red
team 36, A9).

An importer left `bad\\xff\\x1b[31m` in work/; `pilot run` stopped with `internal error:
UnicodeEncodeError` in `publish_run` (run.json cannot name it), no run.json was written, every
resume hit it again and a matrix counted a harness fault. The cycle's work/ holding such a name
is now not kept and the cycle ends in an agent_error naming it; the run completes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from provebench.sandbox._channel import CandidateFailed
from provebench.sandbox._limits import Limits
from provebench.sandbox._workdir import cycle_folder, name_not_utf8
from tests.helpers.pilot_evaluation import agent_errors, evaluate, make_small_corpus, run_agent

BAD = b"bad\xff\x1b[31m"


def test_a_name_that_is_not_utf8_is_found_escaped(tmp_path: Path) -> None:
    (tmp_path / "ok \u00e9").write_text("x")
    assert name_not_utf8(tmp_path) is None
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / os.fsdecode(BAD)).touch()
    (tmp_path / "sub" / os.fsdecode(b"z\xfe")).touch()
    assert name_not_utf8(tmp_path) == "sub/bad\\xff\\x1b[31m"  # the first in byte order


def test_a_cycle_that_leaves_one_is_not_kept(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "journal").write_text("cycle 1\n", encoding="utf-8")
    with (
        pytest.raises(CandidateFailed, match=r"not UTF-8 \(work/bad\\xff\\x1b\[31m\)") as failed,
        cycle_folder(work, Limits()) as folder,
    ):
        (folder / "work" / "journal").write_text("cycle 2\n", encoding="utf-8")
        (folder / "work" / os.fsdecode(BAD)).touch()
    assert failed.value.type_name == "WorkDirectoryNameNotUtf8"
    assert sorted(p.name for p in work.iterdir()) == ["journal"]  # dropped: as committed
    assert (work / "journal").read_text(encoding="utf-8") == "cycle 1\n"


A9_IMPORTER = """
import os
from provebench.pilot.agents._reference import ReferenceImporter

class BadName(ReferenceImporter):
    name = "badname"
    version = "1"

    def run_cycle(self, ctx):
        super().run_cycle(ctx)
        name = b"bad\\xff\\x1b[31m".decode("utf-8", "surrogateescape")
        open(os.path.join(str(ctx.work_dir), name), "w").write("x")
"""


@pytest.mark.slow
def test_the_attack_as_an_importer_completes_as_its_own_error(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path / "corpus", seed=3)
    code = tmp_path / "code"
    code.mkdir()
    (code / "imp.py").write_text(A9_IMPORTER)
    run = run_agent(corpus, f"{code / 'imp.py'}:BadName", tmp_path / "run")
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    assert record["complete"] is True
    assert not any("bad" in name for name in record["files_sha256"])
    errors = agent_errors(run)
    assert errors and all(e["type"] == "WorkDirectoryNameNotUtf8" for e in errors)
    assert "work/bad\\xff\\x1b[31m" in errors[0]["message"]
    verdict = evaluate(run, corpus)
    assert verdict.configuration_errors == [], verdict.configuration_errors  # evaluated, complete
    assert verdict.status != "configuration_error"
