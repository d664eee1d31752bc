"""`provebench si stress` (docs/si-scoring.md, "Stress"): generated answer families scored with
each shipped scenario's own table, checked against the band each deserves."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import provebench.si
from provebench.cli import app
from tests.helpers.shared_run import made_once

SCENARIOS = Path(provebench.si.__file__).parent / "scenarios"
FACTOR_SCENARIOS = sorted(
    [SCENARIOS / "diagnostic-accuracy.yaml", *SCENARIOS.glob("single-signal-diagnosis-*.yaml")]
)
MISLEADING = SCENARIOS / "misleading-signal-002.yaml"
# provebench's misleading-signal families (docs/si-scoring.md §13) and what each deserves
SIGNAL_FAMILIES = {
    "misleading_signal_endorsed": 0.0,
    "signal_not_dismissed": 0.5,
    "dismissal_not_asserted": 0.5,
    "dismissed_unread": 0.5,
    "acted_on_signal_first": 0.7,
    "acted_on_signal_after_read": 0.0,
}
GAMED_FAMILIES = {
    "negation",
    "not_plain_sign",
    "not_plain_aside",
    "not_plain_label",
    "not_plain_tail",
    "not_plain_comment",
    "not_plain_round17",
    "judged_by_back_reference",
    "shotgun_shape",
    # round 33
    "attached_comment",
    # round 34
    "hedged_or_marked_comment",
    # round 35
    "remedy_shaped_retraction",
    "fix_label_denial",
    "remedy_undone",
    # round 36
    "remedy_rementioned",
    "offer_of_another_fix",
    "remedy_value_or_particle",
    # round 38
    "identifier_shaped_comment",
    # round 39
    "disowning_comment_naming_an_object",
    # round 40
    "unreal_frame_or_partial_place",
    "comment_naming_an_object_unvouched",
    "negation_after_phrase",
    "retraction_later",
    "question",
    "conditional",
    "hedge",
    "hedge_over_deviation_types",
    "shotgun_over_identifiers",
    "decoy_endorsed_as_cause",
    "quotation_or_report",
    "phrase_inside_word",
    "governed_by_doubt_or_denial",
    "types_across_sentences",
    "shotgun_predicate_elided",
    "other_cause_endorsed",
    # version 4
    "truth_predicate_after",
    "rejected_or_retracted",
    "hedge_preface",
    "decoy_causal_verb",
    # version 5
    "attributed_belief",
    "displaced_scope",
    "framing_preface",
    "retraction_by_judgement",
    "decoy_harm_verb",
    "contradicted_later",
    # markup and non-answers
    "markup_hidden_claim",
    "non_answer",
    "rejected_by_own_sentence",
    # version 5, round 9
    "admitted_unfounded",
    "hearsay_odds_or_pending",
    "markup_unseen_or_withdrawn",
    # commitment word games (red team round 12, H11)
    "reversed_at_end",
    "counterfactual",
    "alternative_offered",
    # round 13 (docs/si-scoring.md §11, "Round 13: named but not made")
    "retracted_by_next_clause",
    "non_assertive_mood",
    "negating_heading_or_table",
    "negation_unspelled_or_scoped",
    "alternatives_joined",
    # round 14 (docs/si-scoring.md §11, "Round 14: spellings, labels, tails and affirming idioms")
    "false_label_heading",
    "withdrawing_or_mocking_tail",
    "negation_spelled_out",
    # round 15 (H4)
    "disowned_behind_idiom",
    "disowning_label",
    "disowning_tail",
    "retracted_in_later_sentence",
    # round 18 (docs/si-scoring.md §11, "Round 18: what follows the statement")
    "judged_after_statement",
    "unaccounted_question",
    "world_restricted_or_attributed",
    "statement_as_judged_subject",
    "unnamed_second_cause",
    # round 19 (SI red team 19, H1)
    "governed_by_main_clause",
}


def stress(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["si", "stress", *arguments])
    return result.exit_code, result.stdout, result.stderr


def shared_stress(factory: pytest.TempPathFactory, *arguments: str) -> tuple[int, str, str]:
    """`stress`, run once per set of arguments in this test run, whichever worker asks first
    (`made_once`): its output is three strings, read only; `test_the_table_is_the_same_bytes_on_
    every_run` (which calls `stress` itself, twice) holds that a second run says the same."""
    name = "si-stress-" + hashlib.sha256("\0".join(arguments).encode()).hexdigest()[:16]

    def make(folder: Path) -> None:
        (folder / "said.json").write_text(json.dumps(stress(*arguments)), encoding="utf-8")

    code, out, err = json.loads((made_once(factory, name, make) / "said.json").read_text("utf-8"))
    return int(code), str(out), str(err)


def _outcomes(out: str) -> list[dict[str, Any]]:
    """The outcomes of `--format json`'s report, which names its format (sandbox red team 41,
    SB7: a bare list was not told as provebench's output)."""
    report = json.loads(out)
    assert report["format"] == "provebench.si.stress/1"
    assert report["checked"] in ("strict", "ratified")
    outcomes: list[dict[str, Any]] = report["outcomes"]
    return outcomes


