"""File names in normal output are escaped as in error lines: no raw ESC, no raw newline."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from provebench._errors import shown
from provebench.cli import app
from tests.helpers.pilot_lab import make_corpus

SCENARIO = Path(__file__).resolve().parents[1] / (
    "src/provebench/si/scenarios/diagnostic-accuracy.yaml"
)
NAME = "odd\x1b[2J\nname"
ESCAPED = "odd\\x1b[2J\\nname"


def _invoke(*arguments: str | Path) -> str:
    result = CliRunner().invoke(app, [str(argument) for argument in arguments])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.stdout


def _assert_escaped(output: str) -> None:
    assert ESCAPED in output
    assert "\x1b" not in output
    assert output.count("\n") == 1  # one line, the name's newline shown as \n


def test_shown_escapes_control_characters_only() -> None:
    # Bidi controls (U+202E), line separators and lone surrogates are controls too; é is text.
    assert shown("a\tb\x1b\r\n\x7f\u202eé") == "a\tb\\x1b\\r\\n\\x7f\\u202eé"
    assert shown("\u2066x\u2069\u200f\u2028\ud800") == "\\u2066x\\u2069\\u200f\\u2028\\ud800"


def test_pilot_generate_run_and_evaluate_escape_the_out_name(tmp_path: Path) -> None:
    _assert_escaped(_invoke("pilot", "generate", "--seed", "1", "--out", tmp_path / NAME))
    corpus = make_corpus(tmp_path)
    run = tmp_path / "runs" / NAME
    _assert_escaped(
        _invoke("pilot", "run", "--corpus", corpus, "--out", run, "--agent", "noop", "--quiet")
    )
    verdict = tmp_path / f"{NAME}.json"
    _assert_escaped(_invoke("pilot", "evaluate", run, "--corpus", corpus, "--out", verdict))
    _assert_escaped(_invoke("report", verdict, "--out", tmp_path / f"{NAME}.html"))


def test_si_run_escapes_the_out_name(tmp_path: Path) -> None:
    _assert_escaped(
        _invoke("si", "run", SCENARIO, "--agent", "diagnoser", "--out", tmp_path / NAME)
    )


def test_si_validate_escapes_the_file_name(tmp_path: Path) -> None:
    scenario = tmp_path / "v\x1b[2Jx.yaml"
    scenario.write_text(SCENARIO.read_text(encoding="utf-8") + "bogus_field: 1\n", "utf-8")
    output = _invoke("si", "validate", scenario)
    assert "v\\x1b[2Jx.yaml:" in output
    assert "\x1b" not in output
