"""`provebench pilot run` on bad input: one line, exit 2, nothing that looks complete."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from provebench._canonical import canonical_json, sha256_file
from tests.helpers.pilot_lab import REPO_ROOT, make_corpus, read_rows, run_cli

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_corpus(tmp_path_factory.mktemp("corpus"), profile="public", seed=1)


def assert_one_line_error(result: object, *fragments: str) -> None:
    assert result.returncode == 2, result.stderr  # type: ignore[attr-defined]
    lines = result.stderr.strip().splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1, lines
    assert lines[0].startswith("provebench: error: ")
    for fragment in fragments:
        assert fragment in lines[0]


def run_importer_file(
    corpus: Path, tmp_path: Path, source: str, class_name: str, **options: Any
) -> tuple[Any, Path]:
    """`pilot run --agent FILE.py:CLASS` on `source` written to a file; (result, run folder)."""
    importer = tmp_path / f"{class_name.lower()}.py"
    importer.write_text(source, encoding="utf-8")
    out = tmp_path / "run"
    agent = f"{importer}:{class_name}"
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--agent", agent, "--out", str(out), **options
    )
    return result, out


def copy_corpus(corpus: Path, target: Path) -> Path:
    shutil.copytree(corpus, target)
    return target


def test_altered_corpus_file_is_refused_and_nothing_written(corpus: Path, tmp_path: Path) -> None:
    broken = copy_corpus(corpus, tmp_path / "corpus")
    events = broken / "drive_events.jsonl"
    events.write_bytes(events.read_bytes().replace(b'"cycle":1', b'"cycle":2', 1))
    out = tmp_path / "run"
    result = run_cli("pilot", "run", "--corpus", str(broken), "--agent", "noop", "--out", str(out))
    assert_one_line_error(result, "drive_events.jsonl", "manifest")
    assert not out.exists()


def rehash(corpus: Path, *names: str) -> None:
    """Make manifest.json agree with edited files, as someone editing a corpus would."""
    manifest_path = corpus / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    for name in names:
        manifest["sha256"][name] = sha256_file(corpus / name)
    manifest_path.write_text(canonical_json(manifest), encoding="utf-8")


def test_an_unknown_corpus_format_in_corpus_json_is_refused(corpus: Path, tmp_path: Path) -> None:
    broken = copy_corpus(corpus, tmp_path / "corpus")
    info = json.loads((broken / "corpus.json").read_text(encoding="utf-8"))
    info["corpus_format"] = "call-import-corpus/9"
    (broken / "corpus.json").write_text(canonical_json(info), encoding="utf-8")
    rehash(broken, "corpus.json")
    out = tmp_path / "run"
    result = run_cli("pilot", "run", "--corpus", str(broken), "--agent", "noop", "--out", str(out))
    assert_one_line_error(result, "corpus.json", "corpus_format", "call-import-corpus/9")
    assert not out.exists()


def _set_run_version_zone(info: dict[str, Any]) -> None:
    info["run_versions"][-1]["zone"] = "Mars/Base"


def _seed_as_text(info: dict[str, Any]) -> None:
    info["config"]["seed"] = str(info["config"]["seed"])


def _count_as_text(info: dict[str, Any]) -> None:
    info["counts"]["events"] = str(info["counts"]["events"])


@pytest.mark.parametrize(
    ("change", "fragments"),
    [
        (_set_run_version_zone, ("run_versions[", "].zone", "Mars/Base")),
        (_seed_as_text, ("config.seed", "valid integer")),
        (_count_as_text, ("counts.events", "valid integer")),
    ],
    ids=["unknown-zone", "seed-as-text", "count-as-text"],
)
def test_corpus_json_is_checked_whole_before_anything_is_created(
    corpus: Path, tmp_path: Path, change: Callable[[dict[str, Any]], None], fragments: tuple[str]
) -> None:
    # An unknown zone of a later run version used to stop the run at its first event, with
    # cycles committed; a number written as text used to be coerced.
    broken = copy_corpus(corpus, tmp_path / "corpus")
    info = json.loads((broken / "corpus.json").read_text(encoding="utf-8"))
    change(info)
    (broken / "corpus.json").write_text(canonical_json(info), encoding="utf-8")
    rehash(broken, "corpus.json")
    out = tmp_path / "run"
    result = run_cli("pilot", "run", "--corpus", str(broken), "--agent", "noop", "--out", str(out))
    assert_one_line_error(result, "corpus.json", *fragments)
    assert not out.exists()


def _bad_json(event: dict[str, object]) -> bytes:
    return b'{"cycle":1,"kind":'


def _unknown_kind(event: dict[str, object]) -> bytes:
    return canonical_json({**event, "kind": "file_teleported"}).encode()


def _wrong_type(event: dict[str, object]) -> bytes:
    file = {**event["file"], "size_bytes": "12"}  # type: ignore[dict-item]
    return canonical_json({**event, "file": file}).encode()


def break_event_line(corpus: Path, number: int, change: Callable[..., bytes]) -> None:
    """Replace line `number` of drive_events.jsonl and rehash: the manifest no longer helps."""
    events = corpus / "drive_events.jsonl"
    lines = events.read_bytes().split(b"\n")
    lines[number - 1] = change(json.loads(lines[number - 1]))
    events.write_bytes(b"\n".join(lines))
    rehash(corpus, "drive_events.jsonl")


@pytest.mark.parametrize(
    "change", [_bad_json, _unknown_kind, _wrong_type], ids=lambda f: f.__name__
)
@pytest.mark.parametrize("folder", ["absent", "empty"])
def test_a_corpus_error_before_the_first_commit_leaves_the_folder_as_it_was(
    corpus: Path, tmp_path: Path, change: Callable[..., bytes], folder: str
) -> None:
    """Events are validated as they stream; an error in cycle 1 removes what the run created,
    so that the run on the corrected corpus is not refused as "another run"."""
    broken = copy_corpus(corpus, tmp_path / "corpus")
    break_event_line(broken, 5, change)
    out = tmp_path / "run"
    if folder == "empty":
        out.mkdir()
    args = ["pilot", "run", "--agent", "reference", "--out", str(out), "--quiet"]
    result = run_cli(*args, "--corpus", str(broken))
    assert_one_line_error(result, "drive_events.jsonl:5")
    assert out.exists() == (folder == "empty")
    assert not out.exists() or list(out.iterdir()) == []
    retry = run_cli(*args, "--corpus", str(corpus))
    assert retry.returncode == 0, retry.stderr
    assert (out / "run.json").is_file()


def test_a_corpus_error_after_a_commit_keeps_the_committed_cycles(
    corpus: Path, tmp_path: Path
) -> None:
    """After a committed cycle the folder holds evidence: it stays, and the corrected corpus,
    being another corpus, needs a new folder (docs/pilot-lab.md, "Crash safety")."""
    broken = copy_corpus(corpus, tmp_path / "corpus")
    lines = (broken / "drive_events.jsonl").read_text(encoding="utf-8").splitlines()
    last = max(i for i, line in enumerate(lines, start=1) if '"cycle":2,' in line)
    break_event_line(broken, last, _bad_json)
    out = tmp_path / "run"
    args = ["pilot", "run", "--agent", "reference", "--out", str(out), "--quiet"]
    result = run_cli(*args, "--corpus", str(broken))
    assert_one_line_error(result, f"drive_events.jsonl:{last}")
    assert (out / "ledger.sqlite").is_file() and not (out / "run.json").exists()
    assert_one_line_error(run_cli(*args, "--corpus", str(corpus)), "belongs to another run")


def test_corpus_without_manifest_is_refused(corpus: Path, tmp_path: Path) -> None:
    broken = copy_corpus(corpus, tmp_path / "corpus")
    (broken / "manifest.json").unlink()
    result = run_cli(
        "pilot", "run", "--corpus", str(broken), "--agent", "noop", "--out", str(tmp_path / "run")
    )
    assert_one_line_error(result, "manifest.json")


def test_missing_corpus_and_unknown_agent(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    missing = run_cli(
        "pilot", "run", "--corpus", str(tmp_path / "none"), "--agent", "noop", "--out", str(out)
    )
    assert_one_line_error(missing, "not a corpus directory")
    unknown = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--agent", "nobody", "--out", str(out)
    )
    assert_one_line_error(unknown, "--agent", "unknown agent")
    assert not out.exists()


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("import sys\nsys.exit(0)\n", "SystemExit: 0"),  # not exit 0 with nothing done
        ("raise SystemExit(2)\n", "SystemExit: 2"),  # not exit 2 with nothing said
        ("raise ValueError('boom')\n", "ValueError: boom"),
    ],
)
def test_an_agent_module_that_exits_or_fails_on_import_is_one_line(
    corpus: Path, tmp_path: Path, code: str, said: str
) -> None:
    out = tmp_path / "run"
    (tmp_path / "agent_mod.py").write_text(code, encoding="utf-8")
    for spec, env in (
        (f"{tmp_path / 'agent_mod.py'}:Importer", None),  # path.py:Class
        ("agent_mod:Importer", {"PYTHONPATH": str(tmp_path)}),  # module:Class
    ):
        result = run_cli(
            "pilot", "run", "--corpus", str(corpus), "--agent", spec, "--out", str(out), env=env
        )
        assert_one_line_error(result, said)
    assert not out.exists()


def test_a_bare_base_exception_from_the_importer_is_its_agent_error(
    corpus: Path, tmp_path: Path
) -> None:
    source = (
        "class Bare:\n    name = 'bare'\n    version = '1'\n\n"
        "    def run_cycle(self, ctx):\n        raise BaseException('bare')\n"
    )
    result, out = run_importer_file(corpus, tmp_path, source, "Bare")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "the last: BaseException: bare; see run.json" in result.stdout
    record = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert record["non_scoring"]["entries_by_kind"]["agent_error"] == record["cycles"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write a read-only directory")
def test_unwritable_output_directory(corpus: Path, tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        result = run_cli(
            "pilot", "run", "--corpus", str(corpus), "--agent", "noop", "--out", str(locked / "run")
        )
        assert_one_line_error(result, "run")
    finally:
        locked.chmod(0o700)


def test_output_path_that_is_a_file(corpus: Path, tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x", encoding="utf-8")
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--agent", "noop", "--out", str(target)
    )
    assert_one_line_error(result, str(target))
    assert target.read_text(encoding="utf-8") == "x"


def test_a_run_folder_inside_its_corpus_is_refused(corpus: Path, tmp_path: Path) -> None:
    # The run would change the corpus folder it is judged against (and evaluate refuses it).
    inside = copy_corpus(corpus, tmp_path / "corpus")
    before = sorted(p.name for p in inside.iterdir())
    for out in (inside / "run", inside):
        result = run_cli(
            "pilot", "run", "--corpus", str(inside), "--agent", "noop", "--out", str(out)
        )
        assert_one_line_error(result, "--out", "this command's inputs")
    assert sorted(p.name for p in inside.iterdir()) == before


def test_non_empty_foreign_directory_is_not_used(corpus: Path, tmp_path: Path) -> None:
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep", encoding="utf-8")
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--agent", "noop", "--out", str(foreign)
    )
    assert_one_line_error(result, "not empty")
    assert sorted(p.name for p in foreign.iterdir()) == ["notes.txt"]


def test_plain_progress_lines_when_not_a_terminal(corpus: Path, tmp_path: Path) -> None:
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--agent", "noop", "--out", str(tmp_path / "r")
    )
    assert result.returncode == 0, result.stderr
    assert re.search(r"^cycle 1/\d+: \d+ events, \d+ errors$", result.stderr, re.MULTILINE)
    record = json.loads((tmp_path / "r" / "run.json").read_text(encoding="utf-8"))
    assert record["complete"] is True
    assert record["cycles"] == len(re.findall(r"^cycle ", result.stderr, re.MULTILINE))


CRASHING = """
class Crashing:
    name = "crashing"
    version = "1"

    def run_cycle(self, ctx):
        raise RuntimeError("boom\\nand a second line")
