"""Whether a sentence asserts a deviation phrase: clauses and cues, for the strict reading.

SI §2.2 counts a deviation phrase that merely shares a sentence with a factor identifier ("the
weakest deterministic link in this design"), so "SMTP_PORT is not missing", "Is SMTP_PORT
missing?" and "If SMTP_PORT were missing, …" all characterise the factor under the ratified
reading. provebench's strict reading (docs/si-scoring.md) counts a phrase only when no cue of
its sentence or clause withholds it. The cue lists are profile data (`strict-1.yaml`); this
module only reads one sentence with them, once, in time linear in its length.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

# The characters a cue word must not touch on either side: a cue is a whole word, so `no` is
# not found in `node` nor `not` in `notification-service`.
_WORD = "A-Za-z0-9_'’-"

BlockingRule = Literal["question", "conditional", "negated", "hedged"]


def _alternatives(words: Sequence[str]) -> str:
    """Whole words and phrases (a phrase's spaces match any run of whitespace), longest first."""
    ordered = sorted({word for word in words if not word.startswith(("n'", "n’"))}, key=len)
    return "|".join(
        r"\s+".join(re.escape(piece) for piece in word.split()) for word in reversed(ordered)
    )


def _suffixes(words: Sequence[str]) -> str:
    """Contraction suffixes (`n't`), found at the end of the word they end (`doesn't`)."""
    return "|".join(re.escape(word) for word in words if word.startswith(("n'", "n’")))


def _words_pattern(words: Sequence[str]) -> re.Pattern[str]:
    """One case-insensitive pattern for whole-word cues and contraction suffixes."""
    parts = [f"(?<![{_WORD}])(?:{_alternatives(words)})(?![{_WORD}])"]
    if suffixes := _suffixes(words):
        parts.append(f"(?<=[A-Za-z])(?:{suffixes})(?![{_WORD}])")
    return re.compile("|".join(parts), re.IGNORECASE)


# The groups of `AssertionCues.sentence`, one per kind of cue a sentence is read for.
_KINDS = ("boundary", "negation", "hedge", "conditional")


@dataclass(frozen=True)
class AssertionCues:
    """The strict reading's cue lists, compiled once (see `strict-1.yaml` for each list).

    `sentence` finds every clause boundary, negation, hedge and condition of a sentence in one
    pass (a word belongs to one list only, which `compile` checks)."""

    sentence: re.Pattern[str]
    negation: re.Pattern[str]
    cause: re.Pattern[str]
    interrogative_openers: frozenset[str]
    disjunction_openers: frozenset[str]
    dismissal: re.Pattern[str] | None = None

    @classmethod
    def compile(
        cls,
        *,
        clause_punctuation: Sequence[str],
        clause_words: Sequence[str],
        negation: Sequence[str],
        hedge: Sequence[str],
        conditional: Sequence[str],
        cause: Sequence[str],
        interrogative_openers: Sequence[str],
        disjunction_openers: Sequence[str],
        dismissal: Sequence[str] = (),
    ) -> AssertionCues:
        lists = {
            "boundary": clause_words,
            "negation": negation,
            "hedge": hedge,
            "conditional": conditional,
        }
        seen: dict[str, str] = {}
        for kind, words in lists.items():
            for word in words:
                other = seen.setdefault(word.casefold(), kind)
                if other != kind:
                    raise ValueError(f"cue {word!r} is in two lists ({other}, {kind})")
        punctuation = "|".join(re.escape(mark) for mark in clause_punctuation)
        words = "|".join(
            f"(?P<{kind}>{_alternatives(lists[kind])})" for kind in _KINDS if lists[kind]
        )
        groups = [
            f"(?P<punctuation>{punctuation}|\\s-\\s)",
            f"(?<![{_WORD}])(?:{words})(?![{_WORD}])",
        ]
        if suffixes := _suffixes(negation):
            groups.append(f"(?<=[A-Za-z])(?P<suffix>{suffixes})(?![{_WORD}])")
        return cls(
            sentence=re.compile("|".join(groups), re.IGNORECASE),
            negation=_words_pattern(negation),
            cause=_words_pattern(cause),
            interrogative_openers=frozenset(word.casefold() for word in interrogative_openers),
            disjunction_openers=frozenset(word.casefold() for word in disjunction_openers),
            dismissal=_words_pattern(dismissal) if dismissal else None,
        )


_FIRST_WORDS = re.compile(f"[{_WORD}]+")


@dataclass(frozen=True)
class Clause:
    start: int
    end: int
    opener: str  # the boundary word that opened it, casefolded ("" for punctuation or none)


class SentenceReading:
    """One sentence of a channel, read once: its clauses, its cues, whether it is a question.

    Offsets are offsets in the channel's text, as the matches' spans are."""

    def __init__(self, text: str, start: int, end: int, cues: AssertionCues) -> None:
        self.start = start
        self.end = end
        self._text = text
        self._cues = cues
        self.question = self._is_question(text[start:end])
        self._negations: list[tuple[int, int]] = []
        self._hedges: list[tuple[int, int]] = []
        self._conditionals: list[tuple[int, int]] = []
        self.clauses = self._read()
        self._clause_starts = [clause.start for clause in self.clauses]
        self._cause_cues: dict[int, bool] = {}
        self._previous_named: list[bool | None] | None = None

    def _is_question(self, sentence: str) -> bool:
        stripped = sentence.strip()
        if stripped.endswith("?"):
            return True
        words = [word.casefold() for word in _FIRST_WORDS.findall(stripped[:80], 0)][:2]
        if not words or words[0] not in self._cues.interrogative_openers:
            return False
        # "Could not start because …" opens with an auxiliary and is a statement.
        return len(words) < 2 or self._cues.negation.fullmatch(words[1]) is None

    def _read(self) -> list[Clause]:
        """The clauses, and the negations, hedges and conditions: one pass over the sentence."""
        clauses: list[Clause] = []
        opener = ""
        position = self.start
        found = {
            "negation": self._negations,
            "suffix": self._negations,
            "hedge": self._hedges,
            "conditional": self._conditionals,
        }
        for cue in self._cues.sentence.finditer(self._text, self.start, self.end):
            kind = cue.lastgroup
            if kind in found:
                found[kind].append((cue.start(), cue.end()))
                continue
            if self._text[position : cue.start()].strip():
                clauses.append(Clause(position, cue.start(), opener))
                opener = ""
            if kind == "boundary":
                opener = cue.group().casefold()
            position = cue.end()
        clauses.append(Clause(position, self.end, opener))
        return clauses

    def clause_index(self, offset: int) -> int:
        return max(0, bisect_right(self._clause_starts, offset) - 1)

    @staticmethod
    def _cue_before(cues: list[tuple[int, int]], since: int, start: int) -> bool:
        """A cue wholly in `[since, start)`: one inside the phrase starting at `start` is the
        phrase itself (`not set`, `doesn't exist`), not a cue that governs it. The cues come
        from one scan, in order and not overlapping, so their ends are sorted too: the last cue
        ending by `start` is the one that starts latest (a bisection, not a walk)."""
        before = bisect_right(cues, (start, start))
        while before and cues[before - 1][1] > start:
            before -= 1
        return bool(before) and cues[before - 1][0] >= since

    def blocking_rule(self, start: int) -> BlockingRule | None:
        """Why this sentence does not assert the phrase starting at `start`, or None if it does.

        A negation or hedge governs the phrase when it comes before it in its clause; a
        condition when it comes before it anywhere in the sentence (SI §3.2's sentence)."""
        if self.question:
            return "question"
        if self._cue_before(self._conditionals, self.start, start):
            return "conditional"
        clause_start = self.clauses[self.clause_index(start)].start
        if self._cue_before(self._negations, clause_start, start):
            return "negated"
        if self._cue_before(self._hedges, clause_start, start):
            return "hedged"
        return None

    def has_cause_cue(self, clause_index: int) -> bool:
        """An unwithheld cause phrase ("the root cause", "caused by") in the clause (each
        clause read once, however many identifiers it names)."""
        known = self._cause_cues.get(clause_index)
        if known is None:
            clause = self.clauses[clause_index]
            known = any(
                self.blocking_rule(match.start()) is None
                for match in self._cues.cause.finditer(self._text, clause.start, clause.end)
            )
            self._cause_cues[clause_index] = known
        return known

    def disjoined(self, clause_index: int) -> bool:
        """The clause opens with a disjunction ("…, or has a wrong value")."""
        return self.clauses[clause_index].opener in self._cues.disjunction_openers

    def previous_named(self, clause_index: int, named: Mapping[int, bool]) -> bool | None:
        """For the nearest clause before this one that `named` holds (clause index -> whether
        it names the factor), its value; None if there is none. Computed for every clause at
        the first call, in one pass: `named` must be complete by then."""
        if self._previous_named is None:
            found: list[bool | None] = []
            last: bool | None = None
            for index in range(len(self.clauses)):
                found.append(last)
                last = named.get(index, last)
            self._previous_named = found
        return self._previous_named[clause_index]

    def text(self) -> str:
        return self._text[self.start : self.end]


__all__ = ["AssertionCues", "BlockingRule", "Clause", "SentenceReading"]
