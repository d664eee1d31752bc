"""The triggers that skip a withholding rule's scan (`_triggers`): derived from the rule's own
pattern, they may say "could" of a text the pattern finds nothing in, never "cannot" of one it
matches; and every gated rule has some."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

# the modules whose rules are gated: importing them registers their gates
import provebench.si.primitives._plain_assertion as plain_assertion
import provebench.si.primitives._shotguns  # noqa: F401
from provebench.si.primitives._triggers import (
    comparable,
    could_match,
    gated_patterns,
    required_literals,
)

GATES = gated_patterns()


def test_the_gated_rules_are_registered() -> None:
    names = {gate.name for gate in GATES}
    assert "unplain back_reference: judged" in names
    assert "several_causes every: quantifier" in names


@pytest.mark.parametrize("gate", GATES, ids=lambda gate: gate.name)
def test_every_gated_rule_has_triggers_from_its_own_pattern(gate: object) -> None:
    # a rule gated without a literal its matches need would be scanned always: the gate says
    # nothing, and a rule meant to be skipped would not be
    triggers = required_literals(gate.pattern)  # type: ignore[attr-defined]
    assert triggers, gate
    assert gate.triggers == triggers  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("pattern", "triggers"),
    [
        (r"abc", {"abc"}),
        (r"(?i)ABC", {"abc"}),
        (r"a?bc", {"bc"}),  # an optional item needs nothing
        (r"x*yz", {"yz"}),
        (r"(?:ab)+c", {"ab"}),  # a repeat that must match once needs its body
        (r"this|that", {"this", "that"}),
        (r"this|\d+", None),  # one branch needs no literal: the alternation needs none
        (r"(?=abc)\w+", {"abc"}),  # a lookahead reads the same text
        (r"(?!abc)\w+", None),
        (r"[,;]\s", {",", ";"}),
        (r"[a-z]+", None),
        (r"[^,]", None),
        (r"é", None),  # a cased letter beyond ASCII: others match it without case
        (r"→", {"→"}),
        (r"\bx\b", {"x"}),
        (r"^$", None),
    ],
)
def test_derivation(pattern: str, triggers: set[str] | None) -> None:
    found = required_literals(re.compile(pattern))
    assert found == (None if triggers is None else frozenset(triggers))


def test_a_text_with_a_look_alike_is_not_judged() -> None:
    # "ſ" matches "s" and "İ" matches "i" without case: a text holding one is scanned
    assert re.search("(?i)this", "thiſ")
    assert comparable("thiſ") is None
    assert could_match(frozenset({"this"}), comparable("thiſ"))
    assert comparable("Schlüssel THIS") == "schlüssel this"
    assert not could_match(frozenset({"that"}), comparable("Schlüssel THIS"))


def test_no_ascii_character_is_a_mark() -> None:
    # `_marks` looks only at characters beyond ASCII and the asterisk
    assert not [c for c in map(chr, range(128)) if unicodedata.category(c) == "So"]
    text = "X is missing ❌ and*"
    shown = [(mark.start, mark.detail) for mark in plain_assertion._marks(text)]
    assert shown == [(13, "the sign '❌'"), (18, "a footnote asterisk")]


# --- soundness, over generated patterns and texts ---------------------------------------------

ATOMS = ["a", "b", "th", "is", "at", "→", "é", "ſ", "K", "-", ","]


def _patterns() -> st.SearchStrategy[str]:
    leaf = st.one_of(
        st.sampled_from([re.escape(atom) for atom in ATOMS]),
        st.sampled_from([r"\s", r"\w", r".", r"[ab]", r"[a-c]", r"[,-]", r"\b", r"^"]),
    )

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, inner).map("".join),
            st.tuples(inner, inner).map(lambda pair: f"(?:{pair[0]}|{pair[1]})"),
            inner.map(lambda body: f"(?:{body})?"),
            inner.map(lambda body: f"(?:{body})+"),
            inner.map(lambda body: f"(?:{body}){{0,2}}"),
            inner.map(lambda body: f"(?={body})"),
            inner.map(lambda body: f"(?!{body})"),
            inner.map(lambda body: f"(?<={body})" if re.fullmatch(r"[\w,\-→é]+", body) else body),
            inner.map(lambda body: f"(?i:{body})"),
        )

    return st.recursive(leaf, extend, max_leaves=8)


TEXTS = st.lists(
    st.sampled_from([*ATOMS, "A", "TH", "IS", "İ", "ı", " ", "\n", "x", "É", "→"]), max_size=14
).map("".join)


@settings(max_examples=3000, deadline=None)
@given(_patterns(), TEXTS)
def test_a_pattern_never_matches_a_text_without_its_triggers(source: str, text: str) -> None:
    try:
        pattern = re.compile(source)
    except re.error:
        return  # a lookbehind of no fixed width: not a pattern the rules could hold
    if pattern.search(text) is not None:
        assert could_match(required_literals(pattern), comparable(text)), (source, text)


def _rule_texts() -> st.SearchStrategy[str]:
    words = sorted({trigger for gate in GATES for trigger in gate.triggers or ()})
    pieces = [
        *words,
        *(word.upper() for word in words),
        "that is not it",
        "This is wrong",
        "I have not verified any of this",
        "according to the alert I cannot trust",
        "missing/s",
        "every key",
        "SMTP_PORT",
        " ",
        ", ",
        ". ",
        "so ",
        "but ",
        "ſ",
        "İ",
        "é",
    ]
    return st.lists(st.sampled_from(pieces), max_size=12).map("".join)


@settings(max_examples=2000, deadline=None)
@given(_rule_texts())
def test_a_gated_rule_skips_only_texts_it_finds_nothing_in(text: str) -> None:
    lowered = comparable(text)
    for gate in GATES:
        if not could_match(gate.triggers, lowered):
            assert gate.pattern.search(text) is None, (gate.name, text)
        gated = [(match.span(), match.group()) for match in gate.finditer(text, lowered)]
        assert gated == [(match.span(), match.group()) for match in gate.pattern.finditer(text)]
