"""The CLI's shared behaviour: help everywhere, one-line errors."""

from typer.testing import CliRunner

from provebench.cli import app

runner = CliRunner()


def test_root_help_lists_every_area() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for group in ("si", "evidence", "schema", "log", "pilot"):
        assert group in result.output
