"""The CLI's shared behaviour: help everywhere, one-line errors."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from provebench.cli import app

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow

runner = CliRunner()


def test_root_help_lists_every_area() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for group in ("si", "evidence", "schema", "log", "pilot"):
        assert group in result.output


# -- the console script (provebench._entry) -------------------------------------------------

ROWS = "file_id,a\nf1,x\nf2,y\n"
# Runs the console script's `main` with the given arguments and reports, when it returns or
# exits with status 0, whether the full command line (typer) was imported.
RUN_MAIN = """
import sys
from provebench._entry import main
sys.argv = ["provebench", *sys.argv[1:]]
try:
    main()
except SystemExit as exit:
    if exit.code:
        raise
print("typer" in sys.modules, file=sys.stderr)
"""


def _main(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RUN_MAIN, *arguments], capture_output=True, text=True, check=False
    )


def _registers(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "e.csv").write_text(ROWS, encoding="utf-8")
    (tmp_path / "c.csv").write_text(ROWS.replace("y", "z"), encoding="utf-8")
    return str(tmp_path / "e.csv"), str(tmp_path / "c.csv")


def test_score_final_with_two_files_skips_the_full_command_line(tmp_path: Path) -> None:
    expected, candidate = _registers(tmp_path)
    short = _main("pilot", "score-final", expected, candidate)
    assert short.returncode == 0
    assert short.stderr.strip() == "False"  # typer was never imported
    full = runner.invoke(app, ["pilot", "score-final", expected, candidate])
    assert full.exit_code == 0
    assert short.stdout == full.output  # the same document either way
    assert '"field_accuracy": 0.5' in short.stdout


def test_other_arguments_take_the_full_command_line(tmp_path: Path) -> None:
    result = _main("pilot", "score-final", "--selftest")
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip().endswith("True")
    assert "all agree" in result.stdout


def test_bad_input_is_one_line_and_exit_2_on_both_roads(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.csv")
    expected, _ = _registers(tmp_path)
    for arguments in (
        ("pilot", "score-final", missing, expected),  # the short road
        ("log", "verify", missing),  # the full command line
    ):
        result = _main(*arguments)
        assert result.returncode == 2, arguments
        assert result.stderr.startswith("provebench: error: "), result.stderr
        assert "missing.csv" in result.stderr
        assert result.stderr.count("\n") == 1, result.stderr
        assert result.stdout == ""


def test_an_empty_file_name_is_shown_in_the_error(tmp_path: Path) -> None:
    expected, _ = _registers(tmp_path)
    result = _main("pilot", "score-final", expected, "")
    assert result.returncode == 2
    assert result.stderr.startswith("provebench: error: '': "), result.stderr


def test_control_characters_of_a_file_name_are_shown_as_escapes(tmp_path: Path) -> None:
    name = str(tmp_path / "evil\x1b[2J\x07\u202e.csv")
    result = _main("pilot", "score-final", name, name)
    assert result.returncode == 2
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    assert "\u202e" not in result.stderr  # a bidi control would reorder the line's display
    assert "evil\\x1b[2J\\x07\\u202e.csv" in result.stderr


# -- usage errors: one line, exit 2, like every other bad input ------------------------------


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (("pilot", "generate", "--seed", "abc", "--out", "x"), "'--seed'"),
        (("pilot", "redteam", "--budget", "foo"), "'--budget'"),
        (("pilot", "generate", "--bogus"), "--bogus"),
        (("pilot", "generate", "--out", "x"), "'--seed'"),
        (("pilot", "score-final", "E", "C", "extra"), "extra"),
        (("pilot", "evaluate"), "'run_dir'"),
        (("no-such-command",), "'no-such-command'"),
    ],
)
def test_a_usage_error_is_one_line_naming_the_option(
    arguments: tuple[str, ...], named: str
) -> None:
    result = _main(*arguments)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("provebench: error: "), result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert named in result.stderr
    assert "--help'" in result.stderr  # and where to read how the command is called


def test_help_is_unchanged_by_the_one_line_usage_errors() -> None:
    for arguments in (("--help",), ("pilot", "generate", "--help")):
        result = _main(*arguments)
        assert result.returncode == 0, result.stderr
        assert "Usage: provebench" in result.stdout
        assert "--help" in result.stdout
    bare_group = _main("pilot")  # a group without a command still prints its help, exit 2,
    assert bare_group.returncode == 2
    assert "Usage: provebench pilot" in bare_group.stdout
    # and says why in one line on stderr.
    assert bare_group.stderr == (
        "provebench: error: missing command (see 'provebench pilot --help')\n"
    )


def test_version_with_anything_after_it_is_a_usage_error() -> None:
    # The eager option printed the version and exited 0, ignoring what followed it.
    assert _main("--version").stdout.startswith("provebench ")
    for extra in (("extra",), ("si", "score", "missing.yaml", "x")):
        result = _main("--version", *extra)
        assert result.returncode == 2
        assert result.stdout == ""
        assert result.stderr == (
            "provebench: error: --version takes no other arguments (see 'provebench --help')\n"
        )


# -- every numeric option has a range, checked before anything is written ---------------------

HUGE = "99999999999999999999"


@pytest.mark.parametrize(
    ("arguments", "option"),
    [
        (
            ("pilot", "generate", "--seed", "1", "--out", "OUT", "--file-events", HUGE),
            "'--file-events'",
        ),
        (("pilot", "generate", "--seed", "1", "--out", "OUT", "--cycles", HUGE), "'--cycles'"),
        (
            ("pilot", "generate", "--seed", "1", "--out", "OUT", "--page-size", HUGE),
            "'--page-size'",
        ),
        (("pilot", "generate", "--seed", "-1", "--out", "OUT"), "'--seed'"),
        (("pilot", "serve", "--corpus", "c", "--out", "OUT", "--port", "99999"), "'--port'"),
        (("pilot", "serve", "--corpus", "c", "--out", "OUT", "--port", "-1"), "'--port'"),
        (("pilot", "redteam", "--budget", "ci", "--out", "OUT", "--workers", HUGE), "'--workers'"),
        (
            ("si", "run", "s.yaml", "--agent", "noop", "--out", "OUT", "--max-tool-calls", "0"),
            "'--max-tool-calls'",
        ),
        (("log", "show", "l.sqlite", "--tail", HUGE), "'--tail'"),
        (("demo", "--out", "OUT", "--seed", HUGE), "'--seed'"),
    ],
)
def test_a_number_out_of_range_is_a_usage_error_before_any_work(
    tmp_path: Path, arguments: tuple[str, ...], option: str
) -> None:
    out = tmp_path / "out"
    result = _main(*(str(out) if argument == "OUT" else argument for argument in arguments))
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("provebench: error: Invalid value for "), result.stderr
    assert result.stderr.count("\n") == 1
    assert option in result.stderr
    assert not out.exists()


def test_the_config_models_hold_the_same_ranges() -> None:
    from provebench._errors import ProvebenchError
    from provebench.pilot._limits import MAX_COUNT, MAX_SEED
    from provebench.pilot.corpus._profiles import corpus_config

    with pytest.raises(ProvebenchError) as caught:
        corpus_config(seed=1, profile="public", overrides={"file_events": MAX_COUNT + 1})
    assert caught.value.field == "file_events"
    for seed in (-1, MAX_SEED + 1):
        with pytest.raises(ProvebenchError) as caught:
            corpus_config(seed=seed, profile="public")
        assert caught.value.field == "seed"
    assert corpus_config(seed=MAX_SEED, profile="public").seed == MAX_SEED


# -- standard output that cannot be written --------------------------------------------------

SCENARIO = (
    Path(__file__).resolve().parents[1] / "src/provebench/si/scenarios/diagnostic-accuracy.yaml"
)
EVIDENCE = SCENARIO.parents[1] / "examples" / "correct-diagnosis.json"
PRINTING = {
    "si score": ("si", "score", str(SCENARIO), str(EVIDENCE)),  # rich/typer output
    "--version": ("--version",),  # printed by an eager option
    "score-final": ("pilot", "score-final", str(EVIDENCE), str(EVIDENCE)),  # the short road
}


def _console(arguments: tuple[str, ...], **options: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "provebench", *arguments],
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        **options,  # type: ignore[call-overload]
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("arguments", PRINTING.values(), ids=PRINTING.keys())
def test_a_full_standard_output_is_one_line_exit_2(arguments: tuple[str, ...]) -> None:
    # Like a full disk met while an output file is written (README): the machine's state.
    with Path("/dev/full").open("w", encoding="utf-8") as full:
        result = _console(arguments, stdout=full)
    assert result.returncode == 2, result.stderr
    assert result.stderr == (
        "provebench: error: cannot write to standard output: No space left on device\n"
    )


@pytest.mark.parametrize("arguments", PRINTING.values(), ids=PRINTING.keys())
def test_a_closed_standard_output_is_refused_not_a_silent_pass(arguments: tuple[str, ...]) -> None:
    # Python drops what is printed to a closed stdout: the score was lost and the exit was 0.
    result = _console(arguments, stdout=subprocess.DEVNULL, preexec_fn=lambda: os.close(1))
    assert result.returncode == 2, result.stderr
    assert "standard output is closed" in result.stderr
    assert result.stderr.count("\n") == 1
