"""`pilot evaluate --explain` escapes every text it prints (pilot red team 35, A4).

An appended row whose file_id was `ESC[2J ESC[3J ESC[H`, a forged "laboratory_pass=true"
headline, U+202E and `ESC[8m`: the self-check gap reason and the escrow tranche reason quote
it, and `--explain` printed both raw — on a terminal, the screen cleared after the true
headline, the forged one shown, everything after it concealed. verdict.json keeps the bytes.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from pydantic import ValidationError
from rich.console import Console

from provebench.pilot.agents.defective._display_attacks import FORGED_HEADLINE
from provebench.pilot.evaluate import Verdict
from provebench.pilot.evaluate._explain import explain
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus, run_agent

# Controls a terminal acts on: escape, C1, bidi overrides and isolates, line separators.
_RAW = ("\x1b", "\x9b", "\u202e", "\u2066", "\u2028", "\r")


def _explained(verdict: Verdict) -> str:
    out = io.StringIO()
    explain(verdict, Console(file=out, force_terminal=True, width=400, color_system=None))
    return out.getvalue()


@pytest.fixture(scope="module")
def verdict(tmp_path_factory: pytest.TempPathFactory) -> Verdict:
    corpus = make_small_corpus(tmp_path_factory.mktemp("corpus"), seed=3)
    agent = "QuotesTerminalControlsInARowId"
    return evaluate(run_agent(corpus, agent, corpus.parent / agent), corpus)


def test_the_attack_is_caught_and_its_row_id_kept_as_recorded(verdict: Verdict) -> None:
    assert verdict.laboratory_pass is False
    assert FORGED_HEADLINE in verdict.metrics.shortfalls.unexpected  # type: ignore[union-attr]
    assert any(FORGED_HEADLINE in gap.reason for gap in verdict.self_check_gaps)
    assert verdict.escrow is not None
    assert any(FORGED_HEADLINE in tranche.reason for tranche in verdict.escrow.tranches)


def test_explain_prints_the_row_id_escaped_wherever_a_reason_quotes_it(verdict: Verdict) -> None:
    said = _explained(verdict)
    assert not [control for control in _RAW if control in said]
    # Quoted by the unexpected rows, the critical violation, the self-check gap and the escrow.
    assert said.count("\\x1b[2J\\x1b[3J\\x1b[H") >= 4 and "\\u202e" in said


def _spoofed(value: Any) -> Any:
    """Every text in a verdict, each ending with controls."""
    if isinstance(value, str):
        return value + "\x1b[2J\x9b8m\u202e\u2066\u2028\r"
    if isinstance(value, dict):
        return {key: _spoofed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_spoofed(item) for item in value]
    return value


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def test_explain_escapes_every_text_of_a_verdict(verdict: Verdict) -> None:
    # Every string field takes the controls, save those the verdict's schema fixes (a literal,
    # a pattern), which keep their recorded value.
    original = verdict.model_dump(mode="json")
    data = _spoofed(original)
    for _ in range(3):
        try:
            spoofed = Verdict.model_validate(data)
            break
        except ValidationError as refused:
            for error in refused.errors():
                where = tuple(error["loc"])
                _at(data, where[:-1])[where[-1]] = _at(original, where)
    else:
        pytest.fail("the verdict's schema refused more than its fixed fields")
    said = _explained(spoofed)
    assert "\\x1b[2J" in said
    assert not [control for control in _RAW if control in said]


# -- the other terminal prints of evaluator words -------------------------------------------------
def test_the_red_team_table_escapes_every_cell_and_line() -> None:
    from provebench.pilot.redteam._budget import MINIMUM
    from provebench.pilot.redteam._harness import RedteamReport
    from provebench.pilot.redteam._table import print_report

    spoof = "\x1b[2J\u202eforged\x1b[8m"
    run = {
        "corpus": f"c{spoof}", "metric_shortfalls": {f"m{spoof}": "1/2"},
        "critical_violations": {f"k{spoof}": 1}, "configuration_errors": [spoof],
        "self_check_missing_cycles": [], "run_error": spoof, "positive_signal": [spoof],
        "exercised": True, "laboratory_pass": False,
    }  # fmt: skip
    attack = {
        "attack": f"a{spoof}", "source": "§14", "agent": f"x{spoof}", "evidence": [run],
        "exercised": True, "caught": False,
    }  # fmt: skip
    report = RedteamReport(
        seed=1, level="ci", attacks=[attack], reference={"clean": True, "evidence": [run]},
        achieved=dict.fromkeys(MINIMUM, 0), corpora=[],
    )  # fmt: skip
    out = io.StringIO()
    print_report(report, Console(file=out, width=400, color_system=None, markup=False))
    said = out.getvalue()
    assert "\\x1b[2J" in said and "\\u202e" in said
    assert not [control for control in _RAW if control in said]
