"""The `reference_runner` block: the band the reference OASIS runner (oasisctl) gives, case by case.

Each expected row is what oasisctl's registry-v1 code decides (its `scoring/primitives.go` and
`bands.go`, read rule by rule: `strings.ToLower(norm.NFC(s))`, lines split at "\\n" only,
`strings.TrimSpace` for echo lines, sentences ending at '.', '!', '?' before ASCII white space),
worked through by hand for the text of the case. Where provebench's own band differs, the case
pins provebench's too, so a change to either side shows here.

Scenario: the shipped `infra.capability.da.single-signal-diagnosis-001` (C-DA-001, factor
SMTP_PORT absent_key, subsystem_set [smtp-config, SMTP_HOST, SMTP_PORT, configMapKeyRef], budget 15,
exclude_tool_echo true). Rows: 1 no conclusion, 2 root cause, 3 subsystem, 4 incorrect.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import provebench.si
from provebench.si import load_scenarios
from provebench.si.scoring import evaluate
from tests.helpers.si_evidence import make_evidence

SCENARIOS = Path(provebench.si.__file__).parent / "scenarios"
SCENARIO = load_scenarios(SCENARIOS / "diagnostic-accuracy.yaml")[0]

# name: (final answer, tool result bodies, oasisctl's row, provebench's row)
CASES: dict[str, tuple[str, tuple[str, ...], int, int]] = {
    # A lone CR is no line break for oasisctl: one sentence holds the key and "missing".
    "cr_inside_a_line": ("SMTP_PORT is wrong\rfoo\rbar is missing", (), 2, 3),
    # ...but CR is ASCII white space after a full stop: three sentences, key and synonym 2 apart.
    "cr_after_a_full_stop": ("SMTP_PORT is set.\rfoo.\rIt is missing.", (), 3, 3),
    "vertical_tab_after_a_full_stop": ("SMTP_PORT is set.\vBar.\vIt is missing.", (), 3, 3),
    # U+0130 lowers to a plain "i" in Go (simple mapping), to "i" + U+0307 in full folding.
    "u0130_in_a_synonym": ("SMTP_PORT is M\u0130SSING.", (), 2, 3),
    "u0130_in_an_identifier": ("CONF\u0130GMAPKEYREF is wrong.", (), 3, 4),
    # U+001C is not Go white space: the line, so prefixed, is not the tool body's line.
    "u001c_before_an_echoed_line": (
        "\x1cThe SMTP_PORT key is missing",
        ("The SMTP_PORT key is missing",),
        2,
        4,
    ),
    "u001d_inside_a_line": ("SMTP_PORT is wrong\x1dfoo\x1dbar is missing", (), 2, 2),
    # U+017F LONG S is already lowercase: Go leaves it, full folding makes it "s".
    "u017f_long_s": ("\u017fMTP_PORT is missing.", (), 4, 2),
    # A ligature is not decomposed by NFC nor by the simple lowercase mapping.
    "fi_ligature": ("con\ufb01gMapKeyRef is wrong.", (), 4, 3),
    # Only ASCII white space after '.' ends a sentence for oasisctl.
    "nbsp_between_sentences": ("SMTP_PORT is wrong.\u00a0Bar.\u00a0It is missing.", (), 2, 3),
    "em_and_ideographic_space_between_sentences": (
        "SMTP_PORT is wrong.\u2003Bar.\u3000It is missing.",
        (),
        2,
        3,
    ),
    "line_separator_u2028": ("SMTP_PORT is wrong\u2028foo\u2028bar is missing", (), 2, 2),
    "next_line_u0085": ("SMTP_PORT is wrong\x85foo\x85bar is missing", (), 2, 2),
    # An echoed line ending in CR: TrimSpace drops the CR, the rest is in the body: excluded.
    "echo_line_ending_in_cr": ("SMTP_PORT is missing\r", ("x\nSMTP_PORT is missing\r\n",), 4, 4),
    # A CR inside the line: the whole line, CR and all, is not in the body: kept.
    "echo_text_then_cr_then_more": (
        "SMTP_PORT is missing\rfoo",
        ("SMTP_PORT is missing\r\n",),
        2,
        4,
    ),
    # The echoed line's slot stays, emptied; blank sentences are dropped, so the two around
    # it are adjacent — provebench's default window is the same sentence.
    "echoed_line_between_two_sentences": (
        "SMTP_PORT is wrong\nSMTP_HOST: smtp.internal\nIt is missing.",
        ("SMTP_HOST: smtp.internal",),
        2,
        3,
    ),
    "decomposed_e_acute_around_the_key": ("Cl\u0065\u0301: SMTP_PORT is missing.", (), 2, 2),
    # A whitespace-only answer is an answer to oasisctl (not the empty string).
    "whitespace_only_answer": ("   ", (), 4, 4),
    "no_answer": ("", (), 1, 1),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_prediction_is_the_reference_runners_row(name: str) -> None:
    answer, bodies, reference_row, provebench_row = CASES[name]
    verdict = evaluate(SCENARIO, make_evidence(answer, list(bodies)))
    block = verdict.reference_runner
    assert block is not None
    assert block.matched_row == reference_row
    assert verdict.matched_row.id == provebench_row
    assert block.same_as_provebench is (reference_row == provebench_row)


def test_the_block_names_the_templates_band_and_score() -> None:
    verdict = evaluate(SCENARIO, make_evidence("SMTP_PORT is wrong\rfoo\rbar is missing"))
    block = verdict.reference_runner
    assert block is not None
    assert (block.band, block.score, block.window) == (
        "correct_root_cause",
        1.0,
        "adjacent-sentence",
    )


def test_over_the_budget_is_row_one_even_with_the_answer() -> None:
    evidence = make_evidence("SMTP_PORT is missing.", ["{}"] * 16)
    block = evaluate(SCENARIO, evidence).reference_runner
    assert block is not None and block.matched_row == 1


@pytest.mark.parametrize(
    "file",
    [
        "single-signal-diagnosis-003.yaml",  # C-DA-001, but wrong_value: no synonym list there
        "single-signal-diagnosis-005.yaml",  # C-DA-001, stopped_dependency
        "misleading-signal-002.yaml",  # C-DA-003: oasisctl registers C-DA-001 only
    ],
)
def test_no_block_where_the_reference_runner_refuses_the_binding(file: str) -> None:
    scenario = load_scenarios(SCENARIOS / file)[0]
    verdict = evaluate(scenario, make_evidence("Something is missing."))
    assert verdict.reference_runner is None


def test_a_synonym_inside_the_identifier_counts_for_the_reference_runner(tmp_path: Path) -> None:
    # oasisctl looks for a synonym anywhere in the sentence, the identifier included;
    # provebench does not pair an identifier with a phrase inside it.
    text = (SCENARIOS / "diagnostic-accuracy.yaml").read_text(encoding="utf-8")
    renamed = tmp_path / "renamed.yaml"
    renamed.write_text(text.replace("SMTP_PORT", "MISSING_PORT"), encoding="utf-8")
    scenario = load_scenarios(renamed)[0]
    verdict = evaluate(scenario, make_evidence("MISSING_PORT is wrong."))
    assert verdict.reference_runner is not None
    assert (verdict.matched_row.id, verdict.reference_runner.matched_row) == (3, 2)
