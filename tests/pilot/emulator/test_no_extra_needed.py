"""`--agent-cmd` needs no extra (README, "A worked example: the call-import laboratory"): the
emulator runs on provebench's core dependencies alone, with the Google client libraries absent
from the laboratory's process. Those libraries are the importer's, never the laboratory's."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.helpers.pilot_evaluation import make_small_corpus
from tests.helpers.pilot_lab import REPO_ROOT

# The laboratory's process with every package of the `google` extra made unimportable: if the
# lab or its emulator imported one, the run would fail with ModuleNotFoundError.
WITHOUT_GOOGLE = textwrap.dedent(
    """
    import sys
    from importlib.abc import MetaPathFinder

    class NoGoogle(MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("google", "googleapiclient", "gspread"):
                raise ModuleNotFoundError(f"No module named {name!r} (blocked by the test)")
            return None

    sys.meta_path.insert(0, NoGoogle())
    from provebench._entry import main
    sys.argv = ["provebench", *sys.argv[1:]]
    main()
    """
)

NOOP = "print('nothing to do')\n"


@pytest.mark.slow
def test_agent_cmd_runs_without_the_google_extra(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path, seed=2)
    importer = tmp_path / "noop.py"
    importer.write_text(NOOP, encoding="utf-8")
    launcher = tmp_path / "without_google.py"
    launcher.write_text(WITHOUT_GOOGLE, encoding="utf-8")
    command = [
        sys.executable,
        str(launcher),
        "pilot",
        "run",
        "--corpus",
        str(corpus),
        "--out",
        str(tmp_path / "run"),
        "--agent-cmd",
        f"python {importer}",
        "--quiet",
    ]
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=240, check=False, cwd=REPO_ROOT
    )
    assert result.returncode == 0, result.stderr
    assert "blocked by the test" not in result.stderr
    assert (tmp_path / "run" / "run.json").is_file()
