"""Output paths: checked before any work, never replacing an input or a non-regular file, and
every OS error on a path one line with exit 2 (provebench._paths, _canonical.atomic_writer)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from provebench._canonical import atomic_writer, write_atomic
from provebench._entry import _reporting_errors
from provebench._errors import ProvebenchError
from provebench._paths import check_output_dir, check_output_file, refuse_to_replace
from tests.helpers.pilot_lab import make_corpus, run_cli

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow

SCENARIO = Path(__file__).resolve().parents[1] / (
    "src/provebench/si/scenarios/diagnostic-accuracy.yaml"
)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A corpus and a finished (noop) run on it."""
    root = tmp_path_factory.mktemp("lab")
    corpus = make_corpus(root)
    run = root / "run"
    result = run_cli("pilot", "run", "--corpus", str(corpus), "--out", str(run), "--agent", "noop")
    assert result.returncode == 0, result.stderr
    return corpus, run


def _assert_one_line(result: object, *fragments: str) -> None:
    assert result.returncode == 2, result.stderr  # type: ignore[attr-defined]
    assert result.stdout == ""  # type: ignore[attr-defined]
    lines = result.stderr.splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1 and lines[0].startswith("provebench: error: "), lines
    for fragment in fragments:
        assert fragment in lines[0]


# -- the shared check -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (os.mkfifo, "a FIFO"),
        (Path.mkdir, "a folder"),
        (lambda path: path.symlink_to(path.with_name("elsewhere")), "a symbolic link"),
    ],
)
def test_atomic_writes_refuse_to_replace_what_is_not_a_regular_file(
    tmp_path: Path, make: object, kind: str
) -> None:
    target = tmp_path / "target"
    make(target)  # type: ignore[operator]
    before = target.lstat()
    with pytest.raises(ProvebenchError, match=f"exists and is {kind}") as caught:
        write_atomic(target, "verdict")
    assert caught.value.path == str(target)
    assert target.lstat().st_mode == before.st_mode  # still what it was
    assert sorted(p.name for p in tmp_path.iterdir()) == ["target"]  # no temporary left


def test_a_device_is_refused_without_being_opened() -> None:
    with pytest.raises(ProvebenchError, match="a character device"):
        refuse_to_replace("/dev/null")


def test_an_os_error_of_the_writer_names_the_target_not_its_temporary_file(
    tmp_path: Path,
) -> None:
    with pytest.raises(ProvebenchError, match="cannot write: No such file") as caught:
        write_atomic(tmp_path / "missing" / "v.json", "x")
    assert caught.value.path == str(tmp_path / "missing" / "v.json")


def _write_under_a_size_limit(limit: int, write: str) -> str:
    """Run `write` (a statement, `target` in scope) in a child process whose files may not grow
    past `limit` bytes (SIGXFSZ ignored: the write fails as on a full disk); its one-line error."""
    child = f"""
import resource, signal, sys
from provebench._canonical import atomic_writer, write_atomic
from provebench._errors import ProvebenchError
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
try:
    {write}
except ProvebenchError as error:
    print(error.one_line())
    sys.exit(0)
sys.exit("written past the limit")
"""
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_write_that_meets_the_file_size_limit_names_the_target(tmp_path: Path) -> None:
    """A full disk met while the content is written (not at flush or rename) is one error
    naming the target, and no temporary file is left."""
    target = tmp_path / "verdict.json"
    said = _write_under_a_size_limit(
        1 << 16,
        f"with atomic_writer({str(target)!r}, binary=True) as handle:\n"
        "        for _ in range(64):\n"
        '            handle.write(b"x" * (1 << 16))',
    )
    assert said == f"{target}: cannot write: File too large"
    assert list(tmp_path.iterdir()) == []  # no temporary file, no target


def test_content_that_fits_the_buffer_but_not_the_limit_names_the_target(tmp_path: Path) -> None:
    """Content smaller than the write buffer reaches the disk only when flushed; when the flush
    fails, closing the file flushes (and fails) again. That second failure must not replace the
    one-line error with a bare OSError (an internal error, exit 3)."""
    target = tmp_path / "verdict.json"
    said = _write_under_a_size_limit(3072, f'write_atomic({str(target)!r}, "x" * 4000)')
    assert said == f"{target}: cannot write: File too large"
    assert list(tmp_path.iterdir()) == []


def test_other_os_errors_in_the_writers_block_pass_through(tmp_path: Path) -> None:
    """An OS error that names its own file, or is no write failure, is not the target's."""
    target = tmp_path / "v.json"
    with pytest.raises(FileNotFoundError), atomic_writer(target):
        (tmp_path / "absent").read_text(encoding="utf-8")
    with pytest.raises(ConnectionResetError), atomic_writer(target):
        raise ConnectionResetError(104, "reset")
    assert list(tmp_path.iterdir()) == []


def test_output_checks_name_the_path_in_the_way(tmp_path: Path) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(ProvebenchError, match="is not a folder") as caught:
        check_output_dir(blocker / "x" / "y")
    assert caught.value.path == str(blocker)
    with pytest.raises(ProvebenchError, match="the output directory is not a directory"):
        check_output_file(blocker / "x.html")
    with pytest.raises(ProvebenchError, match="the output directory does not exist"):
        check_output_file(tmp_path / "nodir" / "v.json")
    with pytest.raises(ProvebenchError, match="one of this command's inputs"):
        check_output_file(tmp_path / "." / "afile", inputs=[blocker])
    check_output_file(tmp_path / "new.json", inputs=[blocker])  # a new file beside: fine
    check_output_dir(tmp_path / "new" / "deeper")  # can be made


