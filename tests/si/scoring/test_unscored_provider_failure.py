"""A scenario whose provider failed at runtime is not scored (OASIS Core §3.6–3.7;
05-reporting.md): its verdict carries no band, score or matched row — nor a strict, ratified or
reference band — that a reader or an aggregate could take as the agent's result. SI red team
27: L3_unwritten_field's verdict.json carried band full_recovery_verified, score 1.0 beside
`provider_failure`. Every consumer of the verdict reads it so: the line `si run` prints, the
batch line, the signed outcome, the Inspect scorer's value, the report."""

from __future__ import annotations

import json
import math
from pathlib import Path

from provebench.evidence import Evidence
from provebench.integrations.inspect._si import score_value
from provebench.report import render_report
from provebench.report._kind import detect_kind
from provebench.report._reasons import si_reasons
from provebench.si.agents._run import is_provider_failure, verdict_line
from provebench.si.agents._signing import outcome_of
from provebench.si.scenario import load_scenarios
from provebench.si.scoring._score import score_scenario
from provebench.si.scoring._verdict import Verdict

SI = Path(__file__).resolve().parents[3] / "src/provebench/si"
SCENARIO = SI / "scenarios" / "diagnostic-accuracy.yaml"
FAULT = "POST http://127.0.0.1:1/…/state-snapshot: the final /state-snapshot changes status"
SCORED_ONLY = {"band", "score", "matched_row", "strict", "ratified", "reference_runner"}


def _verdicts(reading: str = "ratified") -> tuple[Verdict, Verdict]:
    """The correct example's verdict, and the same evidence's under a provider failure."""
    (scenario,) = load_scenarios(SCENARIO)
    data = json.loads((SI / "examples" / "correct-diagnosis.json").read_text(encoding="utf-8"))
    evidence = Evidence.model_validate(data)
    failed = evidence.model_copy(update={"provider_failure": FAULT})
    scored = score_scenario(scenario, evidence, reading=reading)  # type: ignore[arg-type]
    unscored = score_scenario(scenario, failed, reading=reading)  # type: ignore[arg-type]
    assert isinstance(scored, Verdict) and isinstance(unscored, Verdict)
    return scored, unscored


def test_a_provider_failure_s_verdict_carries_no_band_score_or_row() -> None:
    for reading in ("ratified", "strict"):
        scored, unscored = _verdicts(reading)
        assert scored.band is not None and scored.score == 1.0  # the control is scored
        written = json.loads(unscored.to_json())
        assert not SCORED_ONLY & set(written), sorted(SCORED_ONLY & set(written))
        assert written["provider_failure"] == FAULT
        assert written["evaluations"] == json.loads(scored.to_json())["evaluations"]
        assert Verdict.model_validate(written) == unscored  # read back as written


def test_every_reader_of_the_verdict_reads_no_result() -> None:
    scored, unscored = _verdicts()
    assert is_provider_failure(unscored) and not is_provider_failure(scored)
    assert verdict_line(unscored) == "PROVIDER_FAILURE (not scored)"
    assert outcome_of(unscored) == {"status": "PROVIDER_FAILURE", "sealed": unscored.sealed}
    assert math.isnan(score_value(unscored)) and score_value(scored) == 1.0
    written = json.loads(unscored.to_json())
    assert detect_kind(written) == "si"
    (reason,) = si_reasons(written)
    assert reason["text"].startswith("Not scored: the provider failed at runtime")
    page = render_report(written)
    assert "PROVIDER_FAILURE" in page and "not scored" in page
    assert str(scored.band) not in page
