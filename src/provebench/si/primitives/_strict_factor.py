"""`factor_asserted`: factor_identified (SI §2.2) under provebench's strict reading.

The ratified primitive is true when a deviation phrase shares a sentence (the window) with a
required identifier. The strict one asks two more things of the same evidence:

* the sentence **asserts** the phrase: it is not a question, no condition precedes the phrase
  in its sentence, and no negation or hedge precedes it in its clause (`SentenceReading`);
* the answer **commits**: it does not attach another deviation type's phrase to a factor
  identifier (`several_deviation_types`: "X is missing, or has a wrong value"), and it does not
  name another identifier of the scenario as the cause or as deviating (`several_causes`: a
  shotgun over every key, a decoy endorsed as the cause), offer another identifier after "or",
  turn the statement over ("unless it isn't") or say it as a counterfactual
  (`_commitment_games`: `alternative_cause`, `reversed`, `counterfactual`).

Each reason is a finding that names the rule and the sentence. The work is one pass over the
matches, each sentence read at most once: linear in the answer's size.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Literal

from pydantic import BaseModel, ConfigDict

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._assertion import (
    AssertionCues,
    FoldedText,
    SentenceReading,
    WordGameCues,
)
from provebench.si.primitives._attached_comment import attached_comments
from provebench.si.primitives._commitment_games import factor_games
from provebench.si.primitives._cue_presence import could_match
from provebench.si.primitives._folded_channel import FoldedChannel
from provebench.si.primitives._markup import DROPPED_WORDS, DroppedKind, read_markup
from provebench.si.primitives._matching import (
    ChannelText,
    Sentence,
    Span,
    validate_identifier_set,
)
from provebench.si.primitives._missing_key import ABSENT_KEY, may_spell, missing_key_phrases
from provebench.si.primitives._non_answer import said_by_the_agent
from provebench.si.primitives._once import once
from provebench.si.primitives._plain_assertion import disowning_beside_diagnosis, unplain_shapes
from provebench.si.primitives._primitives import Factor, Window, factor_identified, named_in_output
from provebench.si.primitives._remedy import (
    InjectedFault,
    RemedyDeviation,
    code_gives_no_fix,
    deviation_type_of,
    names_in,
    remedy_end,
)
from provebench.si.primitives._scenario_objects import (
    fold_name,
    scenario_objects,
    scenario_workloads,
)
from provebench.si.primitives._scope import EvidenceView
from provebench.si.primitives._shotguns import shotguns
from provebench.si.primitives._unaccounted import unaccounted_shapes
from provebench.si.primitives._withdrawals import ChannelWithdrawals, SentenceRange, Withdrawal

# the ranges of a reader's channel that only dismiss a misleading signal or call it harmless,
# given the scenario's objects, folded (`_signal.signal_sentences`; SI red team 46, F1)
SignalSentences = Callable[["ChannelReader", frozenset[str]], list[tuple[int, int]]]

REPORTED_FINDINGS = 10
_MODEL = ConfigDict(extra="forbid", frozen=True)
_SHOWN_SENTENCE = 200
_NON_SPACE = lazy_pattern(r"\S")

FindingRule = Literal[
    "question",
    "conditional",
    "negated",
    "hedged",
    "reported",
    "several_deviation_types",
    "several_causes",
    "inside_word",
    "governed",
    "attributed",
    "displaced",
    "framed",
    "contradicted",
    # commitment word games (docs/si-scoring.md §11, `_commitment_games`)
    "alternative_cause",
    "reversed",
    "counterfactual",
    "reopened",
    "partly_endorsed",
    # statements named but not made (docs/si-scoring.md §11, `_withdrawals`)
    "retracted_after",
    "non_assertive",
    "negating_context",
    "alternative_joined",
    # markup and non-answers (docs/si-scoring.md §11, "Markup", "Non-answers")
    "markup",
    "non_answer",
    # only a plain assertion reaches the top band (docs/si-scoring.md §11, "Round 16")
    "unplain",
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


class _Retractions:
    """Whether a later sentence takes one back, each sentence read once. Apart from the
    readings it answers (`SentenceReading.retracted` asks it on first use), so that a reading
    never refers back to the reader holding it: no reference cycle, and each transcript's
    readings are freed as soon as it is scored, not by the cyclic collector."""

    def __init__(self, channel: ChannelText, cues: AssertionCues, folded: FoldedText) -> None:
        self.channel = channel
        self.cues = cues
        self.folded = folded
        self._following: dict[int, Sentence | None] = {}
        self._verdicts: dict[int, bool | None] = {}

    def after(self, end: int) -> bool:
        """Whether one of the next two sentences takes this one back: it opens — after
        fillers such as "Actually," or "Correction:" — with a retraction ("That statement is
        false.", "Scratch that"), or it is nothing but a denial ("Not really."). A question in
        between ends the search: a denial after it answers the question."""
        for _ in range(2):
            following = self.next(end)
            if following is None:
                return False
            verdict = self.takes_back(following)
            if verdict is not None:
                return verdict
            end = following.end
        return False

    def next(self, end: int) -> Sentence | None:
        """The sentence after the one ending at `end` (each looked up once)."""
        if end not in self._following:
            found = _NON_SPACE.search(self.channel.text, end)
            self._following[end] = (
                None
                if found is None
                else self.channel.sentence_containing(found.start(), found.start())
            )
        return self._following[end]

    def takes_back(self, sentence: Sentence) -> bool | None:
        """True: the sentence retracts the one before; None: it does not; False: it is a
        question, which ends the search (each sentence read once)."""
        if sentence.start not in self._verdicts:
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
                    # version 5: "The last sentence is a lie.", "I was wrong about that."
                    or self.cues.retraction_judgement.match(text, after, stop) is not None
                    or self.cues.self_correction.fullmatch(text, after, stop) is not None
                ):
                    verdict = True
            self._verdicts[sentence.start] = verdict
        return self._verdicts[sentence.start]


class ChannelReader:
    """Sentence readings of one channel, each made at most once, over one fold of its text."""

    def __init__(self, channel: ChannelText, cues: AssertionCues) -> None:
        self.channel = channel
        self.cues = cues
        self.folded = FoldedText.of(channel.text)
        self._readings: dict[int, tuple[int, SentenceReading]] = {}
        # each span is located by several rules: the sentence holding it is read once
        self._located: dict[tuple[int, int], tuple[int, SentenceReading] | None] = {}
        self._retractions = _Retractions(channel, cues, self.folded)

    @once
    def shaped(self) -> FoldedChannel:
        """The channel the shape rules scan: the fold of each character (`_folded_channel`;
        SI red team 20, W2), built at most once."""
        return FoldedChannel.of(self.channel)

    def at(self, span: Span) -> tuple[int, SentenceReading] | None:
        return self.at_range(span.start, span.end)

    def sentence_of(self, span: Span) -> Sentence | None:
        """The sentence holding the span, not read: where only its place is asked."""
        return self._sentence_at(span.start, span.end)

    def _sentence_at(self, start: int, end: int) -> Sentence | None:
        """The sentence holding `[start, end)`, each range looked up once per channel (the
        ratified reading looked up most of them already: `ChannelText.sentence_containing`)."""
        return self.channel.sentence_containing(start, end)

    def at_range(self, start: int, end: int) -> tuple[int, SentenceReading] | None:
        """The sentence holding `[start, end)` (original offsets), read once."""
        if (start, end) in self._located:
            return self._located[(start, end)]
        located = self._locate(start, end)
        self._located[(start, end)] = located
        return located

    def _locate(self, start: int, end: int) -> tuple[int, SentenceReading] | None:
        sentence = self._sentence_at(start, end)
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
                # asked when a phrase of the sentence is read (`_Retractions`: no cycle)
                retracted=functools.partial(self._retractions.after, sentence.end),
            )
            known = (sentence.index, reading)
            self._readings[sentence.start] = known
        return known

    def _next(self, end: int) -> Sentence | None:
        """The sentence after the one ending at `end` (each looked up once)."""
        return self._retractions.next(end)

    def _takes_back(self, sentence: Sentence) -> bool | None:
        """Whether the sentence takes back the one before (`_Retractions.takes_back`)."""
        return self._retractions.takes_back(sentence)


def _finding(
    reader: ChannelReader, index: int, reading: SentenceReading, rule: FindingRule, detail: str
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


def _scope_test(
    view: EvidenceView, channel: ChannelText, exclude_tool_echo: bool
) -> Callable[[int], bool]:
    """Whether an offset of the channel is in scope (not on an echoed line, SI §2.1)."""
    if not exclude_tool_echo:
        return lambda _offset: True
    return lambda offset: not view.line_is_echo(channel, channel.line_of(offset))


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
    reader: ChannelReader,
    identifiers: list[Span],
    phrases: list[Span],
    radius: int,
    withheld: _Findings,
    withdrawn: Callable[[Span, SentenceReading], Withdrawal | None] | None = None,
) -> bool:
    """Whether some phrase of the factor's type, in the window of a required identifier and
    not part of it, is asserted by its sentence (and the identifier's sentence is neither a
    question nor a condition), and not withdrawn (`_withdrawals`, asked only of a phrase no
    older rule withholds). Withheld pairs become findings."""
    by_sentence: dict[int, list[Span]] = {}
    for span in identifiers:
        sentence = reader.sentence_of(span)
        if sentence is not None:
            by_sentence.setdefault(sentence.index, []).append(span)
    for phrase in phrases:
        located = reader.at(phrase)
        if located is None:
            continue
        index, reading = located
        partner = _partner(by_sentence, index, radius, phrase)
        if partner is None:
            continue
        rule = reading.blocking_rule(phrase.start, phrase.end)
        if rule is None and (partnered := reader.at(partner)) is not None:
            partner_index, partner_reading = partnered
            # Under a wider window the identifier's own sentence must not be a question or a
            # condition either ("Is SMTP_PORT the key? It is missing.").
            if partner_index == index:
                pass
            elif partner_reading.question:
                rule = "question"
            elif partner_reading.blocking_rule(partner_reading.end) == "conditional":
                rule = "conditional"
        if (
            rule is None
            and withdrawn is not None
            and (withdrawal := withdrawn(phrase, reading)) is not None
        ):
            detail = f"{phrase.needle!r}: {withdrawal.detail}"
            withheld.add(_finding(reader, index, reading, withdrawal.rule, detail))
            continue
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
    "attributed": "a belief attributed to someone, not asserted",
    "displaced": "placed in another environment or time",
    "framed": "framed as a candidate, a title or a rejected lead",
}


def _partner(
    by_sentence: Mapping[int, list[Span]], index: int, radius: int, phrase: Span
) -> Span | None:
    """A required identifier in the phrase's window that the phrase is not part of: one in
    the phrase's own sentence first, so that a neighbouring question never hides it."""
    nearest_first = sorted(range(index - radius, index + radius + 1), key=lambda n: abs(n - index))
    for near in nearest_first:
        for span in by_sentence.get(near, ()):
            if phrase.start < span.end and span.start < phrase.end:
                continue  # a phrase inside the identifier is part of its name (docs §1)
            return span
    return None


def _commitment(
    reader: ChannelReader,
    factor_spans: list[Span],
    other_type_phrases: list[Span],
    own_phrases: list[Span],
    other_identifiers: list[Span],
    findings: _Findings,
) -> None:
    """Findings where the answer does not commit to the factor (module docstring)."""
    all_factor_spans = factor_spans
    factor_clauses: set[tuple[int, int]] = set()
    # sentence start -> clause index -> whether the clause names the factor (else another)
    named_in: dict[int, dict[int, bool]] = {}
    if not other_type_phrases:
        # only the clauses of the sentences naming another identifier are asked about: the
        # other sentences naming the factor are not read for them
        others_in = {
            sentence.start
            for span in other_identifiers
            if (sentence := reader.sentence_of(span)) is not None
        }
        factor_spans = [
            span
            for span in factor_spans
            if (sentence := reader.sentence_of(span)) is not None and sentence.start in others_in
        ]
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
    joined_to_factor = (
        _joined_to_factor(reader, all_factor_spans, other_identifiers) if other_identifiers else {}
    )
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
    reader: ChannelReader, factor_spans: list[Span], other_identifiers: list[Span]
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
                and reader.cues.identifier_joiner.fullmatch(
                    text, reader.folded.folded(previous.end), reader.folded.folded(span.start)
                )
                and reader.channel.sentence_containing(previous.start, span.end) is not None
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


# --- Word games (docs/si-scoring.md §11, "Version 2: word games by class") -------------------
# Each class below is a rule over the `strict-5.yaml` lists named in its docstring, applied by
# `_word_games` (called once per channel from `factor_asserted`). SI §2.2: the co-occurrence
# window is "the weakest deterministic link"; these rules only ever withhold, never credit.


def _inside_word(text: str, span: Span) -> bool:
    """The phrase is part of a longer word ("missing" in "dismissing", "unset" in "sunset"):
    a letter, digit or underscore touches it on a side where the phrase itself ends in one."""
    before = text[span.start - 1] if span.start > 0 else " "
    after = text[span.end] if span.end < len(text) else " "
    first, last = text[span.start], text[span.end - 1]
    return (_word_character(first) and _word_character(before)) or (
        _word_character(last) and _word_character(after)
    )


def _word_character(character: str) -> bool:
    return character.isalnum() or character == "_"


def _negated_cue(text: str, cue_start: int) -> bool:
    """A negation right before a governing cue (at most two words: "is no myth", "not a
    fallacy") takes the cue back."""
    words = text[max(0, cue_start - 16) : cue_start].split()[-2:]
    return any(_NEGATION_WORDS.fullmatch(word) for word in words)


# The negations that take a governing cue back: whole words only, no punctuation attached (a
# comma before the cue ends the clause the negation is in).
_NEGATION_WORDS = lazy_pattern(r"not|no|never|hardly|\w*n't", re.IGNORECASE)

_Cues = tuple[list[int], list[str]]


def _cue_index(pattern: re.Pattern[str], text: str, negatable: bool = False) -> _Cues:
    """Every match of `pattern` in `text` (starts, sorted, and words), found in one scan;
    `negatable` drops the ones a negation takes back."""
    starts: list[int] = []
    words: list[str] = []
    for match in pattern.finditer(text):
        if not (negatable and _negated_cue(text, match.start())):
            starts.append(match.start())
            words.append(match.group())
    return starts, words


def _first_in(cues: _Cues, low: int, high: int) -> str | None:
    """The first cue starting in `[low, high)`, by bisection."""
    starts, words = cues
    at = bisect_left(starts, low)
    return words[at] if at < len(starts) and starts[at] < high else None


class WordGameIndex:
    """Where each word-game cue is in one channel's fold: one scan per list, then every
    look-up is a bisection (the reading stays linear in the answer's size). Each list is
    scanned when a rule first asks for it: most answers never need most lists (an answer
    with no deviation phrase asks for none of the governing cues), and a scan of the whole
    answer per list was most of the strict reading's time."""

    def __init__(self, reader: ChannelReader, games: WordGameCues) -> None:
        self.reader = reader
        self.games = games
        self._text = reader.folded.text
        self._around: list[list[_Cues | None]] = [[None, None] for _ in games.governing_around]
        # (sentence start, clause index) -> the first `governing_before` cue of that clause or
        # of a clause governing it (`_before_in_governing`)
        self._governing_before: dict[tuple[int, int], str | None] = {}

    def _index(self, name: str, negatable: bool = False) -> _Cues:
        """`_cue_index` of the whole fold for the list `name` of `WordGameCues`, with no scan
        where the answer holds no phrase of it (`_cue_presence`: the scan would find
        nothing)."""
        pattern: re.Pattern[str] = getattr(self.games, name)
        tests = self.games.tests
        if tests is not None and not could_match(
            self.reader.folded.vocabulary, getattr(tests, name)
        ):
            return [], []
        return _cue_index(pattern, self._text, negatable)

    @once
    def sentence(self) -> _Cues:
        return self._index("governing_sentence")

    @once
    def before(self) -> _Cues:
        return self._index("governing_before", negatable=True)

    @once
    def after(self) -> _Cues:
        return self._index("governing_after", negatable=True)

    @once
    def anaphora(self) -> _Cues:
        return self._index("anaphora")

    @once
    def subjects(self) -> _Cues:
        return self._index("contradiction_subjects")

    @once
    def modals(self) -> _Cues:
        return self._index("contradiction_modals")

    @once
    def any_around(self) -> bool:
        """Whether the opening cue of some pair of `governing_around` could be in the answer
        (one look for every pair, `_cue_presence`)."""
        tests = self.games.tests
        return tests is None or could_match(self.reader.folded.vocabulary, tests.around_openings)

    def around(self, at: int, closing: bool) -> _Cues:
        """The opening (or `closing`) cues of the `at`-th pair of `governing_around`."""
        side = int(closing)
        known = self._around[at][side]
        if known is None:
            tests = self.games.tests
            if tests is not None and not could_match(
                self.reader.folded.vocabulary, tests.governing_around[at][side]
            ):
                known = ([], [])
            else:
                known = _cue_index(self.games.governing_around[at][side], self._text)
            self._around[at][side] = known
        return known

    def governing(self, phrase: Span) -> str | None:
        """The cue that frames the phrase as doubted, denied, contrary or not yet concluded,
        if one does (`governing_before`, `_after`, `_around` in its clause;
        `governing_sentence` before it in its sentence). A phrase inside a cue is the cue ("a
        lack of evidence")."""
        return self.governing_range(phrase.start, phrase.end)

    def governing_range(self, phrase_start: int, phrase_end: int) -> str | None:
        """`governing` for the phrase at `[phrase_start, phrase_end)`, original offsets: any
        phrase a rule reads, a deviation phrase or a dismissal ("I doubt X is a red
        herring")."""
        reader = self.reader
        located = reader.at_range(phrase_start, phrase_end)
        if located is None:
            return None
        reading = located[1]
        start, end = reader.folded.folded(phrase_start), reader.folded.folded(phrase_end)
        clause = reading.clauses[reading.clause_index(phrase_start)]
        found = _first_in(self.sentence, reader.folded.folded(reading.start), end)
        found = found or _first_in(self.before, clause.start, end)
        # SI red team 19, H1: a cue of a clause that governs the phrase's ("I doubt that the
        # pods crash because X is missing") frames the cause that clause gives
        found = found or self._before_in_governing(reading, reading.clause_index(phrase_start))
        found = found or _first_in(self.after, end, clause.end)
        if found is not None:
            return found
        for at in range(len(self.games.governing_around) if self.any_around else 0):
            opened = _first_in(self.around(at, closing=False), clause.start, start)
            if opened is not None and (
                closed := _first_in(self.around(at, closing=True), end, clause.end)
            ):
                return f"{opened} … {closed}"
        return None

    def _before_in_governing(self, reading: SentenceReading, index: int) -> str | None:
        """The first `governing_before` cue of a clause that governs clause `index`
        (`SentenceReading.governor`), each clause's answer kept: the chains are walked
        without recursion and each clause read once per sentence."""
        known = self._governing_before
        chain: list[int] = []
        at = reading.governor(index)
        found: str | None = None
        while at is not None:
            key = (reading.start, at)
            if key in known:
                found = known[key]
                break
            chain.append(at)
            at = reading.governor(at)
        for at in reversed(chain):
            clause = reading.clauses[at]
            found = _first_in(self.before, clause.start, clause.end) or found
            known[(reading.start, at)] = found
        return found


def _near_factor(reader: ChannelReader, factor_spans: list[Span], radius: int) -> set[int]:
    """The sentence indexes within `radius` of a sentence naming a factor identifier."""
    near: set[int] = set()
    for span in factor_spans:
        sentence = reader.sentence_of(span)
        if sentence is not None:
            near.update(range(sentence.index - radius, sentence.index + radius + 1))
    return near


def _withhold_games(
    index: WordGameIndex,
    phrases: list[Span],
    near: set[int] | None,
    withheld: _Findings,
) -> list[Span]:
    """The phrases left once those inside a longer word or under a governing cue are dropped;
    each dropped one of the factor's type (`near` given) in the window of a factor identifier
    becomes a withheld finding."""
    reader = index.reader
    kept: list[Span] = []
    for phrase in phrases:
        if _inside_word(reader.channel.text, phrase):
            rule: FindingRule = "inside_word"
            detail = f"{phrase.needle!r} is part of a longer word, not the phrase"
        elif (cue := index.governing(phrase)) is not None:
            rule = "governed"
            detail = f"{phrase.needle!r} is governed by {cue!r}: doubted, denied or not concluded"
        else:
            kept.append(phrase)
            continue
        located = reader.at(phrase)
        if near is not None and located is not None and located[0] in near:
            withheld.add(_finding(reader, located[0], located[1], rule, detail))
    return kept


class _Elision:
    """Whether a range of one channel says nothing but identifiers or phrases (`blanks`),
    filler and an elided-predicate cue ("SMTP_HOST too.", "Also wrong."): each range read once,
    the blanks found by bisection."""

    def __init__(self, index: WordGameIndex, blanks: list[Span]) -> None:
        self.index = index
        self.blanks = sorted(blanks, key=lambda span: span.start)
        self.starts = [span.start for span in self.blanks]
        self.known: dict[tuple[int, int], bool] = {}

    def only_elided(self, start: int, end: int) -> bool:
        """For `[start, end)`, original offsets."""
        known = self.known.get((start, end))
        if known is None:
            known = self._read(start, end)
            self.known[(start, end)] = known
        return known

    def _read(self, start: int, end: int) -> bool:
        folded, games = self.index.reader.folded, self.index.games
        pieces: list[str] = []
        at = folded.folded(start)
        for span in self.blanks[bisect_left(self.starts, start) : bisect_left(self.starts, end)]:
            if span.end <= end and folded.folded(span.start) >= at:
                pieces.append(folded.text[at : folded.folded(span.start)])
                at = folded.folded(span.end)
        pieces.append(folded.text[at : folded.folded(end)])
        rest = " ".join(pieces)
        if games.elided_predicate.search(rest) is None:
            return False
        words = _WORDS.findall(games.elided_predicate.sub(" ", rest))
        return all(word.casefold() in games.elided_filler for word in words)


_WORDS = lazy_pattern(r"[^\W_][\w'’-]*|_\w*")


def _naming_clauses(
    reader: ChannelReader, factor_spans: list[Span], other_spans: list[Span]
) -> list[tuple[int, bool]]:
    """(folded offset, names a factor) of every identifier, in text order."""
    named = [(reader.folded.folded(span.start), True) for span in factor_spans]
    named += [(reader.folded.folded(span.start), False) for span in other_spans]
    return sorted(named)


def _types_across_sentences(
    index: WordGameIndex,
    factor_spans: list[Span],
    other_type_phrases: list[Span],
    own: list[Span],
    other_spans: list[Span],
    findings: _Findings,
) -> None:
    """`several_deviation_types`, by reference: an asserted phrase of another type in a clause
    that names no identifier, referring back through an anaphor ("Also, its value is wrong.") or
    with its subject elided ("Also wrong."), is said of the identifier named last before it —
    in its sentence or an earlier one. A remedy ("It should be 587.") says what to do."""
    reader, games = index.reader, index.games
    named = _naming_clauses(reader, factor_spans, other_spans)
    if not named:
        return
    offsets = [offset for offset, _is_factor in named]
    own_starts = [span.start for span in own]
    longest = max((span.end - span.start for span in own), default=0)
    elision = _Elision(index, [*other_type_phrases, *own])
    for phrase in other_type_phrases:
        if phrase.needle.casefold() in games.remedy_phrases:
            continue
        located = reader.at(phrase)
        if located is None or _overlaps_own(phrase, own, own_starts, longest):
            continue
        sentence, reading = located
        if reading.blocking_rule(phrase.start, phrase.end) is not None:
            continue
        at = reading.clause_index(phrase.start)
        clause = reading.clauses[at]
        low = bisect_left(offsets, clause.start)
        if low < len(offsets) and offsets[low] < clause.end:
            continue  # the clause names an identifier: `_commitment` reads it
        if not (low and named[low - 1][1]):
            continue  # the identifier named last before it is not the factor
        refers = _first_in(index.anaphora, clause.start, reader.folded.folded(phrase.start))
        if refers is None and not elision.only_elided(*reading.clause_span(at)):
            continue
        findings.add(
            _finding(
                reader,
                sentence,
                reading,
                "several_deviation_types",
                f"{phrase.needle!r} attributes another deviation type to the factor",
            )
        )


def _may_elide(index: WordGameIndex) -> bool:
    """Whether `_Elision` can find an elided-predicate cue in the answer. It reads pieces of the
    fold joined by spaces, so every word of a cue it finds is in the fold; matched without
    case, each is, lowercased, in the fold's lowercase where the vocabulary judges the fold
    (`_cue_presence`: no letter beyond ASCII that an ASCII letter matches without case). A
    fold holding every word of no cue holds no elided predicate: no name repeats one."""
    vocabulary = index.reader.folded.vocabulary
    words = index.games.elided_words
    if vocabulary is None or not words:
        return True
    lowered = vocabulary.lowered
    return any(all(word in lowered for word in cue) for cue in words)


def _elided_shotgun(
    index: WordGameIndex,
    factor_spans: list[Span],
    phrases: list[Span],
    other_spans: list[Span],
    findings: _Findings,
) -> None:
    """`several_causes`, by ellipsis: a clause — or a sentence — naming another identifier
    with nothing but an elided-predicate cue and filler ("SMTP_HOST too.", "Same for
    SMTP_HOST.") repeats the deviation asserted before it of that identifier."""
    if not phrases or not _may_elide(index):
        return
    reader = index.reader
    first_phrase = min(span.start for span in phrases)
    elision = _Elision(index, [*factor_spans, *other_spans])
    for span in other_spans:
        if span.start < first_phrase:
            continue  # nothing asserted before it to repeat
        located = reader.at(span)
        if located is None:
            continue
        sentence, reading = located
        clause = reading.clause_span(reading.clause_index(span.start))
        # whether the predicate is elided first: most names are not, and then the sentence is
        # not read for what withholds the name
        if not (elision.only_elided(*clause) or elision.only_elided(reading.start, reading.end)):
            continue
        if not (reading.question or reading.blocking_rule(span.start, span.end) is not None):
            findings.add(
                _finding(
                    reader,
                    sentence,
                    reading,
                    "several_causes",
                    f"{span.needle!r}, not a factor, is named as deviating (predicate elided)",
                )
            )


def _causes_by_reference(
    index: WordGameIndex,
    factor_spans: list[Span],
    own: list[Span],
    other_spans: list[Span],
    findings: _Findings,
) -> None:
    """`several_causes`, version 4: an asserted cause phrase in a clause that names no
    identifier names another cause when an anaphor in it refers back to another identifier
    ("Fix node-disk-pressure first: it is what brings the pods down."), or when, with no
    anaphor to the factor and no phrase of its deviation type, it calls something the real
    cause ("The node's disk pressure is the real root cause, though."). Each cause phrase is
    found in one scan; each clause read once."""
    reader = index.reader
    cues, text, fold = reader.cues, reader.folded.text, reader.folded
    named = _naming_clauses(reader, factor_spans, other_spans)
    offsets = [offset for offset, _is_factor in named]
    # factors_before[i]: how many of the first i names are factor identifiers (a range holds
    # one when the counts at its ends differ: a bisection, not a walk)
    factors_before = [0]
    for _offset, is_factor in named:
        factors_before.append(factors_before[-1] + is_factor)
    own_starts = sorted(fold.folded(span.start) for span in own)
    read: set[tuple[int, int]] = set()
    tests = cues.tests
    if tests is not None and not could_match(fold.vocabulary, tests.cause):
        return  # no cause phrase anywhere (`_cue_presence`)
    for cue in cues.cause.finditer(text):
        start, end = fold.original(cue.start()), fold.original(cue.end())
        located = reader.at_range(start, end)
        if located is None:
            continue
        sentence, reading = located
        at = reading.clause_index(start)
        if (reading.start, at) in read or reading.blocking_rule(start, end) is not None:
            continue
        read.add((reading.start, at))
        clause = reading.clauses[at]
        low = bisect_left(offsets, clause.start)
        if low < len(offsets) and offsets[low] < clause.end:
            continue  # the clause names an identifier: `_commitment` reads it
        antecedent = named[low - 1][1] if low else None
        refers = _first_in(index.anaphora, clause.start, clause.end) is not None or (
            (tests is None or could_match(fold.vocabulary, tests.cause_reference))
            and cues.cause_reference.search(text, clause.start, cue.start()) is not None
        )
        if refers and antecedent is False:
            detail = f"{cue.group()!r} is said, by reference, of another identifier"
        elif refers and antecedent:
            continue  # it refers back to the factor
        else:
            contrast = (
                cues.contrastive_cause.search(text, clause.start, clause.end)
                if tests is None or could_match(fold.vocabulary, tests.contrastive_cause)
                else None
            )
            if contrast is None:
                continue
            # what the real cause is may follow a colon: the rest of the sentence is read
            rest_end = fold.folded(reading.end)
            if factors_before[bisect_left(offsets, rest_end)] > factors_before[low]:
                continue
            own_at = bisect_left(own_starts, clause.start)
            if own_at < len(own_starts) and own_starts[own_at] < rest_end:
                continue
            detail = f"{contrast.group()!r} names a cause other than the factor"
        findings.add(_finding(reader, sentence, reading, "several_causes", detail))


def _in_remedy_outcome(
    reader: ChannelReader,
    reading: SentenceReading,
    factor_spans: list[Span],
    at: int,
    deviation: RemedyDeviation,
) -> bool:
    """Whether the antonym at `at` stands in a plain remedy of the factor that is its sentence:
    in its honest tail ("Start orders-db to get the pods running."), the outcome of the remedy,
    not a state the factor holds (issue 41; `_remedy.remedy_end`), or as its verb ("Correct
    INVENTORY_PORT to 8080.": the imperative, not the adjective; SI red team 42, F3), whose
    closed grammar reads the rest."""
    text = reader.channel.text
    names = {text[span.start : span.end] for span in factor_spans}
    said = text[reading.start : reading.end]
    end = remedy_end(said, names, names_in(names), deviation)
    if end is None:
        return False
    lead = len(said) - len(said.lstrip())
    return at - reading.start >= end or at - reading.start <= lead


def _contradictions(
    index: WordGameIndex,
    deviation: RemedyDeviation,
    factor_spans: list[Span],
    other_spans: list[Span],
    in_scope: Callable[[int], bool],
    findings: _Findings,
) -> None:
    """`contradicted`, version 5: a clause that says the factor holds the opposite of its
    deviation ("X is missing. Correction: it is present.") — an asserted antonym of the
    factor's type in a clause that names a factor identifier and no other, or names none and
    refers back (`contradiction_subjects` before the antonym) to the factor, the identifier
    named last before it. A modal before it in its clause makes it a remedy ("it should be
    present"). One scan for the antonyms, each clause read once: linear in the answer."""
    deviation_type = deviation_type_of(deviation) or ""
    pattern = index.games.antonyms.get(deviation_type)
    if pattern is None:
        return
    tests = index.games.tests
    test = None if tests is None else tests.antonyms.get(deviation_type)
    if test is not None and not could_match(index.reader.folded.vocabulary, test):
        return  # no antonym anywhere (`_cue_presence`)
    reader = index.reader
    text, fold = reader.folded.text, reader.folded
    named = _naming_clauses(reader, factor_spans, other_spans)
    offsets = [offset for offset, _is_factor in named]
    factors_before = [0]
    for _offset, is_factor in named:
        factors_before.append(factors_before[-1] + is_factor)
    read: set[tuple[int, int]] = set()
    for antonym in pattern.finditer(text):
        start, end = fold.original(antonym.start()), fold.original(antonym.end())
        if not in_scope(start):
            continue
        located = reader.at_range(start, end)
        if located is None:
            continue
        sentence, reading = located
        at = reading.clause_index(start)
        if (reading.start, at) in read:
            continue
        read.add((reading.start, at))  # the first antonym of a clause decides it
        clause = reading.clauses[at]
        if reading.blocking_rule(start, end) is not None:
            continue
        if _first_in(index.modals, clause.start, antonym.start()) is not None:
            continue
        low, high = bisect_left(offsets, clause.start), bisect_left(offsets, clause.end)
        factors = factors_before[high] - factors_before[low]
        if high > low:
            said_of_factor = factors == high - low  # a factor named, and no other
        else:
            refers = _first_in(index.subjects, clause.start, antonym.start()) is not None
            said_of_factor = refers and low > 0 and named[low - 1][1]
        if said_of_factor and _in_remedy_outcome(reader, reading, factor_spans, start, deviation):
            continue
        if said_of_factor:
            findings.add(
                _finding(
                    reader,
                    sentence,
                    reading,
                    "contradicted",
                    f"{antonym.group()!r} says the factor is not {deviation_type}",
                )
            )


def _word_games(
    reader: ChannelReader,
    games: WordGameCues,
    factor_spans: list[Span],
    own: list[Span],
    other_type_phrases: list[Span],
    other_spans: list[Span],
    radius: int,
    withheld: _Findings,
    findings: _Findings,
    deviation: RemedyDeviation = None,
    in_scope: Callable[[int], bool] = lambda _offset: True,
) -> tuple[list[Span], list[Span]]:
    """The word-game rules of one channel (docs/si-scoring.md §11, "Word games by class"):
    the phrases of the factor's type and of the other types that are whole words and not
    governed (what the pair and commitment rules then read), and the commitment findings by
    reference and by ellipsis."""
    index = WordGameIndex(reader, games)
    near = _near_factor(reader, factor_spans, radius)
    own = _withhold_games(index, own, near, withheld)
    other_type_phrases = _withhold_games(index, other_type_phrases, None, withheld)
    _types_across_sentences(index, factor_spans, other_type_phrases, own, other_spans, findings)
    _elided_shotgun(index, factor_spans, [*own, *other_type_phrases], other_spans, findings)
    _causes_by_reference(index, factor_spans, own, other_spans, findings)
    _contradictions(index, deviation, factor_spans, other_spans, in_scope, findings)
    return own, _without_remedies_apart(reader, games, own, other_type_phrases)


# a value after a remedy: a number, a quoted value or an identifier-shaped token
_GIVES_VALUE = lazy_pattern(r"\s*(?:[\"'`“‘]|\d|[A-Za-z][\w-]*[._:/][\w./:-]+)")
# the value ends the sentence: "SMTP_PORT should be 587." A clause after it ("…, which it
# already is", "… and has been all along") says more than what to do, so the phrase is read as
# another deviation type (SI red team 26, H15: dropping the whole sentence dropped that clause)
_REMEDY_ALONE = lazy_pattern(
    r"\s*(?:\"[^\"]*\"|'[^']*'|`[^`]*`|“[^”]*”|‘[^’]*’|[\w./:-]*\w)"
    # further instructions in the imperative ("…; add it to smtp-config and restart S"): what
    # to do, said on (SI red team 29, H7); "already", "still", "now" say what is
    r"(?:\s*[;,]?\s*(?:and\s+|then\s+)?(?:add|restart|apply|patch|redeploy|recreate|roll\s+out|"
    r"rollout|update|edit|run|reload)\b(?:(?!\b(?:already|still|now|currently|all\s+along|"
    r"it\s+is|which)\b)[^.!?;])*)?[\s.!)\]\"'”’*_]*",
    re.IGNORECASE,
)


def _without_remedies_apart(
    reader: ChannelReader, games: WordGameCues, own: list[Span], phrases: list[Span]
) -> list[Span]:
    """`phrases` without a remedy that gives a value ("should be 587") in a sentence that holds
    no phrase of the factor's own type: "X is missing. SMTP_PORT should be 587." says what to
    do, as "It should be 587." does by reference (SI red team 24, L1), when the value ends the
    sentence (`_REMEDY_ALONE`; SI red team 26, H15). In the statement's own
    sentence ("X is missing or should be 587"), or giving no value ("SMTP_PORT should be
    removed."), it is still read as another deviation type."""
    own_sentences = {
        sentence.start for span in own if (sentence := reader.sentence_of(span)) is not None
    }
    kept: list[Span] = []
    for phrase in phrases:
        sentence = reader.sentence_of(phrase)
        if (
            phrase.needle.casefold() in games.remedy_phrases
            and sentence is not None
            and sentence.start not in own_sentences
            and _GIVES_VALUE.match(reader.channel.text, phrase.end) is not None
            and _REMEDY_ALONE.fullmatch(reader.channel.text, phrase.end, sentence.end) is not None
        ):
            continue
        kept.append(phrase)
    return kept


def _commitment_games(
    reader: ChannelReader,
    factor_spans: list[Span],
    other_spans: list[Span],
    in_scope: Callable[[int], bool],
    findings: _Findings,
) -> None:
    """The commitment rules (`_commitment_games.factor_games`): another identifier offered
    after "or", a statement reversed by "unless"/"except that it is", a counterfactual."""
    if not factor_spans:
        return
    shaped = reader.shaped
    folded = shaped.channel
    for game in factor_games(
        folded,
        shaped.sentence_of,
        shaped.spans(factor_spans),
        shaped.spans(other_spans),
        shaped.in_fold(in_scope),
    ):
        located = reader.at_range(
            shaped.original(game.sentence.start), shaped.original(game.sentence.end)
        )
        if located is not None:
            findings.add(_finding(reader, located[0], located[1], game.rule, game.detail))


def _plain_assertion(
    reader: ChannelReader,
    original: str,
    factor_spans: list[Span],
    phrase_spans: list[Span],
    required: Sequence[str],
    others: Sequence[str],
    findings: _Findings,
    objects: Sequence[str] = (),
    bodies: Sequence[str] = (),
    deviation_type: RemedyDeviation = None,
    symptom: Sequence[str] = (),
    signal: SignalSentences | None = None,
) -> None:
    """Withholds the top band where the channel that states the factor holds a mark, an aside,
    a label, a tail, a comment sentence or a clause judging it that the reading cannot vouch
    for (`_plain_assertion`; SI red team 16, H7; SI red team 17, H6), or a longer comment
    attached to the statement that it does not recognise (`_attached_comment`; SI red team 33,
    A8)."""
    identifiers = [*required, *others]
    # every shape is read in the fold, offsets mapped back (SI red team 20, W2)
    shaped = reader.shaped
    spans = shaped.spans(factor_spans)
    fold = shaped.channel
    whole: list[tuple[int, int]] = []
    if signal is not None:
        # SI red team 46, F1: what only dismisses the misleading signal or calls it harmless
        # (`_signal.signal_sentences`) says nothing of the factor, and no shape in it is judged.
        # A range that names the factor stays (fail closed). A whole sentence stays in the text,
        # the context of the next ("X is not the cause. It is, though." is still read); a
        # clause of a longer sentence ("Fix K; X is not the cause.") is blanked, lengths kept
        kept = [
            (start, end)
            for start, end in signal(reader, frozenset(fold_name(name) for name in objects))
            if not any(start <= span.start < end for span in factor_spans)
        ]
        clauses = []
        for start, end in kept:
            sentence = reader.channel.sentence_containing(start, start + 1)
            if sentence is None or (sentence.start >= start and sentence.end <= end):
                whole.append((start, end))
            else:
                clauses.append((start, end))
        if clauses:
            folded, said = list(fold.text), list(original)
            for start, end in clauses:
                low, high = shaped.offset(start), shaped.offset(end)
                folded[low:high] = " " * (high - low)
                if end <= len(said):
                    said[start:end] = " " * (end - start)
            fold = ChannelText(fold.channel, "".join(folded))
            original = "".join(said)
    for shape in [
        *unplain_shapes(
            fold,
            original,
            spans,
            identifiers,
            required,
            shaped.original,
            deviation_type,
            objects,
            symptom,
        ),
        # an attached comment must be recognisably neutral or supportive (SI red team 33, A8)
        *attached_comments(
            fold,
            spans,
            shaped.spans(phrase_spans),
            identifiers,
            deviation_type,
            objects,
            symptom,
        ),
        # what follows the statement must be accounted for (SI red team 18, W1/W2)
        *unaccounted_shapes(
            fold,
            spans,
            identifiers,
            objects,
            bodies,
            deviation_type,
            symptom,
        ),
    ]:
        start = shaped.original(shape.start)
        end = shaped.original(max(shape.start + 1, shape.end))
        if any(low <= start and end <= high for low, high in whole):
            continue  # on the dismissed signal only (SI red team 46, F1)
        located = reader.at_range(start, max(start + 1, end))
        if located is None:
            located = reader.at_range(start, start + 1)
        if located is not None:
            findings.add(
                _finding(
                    reader, located[0], located[1], "unplain", f"{shape.shape}: {shape.detail}"
                )
            )


def _shotguns(
    reader: ChannelReader,
    factor_spans: list[Span],
    own: list[Span],
    required: Sequence[str],
    findings: _Findings,
) -> None:
    """Withholds the top band where the factor is named in a list of several keys or places,
    or under "every" (`_shotguns`; SI red team 16, H7)."""
    shaped = reader.shaped
    for shotgun in shotguns(
        shaped.channel, shaped.spans(factor_spans), shaped.spans(own), required
    ):
        located = reader.at_range(shaped.original(shotgun.start), shaped.original(shotgun.end))
        if located is not None:
            findings.add(_finding(reader, located[0], located[1], "several_causes", shotgun.detail))


def sentence_range(reader: ChannelReader, sentence: Sentence) -> SentenceRange:
    """The sentence's offsets and the next sentence's, for the `_withdrawals` rules."""
    following = reader._next(sentence.end)
    if following is None or following.start < sentence.end:
        return SentenceRange(sentence.start, sentence.end)
    later = reader._next(following.end)
    if later is None or later.start < following.end:
        return SentenceRange(sentence.start, sentence.end, following.start, following.end)
    return SentenceRange(
        sentence.start, sentence.end, following.start, following.end, later.start, later.end
    )


def _withdrawal_test(
    reader: ChannelReader, original: ChannelText
) -> Callable[[Span, SentenceReading], Withdrawal | None]:
    """Statements named but not made (`_withdrawals`): whether the sentence of a phrase that
    no older rule withholds takes it back, does not state it, or lists it under a negating
    heading (asked by `_asserted_pair` of such phrases only, each once)."""
    # the rules read the fold, offsets mapped in (SI red team 20, W2)
    shaped = reader.shaped
    rules = ChannelWithdrawals(shaped.channel.text, shaped.beside(original.text))

    def test(phrase: Span, reading: SentenceReading) -> Withdrawal | None:
        sentence = reader.sentence_of(phrase)
        if sentence is None:
            return None
        where = shaped.sentences(sentence_range(reader, sentence))
        clause_start, clause_end = reading.clause_span(reading.clause_index(phrase.start))
        clause = (shaped.offset(clause_start), shaped.offset(clause_end))
        start, end = shaped.offset(phrase.start), shaped.offset(phrase.end)
        return (
            rules.retracted_after(start, end, where)
            or rules.non_assertive(clause, start, where)
            or rules.negating_context(start)
            or rules.disowned(start, end, where)
        )

    return test


def _alternatives_joined(
    reader: ChannelReader, factor_spans: list[Span], findings: _Findings
) -> None:
    """A factor joined to another key as an alternative by the connective ("X and/or Y",
    "X/Y", "One of X, Y"; `_withdrawals`): the answer does not commit, as `alternative_cause`."""
    if not factor_spans:
        return
    shaped = reader.shaped
    rules = ChannelWithdrawals(shaped.channel.text, shaped.channel.text)
    for span in factor_spans:
        sentence = reader.sentence_of(span)
        if sentence is None:
            continue
        joined = rules.alternative_joined(
            shaped.offset(span.start),
            shaped.offset(span.end),
            span.needle,
            shaped.offset(sentence.start),
            shaped.offset(sentence.end),
        )
        if joined is not None and (located := reader.at(span)) is not None:
            findings.add(_finding(reader, located[0], located[1], joined.rule, joined.detail))


# --- Markup and non-answers (docs/si-scoring.md §11, "Markup", "Non-answers") ---------------


def read_channel(view: EvidenceView, original: ChannelText) -> ChannelText:
    """The channel as a reader reads it (`read_markup`), built once per evidence view."""
    key = f"strict-markup:{original.channel}"
    known = view.derived.get(key)
    if not isinstance(known, ChannelText):
        read = read_markup(original.text)
        known = (
            original
            if not read.dropped and read.text == original.text
            else (ChannelText(original.channel, read.text))
        )
        view.derived[key] = known
        view.derived[key + ":dropped"] = read.dropped
    return known


def _dropped_claims(
    view: EvidenceView,
    original: ChannelText,
    required: Sequence[str],
    exclude_tool_echo: bool,
    withheld: _Findings,
) -> None:
    """A withheld finding for each factor identifier that only dropped markup holds (an HTML
    comment, struck-through text, a code block, a definition): what was dropped, and where."""
    dropped = view.derived.get(f"strict-markup:{original.channel}:dropped")
    if not isinstance(dropped, tuple) or not dropped:
        return
    # the ranges by start, each with the one reaching furthest among it and those before it:
    # that one holds a span if any does (ranges may nest: a comment in a code block)
    ordered = sorted(dropped, key=lambda item: item[1])
    starts = [start for _kind, start, _end in ordered]
    reaching: list[tuple[DroppedKind, int, int]] = []
    for item in ordered:
        reaching.append(item if not reaching or item[2] > reaching[-1][2] else reaching[-1])
    spans = _in_scope(view, original, original.identifier_matches(required), exclude_tool_echo)
    for span in spans:
        at = bisect_right(starts, span.start)
        if not at or reaching[at - 1][2] < span.end:
            continue
        kind, start, end = reaching[at - 1]
        shown = " ".join(original.text[start:end].split())
        if len(shown) > _SHOWN_SENTENCE:
            shown = shown[:_SHOWN_SENTENCE] + "…"
        sentence = original.sentence_containing(span.start, span.end)
        withheld.add(
            StrictFinding(
                rule="markup",
                channel=original.channel,
                sentence=sentence.index if sentence is not None else 0,
                line=span.line,
                text=shown,
                detail=f"{span.needle!r} is {DROPPED_WORDS[kind]}: not asserted",
            )
        )


def _code_block_remedies(
    view: EvidenceView,
    original: ChannelText,
    factor_names: Sequence[str],
    objects: Sequence[str],
    fault: InjectedFault,
    findings: _Findings,
) -> None:
    """A finding for each code block the markup rule dropped that holds a kubectl write of the
    factor that is no plain remedy of it (`_remedy.code_gives_no_fix`; SI red team 46, R1): the
    claim readers still read no code block, the remedy reader reads each one."""
    dropped = view.derived.get(f"strict-markup:{original.channel}:dropped")
    if not isinstance(dropped, tuple) or not dropped:
        return
    for kind, start, end in dropped:
        block = original.text[start:end]
        if kind != "code_block" or not code_gives_no_fix(
            block, factor_names, names_in((*factor_names, *objects)), fault
        ):
            continue
        shown = " ".join(block.split())
        if len(shown) > _SHOWN_SENTENCE:
            shown = shown[:_SHOWN_SENTENCE] + "…"
        sentence = original.sentence_containing(start, start + 1)
        findings.add(
            StrictFinding(
                rule="unplain",
                channel=original.channel,
                sentence=sentence.index if sentence is not None else 0,
                line=original.line_of(start),
                text=shown,
                detail="unaccounted_sentence: a kubectl write of the factor inside a code block "
                "is no plain remedy of it",
            )
        )


# dropped text a reader could still read as the agent's words; code blocks are examples and
# link targets addresses, so a "# not sure" inside one withholds nothing; struck-through
# words are withdrawn, so a struck non-answer ("~~Not sure yet.~~") withholds nothing either
_SPOKEN_DROPPED: frozenset[str] = frozenset(
    {"html_comment", "definition", "image_alt", "hidden_html"}
)
# the markup around dropped words, blanked before they are read: a definition's label, a tag,
# a comment's or a strike's delimiters ("[^x]: Retracted: …" opens with "Retracted")
_DROPPED_MARKUP = lazy_pattern(
    r"^[ \t]*\[[^\]\r\n]{1,200}\]:|<!--|-->|<[^<>\r\n]{0,300}>|~~", re.MULTILINE
)


def _withheld_in_dropped(
    view: EvidenceView,
    original: ChannelText,
    cues: AssertionCues,
    exclude_tool_echo: bool,
    findings: _Findings,
) -> None:
    """Dropping markup never drops a withholding: a non-answer, or a sentence that takes back
    what was said (a retraction, a bare denial, a self-correction), inside text the markup rule
    dropped (a footnote definition, a comment, hidden HTML, …) still withholds the answer
    (docs/si-scoring.md §11, "Markup"). The dropped words alone are read, at their offsets."""
    dropped = view.derived.get(f"strict-markup:{original.channel}:dropped")
    if not isinstance(dropped, tuple) or not dropped:
        return
    ranges = sorted(
        (start, end) for kind, start, end in dropped if kind in _SPOKEN_DROPPED and end > start
    )
    if not ranges:
        return
    pieces: list[str] = []
    at = 0
    for start, end in ranges:
        start = max(start, at)
        if end <= start:
            continue
        pieces.append(_blank_text(original.text[at:start]))
        piece = original.text[start:end]
        pieces.append(_DROPPED_MARKUP.sub(lambda found: " " * len(found.group()), piece))
        at = end
    pieces.append(_blank_text(original.text[at:]))
    reader = ChannelReader(ChannelText(original.channel, "".join(pieces)), cues)
    _non_answer(view, original, reader, exclude_tool_echo, findings)
    end = 0
    while (sentence := reader._next(end)) is not None and sentence.end > end:
        end = sentence.end
        if exclude_tool_echo and view.line_is_echo(original, original.line_of(sentence.start)):
            continue
        if reader._takes_back(sentence):
            located = reader.at_range(sentence.start, sentence.end)
            if located is not None:
                findings.add(
                    _finding(
                        reader,
                        located[0],
                        located[1],
                        "negated",
                        "markup that is not read still takes the answer back: dropping it "
                        "withholds nothing less",
                    )
                )
                return


_LINE_TEXT = lazy_pattern(r"[^\r\n]+")


def _blank_text(text: str) -> str:
    return _LINE_TEXT.sub(lambda run: " " * len(run.group()), text)


def _non_answer(
    view: EvidenceView,
    original: ChannelText,
    reader: ChannelReader,
    exclude_tool_echo: bool,
    findings: _Findings,
) -> None:
    """A finding for the first non-answer the channel asserts (`_non_answer`): one is enough
    for the answer not to commit, and each sentence is read at most once."""
    non_answer = reader.cues.non_answer
    if non_answer is None:
        return
    fold = reader.folded
    first_words: dict[int, int] = {}
    for found in non_answer.finditer(fold.text, fold.vocabulary):
        start, end = fold.original(found.start()), fold.original(found.end())
        if exclude_tool_echo and view.line_is_echo(original, original.line_of(start)):
            continue
        located = reader.at_range(start, end)
        if located is None or located[1].blocking_rule(start, end) is not None:
            continue
        index, reading = located
        if found.lastgroup == "lacking":
            # the clause's first word (blanked markup before it is no word), once per clause
            clause = reading.clauses[reading.clause_index(start)].start
            if clause not in first_words:
                first = _NON_SPACE.search(fold.text, clause, found.start())
                first_words[clause] = first.start() if first else found.start()
            if not said_by_the_agent(
                fold.text, first_words[clause], found.start(), non_answer.subjects
            ):
                continue
        findings.add(
            _finding(
                reader,
                index,
                reading,
                "non_answer",
                f"{found.group()!r}: the answer says it has no diagnosis, so it commits to none",
            )
        )
        return


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
    scenario_names: Sequence[str] = (),
    fault: InjectedFault | None = None,
    symptom: str | None = None,
    signal: SignalSentences | None = None,
) -> FactorAssertedResult:
    """The strict reading of `factor_identified` (module docstring). `other_type_phrases` are
    the phrases of every other deviation type's profile list; `other_identifiers` the
    scenario's identifiers that are not the factor, its resource or its symptom;
    `scenario_names` all of the scenario's identifiers (the objects an answer may name).
    `ratified_value`, when the caller has decided `factor_identified` already, is its value.
    `fault` is the factor's deviation as the injection manifest declares it (its value and
    resource: `_remedy.InjectedFault`), which a remedy may not give back; the estate's
    workloads are added here, from the evidence's first full snapshot. `symptom` is the name of
    the resource the incident's symptom is observed on, whose working state no comment may
    state (SI red team 44, H8). `signal`, for a template with a misleading signal, gives the
    ranges that only dismiss it or call it harmless, which no plain-assertion reader judges (SI
    red team 46, F1)."""
    # the estate's workloads from the evidence's own first snapshot; without one, those the
    # scenario declares (`fault.workloads`; SI red team 38, H5)
    estate = scenario_workloads(view)
    fault = fault or InjectedFault(factor.deviation_type)
    fault = replace(fault, workloads=estate if estate is not None else fault.workloads)
    if ratified_value is None:
        ratified_value = factor_identified(view, factor, channels, window, exclude_tool_echo).value
    findings = _Findings()
    value = False
    if ratified_value:
        required = validate_identifier_set(
            factor.required_identifiers, field="factor.required_identifiers"
        )
        required_keys = {identifier.casefold() for identifier in required}
        others = [
            identifier
            for identifier in dict.fromkeys(other_identifiers)
            if identifier.casefold() not in required_keys
        ]
        asserted = False
        withheld = _Findings()
        for name in dict.fromkeys(channels):
            # what a reader reads: markup that is not asserted is blanked, offsets and lines
            # kept, so the echo status of a line is the original's (`_markup`)
            original = view.channel(name)
            channel = read_channel(view, original)
            reader = ChannelReader(channel, cues)
            factor_spans = _in_scope(
                view, original, channel.identifier_matches(required), exclude_tool_echo
            )
            own = _in_scope(
                view, original, channel.synonym_matches(factor.synonyms.phrases), exclude_tool_echo
            )
            if factor.deviation_type == ABSENT_KEY:
                # the strict reading's own spelling "R has no K key" (`_missing_key`)
                spelt = missing_key_phrases(channel, required)
                if spelt:
                    own = sorted(
                        own + _in_scope(view, original, spelt, exclude_tool_echo),
                        key=lambda span: (span.start, span.end, span.needle),
                    )
            # most answers hold no phrase of another type and name no other identifier: one
            # scan says so, where matching each needle in turn costs a search apiece
            other_phrases = (
                _in_scope(
                    view, original, channel.synonym_matches(other_type_phrases), exclude_tool_echo
                )
                if channel.holds_any(other_type_phrases)
                else []
            )
            other_spans = (
                _in_scope(view, original, channel.identifier_matches(others), exclude_tool_echo)
                if others and channel.holds_any(others)
                else []
            )
            _dropped_claims(view, original, required, exclude_tool_echo, withheld)
            _code_block_remedies(view, original, required, scenario_objects(view), fault, findings)
            _withheld_in_dropped(view, original, cues, exclude_tool_echo, findings)
            _non_answer(view, original, reader, exclude_tool_echo, findings)
            if cues.games is not None:
                own, other_phrases = _word_games(
                    reader,
                    cues.games,
                    factor_spans,
                    own,
                    other_phrases,
                    other_spans,
                    window.sentence_radius,
                    withheld,
                    findings,
                    fault,
                    _scope_test(view, channel, exclude_tool_echo),
                )
            _commitment_games(
                reader,
                factor_spans,
                other_spans,
                _scope_test(view, channel, exclude_tool_echo),
                findings,
            )
            _alternatives_joined(reader, factor_spans, findings)
            if not asserted:
                asserted = _asserted_pair(
                    reader,
                    factor_spans,
                    own,
                    window.sentence_radius,
                    withheld,
                    _withdrawal_test(reader, original),
                )
            _commitment(reader, factor_spans, other_phrases, own, other_spans, findings)
            _plain_assertion(
                reader,
                original.text,
                factor_spans,
                own,
                required,
                others,
                findings,
                (*scenario_names, *scenario_objects(view)),
                view.bodies,
                fault,
                () if symptom is None else (symptom,),
                signal,
            )
            _shotguns(reader, factor_spans, own, required, findings)
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