"""


def test_an_importer_that_crashes_is_in_the_errors_and_the_summary(
    corpus: Path, tmp_path: Path
) -> None:
    # It makes no call, so the lab answers it no error: its agent_error is the cycle's one error.
    importer = tmp_path / "crashing.py"
    importer.write_text(CRASHING, encoding="utf-8")
    run = tmp_path / "run"
    args = ("pilot", "run", "--corpus", str(corpus), "--agent", f"{importer}:Crashing")
    first = run_cli(*args, "--out", str(run), env={"PROVEBENCH_PILOT_CRASH_AT": "after_commit@2"})
    assert first.returncode == -signal.SIGKILL, first.stderr
    resumed = run_cli(*args, "--out", str(run))
    assert resumed.returncode == 0, resumed.stderr
    cycles = json.loads((run / "run.json").read_text(encoding="utf-8"))["cycles"]
    errors = re.findall(r"^cycle \d+/\d+: \d+ events, (\d+) errors$", resumed.stderr, re.M)
    assert errors == ["1"] * (cycles - 2)
    # The summary counts the cycles before the resume too, and gives the last reason's first line.
    said = f"; agent_error in {cycles} cycle(s), the last: RuntimeError: boom; see run.json"
    assert resumed.stdout.strip().endswith(said), resumed.stdout


def _docs_example() -> str:
    text = (REPO_ROOT / "docs" / "pilot-lab.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    (example,) = [b for b in blocks if "class MyImporter" in b]
    return example


# ("control", 7) is the corpus of the page's own commands; the others vary seed and profile.
@pytest.mark.parametrize(("profile", "seed"), [("public", 1), ("control", 7), ("control", 8)])
def test_the_documented_example_importer_passes_evaluation(
    profile: str, seed: int, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The page calls the block "complete, correct": the evaluator's laboratory gate must agree,
    §12 self-check probe included, not only the final register (docs/pilot-evaluator.md)."""
    example = tmp_path / "my_importer.py"
    example.write_text(_docs_example(), encoding="utf-8")
    corpus = make_corpus(tmp_path_factory.getbasetemp(), profile=profile, seed=seed)
    run = tmp_path / "run"
    result = run_cli(
        "pilot",
        "run",
        "--corpus",
        str(corpus),
        "--agent",
        f"{example}:MyImporter",
        "--out",
        str(run),
        "--quiet",
    )
    assert result.returncode == 0, result.stderr
    assert read_rows(run / "register.csv") == read_rows(corpus / "expected_final_rows.csv")
    evaluated = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus))
    verdict = json.loads((run / "verdict.json").read_text(encoding="utf-8"))
    assert verdict["self_check_missing_cycles"] == []
    assert verdict["laboratory_pass"] is True, evaluated.stdout
    assert evaluated.returncode == 0, evaluated.stderr


