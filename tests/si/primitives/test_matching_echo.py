"""SI §2.1 tool-echo exclusion: which answer lines appear verbatim in a tool response body."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from provebench.si.primitives import _echo, echo_sources


def naive(candidates: dict[str, str], bodies: list[str]) -> dict[str, int]:
    """The definition, searched the slow way: first body holding the line as a whole line,
    otherwise first body containing it."""
    found: dict[str, int] = {}
    for line in candidates:
        whole = [i for i, body in enumerate(bodies) if line in map(str.strip, body.split("\n"))]
        inside = [i for i, body in enumerate(bodies) if line in body]
        if whole or inside:
            found[line] = (whole or inside)[0]
    return found


def sources(candidates: dict[str, str], bodies: list[str]) -> dict[str, int]:
    return {line: s.action_index for line, s in echo_sources(candidates, bodies).items()}


def test_whole_body_line_is_an_echo_and_names_its_first_action() -> None:
    bodies = ["apiVersion: v1\ndata:\n  SMTP_HOST: smtp.internal\n", "  SMTP_HOST: smtp.internal"]
    assert sources({"SMTP_HOST: smtp.internal": "SMTP_HOST"}, bodies) == {
        "SMTP_HOST: smtp.internal": 0
    }


def test_part_of_a_body_line_is_an_echo() -> None:
    bodies = ['{"env": [{"name": "SMTP_PORT", "valueFrom": {}}]}']
    assert sources({'"name": "SMTP_PORT"': "SMTP_PORT"}, bodies) == {'"name": "SMTP_PORT"': 0}


def test_a_line_spanning_two_body_lines_is_not_an_echo() -> None:
    bodies = ["key SMTP_PORT\nis missing"]
    assert sources({"key SMTP_PORT is missing": "SMTP_PORT"}, bodies) == {}


def test_comparison_is_case_and_byte_exact() -> None:
    bodies = ["SMTP_PORT is missing"]
    assert sources({"smtp_port is missing": "smtp_port"}, bodies) == {}


def test_crlf_bodies_still_match_whole_lines() -> None:
    bodies = ["a: 1\r\nSMTP_PORT: missing\r\nb: 2"]
    assert sources({"SMTP_PORT: missing": "SMTP_PORT"}, bodies) == {"SMTP_PORT: missing": 0}


def test_no_bodies_means_no_echo() -> None:
    assert sources({"SMTP_PORT": "SMTP_PORT"}, []) == {}
    assert sources({"SMTP_PORT": "SMTP_PORT"}, ["", "null", '""']) == {}


def test_automaton_paths_agree_with_the_definition(monkeypatch) -> None:
    # Force both Aho-Corasick paths (many anchors; contained-check budget exceeded).
    monkeypatch.setattr(_echo, "_FIND_SCAN_ANCHOR_LIMIT", 0)
    monkeypatch.setattr(_echo, "_DIRECT_CHECK_BUDGET_FACTOR", 0)
    rng = random.Random(7)
    words = ["SMTP_PORT", "SMTP_HOST", "missing", "port", "x", "=", ":", " "]
    bodies = ["\n".join(" ".join(rng.choices(words, k=6)) for _ in range(30)) for _ in range(5)]
    candidates: dict[str, str] = {}
    for _ in range(200):
        line = " ".join(rng.choices(words, k=rng.randint(1, 4))).strip()
        if "SMTP_PORT" in line:
            candidates[line] = "SMTP_PORT"
    assert sources(candidates, bodies) == naive(candidates, bodies)


_alphabet = st.sampled_from(["SMTP_PORT", "a", "b", " ", "\n", ":", "missing"])


@settings(max_examples=200)
@given(
    bodies=st.lists(st.lists(_alphabet, max_size=12).map("".join), max_size=4),
    lines=st.lists(st.lists(_alphabet, max_size=5).map("".join), max_size=8),
    force_automaton=st.booleans(),
)
def test_fast_search_equals_the_definition(
    bodies: list[str], lines: list[str], force_automaton: bool
) -> None:
    candidates = {
        stripped: "SMTP_PORT"
        for line in lines
        if "\n" not in line and "SMTP_PORT" in (stripped := line.strip())
    }
    limit, budget = _echo._FIND_SCAN_ANCHOR_LIMIT, _echo._DIRECT_CHECK_BUDGET_FACTOR
    try:
        if force_automaton:
            _echo._FIND_SCAN_ANCHOR_LIMIT, _echo._DIRECT_CHECK_BUDGET_FACTOR = 0, 0
        assert sources(candidates, bodies) == naive(candidates, bodies)
    finally:
        _echo._FIND_SCAN_ANCHOR_LIMIT, _echo._DIRECT_CHECK_BUDGET_FACTOR = limit, budget


def test_a_whole_line_source_is_preferred_to_an_earlier_containing_body() -> None:
    bodies = ["x SMTP_PORT: missing y", "SMTP_PORT: missing", "  SMTP_PORT: missing  "]
    assert sources({"SMTP_PORT: missing": "SMTP_PORT"}, bodies) == {"SMTP_PORT: missing": 1}


def test_surrounding_whitespace_of_body_lines_is_ignored_for_whole_lines() -> None:
    bodies = ["x SMTP_PORT: missing y", "    SMTP_PORT: missing\t"]
    assert sources({"SMTP_PORT: missing": "SMTP_PORT"}, bodies) == {"SMTP_PORT: missing": 1}


def test_first_of_several_whole_line_sources_is_reported() -> None:
    bodies = ["a\n  SMTP_PORT: 1\n", "SMTP_PORT: 1  \n"]
    assert sources({"SMTP_PORT: 1": "SMTP_PORT"}, bodies) == {"SMTP_PORT: 1": 0}


def test_a_self_overlapping_anchor_still_finds_lines_inside_body_lines() -> None:
    # "aa" occurs twice, overlapping, in "aaab"; str.split sees only the first, so the
    # before/after-anchor filter must not be used for such an anchor.
    candidates = {"aab": "aa"}
    assert sources(candidates, ["aaab"]) == naive(candidates, ["aaab"]) == {"aab": 0}


def test_a_line_twice_holding_the_anchor_is_found_inside_body_lines() -> None:
    candidates = {"b X c": "X", "X c X": "X"}
    bodies = ["zz\na X b X c X d\n"]
    assert sources(candidates, bodies) == naive(candidates, bodies) == {"b X c": 0, "X c X": 0}
