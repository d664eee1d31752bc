"""Non-answers: an answer that says it has no diagnosis does not commit to one.

An agent can name the factor in a sentence and then say that it could not determine the root
cause, that the line is a test, or that this is not its real answer. SI §2.2's co-occurrence
(ratified, unchanged) credits the sentence; the strict reading (a provebench extension,
docs/si-scoring.md "Non-answers") reads the disclaimer as the answer withholding commitment,
wherever it stands, and names the sentence (rule `non_answer`).

A non-answer is a class of language, matched in the answer's fold (`FoldedText`) from the
lists of `strict-4.yaml`:

* a statement by the agent (`non_answer_subjects`: "I", "we", or no subject) that it lacks
  the diagnosis (`non_answer_verbs`: "could not determine",
  "don't know", "please ignore") that ends its clause bare ("I don't know.") or whose object
  is the cause or the answer (`non_answer_objects`, after `non_answer_fillers`, optionally "of"
  an incident word: "I could not determine the actual root cause of the outage yet."), and
* a disclaimer about the answer itself (`non_answer_statements`: "no diagnosis", "parser test",
  "not my real answer").

Uncertainty about something else is no non-answer: "I could not determine why the key was
removed, but SMTP_PORT is missing" names no cause as unknown. A non-answer the sentence does not
assert (reported, conditional, negated, hedged, asked) is none either.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from provebench.si.primitives._assertion import _WORD, _alternatives
from provebench.si.primitives._cue_presence import CueTest, Vocabulary

_NEVER = "(?!)"


@dataclass(frozen=True)
class NonAnswerCues:
    """The non-answer pattern, and a word of each cue that any match holds: an answer holding
    none of them is not searched (most answers; the pattern is a long alternation)."""

    pattern: re.Pattern[str]
    keywords: tuple[str, ...]
    subjects: frozenset[str]
    # every match holds a whole-word phrase of `non_answer_verbs` or `_statements`
    test: CueTest | None = None

    def finditer(
        self, folded: str, vocabulary: Vocabulary | None = None
    ) -> Iterator[re.Match[str]]:
        """The pattern's matches in the fold; `vocabulary`, the fold's, decides first whether
        there can be any (`_cue_presence`)."""
        if vocabulary is not None and self.test is not None:
            if vocabulary.could_match(self.test):
                yield from self.pattern.finditer(folded)
            return
        lowered = folded.casefold()
        if any(keyword in lowered for keyword in self.keywords):
            yield from self.pattern.finditer(folded)


def _keyword(cue: str) -> str:
    # the longest word, the last of equal ones ("no root cause found": "found"): a rare one
    words: list[str] = _WORDS.findall(cue.casefold())
    return max(reversed(words), key=len)


def compile_non_answer(
    *,
    verbs: Sequence[str],
    fillers: Sequence[str],
    objects: Sequence[str],
    incidents: Sequence[str],
    statements: Sequence[str],
    subjects: Sequence[str],
) -> NonAnswerCues:
    """One case-insensitive pattern for both forms (module docstring). Every repetition is
    possessive and each alternative opens with a distinct word, so a try never backtracks
    beyond the words after one verb: the search is linear in the text."""
    filler = rf"(?:\s++(?:{_alternatives(fillers) or _NEVER})(?![{_WORD}]))*+"
    incident = (
        rf"(?:\s++of\s++(?:(?:the|this|that|these)\s++)?(?:{_alternatives(incidents) or _NEVER}))?"
    )
    thing = rf"(?:\s++(?:{_alternatives(objects) or _NEVER})(?![{_WORD}]){incident}{filler})?"
    clause_end = r"(?=[ \t]*+(?:[.,;:!?)\]—–\r\n]|\Z))"
    lacking = rf"(?:{_alternatives(verbs) or _NEVER})(?![{_WORD}]){filler}{thing}{clause_end}"
    disclaimer = rf"(?:{_alternatives(statements) or _NEVER})(?![{_WORD}])"
    pattern = re.compile(
        rf"(?<![{_WORD}])(?:(?P<disclaimer>{disclaimer})|(?P<lacking>{lacking}))", re.IGNORECASE
    )
    keywords = tuple(sorted({_keyword(cue) for cue in (*verbs, *statements)}))
    subject_words = frozenset(word.casefold() for word in subjects)
    return NonAnswerCues(pattern, keywords, subject_words, CueTest((*verbs, *statements)))


_WORDS = re.compile(f"[{_WORD}]+")
# a subject longer than this is no "I" or "We" (the look-back stays bounded per match)
_SUBJECT_REACH = 80


def said_by_the_agent(
    text: str, clause_start: int, verb_start: int, subjects: frozenset[str]
) -> bool:
    """Whether what precedes a lacking verb in its clause (folded offsets) is the agent
    itself: nothing, or only `non_answer_subjects` words ("I", "Sadly we", "So far I have").
    "The previous engineer could not determine the root cause" reports someone else."""
    if verb_start - clause_start > _SUBJECT_REACH:
        return False
    return all(
        word.casefold() in subjects for word in _WORDS.findall(text, clause_start, verb_start)
    )


__all__ = ["NonAnswerCues", "compile_non_answer", "said_by_the_agent"]