def test_output_directory_that_cannot_be_created(corpus: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("x", encoding="utf-8")
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--agent", "noop", "--out", str(blocker / "run")
    )
    # Checked before the corpus is read, naming the file that is in the way.
    assert_one_line_error(result, f"{blocker}: --out: is not a folder")


def test_an_agent_name_no_file_can_hold_is_refused_before_the_run(
    corpus: Path, tmp_path: Path
) -> None:
    # The name and version go into the log and the evidence as UTF-8: a lone surrogate would
    # fail there, mid-run.
    source = (
        "class Odd:\n    name = 'odd\\ud800'\n    version = '1'\n\n"
        "    def run_cycle(self, ctx):\n        pass\n"
    )
    result, out = run_importer_file(corpus, tmp_path, source, "Odd")
    assert_one_line_error(result, "--agent", "lone surrogate")
    assert not out.exists()


LINKING = """
import os


class Linking:
    name = "linking"
    version = "1"

    def run_cycle(self, ctx):
        work = ctx.work_dir
        if not (work / "loop").is_symlink():  # a FIFO is not kept from one cycle to the next
            os.symlink(OUTSIDE, work / "outside")  # a folder beyond the run
            os.symlink(os.path.join(OUTSIDE, "secret.txt"), work / "secret")
            os.symlink(".", work / "loop")  # a loop
            os.mkfifo(work / "pipe")  # opening it would block
"""


