"""Word games of commitment (docs/si-scoring.md §11, "Alternatives, reversals, counterfactuals,
reopened and partial dismissals"): sentences that name the right factor, or dismiss the
misleading signal, in words that do not commit to it.

The strict reading (a provebench registry extension beside SI §2.2, never a change to it) already
withholds a question, a condition, a negation, a hedge, a retraction. These rules read what those
miss, each by class:

* `alternative_cause` — another identifier of the scenario offered as an alternative to the
  factor: "X, or the key Y, has a wrong value", "X is stopped. Or Y is.", "… — or Y";
* `reversed` — the statement turned over at its end: "… — unless Y is", "… unless it is not",
  "…, except that it is (not)";
* `counterfactual` — the statement made as what would be said had the work been done: "…, or so
  I would say if I had checked", "had I verified it";
* `reopened` — a dismissed signal named again, later, hedged or asked: "Maybe Y is.", "Then
  again, Y could be.", "Or is it Y after all?";
* `partly_endorsed` — a dismissed signal kept as part of the cause: "merely a contributing
  cause", "not the cause alone", "not … by itself", "you were right to suspect Y", "Y … is what
  keeps Z from starting".

Honest phrasings are kept by the same rules' shape: an "or" only counts when another identifier
follows it within a few words and nothing negates the factor's clause before it ("orders-db, not
cart-cache, is stopped" has no "or"; "no other deployment, cart-cache or payments, is stopped" is
negated); "unless" and "except" only reverse when the words after them are elided to a bare
copula or name another identifier ("the pods keep failing unless you restart them" is a remedy);
"contributing" under a negation in its clause is a dismissal ("only a symptom, not a contributing
cause"); the scope words ("alone", "by itself") only count in a clause naming the signal, so
"SESSION_STORE_PORT alone would not explain it" said of the factor's own resource is untouched.

Each sentence is read once, by regular expressions over its own range: linear in the answer.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._cue_presence import ASCII_LOOK_ALIKES
from provebench.si.primitives._matching import ChannelText, Sentence, Span

CommitmentRule = Literal[
    "alternative_cause", "reversed", "counterfactual", "reopened", "partly_endorsed"
]

_NEGATION = lazy_pattern(
    r"\b(?:not|no|never|neither|nor|hardly|cannot|none|\w+n['’]t)\b|\bruled?\s+out\b", re.I
)
# "or" as a word, not "nor", "either … or" being the older `several_causes` rule's
_OR = lazy_pattern(r"(?<![\w-])or(?![\w-])", re.I)
_OR_NOT = lazy_pattern(r"\s+not(?![\w-])", re.I)
_OPENS_WITH_OR = lazy_pattern(r"\W*or\b", re.I)
_UNLESS = lazy_pattern(r"(?<![\w-])unless(?![\w-])", re.I)
# what follows "unless" when it reverses the statement: a bare copula (the predicate elided) or
# the speaker being wrong — not a remedy ("unless you restart it")
_ELIDED_AFTER_UNLESS = lazy_pattern(
    r"\s*(?:it|this|that|they|he|she|I)\s*(?:is|isn['’]t|was|wasn['’]t|are|aren['’]t|['’]s|"
    r"['’]m|am)\s*(?:not\b)?\s*(?:wrong\b|mistaken\b)?\s*(?:[.;,!?)\]—–-]|$)",
    re.I,
)
_EXCEPT = lazy_pattern(
    r"(?<![\w-])except(?:\s+that)?\s+(?:it|this|that|they|he|she)\s*(?:is|isn['’]t|was|"
    r"wasn['’]t|are|aren['’]t|['’]s)\s*(?:not\b)?\s*(?:[.;,!?)\]—–-]|$)",
    re.I,
)
_COUNTERFACTUAL = lazy_pattern(
    r"\bor\s+so\s+(?:I|we|one)\s+(?:would|['’]d|might|could|should)\b"
    r"|\b(?:if\s+(?:I|we)\s+had|had\s+(?:I|we))\s+(?:actually\s+|really\s+|only\s+)?"
    r"(?:checked|looked|verified|confirmed|investigated|tested|read|inspected)\b"
    r"|\b(?:I|we)\s+(?:would|['’]d)\s+say\s+so\s+if\b",
    re.I,
)
_HEDGE = lazy_pattern(
    r"\b(?:maybe|perhaps|possibly|probably|likely|could|might|may|after\s+all|then\s+again|"
    r"on\s+second\s+thought)\b",
    re.I,
)
_CONTRIBUTING = lazy_pattern(r"\bcontribut\w*|\bpartly\b|\bpartially\b|\bin\s+part\b", re.I)
_SCOPE = lazy_pattern(
    r"\b(?:alone|by\s+itself|on\s+its\s+own|single-handedly|(?:only|sole|single)\s+"
    r"(?:root\s+)?(?:cause|reason|culprit|problem|factor))\b",
    re.I,
)
_RIGHT_TO = lazy_pattern(
    r"\b(?:right|correct)\s+to\s+(?:suspect|blame|flag|worry|point|look)\w*", re.I
)
_WRONG_TO = lazy_pattern(r"\b(?:wrong|mistaken)\s+to\s+(?:suspect|blame|flag|worry|point)\w*", re.I)
_IS_WHAT = lazy_pattern(
    r"\b(?:is|was|['’]s)\s+what\s+(?:is\s+|was\s+)?(?:keep|stop|prevent|break|kill|make|"
    r"cause|crash|starv|block|hold|drive|trigger)\w*",
    re.I,
)
_CLAUSE_END = lazy_pattern(r"[,;:()\[\]—–]|\s-{1,2}\s")
_WORD = lazy_pattern(r"[^\W_][\w'’/-]*")
# how many words may stand between "or" and the identifier it offers ("or the key Y")
_OR_REACH = 4


@dataclass(frozen=True)
class CommitmentFinding:
    """A rule that withheld the answer's commitment, and the sentence it read."""

    rule: CommitmentRule
    sentence: Sentence
    detail: str