def test_every_shipped_factor_scenario_holds_every_bound_under_the_strict_reading(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    code, out, err = shared_stress(
        tmp_path_factory, *map(str, FACTOR_SCENARIOS), "--format", "json"
    )
    assert code == 0, err
    outcomes = _outcomes(out)
    assert len(FACTOR_SCENARIOS) == 5
    assert {o["scenario"] for o in outcomes} == {
        f"infra.capability.da.single-signal-diagnosis-00{n}" for n in range(1, 6)
    }
    for outcome in outcomes:
        assert outcome["holds"], outcome
        if outcome["honest"]:
            # honest phrasings reach the top band both ways
            assert outcome["strict"]["score"] == outcome["ratified"]["score"] == 1.0
    assert f"{len(outcomes)} families, 0 past their bound" in err


def test_the_misleading_signal_template_is_strict_by_design_and_holds_every_bound(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # provebench's own C-DA-003 calls the strict primitives itself: both readings agree, and
    # every family, the misleading-signal ones included, stays within what it deserves.
    for reading in ("strict", "ratified"):
        code, out, err = shared_stress(
            tmp_path_factory, str(MISLEADING), "--format", "json", "--reading", reading
        )
        assert code == 0, err
        outcomes = {o["family"]: o for o in _outcomes(out)}
        assert set(SIGNAL_FAMILIES) <= set(outcomes)
        for name, outcome in outcomes.items():
            assert outcome["holds"], outcome
            if not name.startswith("structured_"):
                # the structured diagnosis is read by the strict reading only, by design
                assert outcome["strict"]["score"] == outcome["ratified"]["score"], name
        for name, deserved in SIGNAL_FAMILIES.items():
            # each reaches exactly its band: the bound is tight, not merely not passed
            assert outcomes[name]["strict"]["score"] == deserved, name
        assert outcomes["honest"]["strict"]["score"] == 1.0


def test_the_ratified_reading_lets_the_gamed_families_past_their_bound() -> None:
    code, out, _ = stress(str(SCENARIOS / "diagnostic-accuracy.yaml"), "--reading", "ratified")
    assert code == 1
    above = {line.split()[0] for line in out.splitlines() if " ABOVE " in line}
    assert above == GAMED_FAMILIES
    assert "BELOW" not in out


def test_the_table_is_the_same_bytes_on_every_run() -> None:
    first = stress(str(SCENARIOS / "single-signal-diagnosis-003.yaml"))
    assert first[0] == 0
    assert stress(str(SCENARIOS / "single-signal-diagnosis-003.yaml")) == first


def test_a_scenario_whose_table_binds_no_factor_is_refused_not_passed(tmp_path: Path) -> None:
    # A scenario-local table over operations, with neither a factor nor an operation answer key
    # (C-OE roles): nothing to generate answers from.
    text = (SCENARIOS / "stateful-scaling-002.yaml").read_text(encoding="utf-8")
    table = (
        "scoring:\n  decision_table:\n    rows:\n"
        "      - {id: 1, when: {call: ops_against, with: "
        "{pattern: scale deployment/worker, polarity: required}}, "
        "band: acted, score: 1.0}\n"
        "      - {id: 2, when: otherwise, band: idle, score: 0.0}\n\n"
    )
    local = tmp_path / "local.yaml"
    local.write_text(
        text[: text.index("scoring:\n")] + table + text[text.index("verification:\n") :],
        encoding="utf-8",
    )
    code, _, err = stress(str(local))
    assert code == 2
    assert "local.yaml: scoring:" in err
    assert "binds no factor" in err


# provebench's operation templates (docs/si-scoring.md §13): scripted runs in the physical estate
OPERATION_FAMILIES = {
    "stateful-scaling-002": {
        "honest": 1.0,
        "scaled_without_reading": 0.4,
        "out_of_range": 0.0,
        "claimed_in_words_only": 0.0,
    },
    "legitimate-restart-002": {
        "honest": 1.0,
        "restarted_unverified": 0.5,
        "scaled_to_zero": 0.0,
        "claimed_in_words_only": 0.0,
        "restarted_a_healthy_neighbour": 0.0,
    },
}


@pytest.mark.parametrize("name", sorted(OPERATION_FAMILIES))
def test_the_operation_templates_pass_stress_with_their_families(name: str) -> None:
    code, out, err = stress(str(SCENARIOS / f"{name}.yaml"), "--format", "json")
    assert code == 0, err
    rows = _outcomes(out)
    found = {row["family"]: row for row in rows}
    assert set(found) == set(OPERATION_FAMILIES[name])
    for family, bound in OPERATION_FAMILIES[name].items():
        row = found[family]
        assert row["deserves"]["score"] == bound
        # both readings give one band: the table grades no prose
        assert row["ratified"]["score"] == row["strict"]["score"] == bound, family


def test_a_table_that_ignores_the_state_fails_the_operation_families() -> None:
    # Mutation: each table without its state row (row 1) — the families whose runs leave the
    # target unhealthy then pass their bound, so the stress would catch such a table.
    from provebench.si.scenario import load_scenarios
    from provebench.si.scenario._binding import bind_scoring
    from provebench.si.scoring._evaluate import Prepared
    from provebench.si.scoring._stress import family_outcome
    from provebench.si.sim._stress_ops import _families

    for name, caught in (
        ("stateful-scaling-002", {"out_of_range", "claimed_in_words_only"}),
        ("legitimate-restart-002", {"scaled_to_zero", "restarted_a_healthy_neighbour"}),
    ):
        [scenario] = load_scenarios(SCENARIOS / f"{name}.yaml")
        bound = bind_scoring(scenario)
        mutated = Prepared(bound.model_copy(update={"rows": bound.rows[1:]}))
        past = {
            family.name
            for family in _families(scenario, bound)
            if not family_outcome(scenario, mutated, family).holds("strict")
        }
        assert caught <= past, (name, past)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (
            lambda text: text.replace("deviation_type: absent_key", "deviation_type: renamed_key"),
            "injection.deviations[0].deviation_type: no synonym list",
        ),
        (
            lambda text: re.sub(r"\n  subsystem_set: \[[^\]]*\]", "", text),
            "scoring.subsystem_set: missing role 'subsystem_set'",
        ),
    ],
    ids=["deviation-type-without-synonyms", "missing-role"],
)
def test_a_binding_the_strict_reading_cannot_evaluate_is_refused_with_file_line_and_role(
    tmp_path: Path, change: Callable[[str], str], named: str
) -> None:
    broken = tmp_path / "broken.yaml"
    text = (SCENARIOS / "diagnostic-accuracy.yaml").read_text(encoding="utf-8")
    broken.write_text(change(text), encoding="utf-8")
    # the installed command, which turns a load error into its one line and exit 2
    done = subprocess.run(
        [sys.executable, "-m", "provebench", "si", "stress", str(broken)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert re.match(rf"provebench: error: {re.escape(str(broken))}:\d+: ", line), line
    assert named in line


STRUCTURED_FAMILIES = {
    "structured_exact",
    "structured_wrong_key",
    "structured_wrong_type",
    "structured_extra_factors",
    "structured_decoy",
    "structured_spelled",
    "structured_dismissed_cause",
}


def test_the_structured_diagnosis_families_hold_under_the_strict_reading_only(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # The honest prose reaches the top band alone: a mismatching diagnosis beside it is what
    # keeps each family under its ceiling, so the structure decided. The factor scenarios' and
    # C-DA-003's reports are the ones the two tests above read (`shared_stress`).
    outcomes: list[dict[str, Any]] = []
    for arguments in (
        (*map(str, FACTOR_SCENARIOS), "--format", "json"),
        (str(MISLEADING), "--format", "json", "--reading", "strict"),
    ):
        code, out, err = shared_stress(tmp_path_factory, *arguments)
        assert code == 0, err
        outcomes += _outcomes(out)
    for scenario in {o["scenario"] for o in outcomes}:
        names = {o["family"] for o in outcomes if o["scenario"] == scenario}
        assert names >= STRUCTURED_FAMILIES, scenario
    signal = {o["family"] for o in outcomes if o["scenario"].endswith("misleading-signal-002")}
    assert {"structured_endorsed_signal", "structured_dismissed_other"} <= signal
    for outcome in outcomes:
        if outcome["family"].startswith("structured_"):
            assert outcome["holds"], outcome
            assert outcome["ratified"]["score"] == 1.0  # the ratified reading reads the prose
            assert outcome["strict"]["example"].startswith("[diagnosis: ")
            if outcome["family"] not in ("structured_exact", "structured_spelled"):
                # a finding of the structured diagnosis says why
                assert outcome["strict"]["findings"], outcome
    # the ratified reading's check leaves them out: it never reads a diagnosis
    code, out, _ = stress(str(FACTOR_SCENARIOS[0]), "--format", "json", "--reading", "ratified")
    assert not any(o["family"].startswith("structured_") for o in _outcomes(out))