@pytest.mark.timeout(60)
def test_links_and_fifos_an_importer_leaves_in_work_are_never_followed_or_opened(
    corpus: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("not the run's", encoding="utf-8")
    # The path is in the source: a sealed importer gets none of the host's environment.
    source = f"OUTSIDE = {str(outside)!r}\n" + LINKING
    result, out = run_importer_file(corpus, tmp_path, source, "Linking")
    assert result.returncode == 0, result.stderr
    # The snapshots hold the links as links, no copy of what they point at, and no FIFO.
    assert not list(out.rglob("secret.txt"))
    snapshot = next((out / "checkpoint").glob("snapshot-*"))
    assert (snapshot / "outside").is_symlink() and (snapshot / "loop").is_symlink()
    assert not (snapshot / "pipe").exists()
    recorded = json.loads((out / "run.json").read_text(encoding="utf-8"))["files_sha256"]
    assert not [name for name in recorded if name.startswith("work/")]
    # The evaluator then reports what the lab did not record: a configuration error.
    evaluated = run_cli("pilot", "evaluate", str(out), "--corpus", str(corpus))
    assert evaluated.returncode == 2
    verdict = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    unrecorded = {
        error["path"]
        for error in verdict["configuration_errors"]
        if error["code"] == "file_unrecorded"
    }
    assert {"work/outside", "work/secret", "work/loop"} <= unrecorded
    # A sealed importer's FIFO is left out when its work directory is carried back.
    assert not (out / "work" / "pipe").exists()