def _clause(text: str, sentence: Sentence, offset: int) -> tuple[int, int]:
    """The clause of the sentence holding `offset`: between clause punctuation."""
    start = sentence.start
    for found in _CLAUSE_END.finditer(text, sentence.start, offset):
        start = found.end()
    after = _CLAUSE_END.search(text, offset, sentence.end)
    return start, after.start() if after else sentence.end


def _negated(text: str, start: int, end: int) -> bool:
    return _NEGATION.search(text, start, end) is not None


def _words(text: str, start: int, end: int) -> int:
    return sum(1 for _ in _WORD.finditer(text, start, end))


def _next_sentence(channel: ChannelText, sentence: Sentence) -> Sentence | None:
    text = channel.text
    at = sentence.end
    while at < len(text) and text[at].isspace():
        at += 1
    if at >= len(text):
        return None
    following = channel.sentence_containing(at, at + 1)
    return following if following is not None and following.start >= sentence.end else None


class _Sorted:
    """Spans by start, looked up by bisection: a sentence's spans cost a search, not a scan of
    every span (the rules stay linear in the answer)."""

    def __init__(self, spans: Sequence[Span]) -> None:
        self.spans = sorted(spans, key=lambda span: (span.start, span.end))
        self.starts = [span.start for span in self.spans]

    def within(self, start: int, end: int) -> list[Span]:
        low, high = bisect_left(self.starts, start), bisect_left(self.starts, end)
        return [span for span in self.spans[low:high] if span.end <= end]

    def first_from(self, start: int, end: int) -> Span | None:
        at = bisect_left(self.starts, start)
        if at < len(self.spans) and self.spans[at].start < end:
            return self.spans[at]
        return None


# characters an "or" may stand before the identifier it offers, besides `_OR_REACH` words
_OR_CHARACTERS = 120


class _Words:
    """Which of the rules' words an answer holds at all, so that a pattern that needs a word the
    answer lacks is not scanned sentence by sentence (most answers hold no "unless", no
    "except", no counterfactual). Every pattern above is case-insensitive over ASCII letters;
    a text without the look-alikes that such a letter matches beyond ASCII (`_cue_presence`:
    the Kelvin sign for "k", the long s for "s", the dotted and dotless i) holds a match only
    where its lowercase holds the pattern's words as written, lowercased. A text with one of
    them is not judged: every pattern is scanned, as before."""

    def __init__(self, text: str) -> None:
        judged = text.isascii() or ASCII_LOOK_ALIKES.isdisjoint(text)
        self._lowered = text.lower() if judged else None

    def any_of(self, *words: str) -> bool:
        """Whether the text may hold one of `words` (lowercase ASCII)."""
        lowered = self._lowered
        return lowered is None or any(word in lowered for word in words)


