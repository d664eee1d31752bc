"""Every report provebench prints for machines names its format, so the sandbox tells it as
provebench's output in a candidate's code (sandbox red team 41, SB7).

Before, `si stress --format json` printed a bare list whose honest family held a top-band answer,
and `si check --json` an object whose delta named the injected deviation: neither was told by
`sandbox._outputs.output_kind`, and a sealed agent copied the stress example and scored 1.0 with
no tool call.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from provebench._errors import ProvebenchError
from provebench.cli import app
from provebench.ledger import Ledger
from provebench.sandbox._candidate import code_listing
from provebench.sandbox._outputs import output_kind
from provebench.sandbox._policy import PACKAGE_DIR

runner = CliRunner()
SCENARIO = PACKAGE_DIR / "si" / "scenarios" / "diagnostic-accuracy.yaml"

# Every command with a machine-readable report (`--json`, or `--format` offering json), and its
# format. `evidence import --format` names the format of the file it reads, and prints none.
REPORTS = {
    ("si", "validate"): ("--format", "provebench.si.validate/1"),
    ("si", "stress"): ("--format", "provebench.si.stress/1"),
    ("si", "check"): ("--json", "provebench.si.check/1"),
    ("log", "verify"): ("--json", "provebench.ledger.verify/1"),
}
INPUT_FORMATS = {("evidence", "import")}


def _options(command: Any, path: tuple[str, ...], context: Any) -> Iterator[tuple[str, ...]]:
    if hasattr(command, "list_commands"):
        for name in command.list_commands(context):
            sub = command.get_command(context, name)
            yield from _options(sub, (*path, name), type(context)(sub, parent=context))
        return
    for param in command.params:
        if {"--json", "--format"} & set(getattr(param, "opts", ())):
            yield path


def test_the_list_names_every_command_with_a_machine_readable_report() -> None:
    root = typer.main.get_command(app)
    found = set(_options(root, (), type(root).context_class(root)))
    assert found == set(REPORTS) | INPUT_FORMATS


def _report(command: tuple[str, ...], tmp_path: Path) -> str:
    option = REPORTS[command][0]
    if command == ("log", "verify"):
        with Ledger.open(tmp_path / "log.sqlite") as ledger:
            ledger.append_many([("event", {"i": i}) for i in range(3)])
        args = [str(tmp_path / "log.sqlite"), option]
    else:
        args = [str(SCENARIO), option, *(["json"] if option == "--format" else [])]
    result = runner.invoke(app, [*command, *args])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("command", sorted(REPORTS), ids=" ".join)
def test_each_report_names_its_format_and_is_told_as_an_output(
    command: tuple[str, ...], tmp_path: Path
) -> None:
    out = _report(command, tmp_path)
    assert json.loads(out)["format"] == REPORTS[command][1]
    assert output_kind(out.encode()) == f"a provebench file of format {REPORTS[command][1]}"


def test_a_stress_report_in_the_agents_folder_is_refused(tmp_path: Path) -> None:
    # SB7's fixture: the stress report saved beside the agent (its honest example, the answer).
    out = _report(("si", "stress"), tmp_path)
    honest = next(o for o in json.loads(out)["outcomes"] if o["family"] == "honest")
    assert honest["strict"]["score"] == 1.0
    code = tmp_path / "ag"
    code.mkdir()
    (code / "stress.json").write_text(out, encoding="utf-8")
    with pytest.raises(ProvebenchError, match=r"stress\.json in the candidate's code is a prov"):
        code_listing([code], (), field="--agent")