# -- the last line of defence: an OS error on a named path is exit 2 ---------------------------


def _raise(error: BaseException) -> None:
    raise error


def test_an_os_error_on_a_named_path_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        _reporting_errors(lambda: _raise(PermissionError(13, "Permission denied", "in\nput.json")))
    assert exit_.value.code == 2
    assert capsys.readouterr().err == "provebench: error: in\\nput.json: Permission denied\n"


def test_an_os_error_on_a_file_of_the_package_is_an_internal_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A data file missing from the install is no input of the user's: exit 3, not exit 2.
    import provebench.pilot

    missing = Path(provebench.pilot.__file__).parent / "data" / "no-such-table.csv"
    with pytest.raises(SystemExit) as exit_:
        _reporting_errors(lambda: _raise(FileNotFoundError(2, "No such file", str(missing))))
    assert exit_.value.code == 3
    assert capsys.readouterr().err.startswith("provebench: internal error: FileNotFoundError: ")


def test_an_os_error_naming_a_path_beside_the_package_is_still_bad_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A user's file whose name merely starts like the package's folder is the user's.
    import provebench

    beside = Path(provebench.__file__).parent.with_name("provebench-input.json")
    with pytest.raises(SystemExit) as exit_:
        _reporting_errors(lambda: _raise(FileNotFoundError(2, "No such file", str(beside))))
    assert exit_.value.code == 2
    assert capsys.readouterr().err == f"provebench: error: {beside}: No such file\n"


def test_an_os_error_without_a_path_is_still_an_internal_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        _reporting_errors(lambda: _raise(ConnectionResetError(104, "reset")))
    assert exit_.value.code == 3
    assert capsys.readouterr().err.startswith("provebench: internal error: ")


# -- the commands --------------------------------------------------------------------------------


def test_evaluate_never_replaces_the_run_record_or_a_corpus_file(
    lab: tuple[Path, Path], tmp_path: Path
) -> None:
    corpus, run = lab
    record = (run / "run.json").read_bytes()
    for out in (run / "run.json", run / "ledger.sqlite", corpus / "corpus.json", corpus / "x"):
        result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus), "--out", str(out))
        _assert_one_line(result, f"{out}: --out: ", "this command's inputs")
    assert (run / "run.json").read_bytes() == record
    assert not (corpus / "x").exists()


@pytest.mark.parametrize("how", ["fifo", "symlink", "folder", "no-folder", "file-as-folder"])
def test_evaluate_and_report_refuse_a_bad_out_before_any_work(
    lab: tuple[Path, Path], tmp_path: Path, how: str
) -> None:
    corpus, run = lab
    out = tmp_path / "out"
    if how == "fifo":
        os.mkfifo(out)
    elif how == "symlink":
        out.symlink_to(tmp_path / "target.json")
    elif how == "folder":
        out.mkdir()
    elif how == "no-folder":
        out = tmp_path / "nodir" / "v.json"
    else:
        (tmp_path / "afile").write_text("x", encoding="utf-8")
        out = tmp_path / "afile" / "v.json"
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus), "--out", str(out))
    _assert_one_line(result, "--out: ")
    verdict = tmp_path / "verdict.json"
    run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus), "--out", str(verdict))
    _assert_one_line(run_cli("report", str(verdict), "--out", str(out)), "--out: ")
    assert not (tmp_path / "target.json").exists()  # nothing written through the link


def test_report_never_replaces_its_verdict(lab: tuple[Path, Path], tmp_path: Path) -> None:
    corpus, run = lab
    verdict = tmp_path / "verdict.json"
    run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus), "--out", str(verdict))
    before = verdict.read_bytes()
    _assert_one_line(run_cli("report", str(verdict), "--out", str(verdict)), "inputs")
    assert verdict.read_bytes() == before


def test_out_folders_that_cannot_be_made_are_refused(
    lab: tuple[Path, Path], tmp_path: Path
) -> None:
    corpus, _ = lab
    blocker = tmp_path / "afile"
    blocker.write_text("x", encoding="utf-8")
    out = str(blocker / "x")
    for arguments in (
        ("pilot", "generate", "--seed", "1", "--out", out),
        ("si", "run", str(SCENARIO), "--agent", "diagnoser", "--out", out),
        ("pilot", "run", "--corpus", str(corpus), "--agent", "noop", "--out", out),
    ):
        _assert_one_line(run_cli(*arguments), f"{blocker}: --out: is not a folder")


def test_si_run_refuses_to_replace_a_fifo_in_its_out_folder(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "verdict.json")
    result = run_cli("si", "run", str(SCENARIO), "--agent", "diagnoser", "--out", str(out))
    _assert_one_line(result, "verdict.json: --out: exists and is a FIFO")
    assert sorted(p.name for p in out.iterdir()) == ["verdict.json"]


def test_a_corpus_file_replaced_by_a_folder_is_one_line(
    lab: tuple[Path, Path], tmp_path: Path
) -> None:
    corpus, _ = lab
    broken = tmp_path / "corpus"
    broken.mkdir()
    for child in corpus.iterdir():
        if child.name != "corpus.json":
            (broken / child.name).write_bytes(child.read_bytes())
    (broken / "corpus.json").mkdir()
    result = run_cli(
        "pilot", "run", "--corpus", str(broken), "--agent", "noop", "--out", str(tmp_path / "r")
    )
    _assert_one_line(result, "corpus.json")