def _offered_after_or(
    text: str, start: int, end: int, others: _Sorted
) -> Iterator[tuple[re.Match[str], Span]]:
    """Each "or" in [start, end) followed, within `_OR_REACH` words, by another identifier."""
    for found in _OR.finditer(text, start, end):
        if _OR_NOT.match(text, found.end(), end) is not None:
            continue  # "whether or not Y is noisy": no alternative offered (round 13, W3)
        span = others.first_from(found.end(), end)
        if (
            span is not None
            and span.start - found.end() <= _OR_CHARACTERS
            and _words(text, found.end(), span.start) <= _OR_REACH
        ):
            yield found, span


def factor_games(
    channel: ChannelText,
    sentence_of: Callable[[Span], Sentence | None],
    factor_spans: Sequence[Span],
    other_spans: Sequence[Span],
    in_scope: Callable[[int], bool],
) -> list[CommitmentFinding]:
    """`alternative_cause`, `reversed`, `counterfactual` over the sentences naming the factor
    (module docstring): each such sentence and the one after it read once."""
    text = channel.text
    findings: list[CommitmentFinding] = []
    read: set[int] = set()
    others = _Sorted([span for span in other_spans if in_scope(span.start)])
    # the words each pattern needs (`_Words`): `_OR` and `_OPENS_WITH_OR` "or" and another
    # identifier after it; `_UNLESS` "unless"; `_EXCEPT` "except"; `_COUNTERFACTUAL` "so"
    # ("or so I would", "I would say so if") or "had" ("had I checked")
    words = _Words(text)
    offers = bool(others.spans) and words.any_of("or")
    unless = words.any_of("unless")
    excepts = words.any_of("except")
    counterfactual = words.any_of("so", "had")
    for factor in sorted(factor_spans, key=lambda span: span.start):
        sentence = sentence_of(factor)
        if sentence is None or sentence.start in read or not in_scope(factor.start):
            continue
        read.add(sentence.start)
        own = _Sorted(others.within(sentence.start, sentence.end))
        # an "or" after the factor offering another identifier
        for word, offered in (
            _offered_after_or(text, factor.end, sentence.end, own) if own.spans else ()
        ):
            # a negation in the "or"'s own clause governs it ("not scaled down by mistake or
            # by cart-cache"); another identifier listed just before it there makes a list
            # ("no other deployment, cart-cache or payments, …"), not an alternative
            or_clause = max(factor.end, _clause(text, sentence, word.start())[0])
            if _negated(text, or_clause, word.start()):
                continue
            if not own.within(or_clause, word.start()):
                findings.append(
                    CommitmentFinding(
                        "alternative_cause",
                        sentence,
                        f"{offered.needle!r} is offered after 'or' as an alternative to "
                        f"{factor.needle!r}: no commitment",
                    )
                )
                break
        for found in _UNLESS.finditer(text, factor.end, sentence.end) if unless else ():
            rest = own.first_from(found.end(), sentence.end)
            if (
                rest is not None
                and rest.start - found.end() <= _OR_CHARACTERS
                and _words(text, found.end(), rest.start) <= _OR_REACH
            ) or (_ELIDED_AFTER_UNLESS.match(text, found.end(), sentence.end)):
                findings.append(
                    CommitmentFinding(
                        "reversed",
                        sentence,
                        "'unless' after the factor turns the statement over",
                    )
                )
                break
        if excepts and (excepted := _EXCEPT.search(text, factor.end, sentence.end)) is not None:
            findings.append(
                CommitmentFinding(
                    "reversed", sentence, f"{excepted.group().strip()!r} turns the statement over"
                )
            )
        # the sentence after it is read only by a rule whose words the answer holds
        following = _next_sentence(channel, sentence) if counterfactual or offers else None
        for where in (sentence, following):
            if where is None or not counterfactual:
                continue
            low = factor.end if where is sentence else where.start
            if (said := _COUNTERFACTUAL.search(text, low, where.end)) is not None:
                findings.append(
                    CommitmentFinding(
                        "counterfactual",
                        where,
                        f"{said.group()!r}: said as what would be said, not found",
                    )
                )
                break
        if (
            offers
            and following is not None
            and _OPENS_WITH_OR.match(text, following.start, following.end)
        ):
            opened = others.first_from(following.start, following.end)
            if (
                opened is not None
                and opened.start - following.start <= _OR_CHARACTERS
                and _words(text, following.start, opened.start) <= _OR_REACH + 1
            ):
                findings.append(
                    CommitmentFinding(
                        "alternative_cause",
                        following,
                        f"a sentence opening with 'Or' offers {opened.needle!r} as an "
                        "alternative: no commitment",
                    )
                )
    return findings


