"""The strict reading's own spelling of an absent key: "R has no K key" (docs/si-scoring.md §11,
"Round 33: 'has no K key'"; SI red team 33).

SI §3.3's `absent_key` list (v1) holds "no key", "lacks", "absent", "missing" …: phrases read
literally, so an honest "secret/payments-db-credentials has no DB_PASSWORD key" — the name between
"no" and "key" — holds none of them and scores as naming the place without the deviation in
both readings. The ratified reading's constants are normative (SI §3: the list is not
provebench's to change), so the ratified verdict stays as it is; the strict reading (a provebench
registry extension beside SI §2.2) reads this shape as the factor's deviation phrase too: a verb
of holding with "no" before the key's name, and a noun for a key after it —

    (has | have | had | contains | holds | carries | defines | includes) no [such] K
    (key | entry | value | variable | field | setting)[s]

where K is a required identifier of a factor whose deviation type is `absent_key`. The phrase is
the verb and its "no" ("has no", "contains no"), as "lacks" is one: the rest of the strict reading
then reads it as it reads every phrase (negated, hedged, disowned, withdrawn …). "lacks K" and
"K is absent from R" are phrases of the list already. "There is no K key in R" is not read here:
an existential frame is its own rule's (`ungoverned_frame`), and the answer stays at the locus
band in both readings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._matching import ChannelText, Span

ABSENT_KEY = "absent_key"
# how far before the name the verb and its "no" may stand ("contains no such `K`")
_REACH = 40
_BEFORE = lazy_pattern(
    r"\b(?P<phrase>(?:has|have|had|contains?|holds?|carr(?:y|ies)|defines?|includes?)\s+no)"
    r"\s+(?:such\s+)?[`'\"“‘]?\Z",
    re.IGNORECASE,
)
_AFTER = lazy_pattern(
    r"[`'\"”’]?\s+(?:key|entry|value|variable|field|setting)(?:s|ies)?\b", re.IGNORECASE
)


_VERB_NO = lazy_pattern(
    r"\b(?:has|have|had|contains?|holds?|carr(?:y|ies)|defines?|includes?)\s+no\b", re.IGNORECASE
)


def may_spell(text: str) -> bool:
    """Whether the text holds a verb of holding and its "no" at all: one scan, before a reading
    of the channel (most answers hold none)."""
    return _VERB_NO.search(text) is not None


def missing_key_phrases(channel: ChannelText, required: Sequence[str]) -> list[Span]:
    """The spans of the verb and its "no" (the phrase) wherever the channel says a required
    identifier is no key of what it names ("R has no K key"), in text order."""
    text = channel.text
    phrases: list[Span] = []
    for name in channel.identifier_matches(required):
        before = _BEFORE.search(text, max(0, name.start - _REACH), name.start)
        if before is None or _AFTER.match(text, name.end) is None:
            continue
        start, end = before.span("phrase")
        line = channel.line_of(start)
        column = start - channel.line_spans[line - 1][0] + 1
        phrases.append(Span(before.group("phrase"), start, end, line, column))
    return phrases


__all__ = ["ABSENT_KEY", "may_spell", "missing_key_phrases"]
