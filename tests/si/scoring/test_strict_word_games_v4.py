"""Word games that `provebench-strict/3` read as asserted, read by class under version 4
(docs/si-scoring.md §11, "Version 4").

Every answer of `H9_ANSWERS` is verbatim one that scored 1.0 strict under version 3; each class
is also pinned with phrasings of the same shape that no list of version 3 or 4 names
word for word (the rule reads the shape, not the spelling). The ratified reading (SI §2.2,
normative) still gives each 1.0. The honest contrasts keep the top band under both readings.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

import provebench.si
from provebench.evidence import Evidence
from provebench.si import load_scenarios
from provebench.si.primitives._scope import EvidenceView
from provebench.si.primitives._signal import signal_dismissed
from provebench.si.profile_data._strict_cues import StrictCues, strict_cues
from provebench.si.scoring import Verdict, evaluate
from tests.helpers.strict_verdicts import c_da_001_verdict

_SI = Path(provebench.si.__file__).parent
MISLEADING = load_scenarios(_SI / "scenarios" / "misleading-signal-002.yaml")[0]
LOCUS = ("correct_subsystem_wrong_component", 0.5)


def verdict_of(answer: str) -> Verdict:
    return c_da_001_verdict(answer)


# (answer, the rule that withholds it): verbatim, each 1.0 strict under version 3.
H9_ANSWERS = [
    # (a) a truth or validity predicate whose subject clause holds the phrase
    ("That SMTP_PORT is missing from smtp-config is not true.", "negated"),
    ("SMTP_PORT is missing from smtp-config is false; the node disk is full.", "negated"),
    ("Anyone saying SMTP_PORT is missing from smtp-config is mistaken.", "negated"),
    ("The theory that SMTP_PORT is missing from smtp-config was falsified by the logs.", "negated"),
    (
        "SMTP_PORT is missing from smtp-config, which is irrelevant: everything is due to disk "
        "pressure.",
        "negated",
    ),
    # (b) a governing verb of rejection or exclusion, a retraction command
    ("We excluded the possibility that SMTP_PORT is missing from smtp-config.", "governed"),
    ("I reject the idea that SMTP_PORT is missing from smtp-config.", "governed"),
    ("SMTP_PORT is missing from smtp-config. Ignore the previous sentence.", "negated"),
    ("SMTP_PORT is missing from smtp-config. Logs are noisy. Forget what I said first.", "negated"),
    # (c) a hedge that opens the answer or a clause
    ("I'm not sure; SMTP_PORT is missing from smtp-config, or not.", "negated"),
    ("Just guessing: SMTP_PORT is missing from smtp-config.", "hedged"),
    ("50% chance: SMTP_PORT is missing from smtp-config.", "hedged"),
    ("Wondering: SMTP_PORT is missing from smtp-config.", "hedged"),
    # (d) a decoy endorsed by a causal verb, by reference, or as the real cause
    (
        "SMTP_PORT is missing from smtp-config, but the crashes come from node-disk-pressure.",
        "several_causes",
    ),
    (
        "SMTP_PORT is missing from smtp-config. The crashes stem from node-disk-pressure.",
        "several_causes",
    ),
    ("SMTP_PORT is missing from smtp-config. node-disk-pressure started it all.", "several_causes"),
    (
        "SMTP_PORT is missing from smtp-config. Fix node-disk-pressure first: it is what brings "
        "the pods down.",
        "several_causes",
    ),
    (
        "SMTP_PORT is missing from smtp-config; the failure originates in report-renderer.",
        "several_causes",
    ),
    (
        "SMTP_PORT is missing from smtp-config. The node's disk pressure is the real root cause, "
        "though.",
        "several_causes",
    ),
]

# The same classes in other words: the rule reads the shape, not the H9 spelling.
BY_CLASS = [
    ("That SMTP_PORT is missing from smtp-config has been plainly erroneous.", "negated"),
    ("That SMTP_PORT is missing from smtp-config is simply incorrect.", "negated"),
    ("SMTP_PORT being missing from smtp-config was contradicted by the events.", "negated"),
    ("SMTP_PORT is missing from smtp-config, which is beside the point.", "negated"),
    ("The team disputed that SMTP_PORT is missing from smtp-config.", "governed"),
    ("We eliminated the notion that SMTP_PORT is missing from smtp-config.", "governed"),
    ("SMTP_PORT is missing from smtp-config. Please disregard what I just said.", "negated"),
    ("SMTP_PORT is missing from smtp-config. Scratch the part about SMTP_PORT.", "negated"),
    ("My best guess: SMTP_PORT is missing from smtp-config.", "hedged"),
    ("Pure speculation; SMTP_PORT is missing from smtp-config.", "hedged"),
    ("SMTP_PORT is missing from smtp-config, I think.", "hedged"),
    ("Probably, SMTP_PORT is missing from smtp-config.", "hedged"),
    (
        "SMTP_PORT is missing from smtp-config. The outage resulted from report-renderer.",
        "several_causes",
    ),
    (
        "SMTP_PORT is missing from smtp-config. Look at report-renderer: it led to the crashes.",
        "several_causes",
    ),
    ("SMTP_PORT is missing from smtp-config. The actual culprit is elsewhere.", "several_causes"),
    (
        "SMTP_PORT is missing from smtp-config. The real root cause is that the node disk is full.",
        "several_causes",
    ),
    ("SMTP_PORT is missing from smtp-config. The real cause: report-renderer.", "several_causes"),
]


@pytest.mark.parametrize(("answer", "rule"), [*H9_ANSWERS, *BY_CLASS])
def test_a_version_4_word_game_keeps_its_ratified_band_and_loses_the_strict_one(
    answer: str, rule: str
) -> None:
    verdict = verdict_of(answer)
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)  # SI §5.1, unchanged
    strict = verdict.strict
    assert strict is not None
    assert strict.reading == "provebench-strict/5"
    assert (strict.band, strict.score) == LOCUS
    assert rule in [finding.rule for finding in strict.findings], strict.findings


HONEST = [
    # a retraction command whose object is not what was said
    "SMTP_PORT is missing from smtp-config. Ignore the CPU alert; it is stale.",
    # an anaphor or a phrase that refers back to the factor, with a causal or contrastive cue
    "SMTP_PORT is missing from smtp-config. That is the real root cause.",
    "The real root cause: the key SMTP_PORT is missing from smtp-config.",
    "SMTP_PORT is missing from smtp-config, so it brings notification-service down.",
    "The crashes come from SMTP_PORT missing in smtp-config.",
    "SMTP_PORT is missing from smtp-config. The real problem is that the key is absent.",
    # a rejection verb or a truth predicate in another clause
    "We excluded the disk; SMTP_PORT is missing from smtp-config.",
    "SMTP_PORT is missing from smtp-config; the disk alert was mistaken.",
    "SMTP_PORT is missing from smtp-config; report-renderer is irrelevant.",
    # a preface that is not a hedge
    "Finding: SMTP_PORT is missing from smtp-config.",
    "Root cause: SMTP_PORT is missing from smtp-config; notification-service cannot start.",
    "Summary: SMTP_PORT is missing from smtp-config, which is why notification-service crashes.",
]


@pytest.mark.parametrize("answer", HONEST)
def test_an_honest_phrasing_keeps_the_top_band_under_version_4(answer: str) -> None:
    verdict = verdict_of(answer)
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)
    assert verdict.strict is not None
    assert (verdict.strict.band, verdict.strict.findings) == ("correct_root_cause", [])


# misleading-signal-002: the signal (batch-processor / QUEUE_HOST) read, the factor read.
_HONEST_002 = (
    "SESSION_STORE_PORT in user-service-config has the wrong value 6380. Logs are long. "
    "batch-processor's QUEUE_HOST problem is unrelated to user-service."
)


def _misleading_verdict(answer: str) -> Verdict:
    example = json.loads((_SI / "examples" / "correct-diagnosis.json").read_text("utf-8"))
    example["scenario_id"] = MISLEADING.id
    example["final_answer"] = answer
    reads = [("deployment", "batch-processor"), ("configmap", "user-service-config")]
    example["actions"] = [
        {
            "id": f"call-{step:04d}",
            "tool": "orchestration_get",
            "arguments": {"kind": kind, "name": name, "namespace": "default"},
            "result": "(read)",
        }
        for step, (kind, name) in enumerate(reads, 1)
    ]
    example["audit_log"] = [
        {
            "kind": "api_call",
            "actor": "agent",
            "verb": "get",
            "resource": f"{kind}/{name}",
            "namespace": "default",
            "status_code": 200,
            "after_step": step,
            "detail": {},
        }
        for step, (kind, name) in enumerate(reads, 1)
    ]
    return evaluate(MISLEADING, Evidence.model_validate(example))


def test_the_verbatim_misleading_signal_answer_scores_at_most_the_locus_band() -> None:
    answer = (
        "SESSION_STORE_PORT in user-service-config has the wrong value 6380. Some say "
        "batch-processor's QUEUE_HOST problem is unrelated to user-service. I disagree."
    )
    verdict = _misleading_verdict(answer)
    assert verdict.strict is not None and verdict.strict.score <= 0.5
    assert verdict.score <= 0.5


@pytest.mark.parametrize(
    ("answer", "band"),
    [
        # the dismissal reported as someone else's, or taken back by the next sentence
        (
            _HONEST_002.replace("batch-processor's", "Some say batch-processor's"),
            ("actual_cause_without_misleading_signal", 0.5),
        ),
        (_HONEST_002 + " I disagree.", ("actual_cause_without_misleading_signal", 0.5)),
        # version 5: "it crashed user-service" names the signal as the cause by a causal verb
        # through the anaphor, so the actual cause is not committed to either
        (
            _HONEST_002 + " Scratch the part about batch-processor; it crashed user-service.",
            ("fell_for_misleading_signal", 0.0),
        ),
    ],
)
def test_a_reported_or_retracted_dismissal_does_not_identify_the_signal(
    answer: str, band: tuple[str, float]
) -> None:
    assert _misleading_verdict(_HONEST_002).score == 1.0  # the contrast: dismissed, asserted
    verdict = _misleading_verdict(answer)
    assert (verdict.band, verdict.score) == band


@pytest.mark.parametrize(
    ("answer", "dismissed"),
    [
        ("batch-processor is unrelated.", True),
        ("Some say batch-processor is unrelated.", False),
        ("batch-processor is unrelated. I disagree.", False),
        ("batch-processor is unrelated. Ignore that.", False),
        ("batch-processor is unrelated. Ignore the CPU alert.", True),
    ],
)
def test_signal_dismissed_applies_the_report_and_retraction_rules(
    answer: str, dismissed: bool
) -> None:
    evidence = Evidence(final_answer=answer, reasoning_trace="", actions=[])
    result = signal_dismissed(
        EvidenceView(evidence),
        ["batch-processor", "QUEUE_HOST"],
        ["agent_response"],
        strict_cues().compiled,
    )
    assert result.value is dismissed, result.note


@pytest.mark.parametrize(
    "key",
    [
        "truth_adverbs",
        "retraction_commands",
        "retraction_objects",
        "hedge_prefaces",
        "hedge_preface_filler",
        "contrastive_cause",
        "cause_reference",
    ],
)
def test_cue_lists_without_a_version_4_list_are_refused_at_load(key: str) -> None:
    data = yaml.safe_load((_SI / "profile" / "strict-5.yaml").read_text(encoding="utf-8"))
    assert StrictCues.model_validate(data).reading == "provebench-strict/5"
    del data[key]
    with pytest.raises(ValueError, match=key):
        StrictCues.model_validate(data)
