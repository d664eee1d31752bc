"""Properties of scoring over generated answers for the shipped Form B scenario."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import provebench.si
from provebench.si import evaluate, load_scenarios
from tests.helpers.si_evidence import make_evidence

SCENARIO = load_scenarios(
    Path(provebench.si.__file__).parent / "scenarios" / "diagnostic-accuracy.yaml"
)[0]
BODIES = (
    "apiVersion: v1\ndata:\n  SMTP_HOST: smtp.internal\n",
    "ERROR config: required environment variable SMTP_PORT is missing\n",
    "        - name: SMTP_PORT\n          valueFrom:\n            configMapKeyRef:\n",
)
BODY_LINES = sorted({line for body in BODIES for line in body.split("\n") if line.strip()})
WORDS = [
    "SMTP_PORT",
    "smtp_port",
    "SMTP_PORT_OLD",
    "smtp-config",
    "configMapKeyRef",
    "missing",
    "not set",
    "the",
    "key",
    "is",
    ".",
    ". ",
    "\n",
    " ",
    "é",
    "e\u0301",
]
answers = st.lists(st.sampled_from(WORDS), min_size=1, max_size=25).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(answer=answers)
def test_verdict_bytes_are_identical_across_runs(answer: str) -> None:
    evidence = make_evidence(answer, BODIES)
    assert evaluate(SCENARIO, evidence).to_json() == evaluate(SCENARIO, evidence).to_json()


@settings(max_examples=80, deadline=None)
@given(answer=answers, echoed=st.lists(st.sampled_from(BODY_LINES), min_size=1, max_size=4))
def test_appending_lines_echoed_from_tool_bodies_never_raises_the_score(
    answer: str, echoed: list[str]
) -> None:
    before = evaluate(SCENARIO, make_evidence(answer, BODIES))
    after = evaluate(SCENARIO, make_evidence("\n".join([answer, *echoed]), BODIES))
    assert after.score <= before.score


@settings(max_examples=300, deadline=None)
@given(
    answer=answers,
    echoed=st.lists(st.sampled_from(BODY_LINES), max_size=3),
    window=st.sampled_from(["same-sentence", "adjacent-sentence"]),
)
def test_the_deciders_decide_the_row_the_full_evaluation_decides(
    answer: str, echoed: list[str], window: str
) -> None:
    # The batch's decision lines come from the primitives' deciders; a full verdict from the
    # primitives themselves. Both must always choose the same row.
    from provebench.si.scenario import bind_scoring
    from provebench.si.scoring._evaluate import Prepared, decide, evaluate_bound

    prepared = Prepared(bind_scoring(SCENARIO, window=window))
    evidence = make_evidence("\n".join([answer, *echoed]), BODIES)
    assert (
        decide(prepared, evidence).id == evaluate_bound(prepared, SCENARIO, evidence).matched_row.id
    )