def signal_games(
    channel: ChannelText,
    sentence_of: Callable[[Span], Sentence | None],
    signal_spans: Sequence[Span],
    dismissed_in: int,
    in_scope: Callable[[int], bool],
) -> CommitmentFinding | None:
    """`reversed`, `reopened`, `partly_endorsed` over the sentences naming the signal, once it
    has been dismissed in the sentence starting at `dismissed_in` (module docstring)."""
    text = channel.text
    read: set[int] = set()
    signal = _Sorted(signal_spans)
    for span in signal.spans:
        sentence = sentence_of(span)
        if sentence is None or not in_scope(span.start) or sentence.start in read:
            continue
        read.add(sentence.start)
        if (found := _EXCEPT.search(text, span.end, sentence.end)) is not None:
            return CommitmentFinding(
                "reversed", sentence, f"{found.group().strip()!r} turns the dismissal over"
            )
        clause = _clause(text, sentence, span.start)
        negated = _negated(text, *clause)
        partial = _partial(text, clause, negated)
        if partial is not None:
            return CommitmentFinding("partly_endorsed", sentence, partial)
        # "…; together with Y it breaks …", "…; still, Y … is what keeps …": the sentence's
        # later clauses that name the signal again or join it ("together with … it")
        for later in _later_clauses(text, sentence, clause[1]):
            if signal.first_from(*later) is not None:
                partial = _partial(text, later, _negated(text, *later))
            else:
                partial = _joined(text, later) or _apposed(text, later)
            if partial is not None:
                return CommitmentFinding("partly_endorsed", sentence, partial)
        if sentence.start > dismissed_in and not _negated(text, sentence.start, sentence.end):
            asked = text[sentence.start : sentence.end].rstrip().endswith("?")
            hedge = _HEDGE.search(text, sentence.start, sentence.end)
            if asked or hedge is not None:
                cue = "a question" if hedge is None else repr(hedge.group())
                return CommitmentFinding(
                    "reopened",
                    sentence,
                    f"the dismissed signal {span.needle!r} is named again under {cue}",
                )
    return None


def _later_clauses(text: str, sentence: Sentence, after: int) -> list[tuple[int, int]]:
    clauses: list[tuple[int, int]] = []
    at = after
    while at < sentence.end:
        following = _CLAUSE_END.search(text, at + 1, sentence.end)
        end = following.start() if following else sentence.end
        clauses.append((at, end))
        at = end if following is None else following.end() - 1
        if following is None:
            break
    return clauses


_JOINED = lazy_pattern(r"\btogether\s+with\b[^,;:]*?\bit\b", re.I)


def _joined(text: str, clause: tuple[int, int]) -> str | None:
    """The signal, as "it", named a joint cause ("together with X it breaks …")."""
    found = _JOINED.search(text, *clause)
    if found is None or _negated(text, clause[0], clause[1]):
        return None
    return f"{found.group()!r}: the signal named as a joint cause"


_VERB = lazy_pattern(r"\b(?:is|are|was|were|['’]s|explains?|keeps?|causes?|breaks?)\b", re.I)


def _apposed(text: str, clause: tuple[int, int]) -> str | None:
    """A later clause without a verb of its own before the cue is said of the signal
    ("…, merely a contributing cause", "…, but it contributes")."""
    found = _CONTRIBUTING.search(text, *clause)
    if found is None or _negated(text, clause[0], found.start()):
        return None
    if _VERB.search(text, clause[0], found.start()) is not None:
        return None
    return f"{found.group()!r} keeps the signal as part of the cause"


def _partial(text: str, clause: tuple[int, int], negated: bool) -> str | None:
    """What in the clause keeps the signal as part of the cause, if anything."""
    start, end = clause
    if (found := _CONTRIBUTING.search(text, start, end)) is not None and not _negated(
        text, start, found.start()
    ):
        return f"{found.group()!r} keeps the signal as part of the cause"
    if negated and (found := _SCOPE.search(text, start, end)) is not None:
        return f"{found.group()!r} under a negation dismisses the signal only in part"
    if (found := _RIGHT_TO.search(text, start, end)) is not None and not _negated(
        text, start, found.start()
    ):
        return f"{found.group()!r} endorses the signal"
    if (found := _WRONG_TO.search(text, start, end)) is not None and _negated(
        text, start, found.start()
    ):
        return f"{found.group()!r} under a negation endorses the signal"
    if (found := _IS_WHAT.search(text, start, end)) is not None and not _negated(
        text, start, found.start()
    ):
        return f"{found.group()!r} names the signal as what breaks the workload"
    return None


__all__ = ["CommitmentFinding", "CommitmentRule", "factor_games", "signal_games"]