def absent_key_spelt(
    view: EvidenceView, factor: Factor, channels: Sequence[str], exclude_tool_echo: bool = False
) -> bool:
    """Whether the strict reading finds the factor's deviation where the ratified one cannot:
    an absent key spelt "R has no K key" (`_missing_key`), every required identifier named in
    scope (SI §2.1), as `factor_identified` asks."""
    if factor.deviation_type != ABSENT_KEY:
        return False
    if not any(may_spell(view.channel(name).text) for name in dict.fromkeys(channels)):
        return False
    required = list(factor.required_identifiers)
    if not all(
        named_in_output(view, [identifier], channels, exclude_tool_echo).value
        for identifier in required
    ):
        return False
    for name in dict.fromkeys(channels):
        original = view.channel(name)
        channel = read_channel(view, original)
        if _in_scope(view, original, missing_key_phrases(channel, required), exclude_tool_echo):
            return True
    return False


def prose_disowns(
    view: EvidenceView,
    factor: Factor,
    channels: Sequence[str],
    cues: AssertionCues,
    other_identifiers: Sequence[str],
) -> list[StrictFinding]:
    """Where a structured diagnosis decides the factor and the prose does not name it: the
    prose's own disowning of the answer (`_plain_assertion.disowning_beside_diagnosis`), each
    a finding (docs/si-scoring.md §14; SI red team 16, H7)."""
    identifiers = [*factor.required_identifiers, *other_identifiers]
    findings = _Findings()
    for name in dict.fromkeys(channels):
        original = view.channel(name)
        reader = ChannelReader(read_channel(view, original), cues)
        shaped = reader.shaped
        for shape in disowning_beside_diagnosis(
            shaped.channel, original.text, identifiers, shaped.original, scenario_objects(view)
        ):
            start = shaped.original(shape.start)
            located = reader.at_range(start, max(start + 1, shaped.original(shape.end)))
            if located is not None:
                findings.add(
                    _finding(
                        reader, located[0], located[1], "unplain", f"{shape.shape}: {shape.detail}"
                    )
                )
    return findings.items


__all__ = [
    "REPORTED_FINDINGS",
    "ChannelReader",
    "FactorAssertedResult",
    "FindingRule",
    "StrictFinding",
    "WordGameIndex",
    "absent_key_spelt",
    "factor_asserted",
    "prose_disowns",
]
