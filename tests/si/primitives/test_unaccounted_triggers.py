"""The clause rules' trigger scan (`_unaccounted._trigger_hits`) tries the combined pattern only
where a match may open — a question mark or the first character of a word — and must find
exactly what `finditer` finds trying it at every character; and the ASCII shortcut of `_words`
must give the words the per-word fold gives (docs/benchmarks.md, "where the time goes")."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from provebench.si.primitives import _accounted, _unaccounted
from provebench.si.scenario import load_scenarios
from provebench.si.scenario._binding import bind_scoring
from provebench.si.scoring._stress_families import families

SCENARIOS = Path(__file__).resolve().parents[3] / "src" / "provebench" / "si" / "scenarios"

# where a scan that skips places could go wrong: a word right after a question mark, a word
# inside a longer run ("_because", "9because"), a letter beyond ASCII that an ASCII letter
# matches without case (KELVIN SIGN, dotted capital I), marks beyond ASCII, hits side by side
EDGES = [
    "?Yes because it is wrong",
    "Really?because of it",
    "_because 9because because_ x",
    "\u212aidding aside, it is \u212aidding",
    "\u0130 am the Queen. I am the King?",
    "x¿Because?‽？why",
    "the root cause is the real cause because it is the cause",
    "It's a joke—a lie; not mine. Who knows??",
    "",
    "?",
    "is",
]


def _answers() -> list[str]:
    [scenario] = load_scenarios(SCENARIOS / "diagnostic-accuracy.yaml")
    chosen = families(scenario, bind_scoring(scenario))
    found = [evidence.final_answer or "" for family in chosen for evidence in family.answers]
    return list(dict.fromkeys(found + EDGES))


def _scanned(text: str, pos: int) -> list[tuple[tuple[int, int], str | None]]:
    return [(hit.span(), hit.lastgroup) for hit in _unaccounted._trigger_hits(text, pos)]


def _found(text: str, pos: int) -> list[tuple[tuple[int, int], str | None]]:
    return [(hit.span(), hit.lastgroup) for hit in _unaccounted._TRIGGERS.finditer(text, pos)]


def test_the_scan_finds_what_finditer_finds() -> None:
    answers = _answers()
    assert len(answers) > 100
    hits = 0
    for text in answers:
        # every starting place of a short text; a few of a long one
        starts = range(len(text) + 1) if len(text) <= 80 else (0, 1, len(text) // 3, len(text))
        for pos in starts:
            expected = _found(text, pos)
            assert _scanned(text, pos) == expected, (text, pos)
            hits += len(expected)
    assert hits > 100  # the corpus holds triggers of every kind, not only misses


def test_the_edges_hold_hits_of_every_kind() -> None:
    kinds = {kind for text in EDGES for _span, kind in _found(text, 0)}
    assert kinds == {"judgement", "question", "identity", "cause"}


@pytest.mark.parametrize("module", [_accounted, _unaccounted])
def test_ascii_words_are_the_per_word_fold(module: object) -> None:
    texts = [*_answers(), "It’s DOWN; don't panic", "STRASSE straße İstanbul"]
    for text in itertools.chain(texts, (text.upper() for text in texts)):
        per_word = [
            word.casefold().replace("’", "'")
            for word in module._WORD.findall(text)  # type: ignore[attr-defined]
        ]
        assert module._words(text) == per_word  # type: ignore[attr-defined]
