"""`factor_asserted`: factor_identified (SI §2.2) under provebench's strict reading.

The ratified primitive is true when a deviation phrase shares a sentence (the window) with a
required identifier. The strict one asks two more things of the same evidence:

* the sentence **asserts** the phrase: it is not a question, no condition precedes the phrase
  in its sentence, and no negation or hedge precedes it in its clause (`SentenceReading`);
* the answer **commits**: it does not attach another deviation type's phrase to a factor
  identifier (`several_deviation_types`: "X is missing, or has a wrong value"), and it does not
  name another identifier of the scenario as the cause or as deviating (`several_causes`: a
  shotgun over every key, a decoy endorsed as the cause).

Each reason is a finding that names the rule and the sentence. The work is one pass over the
matches, each sentence read at most once: linear in the answer's size.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from provebench.si.primitives._assertion import AssertionCues, FoldedText, SentenceReading
from provebench.si.primitives._matching import (
    ChannelText,
    Sentence,
    Span,
    validate_identifier_set,
)
from provebench.si.primitives._primitives import Factor, Window, factor_identified
from provebench.si.primitives._scope import EvidenceView

REPORTED_FINDINGS = 10
_MODEL = ConfigDict(extra="forbid", frozen=True)
_SHOWN_SENTENCE = 200
_NON_SPACE = re.compile(r"\S")

FindingRule = Literal[
    "question",
    "conditional",
    "negated",
    "hedged",
    "reported",
    "several_deviation_types",
    "several_causes",
]


class StrictFinding(BaseModel):
    """One reason the strict reading withholds a co-occurrence: the rule and the sentence."""

    model_config = _MODEL
    rule: FindingRule
    channel: str
    sentence: int
    line: int
    text: str
    detail: str


class FactorAssertedResult(BaseModel):
    model_config = _MODEL
    primitive: Literal["factor_asserted"] = "factor_asserted"
    value: bool
    ratified_value: bool
    finding_count: int
    findings: list[StrictFinding]


class _Reader:
    """Sentence readings of one channel, each made at most once, over one fold of its text."""

    def __init__(self, channel: ChannelText, cues: AssertionCues) -> None:
        self.channel = channel
        self.cues = cues
        self.folded = FoldedText.of(channel.text)
        self._readings: dict[int, tuple[int, SentenceReading]] = {}
        self._following: dict[int, Sentence | None] = {}
        self._retractions: dict[int, bool | None] = {}

    def at(self, span: Span) -> tuple[int, SentenceReading] | None:
        sentence = self.channel.sentence_containing(span.start, span.end)
        if sentence is None:
            return None
        known = self._readings.get(sentence.start)
        if known is None:
            reading = SentenceReading(
                self.channel.text,
                sentence.start,
                sentence.end,
                self.cues,
                self.folded,
                retracted=self._retracted_after(sentence.end),
            )
            known = (sentence.index, reading)
            self._readings[sentence.start] = known
        return known

    def _retracted_after(self, end: int) -> bool:
        """Whether one of the next two sentences takes this one back: it opens — after
        fillers such as "Actually," or "Correction:" — with a retraction ("That statement is
        false.", "Scratch that"), or it is nothing but a denial ("Not really."). A question in
        between ends the search: a denial after it answers the question."""
        for _ in range(2):
            following = self._next(end)
            if following is None:
                return False
            verdict = self._takes_back(following)
            if verdict is not None:
                return verdict
            end = following.end
        return False

    def _next(self, end: int) -> Sentence | None:
        """The sentence after the one ending at `end` (each looked up once)."""
        if end not in self._following:
            found = _NON_SPACE.search(self.channel.text, end)
            self._following[end] = (
                None
                if found is None
                else self.channel.sentence_containing(found.start(), found.start())
            )
        return self._following[end]

    def _takes_back(self, sentence: Sentence) -> bool | None:
        """True: the sentence retracts the one before; None: it does not; False: it is a
        question, which ends the search (each sentence read once)."""
        if sentence.start not in self._retractions:
            text = self.folded.text
            at = self.folded.folded(sentence.start)
            stop = self.folded.folded(sentence.end)
            verdict: bool | None = None
            if text[at:stop].rstrip().endswith(("?", "¿", "‽")):
                verdict = False  # "Is the disk the cause? No." — a denial after answers it
            else:
                opened = self.cues.retraction_filler.match(text, at, stop)
                after = opened.end() if opened else at
                if (
                    self.cues.retraction.match(text, after, stop) is not None
                    or self.cues.bare_denial.fullmatch(text, after, stop) is not None
                ):
                    verdict = True
            self._retractions[sentence.start] = verdict
        return self._retractions[sentence.start]


def _finding(
    reader: _Reader, index: int, reading: SentenceReading, rule: FindingRule, detail: str
) -> StrictFinding:
    shown = reading.text().strip()
    if len(shown) > _SHOWN_SENTENCE:
        shown = shown[:_SHOWN_SENTENCE] + "…"
    return StrictFinding(
        rule=rule,
        channel=reader.channel.channel,
        sentence=index,
        line=reader.channel.line_of(reading.start),
        text=shown,
        detail=detail,
    )


def _in_scope(
    view: EvidenceView, channel: ChannelText, spans: list[Span], exclude_tool_echo: bool
) -> list[Span]:
    if not exclude_tool_echo:
        return spans
    return [span for span in spans if not view.line_is_echo(channel, span.line)]


class _Findings:
    """Findings in the order found, one per (rule, sentence, detail)."""

    def __init__(self) -> None:
        self.items: list[StrictFinding] = []
        self._seen: set[tuple[str, str, int, str]] = set()

    def add(self, finding: StrictFinding) -> None:
        key = (finding.rule, finding.channel, finding.sentence, finding.detail)
        if key not in self._seen:
            self._seen.add(key)
            self.items.append(finding)


def _asserted_pair(
    reader: _Reader,
    identifiers: list[Span],
    phrases: list[Span],
    radius: int,
    withheld: _Findings,
) -> bool:
    """Whether some phrase of the factor's type, in the window of a required identifier and
    not part of it, is asserted by its sentence (and the identifier's sentence is neither a
    question nor a condition). Withheld pairs become findings."""
    by_sentence: dict[int, list[Span]] = {}
    for span in identifiers:
        located = reader.at(span)
        if located is not None:
            by_sentence.setdefault(located[0], []).append(span)
    for phrase in phrases:
        located = reader.at(phrase)
        if located is None:
            continue
        index, reading = located
        partner = _partner(reader, by_sentence, index, radius, phrase)
        if partner is None:
            continue
        rule = reading.blocking_rule(phrase.start, phrase.end)
        partner_index, partner_reading = partner
        if rule is None and partner_index != index:
            # Under a wider window the identifier's own sentence must not be a question or a
            # condition either ("Is SMTP_PORT the key? It is missing.").
            if partner_reading.question:
                rule = "question"
            elif partner_reading.blocking_rule(partner_reading.end) == "conditional":
                rule = "conditional"
        if rule is None:
            return True
        withheld.add(
            _finding(reader, index, reading, rule, f"{phrase.needle!r} is {_RULE_WORDS[rule]}")
        )
    return False


_RULE_WORDS: dict[str, str] = {
    "question": "asked, not asserted",
    "conditional": "under a condition",
    "negated": "negated",
    "hedged": "hedged",
    "reported": "quoted or reported, not asserted",
}


def _partner(
    reader: _Reader,
    by_sentence: Mapping[int, list[Span]],
    index: int,
    radius: int,
    phrase: Span,
) -> tuple[int, SentenceReading] | None:
    """A required identifier in the phrase's window that the phrase is not part of: one in
    the phrase's own sentence first, so that a neighbouring question never hides it."""
    nearest_first = sorted(range(index - radius, index + radius + 1), key=lambda n: abs(n - index))
    for near in nearest_first:
        for span in by_sentence.get(near, ()):
            if phrase.start < span.end and span.start < phrase.end:
                continue  # a phrase inside the identifier is part of its name (docs §1)
            return reader.at(span)
    return None


def _commitment(
    reader: _Reader,
    factor_spans: list[Span],
    other_type_phrases: list[Span],
    own_phrases: list[Span],
    other_identifiers: list[Span],
    findings: _Findings,
) -> None:
    """Findings where the answer does not commit to the factor (module docstring)."""
    factor_clauses: set[tuple[int, int]] = set()
    # sentence start -> clause index -> whether the clause names the factor (else another)
    named_in: dict[int, dict[int, bool]] = {}
    for span in factor_spans:
        located = reader.at(span)
        if located is not None:
            key = (located[1].start, located[1].clause_index(span.start))
            factor_clauses.add(key)
            named_in.setdefault(key[0], {})[key[1]] = True
    for span in other_identifiers:
        located = reader.at(span)
        if located is not None:
            key = (located[1].start, located[1].clause_index(span.start))
            named_in.setdefault(key[0], {}).setdefault(key[1], False)
    sentence_starts = sorted(named_in)
    # the last naming clause of each sentence, once (not once per phrase that asks for it)
    last_named = {start: clauses[max(clauses)] for start, clauses in named_in.items()}
    own_starts = [span.start for span in own_phrases]
    longest = max((span.end - span.start for span in own_phrases), default=0)
    for phrase in other_type_phrases:
        located = reader.at(phrase)
        if located is None or _overlaps_own(phrase, own_phrases, own_starts, longest):
            continue
        index, reading = located
        at = reading.clause_index(phrase.start)
        if reading.blocking_rule(phrase.start, phrase.end) is not None:
            continue
        attached = (reading.start, at) in factor_clauses
        named = named_in.get(reading.start, {})
        if not attached and at not in named and reading.disjoined(at):
            previous = reading.previous_named(at, named)
            if previous is None and not named:
                # "X is missing. Alternatively its value is wrong.": a sentence that names no
                # identifier continues the last one named before it.
                previous = _last_named_before(last_named, sentence_starts, reading.start)
            attached = bool(previous)
        if attached:
            findings.add(
                _finding(
                    reader,
                    index,
                    reading,
                    "several_deviation_types",
                    f"{phrase.needle!r} attributes another deviation type to the factor",
                )
            )
    all_phrases = sorted([*own_phrases, *other_type_phrases], key=lambda span: span.start)
    joined_to_factor = _joined_to_factor(reader, factor_spans, other_identifiers)
    starts = [span.start for span in all_phrases]
    for span in other_identifiers:
        located = reader.at(span)
        if located is None:
            continue
        index, reading = located
        where = reading.clause_index(span.start)
        joined = joined_to_factor.get(span.start)
        if joined is not None:
            # "One of SMTP_HOST/SMTP_PORT is missing": named in one list with the factor, so a
            # phrase asserted of the list is asserted of it too.
            clause_start, clause_end = joined
        elif (reading.start, where) in factor_clauses:
            continue
        else:
            clause_start, clause_end = reading.clause_span(where)
        deviating = any(
            reading.blocking_rule(phrase.start, phrase.end) is None
            for phrase in _phrases_in(all_phrases, starts, clause_start, clause_end)
        )
        if deviating or reading.has_cause_cue(where):
            findings.add(
                _finding(
                    reader,
                    index,
                    reading,
                    "several_causes",
                    f"{span.needle!r}, not a factor, is named as "
                    + ("deviating" if deviating else "the cause"),
                )
            )


def _last_named_before(
    last_named: Mapping[int, bool], sentence_starts: list[int], start: int
) -> bool | None:
    """Whether the last clause naming an identifier, in the sentences before the one starting
    at `start`, names the factor (None if no sentence before names one). `last_named` holds,
    for each sentence naming one, whether its last naming clause names the factor."""
    before = bisect_left(sentence_starts, start)
    return last_named[sentence_starts[before - 1]] if before else None


def _joined_to_factor(
    reader: _Reader, factor_spans: list[Span], other_identifiers: list[Span]
) -> dict[int, tuple[int, int]]:
    """Other identifiers named in one list with a factor identifier ("SMTP_HOST/SMTP_PORT",
    "SMTP_HOST plus SMTP_PORT plus report-renderer"): the start of each -> the clause index of
    the span of the clauses its list runs over (where what is said of the list is). A list is
    a run of identifiers of one sentence with nothing but joiners between neighbours."""
    tagged = sorted(
        [(span.start, True, span) for span in factor_spans]
        + [(span.start, False, span) for span in other_identifiers],
        key=lambda item: (item[0], not item[1]),
    )
    joined: dict[int, tuple[int, int]] = {}
    text = reader.folded.text
    run: list[tuple[int, bool, Span]] = []

    def close() -> None:
        if len(run) < 2 or not any(is_factor for _start, is_factor, _span in run):
            return
        located = reader.at(run[0][2])
        if located is None:
            return
        reading = located[1]
        first = reading.clause_span(reading.clause_index(run[0][0]))
        last = reading.clause_span(reading.clause_index(run[-1][0]))
        for start, is_factor, _span in run:
            if not is_factor:
                joined[start] = (first[0], last[1])

    for item in tagged:
        span = item[2]
        if run:
            previous = run[-1][2]
            if (
                span.start >= previous.end
                and reader.channel.sentence_containing(previous.start, span.end) is not None
                and reader.cues.identifier_joiner.fullmatch(
                    text, reader.folded.folded(previous.end), reader.folded.folded(span.start)
                )
            ):
                run.append(item)
                continue
            close()
        run = [item]
    close()
    return joined


def _overlaps_own(phrase: Span, own: list[Span], own_starts: list[int], longest: int) -> bool:
    """Whether the phrase overlaps a phrase of the factor's own type (sorted by start, the
    longest `longest` long): the same words read as the factor's type, not as another."""
    low = bisect_left(own_starts, phrase.start - longest)
    high = bisect_left(own_starts, phrase.end)
    return any(span.end > phrase.start for span in own[low:high])


def _phrases_in(phrases: list[Span], starts: list[int], start: int, end: int) -> list[Span]:
    """The phrases that start in `[start, end)` (`starts` are the phrases' starts, sorted)."""
    return phrases[bisect_left(starts, start) : bisect_left(starts, end)]


def factor_asserted(
    view: EvidenceView,
    factor: Factor,
    channels: Sequence[str],
    window: Window,
    cues: AssertionCues,
    other_type_phrases: Sequence[str],
    other_identifiers: Sequence[str],
    exclude_tool_echo: bool = False,
    ratified_value: bool | None = None,
) -> FactorAssertedResult:
    """The strict reading of `factor_identified` (module docstring). `other_type_phrases` are
    the phrases of every other deviation type's profile list; `other_identifiers` the
    scenario's identifiers that are not the factor, its resource or its symptom.
    `ratified_value`, when the caller has decided `factor_identified` already, is its value."""
    if ratified_value is None:
        ratified_value = factor_identified(view, factor, channels, window, exclude_tool_echo).value
    findings = _Findings()
    value = False
    if ratified_value:
        required = validate_identifier_set(
            factor.required_identifiers, field="factor.required_identifiers"
        )
        others = [
            identifier
            for identifier in dict.fromkeys(other_identifiers)
            if identifier.casefold() not in {r.casefold() for r in required}
        ]
        asserted = False
        withheld = _Findings()
        for name in dict.fromkeys(channels):
            channel = view.channel(name)
            reader = _Reader(channel, cues)
            factor_spans = _in_scope(
                view, channel, channel.identifier_matches(required), exclude_tool_echo
            )
            own = _in_scope(
                view, channel, channel.synonym_matches(factor.synonyms.phrases), exclude_tool_echo
            )
            if not asserted:
                asserted = _asserted_pair(
                    reader, factor_spans, own, window.sentence_radius, withheld
                )
            other_phrases = _in_scope(
                view, channel, channel.synonym_matches(other_type_phrases), exclude_tool_echo
            )
            other_spans = (
                _in_scope(view, channel, channel.identifier_matches(others), exclude_tool_echo)
                if others
                else []
            )
            _commitment(reader, factor_spans, other_phrases, own, other_spans, findings)
        if not asserted:
            for finding in withheld.items:
                findings.add(finding)
        value = asserted and not findings.items
    return FactorAssertedResult(
        value=value,
        ratified_value=ratified_value,
        finding_count=len(findings.items),
        findings=findings.items[:REPORTED_FINDINGS],
    )


__all__ = [
    "REPORTED_FINDINGS",
    "FactorAssertedResult",
    "FindingRule",
    "StrictFinding",
    "factor_asserted",
]
