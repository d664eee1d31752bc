"""Whether a sentence asserts a deviation phrase: clauses and cues, for the strict reading.

SI §2.2 counts a deviation phrase that merely shares a sentence with a factor identifier ("the
weakest deterministic link in this design"), so "SMTP_PORT is not missing", "Is SMTP_PORT
missing?" and "If SMTP_PORT were missing, …" all characterise the factor under the ratified
reading. provebench's strict reading (docs/si-scoring.md) counts a phrase only when no cue of
its sentence or clause withholds it. The cue lists are profile data (`strict-5.yaml`); this
module only reads one sentence with them, once, in time linear in its length.

"""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Literal, NamedTuple

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._cue_presence import (
    WORD_CHARACTERS,
    CueFamily,
    CueTest,
    Vocabulary,
    could_match,
    cuts_word,
)
from provebench.si.primitives._look_alikes import LOOK_ALIKES
from provebench.si.primitives._once import once
from provebench.si.primitives._respell import respell

if TYPE_CHECKING:
    from provebench.si.primitives._non_answer import NonAnswerCues

# The characters a cue word must not touch on either side: a cue is a whole word, so `no` is
# not found in `node` nor `not` in `notification-service`.
_WORD = WORD_CHARACTERS

BlockingRule = Literal[
    "question", "conditional", "negated", "hedged", "reported", "attributed", "displaced", "framed"
]

# Unassigned code points Unicode reserves as default-ignorable (DerivedCoreProperties.txt,
# Default_Ignorable_Code_Point): a later version may assign them an invisible character, and a
# renderer already draws nothing for them.
_RESERVED_IGNORABLE = ((0x2060, 0x206F), (0xFFF0, 0xFFFB), (0xE0000, 0xE0FFF))


@functools.lru_cache(maxsize=4096)
def renders_as_nothing(character: str) -> bool:
    """Whether `character` adds nothing a reader sees to the word it stands in, so the fold
    drops it (`n\u200eot` reads `not`; SI red team 20, W1). Derived from the Unicode data of
    `unicodedata`, by class, never listed one by one:

    * general category Cf (format controls: soft hyphen, zero-width space and joiners, LRM,
      RLM, the bidirectional embeddings and isolates, invisible operators, word joiner, byte
      order mark, tag characters);
    * general category Mn and Me (non-spacing and enclosing marks): the variation selectors,
      the Mongolian free variation selectors and the combining grapheme joiner are Mn, and a
      combining accent on a letter is read as that letter (`n\u0301ot`, `nót` read `not`):
      every cue word is plain ASCII (`strict-5.yaml`), so a mark inside one only disguises it,
      and a mark in another script's word makes no cue word of it (its base letters are no
      ASCII letters, look-alikes aside, which are read as what they look like anyway);
    * the Hangul fillers (Lo, named `… FILLER` in the Hangul blocks), which Unicode lists as
      default-ignorable: they draw as nothing in a Latin word;
    * an unassigned code point of the ranges Unicode reserves as default-ignorable."""
    category = unicodedata.category(character)
    if category in ("Cf", "Mn", "Me"):
        return True
    if category == "Lo":
        name = unicodedata.name(character, "")
        return "HANGUL" in name and name.endswith(" FILLER")
    if category == "Cn":
        point = ord(character)
        return any(low <= point <= high for low, high in _RESERVED_IGNORABLE)
    return False


# Apostrophe look-alikes, read as `'` ("isn\u02bct", "isn’t").
_APOSTROPHES = dict.fromkeys(
    map(ord, "\u2018\u2019\u201b\u02bc\u02bb\u02b9\u2032\u00b4`\uff07"), "'"
)
_NON_ASCII_RUN = lazy_pattern(r"[^\x00-\x7f]+")


@functools.lru_cache(maxsize=4096)
def fold_character(character: str) -> str:
    """Apostrophe look-alikes as `'` (`´` decomposes to a space and a mark), then NFKD without
    what renders as nothing (`renders_as_nothing`: an accent is dropped from its letter),
    composed again (NFKC: full-width `？` is `?`), then letter look-alikes."""
    decomposed = unicodedata.normalize("NFKD", character.translate(_APOSTROPHES))
    kept = "".join(part for part in decomposed if not renders_as_nothing(part))
    return unicodedata.normalize("NFKC", kept).translate(LOOK_ALIKES)


@dataclass(frozen=True)
class FoldedText:
    """A channel's text as the cues read it, and where each original offset lands in it.

    Phrases and identifiers are matched in the original (SI §3.1, unchanged); cue matching reads
    this fold, so that a cue spelled with look-alike or invisible characters is found, and the
    shape rules read the fold of each character (`of_characters`, `_folded_channel`)."""

    text: str
    _to_folded: tuple[int, ...] | None  # None: one-to-one

    @classmethod
    def of(cls, original: str) -> FoldedText:
        """The fold of `original`: its characters folded (`fold_character`), then the words
        spelled to slip past the cues respelled (`_respell`, SI red team 14)."""
        folded = cls._of_characters(original)
        respelled = respell(folded.text)
        if respelled is None:
            return folded
        text, to_respelled = respelled
        if folded._to_folded is None:
            return cls(text, tuple(to_respelled))
        return cls(text, tuple(to_respelled[offset] for offset in folded._to_folded))

    @classmethod
    def of_characters(cls, original: str) -> FoldedText:
        """The fold of each character alone (`fold_character`), backticks kept: the text the
        withholding rules that read the answer's shape scan (`_folded_channel`; SI red team
        20, W2), where a backtick is a citation and a respelling is no shape of the answer."""
        return cls._of_characters(original, backtick="`")

    @classmethod
    def _of_characters(cls, original: str, backtick: str = "'") -> FoldedText:
        if original.isascii():
            return cls(original.replace("`", backtick), None)
        pieces: list[str] = []
        to_folded: list[int] = []
        position = 0
        folded_length = 0
        for run in _NON_ASCII_RUN.finditer(original):
            ascii_part = original[position : run.start()]
            pieces.append(ascii_part.replace("`", backtick))
            to_folded.extend(range(folded_length, folded_length + len(ascii_part)))
            folded_length += len(ascii_part)
            for character in run.group():
                folded = fold_character(character)
                to_folded.append(folded_length)
                pieces.append(folded)
                folded_length += len(folded)
            position = run.end()
        tail = original[position:]
        pieces.append(tail.replace("`", backtick))
        to_folded.extend(range(folded_length, folded_length + len(tail) + 1))
        return cls("".join(pieces), tuple(to_folded))

    @once
    def vocabulary(self) -> Vocabulary | None:
        """The fold's words, for the cue tests that skip a scan which would find nothing
        (`_cue_presence`); None when they cannot decide."""
        return Vocabulary.of(self.text)

    @property
    def one_to_one(self) -> bool:
        """Every offset of the fold is the original's."""
        return self._to_folded is None

    def folded(self, offset: int) -> int:
        return offset if self._to_folded is None else self._to_folded[offset]

    def original(self, folded_offset: int) -> int:
        """The first original offset at or after `folded_offset`."""
        if self._to_folded is None:
            return folded_offset
        return bisect_left(self._to_folded, folded_offset)


def _alternatives(words: Sequence[str]) -> str:
    """Whole words and phrases (a phrase's spaces match any run of whitespace), longest first.

    The alternatives are written grouped by their first character ("the…|true…|actual…" as
    "t(?:he…|rue…)|a(?:ctual…)"), which matches the same text: at any position only the
    group of the character there can match, and within it the order is kept. It makes a scan
    several times faster, since the regular-expression engine tries each alternative of a
    list in turn (a case-insensitive literal gets no quick first-character test). Grouping is
    used only where no two first characters are the same letter in another case and all are
    ASCII, so that no character of the text can start alternatives of two groups."""
    ordered = sorted({word for word in words if not word.startswith(("n'", "n’"))}, key=len)
    longest_first = [word.split() for word in reversed(ordered)]
    heads = {pieces[0][0] for pieces in longest_first if pieces}
    if (
        not all(longest_first)
        or not all(head.isascii() for head in heads)
        or len({head.lower() for head in heads}) != len(heads)
    ):
        return "|".join(
            r"\s+".join(re.escape(piece) for piece in pieces) for pieces in longest_first
        )
    groups: dict[str, list[str]] = {}
    for pieces in longest_first:
        tail = re.escape(pieces[0][1:]) + "".join(r"\s+" + re.escape(p) for p in pieces[1:])
        groups.setdefault(pieces[0][0], []).append(tail)
    return "|".join(f"{re.escape(head)}(?:{'|'.join(tails)})" for head, tails in groups.items())


def _first_characters(words: Sequence[str]) -> str:
    """A lookahead for the characters `_alternatives(words)` can start with, to put before it.

    It changes no match: every alternative starts with one of these characters (the lookahead
    is compiled with the same case-insensitivity as the alternatives, so it admits the same
    case variants). It makes a scan fast: without it the regular-expression engine tries each
    of a long list's alternatives at every position of the text (a case-insensitive literal
    gets no quick first-character test), with it one character-class test fails most
    positions. Empty when some alternative could start otherwise (an empty word)."""
    firsts: set[str] = set()
    for word in words:
        if word.startswith(("n'", "n’")):
            continue  # a suffix: not one of `_alternatives`
        pieces = word.split()
        if not pieces:
            return ""
        firsts.add(pieces[0][0])
    if not firsts:
        return ""
    return "(?=[" + "".join(re.escape(character) for character in sorted(firsts)) + "])"


def _suffixes(words: Sequence[str]) -> str:
    """Contraction suffixes (`n't`), found at the end of the word they end (`doesn't`)."""
    return "|".join(re.escape(word) for word in words if word.startswith(("n'", "n’")))


def _optional_words(words: Sequence[str]) -> re.Pattern[str]:
    """`_words_pattern`, or a pattern that never matches for an empty list."""
    return _words_pattern(words) if words else re.compile(r"(?!)")


def _words_pattern(words: Sequence[str]) -> re.Pattern[str]:
    """One case-insensitive pattern for whole-word cues and contraction suffixes."""
    parts = [f"(?<![{_WORD}]){_first_characters(words)}(?:{_alternatives(words)})(?![{_WORD}])"]
    if suffixes := _suffixes(words):
        parts.append(f"(?<=[A-Za-z])(?:{suffixes})(?![{_WORD}])")
    return re.compile("|".join(parts), re.IGNORECASE)


# The groups of `AssertionCues.sentence`, one per kind of cue a sentence is read for.
_KINDS = (
    "boundary",
    "negation",
    "hedge",
    "conditional",
    "clause_conditional",
    "reported",
    "belief",
    "scope",
)

# Quotation marks: text inside a pair is quoted, not asserted. Straight `"` (and full-width, folded
# to it) pairs with itself; the typographic marks open and close.
_OPENING_QUOTES = "“«「『„"
_CLOSING_QUOTES = "”»」』"
_QUOTES = lazy_pattern(f'["{_OPENING_QUOTES}{_CLOSING_QUOTES}]')
# A parenthetical ("might - or not - be missing") is set off by a pair of these; the clause
# after the closing one continues the clause before the opening one.
_PAIRED = {"(": ")", "[": "]", "—": "—", "–": "–", "-": "-", "--": "--"}
# Characters around words: what a bare denial ("— not.", "(NOT)") may hold besides its words.
_NOT_WORD = "[^A-Za-z0-9_'’]*"


def _words_test(words: Sequence[str]) -> CueTest:
    """The test of `_words_pattern(words)` (or `_optional_words`): whole-word phrases, and the
    contraction suffixes found inside a word."""
    suffixes = [word for word in words if word.startswith(("n'", "n’"))]
    phrases = [word for word in words if word not in suffixes]
    # no whole-word phrase: `_alternatives` is empty and the pattern's shape is another's
    return CueTest(phrases, suffixes) if phrases else CueTest(())


@dataclass(frozen=True)
class WordGameTests:
    """Whether each pattern of `WordGameCues` could match an answer (`_cue_presence`)."""

    governing_before: CueTest
    governing_after: CueTest
    governing_around: tuple[tuple[CueTest, CueTest], ...]
    governing_sentence: CueTest
    anaphora: CueTest
    antonyms: Mapping[str, CueTest]
    contradiction_subjects: CueTest
    contradiction_modals: CueTest
    around_openings: CueTest  # every pair's opening phrase: whether any pair can open

    def cue_tests(self) -> list[CueTest]:
        tests = [
            self.around_openings,
            self.governing_before,
            self.governing_after,
            self.governing_sentence,
            self.anaphora,
            self.contradiction_subjects,
            self.contradiction_modals,
        ]
        tests += [test for pair in self.governing_around for test in pair]
        return tests + list(self.antonyms.values())


@dataclass(frozen=True)
class WordGameCues:
    """The cue lists of the strict reading's word-game rules (`strict-5.yaml`: `governing_*`,
    `anaphora`, `remedy_phrases`, `elided_*`), compiled once; `_strict_factor` reads them."""

    governing_before: re.Pattern[str]
    governing_after: re.Pattern[str]
    governing_around: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]
    governing_sentence: re.Pattern[str]
    anaphora: re.Pattern[str]
    remedy_phrases: frozenset[str]
    elided_predicate: re.Pattern[str]
    elided_filler: frozenset[str]
    # version 5: what says the factor holds the opposite of its deviation (`contradicted`)
    antonyms: Mapping[str, re.Pattern[str]] = dataclasses.field(default_factory=dict)
    contradiction_subjects: re.Pattern[str] = re.compile(r"(?!)")
    contradiction_modals: re.Pattern[str] = re.compile(r"(?!)")
    # whether each pattern above could match an answer (`_cue_presence`); None: always scanned
    tests: WordGameTests | None = None
    # each `elided_predicate` phrase's words, lowercased (empty: not known, always read): an
    # answer whose lowercase holds every word of none of them holds no elided predicate
    elided_words: tuple[tuple[str, ...], ...] = ()

    @classmethod
    def compile(
        cls,
        *,
        governing_before: Sequence[str],
        governing_after: Sequence[str],
        governing_around: Sequence[str],
        governing_sentence: Sequence[str],
        anaphora: Sequence[str],
        remedy_phrases: Sequence[str],
        elided_predicate: Sequence[str],
        elided_filler: Sequence[str],
        antonyms: Mapping[str, Sequence[str]] | None = None,
        contradiction_subjects: Sequence[str] = (),
        contradiction_modals: Sequence[str] = (),
    ) -> WordGameCues:
        around: list[tuple[re.Pattern[str], re.Pattern[str]]] = []
        around_tests: list[tuple[CueTest, CueTest]] = []
        around_words: list[tuple[str, str]] = []
        for cue in governing_around:
            first, separator, second = cue.partition("…")
            if not separator or not first.strip() or not second.strip():
                raise ValueError(f"governing_around cue {cue!r} is not `first … second`")
            around.append((_words_pattern([first.strip()]), _words_pattern([second.strip()])))
            around_tests.append((_words_test([first.strip()]), _words_test([second.strip()])))
            around_words.append((first.strip(), second.strip()))
        tests = WordGameTests(
            governing_before=_words_test(governing_before),
            governing_after=_words_test(governing_after),
            governing_around=tuple(around_tests),
            governing_sentence=_words_test(governing_sentence),
            anaphora=_words_test(anaphora),
            antonyms={kind: _words_test(words) for kind, words in (antonyms or {}).items()},
            contradiction_subjects=_words_test(contradiction_subjects),
            contradiction_modals=_words_test(contradiction_modals),
            around_openings=_words_test([first for first, _second in around_words]),
        )
        return cls(
            tests=tests,
            governing_before=_words_pattern(governing_before),
            governing_after=_words_pattern(governing_after),
            governing_around=tuple(around),
            governing_sentence=_words_pattern(governing_sentence),
            anaphora=_words_pattern(anaphora),
            remedy_phrases=frozenset(phrase.casefold() for phrase in remedy_phrases),
            elided_predicate=_words_pattern(elided_predicate),
            elided_filler=frozenset(word.casefold() for word in elided_filler),
            elided_words=_phrase_words(elided_predicate),
            antonyms={
                kind: _words_pattern(words) for kind, words in (antonyms or {}).items() if words
            },
            contradiction_subjects=_optional_words(contradiction_subjects),
            contradiction_modals=_optional_words(contradiction_modals),
        )


def _phrase_words(phrases: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Each phrase's words, lowercased, for a substring test of an answer's lowercase; empty
    (no test) when a phrase is a contraction suffix, is empty or has a letter beyond ASCII,
    whose case variants the test would not know."""
    words = tuple(tuple(phrase.lower().split()) for phrase in phrases)
    if not words or any(
        not pieces or not phrase.isascii() or phrase.startswith(("n'", "n’"))
        for phrase, pieces in zip(phrases, words, strict=True)
    ):
        return ()
    return words


@dataclass(frozen=True)
class AssertionCues:
    """The strict reading's cue lists, compiled once (see `strict-5.yaml` for each list).

    `sentence` finds every clause boundary, negation, hedge, condition and report of a sentence
    in one pass (a word belongs to one list only, which `compile` checks)."""

    sentence: re.Pattern[str]
    negation: re.Pattern[str]
    cause: re.Pattern[str]
    interrogative_openers: frozenset[str]
    disjunction_openers: frozenset[str]
    tag_question: re.Pattern[str]
    retraction: re.Pattern[str]
    negation_prefix: re.Pattern[str]
    negated_object: re.Pattern[str]
    identifier_joiner: re.Pattern[str]
    dismissal: re.Pattern[str] | None = None
    games: WordGameCues | None = None
    # version 3: denials after the phrase, retractions after fillers
    bare_denial: re.Pattern[str] = re.compile(r"(?!)")
    denial_report: re.Pattern[str] = re.compile(r"(?!)")
    truth_denial_at_end: re.Pattern[str] = re.compile(r"(?!)")
    truth_denial_clause: re.Pattern[str] = re.compile(r"(?!)")
    retraction_filler: re.Pattern[str] = re.compile(r"(?!)")
    # the words a denial clause can open with (a clause opening otherwise is not read further)
    denial_openers: frozenset[str] = frozenset()
    # version 4: a clause that is nothing but a hedge ("Just guessing:"), and a cause named
    # as the real one ("the real root cause")
    hedge_preface: re.Pattern[str] = re.compile(r"(?!)")
    hedge_preface_filler: frozenset[str] = frozenset()
    contrastive_cause: re.Pattern[str] = re.compile(r"(?!)")
    cause_reference: re.Pattern[str] = re.compile(r"(?!)")
    # version 5: a report or belief ending a clause after the phrase ("…, I thought"); a scope
    # cue dated, not displaced ("since last week"); a clause of nothing but scope or a framing
    # label; a judgement of what was said or a self-correction in a later sentence; a verdict
    # clause after the phrase ("— excluded after checking")
    trailing_report: re.Pattern[str] = re.compile(r"(?!)")
    scope_anchor: re.Pattern[str] = re.compile(r"(?!)")
    scope_only: re.Pattern[str] = re.compile(r"(?!)")
    scope_filler: frozenset[str] = frozenset()
    framing_preface: re.Pattern[str] = re.compile(r"(?!)")
    framing_filler: frozenset[str] = frozenset()
    retraction_judgement: re.Pattern[str] = re.compile(r"(?!)")
    self_correction: re.Pattern[str] = re.compile(r"(?!)")
    verdict: re.Pattern[str] = re.compile(r"(?!)")
    # an answer that says it has no diagnosis (`_non_answer`); None: not read
    non_answer: NonAnswerCues | None = None
    # a verb of rejection aimed back at what was said, as a clause after the phrase ("…,
    # dismissing that as the reason", "…, ruling that out"), or with its object left to a
    # relative clause word ("…, which I reject")
    aimed_back: re.Pattern[str] = re.compile(r"(?!)")
    aimed_back_relative: re.Pattern[str] = re.compile(r"(?!)")
    relative_openers: frozenset[str] = frozenset()
    # whether the patterns above could match an answer, and `sentence` without the kinds of
    # cue an answer cannot hold (`_cue_presence`); None: every pattern always scanned
    tests: AssertionTests | None = None

    def sentence_pattern(self, vocabulary: Vocabulary | None) -> re.Pattern[str]:
        """`sentence`, or the same pattern without the kinds of cue that cannot match a text
        of this vocabulary: at every position it finds what `sentence` finds."""
        if self.tests is None or vocabulary is None:
            return self.sentence
        return self.tests.sentence.for_vocabulary(vocabulary)

    def could_match(self, test: CueTest | None, vocabulary: Vocabulary | None) -> bool:
        """Whether a pattern with this test could match a text of this vocabulary."""
        return test is None or could_match(vocabulary, test)

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
        clause_conditional: Sequence[str] = (),
        reported: Sequence[str] = (),
        tag_questions: Sequence[str] = (),
        retraction: Sequence[str] = (),
        negation_prefixes: Sequence[str] = (),
        negated_objects: Sequence[str] = (),
        identifier_joiners: Sequence[str] = (),
        dismissal: Sequence[str] = (),
        games: WordGameCues | None = None,
        retraction_fillers: Sequence[str] = (),
        bare_denials: Sequence[str] = (),
        denial_reports: Sequence[str] = (),
        truth_denials: Sequence[str] = (),
        truth_subjects: Sequence[str] = (),
        truth_adverbs: Sequence[str] = (),
        retraction_commands: Sequence[str] = (),
        retraction_objects: Sequence[str] = (),
        hedge_prefaces: Sequence[str] = (),
        hedge_preface_filler: Sequence[str] = (),
        contrastive_cause: Sequence[str] = (),
        cause_reference: Sequence[str] = (),
        belief: Sequence[str] = (),
        scope: Sequence[str] = (),
        scope_anchors: Sequence[str] = (),
        scope_filler: Sequence[str] = (),
        framing_prefaces: Sequence[str] = (),
        framing_filler: Sequence[str] = (),
        retraction_subjects: Sequence[str] = (),
        self_corrections: Sequence[str] = (),
        verdict_verbs: Sequence[str] = (),
        verdict_nouns: Sequence[str] = (),
        rejection_verbs: Sequence[str] = (),
        rejection_objects: Sequence[str] = (),
        rejection_subjects: Sequence[str] = (),
    ) -> AssertionCues:
        lists = {
            "boundary": clause_words,
            "negation": negation,
            "hedge": hedge,
            "conditional": conditional,
            "clause_conditional": clause_conditional,
            "reported": reported,
            "belief": belief,
            "scope": scope,
        }
        seen: dict[str, str] = {}
        for kind, words in lists.items():
            for word in words:
                other = seen.setdefault(word.casefold(), kind)
                if other != kind:
                    raise ValueError(f"cue {word!r} is in two lists ({other}, {kind})")
        sentences = SentencePatterns(clause_punctuation, lists, negation)
        never = r"(?!)"
        tags = _alternatives(tag_questions) or never
        retractions = _alternatives(retraction) or never
        prefixes = "|".join(re.escape(prefix) for prefix in negation_prefixes) or never
        objects = _alternatives(negated_objects) or never
        joiners = "|".join(
            f"(?<![{_WORD}])(?:{_alternatives([word])})(?![{_WORD}])"
            if word[0].isalnum() and word[-1].isalnum()
            else _alternatives([word])
            for word in sorted(identifier_joiners, key=len, reverse=True)
        )
        bare = _alternatives(bare_denials) or never
        denied = _alternatives(truth_denials) or never
        subjects = _alternatives(truth_subjects) or never
        fillers = _alternatives(retraction_fillers) or never
        adverbs = _alternatives(truth_adverbs) or never
        commands = _alternatives(retraction_commands) or never
        retracted = _alternatives(retraction_objects) or never
        # "is not true", "was falsified by the logs", "has been clearly refuted": a copula, any
        # of the adverbs, the denial, and its agent (bounded, so that the search stays linear),
        # ending the clause
        predicate = (
            f"(?:is|was|are|were|'s|has\\s+been|have\\s+been|had\\s+been|is\\s+being|would\\s+be|"
            f"will\\s+be)\\s+"
            f"(?:(?:{adverbs})\\s+)*(?:{denied})(?![{_WORD}])(?:\\s+by\\s[^.;:!?]{{0,80}})?{_NOT_WORD}$"
        )
        judged = _alternatives(retraction_subjects) or never
        corrections = _alternatives(self_corrections) or never
        verbs = _alternatives(verdict_verbs) or never
        nouns = _alternatives(verdict_nouns) or never
        reports = _alternatives([*reported, *belief]) or never
        anchors = _alternatives(scope_anchors) or never
        aimed_back, aimed_back_relative = _rejection_patterns(
            rejection_verbs, rejection_objects, rejection_subjects, truth_adverbs
        )
        openers = {"is", "was", "are", "were", "has", "have", "had"} | {
            phrase.split()[0].casefold() for phrase in (*bare_denials, *truth_subjects)
        }
        cues = cls(
            aimed_back=aimed_back,
            aimed_back_relative=aimed_back_relative,
            relative_openers=frozenset(word.casefold() for word in truth_subjects),
            denial_openers=frozenset(openers),
            # a clause or sentence that is nothing but a denial ("— not.", "Not really.")
            bare_denial=re.compile(
                f"{_NOT_WORD}(?:(?:{bare})(?![{_WORD}]){_NOT_WORD})+", re.IGNORECASE
            ),
            # "said nobody", anywhere after the phrase
            denial_report=_words_pattern(denial_reports) if denial_reports else re.compile(never),
            # "… is not true" ending the phrase's own clause (searched in the rest of it)
            truth_denial_at_end=re.compile(f"(?<![{_WORD}]){predicate}", re.IGNORECASE),
            # ", which is false": a later clause whose subject is only a pronoun or "that claim"
            truth_denial_clause=re.compile(
                f"{_NOT_WORD}(?:(?:{subjects})\\s+)?{predicate}", re.IGNORECASE
            ),
            # "Actually, …", "Correction: …" before a retraction
            retraction_filler=re.compile(
                f"(?:\\s*(?:{fillers})(?![{_WORD}])[\\s,;:!.—–-]*)*", re.IGNORECASE
            ),
            sentence=sentences.full,
            tests=AssertionTests(
                sentence=sentences,
                cause=_words_test(cause),
                hedge_preface=_words_test(hedge_prefaces),
                scope_only=_words_test(scope),
                framing_preface=_words_test(framing_prefaces),
                denial_report=_words_test(denial_reports),
                truth_denials=CueTest(truth_denials),
                contrastive_cause=_words_test(contrastive_cause),
                cause_reference=_words_test(cause_reference),
            ),
            negation=_words_pattern(negation),
            cause=_words_pattern(cause),
            interrogative_openers=frozenset(word.casefold() for word in interrogative_openers),
            disjunction_openers=frozenset(word.casefold() for word in disjunction_openers),
            dismissal=_words_pattern(dismissal) if dismissal else None,
            # ", right" at the end of a sentence, whatever closing punctuation follows it
            tag_question=re.compile(f",\\s*(?:{tags})[\\s.!\"'”»)\\]]*$", re.IGNORECASE),
            # a sentence that opens by taking back the one before it
            # or by a command whose object is what was said ("Ignore the previous sentence.")
            retraction=re.compile(
                f"\\s*(?:{retractions}|(?:{commands})\\s+(?:{retracted}))(?![{_WORD}])",
                re.IGNORECASE,
            ),
            # `non-missing`: a negating prefix joined to the phrase
            # (round 14: or joined by an invisible soft hyphen, "not\u00admissing", which the fold
            # removes; the phrase is found glued to the prefix only where one stood)
            negation_prefix=re.compile(f"(?<![{_WORD}])(?:{prefixes})-?$", re.IGNORECASE),
            # `lacks nothing`: a negation as the phrase's object
            negated_object=re.compile(f"\\s+(?:{objects})(?![{_WORD}])", re.IGNORECASE),
            # "SMTP_HOST/SMTP_PORT", "SMTP_HOST plus SMTP_PORT": nothing but joiners between
            identifier_joiner=re.compile(f"\\s*(?:(?:{joiners or never})\\s*)+", re.IGNORECASE),
            games=games,
            hedge_preface=_words_pattern(hedge_prefaces) if hedge_prefaces else re.compile(never),
            hedge_preface_filler=frozenset(word.casefold() for word in hedge_preface_filler),
            contrastive_cause=(
                _words_pattern(contrastive_cause) if contrastive_cause else re.compile(never)
            ),
            cause_reference=(
                _words_pattern(cause_reference) if cause_reference else re.compile(never)
            ),
            # "…, I thought", "…, or so the alert claims": the last word of a clause (read in a
            # bounded tail of it)
            trailing_report=re.compile(f"(?<![{_WORD}])(?:{reports}){_NOT_WORD}$", re.IGNORECASE),
            # "since last week": searched right before a scope cue
            scope_anchor=re.compile(f"(?<![{_WORD}])(?:{anchors})\\s+$", re.IGNORECASE),
            scope_only=_optional_words(scope),
            scope_filler=frozenset(word.casefold() for word in scope_filler),
            framing_preface=_optional_words(framing_prefaces),
            framing_filler=frozenset(word.casefold() for word in framing_filler),
            # "The last sentence is a lie.": what was said, a copula, a truth denial
            retraction_judgement=re.compile(
                f"\\s*(?:{judged})\\s+(?:is|was|are|were|'s)\\s+(?:(?:{adverbs})\\s+)*"
                f"(?:{denied})(?![{_WORD}])",
                re.IGNORECASE,
            ),
            # "I was wrong.", "My mistake.", "I was wrong about that": alone, or about what
            # was said (`retraction_objects`, then at most three words)
            self_correction=re.compile(
                f"{_NOT_WORD}(?:{corrections})(?:\\s+(?:about|on|regarding|with)\\s+"
                f"(?:{retracted})(?![{_WORD}])(?:\\s+[{_WORD}]+){{0,3}})?{_NOT_WORD}",
                re.IGNORECASE,
            ),
            # "— excluded after checking", ": a theory we abandoned" (not "excluded from …")
            verdict=re.compile(
                f"{_NOT_WORD}(?:(?:a|an|the|our|my|one|another|just|only)\\s+)?"
                f"(?:(?:{verbs})|(?:{nouns})(?:\\s+[{_WORD}]+){{0,2}}?\\s+(?:{verbs}))"
                f"(?![{_WORD}])(?!\\s+from(?![{_WORD}]))",
                re.IGNORECASE,
            ),
        )
        # every test of the reading decided in one pass over an answer's words
        tests = [] if cues.tests is None else cues.tests.cue_tests()
        if games is not None and games.tests is not None:
            tests += games.tests.cue_tests()
        CueFamily(tests)
        return cues


class SentencePatterns:
    """`AssertionCues.sentence`, and the same pattern without the kinds of cue (`_KINDS`) that
    cannot match a given answer (`_cue_presence`), each compiled once, on first use.

    Leaving out a kind no phrase of which can match changes no match: at each position the
    pattern tries its alternatives in the same order, and the left-out ones would fail."""

    def __init__(
        self,
        punctuation: Sequence[str],
        lists: Mapping[str, Sequence[str]],
        negation: Sequence[str],
    ) -> None:
        self._punctuation = "|".join(re.escape(mark) for mark in punctuation)
        self._lists = {kind: tuple(lists[kind]) for kind in _KINDS if lists[kind]}
        self._suffixes = _suffixes(negation)
        self._tests = {kind: _words_test(words) for kind, words in self._lists.items()}
        suffix_words = [word for word in negation if word.startswith(("n'", "n’"))]
        self._suffix_test = CueTest((), suffix_words)
        self.full = self._compile(tuple(self._lists), bool(self._suffixes))
        self._reduced: dict[tuple[tuple[str, ...], bool], re.Pattern[str]] = {}

    def for_vocabulary(self, vocabulary: Vocabulary) -> re.Pattern[str]:
        return vocabulary.derived(self, self._choose)

    def _choose(self, vocabulary: Vocabulary) -> re.Pattern[str]:
        kinds = tuple(kind for kind, test in self._tests.items() if vocabulary.could_match(test))
        suffix = bool(self._suffixes) and vocabulary.could_match(self._suffix_test)
        key = (kinds, suffix)
        if key == (tuple(self._lists), bool(self._suffixes)):
            return self.full
        known = self._reduced.get(key)
        if known is None:
            known = self._reduced[key] = self._compile(kinds, suffix)
        return known

    def cue_tests(self) -> list[CueTest]:
        return [*self._tests.values(), self._suffix_test]

    def _compile(self, kinds: tuple[str, ...], suffix: bool) -> re.Pattern[str]:
        """The clause punctuation, the `kinds`' words and, if `suffix`, the negation's
        contraction suffixes: one pattern, one named group per kind."""
        groups = [f"(?P<punctuation>{self._punctuation}|\\s-\\s)"]
        if kinds:
            words = "|".join(f"(?P<{kind}>{_alternatives(self._lists[kind])})" for kind in kinds)
            firsts = _first_characters([word for kind in kinds for word in self._lists[kind]])
            groups.append(f"(?<![{_WORD}]){firsts}(?:{words})(?![{_WORD}])")
        if suffix:
            groups.append(f"(?<=[A-Za-z])(?P<suffix>{self._suffixes})(?![{_WORD}])")
        return re.compile("|".join(groups), re.IGNORECASE)


@dataclass(frozen=True, eq=False)
class AssertionTests:
    """Whether each of the `AssertionCues` patterns that are scanned, not anchored, could
    match an answer (`_cue_presence`)."""

    def cue_tests(self) -> list[CueTest]:
        tests = [getattr(self, field.name) for field in dataclasses.fields(self)]
        return [test for test in tests if isinstance(test, CueTest)] + self.sentence.cue_tests()

    sentence: SentencePatterns
    cause: CueTest
    hedge_preface: CueTest
    scope_only: CueTest
    framing_preface: CueTest
    denial_report: CueTest
    truth_denials: CueTest  # `truth_denial_at_end` matches one of them, whole words
    contrastive_cause: CueTest
    cause_reference: CueTest


def _rejection_patterns(
    verbs: Sequence[str], objects: Sequence[str], subjects: Sequence[str], adverbs: Sequence[str]
) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Clauses that are nothing but a verb of rejection aimed back at what was said: with its
    object ("dismissing that", "ruling that out": a verb written `first … second` holds the
    object between), and without it, for a clause after a relative word ("which I reject",
    "which we ruled out"); an optional subject and adverbs before the verb (bounded lists)."""
    never = re.compile(r"(?!)")
    if not (verbs and objects):
        return never, never

    def words(phrase: str) -> str:
        return r"\s+".join(re.escape(piece) for piece in phrase.split())

    aimed = f"(?:{_alternatives(objects)})"
    with_object: list[str] = []
    bare: list[str] = []
    for verb in verbs:
        first, separator, second = verb.partition("…")
        if separator:
            with_object.append(f"{words(first)}\\s+{aimed}\\s+{words(second)}")
            bare.append(f"{words(first)}\\s+{words(second)}")
        else:
            with_object.append(f"{words(verb)}\\s+{aimed}")
            bare.append(words(verb))
    subject = f"(?:(?:{_alternatives(subjects)})\\s+)?" if subjects else ""
    adverb = f"(?:(?:{_alternatives(adverbs)})\\s+)*" if adverbs else ""
    prefix = f"{_NOT_WORD}{subject}{adverb}"
    end = f"(?![{_WORD}]){_NOT_WORD}"
    return (
        re.compile(f"{prefix}(?:{'|'.join(with_object)}){end}", re.IGNORECASE),
        re.compile(f"{prefix}(?:{'|'.join(bare)}){end}", re.IGNORECASE),
    )


_FIRST_WORDS = lazy_pattern(f"[{_WORD}]+")

# SI red team 19, H1: the clause words that open a clause subordinate to the clause before it,
# a cause given for what that clause says ("the pods crash because X is missing"). What frames
# the clause before frames the cause it gives: "Maybe the pods crash because …", "It is not
# true that the pods crash because …", "The pods crash, but not because …" assert no cause.
_SUBORDINATING = frozenset({"because", "since", "as"})
# Marks after which a clause is a statement of its own, not a cause given for the clause before
# ("Not the disk: the pods crash because …"; the framing prefaces end at the same marks).
_STATEMENT_MARKS = frozenset({";", ":"})
# A negation frames the clauses a clause governs only when it stands over a complement of that
# clause ("It is not true that …", "Nobody says …"); one over the clause's own verb negates the
# effect the cause explains ("The pods cannot start because X is missing" asserts X).
_COMPLEMENT = lazy_pattern(f"(?<![{_WORD}])that(?![{_WORD}])", re.IGNORECASE)
# "could not start because …", "would not start because …": a modal of past ability or habit
# negated at once is the negation of the effect (as `cannot` is), not a hedge over its cause.
_PAST_MODALS = frozenset({"could", "would"})
_GoverningKind = Literal["negation", "hedge", "belief"]
_BACKTICK = lazy_pattern("`")


# the clause words that open a relative clause (`SentenceReading._reported`)
_RELATIVE_OPENERS = frozenset({"which", "who", "whom", "whose"})


class Clause(NamedTuple):
    """One clause of a sentence (a named tuple: a sentence makes several, often)."""

    start: int  # offsets in the folded text
    end: int
    opener: str  # the boundary word that opened it, casefolded ("" for punctuation or none)
    continues: int | None = None  # the clause before a parenthetical this one closes
    opener_start: int = -1  # where its opening word starts (-1: opened by punctuation or none)
    # every boundary between the clause before and this one, in order, casefolded: the clause
    # words and the marks (", but because": (",", "but", "because")); () for the first clause
    joints: tuple[str, ...] = ()


class SentenceReading:
    """One sentence of a channel, read once: its clauses, its cues, whether it is a question.

    `start`, `end` and the offsets the methods take are offsets in the channel's text, as the
    matches' spans are; the cues are read in its fold (`FoldedText`)."""

    def __init__(
        self,
        text: str,
        start: int,
        end: int,
        cues: AssertionCues,
        folded: FoldedText | None = None,
        retracted: bool | Callable[[], bool] = False,
    ) -> None:
        self.start = start
        self.end = end
        self._original = text
        self._fold = folded if folded is not None else FoldedText.of(text)
        self._text = self._fold.text
        self._start = self._fold.folded(start)
        self._end = self._fold.folded(end)
        self._cues = cues
        # whether a later sentence takes this one back; a callable is asked on first use
        self._retracted = retracted
        self._continued: dict[tuple[int, int], bool] = {}
        self._governed_known: dict[str, list[bool]] = {}
        self._negations: list[tuple[int, int]] = []
        self._hedges: list[tuple[int, int]] = []
        self._conditionals: list[tuple[int, int]] = []
        self._clause_conditionals: list[tuple[int, int]] = []
        self._reports: list[tuple[int, int]] = []
        self._beliefs: list[tuple[int, int]] = []
        self._scopes: list[tuple[int, int]] = []
        self.clauses = self._read()
        self._clause_starts = [clause.start for clause in self.clauses]
        # Version 3, read at most once per sentence and only when a phrase is checked: the last
        # clause that is nothing but a denial ("— not.", ", which is false"), the last report by
        # nobody ("said nobody"), the backticks (a pair quotes what it encloses, like `"`).
        self._last_report: int | None = None
        # `_last_denial_from`: the clauses read from the end so far, and the last denial found
        self._denial_scan = len(self.clauses)
        self._last_denial = -1
        self._truth_at_end: dict[int, int] = {}
        self._backticks: list[int] | None = None
        self._cause_cues: dict[int, bool] = {}
        self._previous_named: list[bool | None] | None = None
        self._prefaces: list[int] | None = None
        # version 5, each read at most once per sentence: the last report or belief ending a
        # clause (`_reported_after`: the clauses read from the end so far, and the verb found),
        # the first clause after every scope or framing preface
        self._trailing = -1
        self._trailing_scan = len(self.clauses)
        self._scope_prefaced: int | None = None
        self._framed_from: int | None = None
        self._report_scope: list[int] | None = None
        # a clause's relative aside skipped by the report scope: (its start, its end)
        self._report_asides: dict[int, tuple[int, int]] = {}
        # `_judging`, made on first use (False: not yet)
        self._judged: tuple[AssertionTests, Vocabulary] | Literal[False] | None = False

    @once
    def _question_marks(self) -> tuple[bool, int]:
        """Whether the sentence opens as a question, and where its last question mark is (-1:
        none); read on first use (a sentence read only for its clauses never asks)."""
        sentence = self._text[self._start : self._end]
        # Any question mark asks what comes before it in the sentence ("…?!", "…？", "…?\"").
        last = max(sentence.rfind("?"), sentence.rfind("¿"), sentence.rfind("‽"))
        return self._is_question(sentence), self._start + last if last >= 0 else -1

    @once
    def question(self) -> bool:
        """The sentence is a question: it opens as one, or holds a question mark."""
        opens, last = self._question_marks
        return opens or last >= 0

    @once
    def _quotes(self) -> tuple[list[int], list[bool]]:
        """Where each quotation mark is, and whether the text after it is quoted (read on
        first use)."""
        starts: list[int] = []
        inside_after: list[bool] = []
        straight = depth = 0
        for mark in _QUOTES.finditer(self._text, self._start, self._end):
            if mark.group() == '"':
                straight += 1
            elif mark.group() in _OPENING_QUOTES:
                depth += 1
            else:
                depth = max(0, depth - 1)
            starts.append(mark.start())
            inside_after.append(straight % 2 == 1 or depth > 0)
        return starts, inside_after

    def _is_question(self, sentence: str) -> bool:
        stripped = sentence.strip()
        if self._cues.tag_question.search(stripped):
            return True
        # the first two words only (not every word of the first 80 characters, cased)
        words = [
            word.group().casefold() for word in islice(_FIRST_WORDS.finditer(stripped, 0, 80), 2)
        ]
        if not words or words[0] not in self._cues.interrogative_openers:
            return False
        # "Could not start because …" opens with an auxiliary and is a statement.
        return len(words) < 2 or self._cues.negation.fullmatch(words[1]) is None

    @property
    def retracted(self) -> bool:
        """Whether a later sentence takes this one back (`ChannelReader`: read only when a
        phrase of this sentence is)."""
        if not isinstance(self._retracted, bool):
            self._retracted = self._retracted()
        return self._retracted

    def _vocabulary(self, start: int, end: int) -> Vocabulary | None:
        """The answer's words, for a scan of `[start, end)` (folded offsets) to be skipped when
        no cue it looks for can be there (`_cue_presence`); None when that cannot be told: the
        range cuts a word."""
        if cuts_word(self._text, start) or cuts_word(self._text, end):
            return None
        return self._fold.vocabulary

    def _judging(self) -> tuple[AssertionTests, Vocabulary] | None:
        """The tests and the answer's words that judge a scan of this sentence or of one of its
        clauses; None when they cannot (no tests, no vocabulary, a clause boundary inside a
        word)."""
        tests, vocabulary = self._cues.tests, self._fold.vocabulary
        if tests is None or vocabulary is None:
            return None
        text = self._text
        if cuts_word(text, self._start) or cuts_word(text, self._end):
            return None
        for clause in self.clauses:
            if cuts_word(text, clause.start) or cuts_word(text, clause.end):
                return None
        return tests, vocabulary

    def _could_match(self, test_name: str) -> bool:
        """Whether the pattern that `AssertionTests.<test_name>` tests could match in this
        sentence or a clause of it."""
        if self._judged is False:
            self._judged = self._judging()
        judged = self._judged
        return judged is None or judged[1].could_match(getattr(judged[0], test_name))

    def _read(self) -> list[Clause]:
        """The clauses, and the negations, hedges, conditions and reports: one pass."""
        clauses: list[Clause] = []
        opener = ""
        position = self._start
        found = {
            "negation": self._negations,
            "suffix": self._negations,
            "hedge": self._hedges,
            "conditional": self._conditionals,
            "clause_conditional": self._clause_conditionals,
            "reported": self._reports,
            "belief": self._beliefs,
            "scope": self._scopes,
        }
        # open parentheticals: (closing mark, index of the clause before the opening mark)
        open_marks: list[tuple[str, int | None]] = []
        continues: int | None = None
        opener_start = -1
        joints: list[str] = []
        pattern = self._cues.sentence_pattern(self._vocabulary(self._start, self._end))
        for cue in pattern.finditer(self._text, self._start, self._end):
            kind = cue.lastgroup
            if kind == "scope" and self._cues.scope_anchor.search(
                self._text, max(self._start, cue.start() - 16), cue.start()
            ):
                continue  # "since last week" dates the deviation, it does not displace it
            if kind in found:
                found[kind].append((cue.start(), cue.end()))
                continue
            if self._text[position : cue.start()].strip():
                clauses.append(
                    Clause(position, cue.start(), opener, continues, opener_start, tuple(joints))
                )
                opener = ""
                continues = None
                opener_start = -1
                joints = []
            if kind == "boundary":
                opener = cue.group().casefold()
                opener_start = cue.start()
                joints.append(" ".join(opener.split()))
            else:
                mark = cue.group().strip()
                joints.append(mark)
                before = len(clauses) - 1 if clauses else None
                if open_marks and open_marks[-1][0] == mark:
                    continues = open_marks.pop()[1]
                elif mark in _PAIRED:
                    open_marks.append((_PAIRED[mark], before))
            position = cue.end()
        clauses.append(Clause(position, self._end, opener, continues, opener_start, tuple(joints)))
        return clauses

    def _folded_clause_index(self, folded_offset: int) -> int:
        index = bisect_right(self._clause_starts, folded_offset) - 1
        return index if index > 0 else 0

    def clause_index(self, offset: int) -> int:
        return self._folded_clause_index(self._fold.folded(offset))

    def clause_span(self, index: int) -> tuple[int, int]:
        """A clause's `[start, end)` in the channel's text."""
        clause = self.clauses[index]
        return self._fold.original(clause.start), self._fold.original(clause.end)

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

    def _in_clause(self, cues: list[tuple[int, int]], start: int) -> bool:
        """A cue before `start` in its clause, or in the clauses a parenthetical interrupted
        ("SMTP_PORT might - or not - be missing": `might` governs `be missing`)."""
        index = self._folded_clause_index(start)
        clause = self.clauses[index]
        if self._cue_before(cues, clause.start, start):
            return True
        return clause.continues is not None and self._continued_has(cues, clause.continues)

    def _continued_has(self, cues: list[tuple[int, int]], index: int) -> bool:
        """A cue in the clause `index` or in the clauses it continues, each chain read once."""
        key = (id(cues), index)
        known = self._continued.get(key)
        if known is None:
            clause = self.clauses[index]
            known = self._cue_before(cues, clause.start, clause.end) or (
                clause.continues is not None and self._continued_has(cues, clause.continues)
            )
            self._continued[key] = known
        return known

    @once
    def _governors(self) -> list[int | None]:
        """For each clause, the clause that governs it, or None (SI red team 19, H1): a clause
        opened by a subordinating word (`_SUBORDINATING`) is governed by the clause before it,
        unless a statement mark stands between (`_STATEMENT_MARKS`); one that a coordinating
        word also opens ("… not because A but because B") is governed by what governs the
        subordinate clause before it, its sibling. Read once per sentence, on first use."""
        governors: list[int | None] = []
        for index, clause in enumerate(self.clauses):
            governor: int | None = None
            if (
                index
                and clause.opener in _SUBORDINATING
                and _STATEMENT_MARKS.isdisjoint(clause.joints)
            ):
                # after a parenthetical, the clause it interrupted ("Maybe X (see the logs)
                # because …")
                governor = index - 1 if clause.continues is None else clause.continues
                words = [joint for joint in clause.joints if joint[:1].isalpha()]
                sibling = governors[governor]
                if len(words) > 1 and self.clauses[governor].opener in _SUBORDINATING:
                    governor = sibling
            governors.append(governor)
        return governors

    def governor(self, index: int) -> int | None:
        """The clause that governs clause `index`, or None (`_governors`)."""
        return self._governors[index]

    def _governed(self, kind: _GoverningKind, start: int) -> bool:
        """A cue of `kind` in a clause that governs the phrase's clause, read as framing it
        (`_frames`), however many subordinate clauses lie between."""
        covered = self._governed_known.get(kind)
        if covered is None:
            # one pass over the clauses, each governed by an earlier one (no recursion: a
            # sentence may chain thousands of `because` clauses)
            covered = []
            frames: dict[tuple[int, bool], bool] = {}
            for index, governor in enumerate(self._governors):
                if governor is None:
                    covered.append(False)
                    continue
                key = (governor, governor == index - 1)
                if key not in frames:
                    frames[key] = self._frames(kind, *key)
                covered.append(frames[key] or covered[governor])
            self._governed_known[kind] = covered
        return covered[self._folded_clause_index(start)]

    def _frames(self, kind: _GoverningKind, index: int, next_clause: bool) -> bool:
        """Whether a cue of `kind` in clause `index` frames a clause it governs: a hedge or a
        belief always ("Maybe the pods crash because …", "I think …"), save a past modal
        negated at once (`_PAST_MODALS`); a negation when it stands over a complement
        (`_COMPLEMENT`, or a report or belief after it: "Nobody says …"), or, for the clause
        right after it (`next_clause`), right before that clause's word, which it alone negates
        ("… but not because …"). Each cue is looked at once, the clause scanned once."""
        clause = self.clauses[index]
        cues = {"negation": self._negations, "hedge": self._hedges, "belief": self._beliefs}[kind]
        # the cues of one scan never straddle a clause boundary, which the same scan found
        inside = cues[
            bisect_left(cues, (clause.start, clause.start)) : bisect_left(
                cues, (clause.end, clause.end)
            )
        ]
        if not inside or kind == "belief":
            return bool(inside)
        text = self._text
        if kind == "hedge":
            return any(
                text[cue_start:cue_end].casefold() not in _PAST_MODALS
                or not self._negated_at(cue_end, clause.end)
                for cue_start, cue_end in inside
            )
        if next_clause and not text[inside[-1][1] : clause.end].strip(" \t\n,"):
            return True
        complement = -1
        for found in _COMPLEMENT.finditer(text, inside[0][1], clause.end):
            complement = found.start()
        for verbs in (self._reports, self._beliefs):
            last = bisect_left(verbs, (clause.end, clause.end))
            if last and verbs[last - 1][0] >= clause.start:
                complement = max(complement, verbs[last - 1][0])
        return inside[0][1] <= complement

    def _negated_at(self, offset: int, end: int) -> bool:
        """A negation starting at `offset`, after whitespace only, before `end`."""
        at = bisect_left(self._negations, (offset, offset))
        return at < len(self._negations) and (
            self._negations[at][0] < end and not self._text[offset : self._negations[at][0]].strip()
        )

    def _quoted(self, start: int) -> bool:
        """Inside quotation marks: an odd number of `"` before it, or more opening marks than
        closing ones (counted once per sentence, then a bisection)."""
        quote_starts, inside_after = self._quotes
        before = bisect_left(quote_starts, start)
        if before and inside_after[before - 1]:
            return True
        if self._backticks is None:
            self._backticks = [
                self._fold.folded(mark.start())
                for mark in _BACKTICK.finditer(self._original, self.start, self.end)
            ]
        return bisect_left(self._backticks, start) % 2 == 1

    def blocking_rule(self, start: int, end: int | None = None) -> BlockingRule | None:
        """Why this sentence does not assert the phrase at `[start, end)`, or None if it does.

        A negation, hedge, report or clause condition governs the phrase when it comes before it
        in its clause; a condition when it comes before it anywhere in the sentence (SI §3.2's
        sentence); a question mark anywhere after it in the sentence."""
        return self._blocking(
            self._fold.folded(start), None if end is None else self._fold.folded(end)
        )

    def _blocking(self, start: int, end: int | None) -> BlockingRule | None:
        opens_question, last_question_mark = self._question_marks
        if opens_question or last_question_mark >= start:
            return "question"
        if self._cue_before(self._conditionals, self._start, start):
            return "conditional"
        if self._in_clause(self._clause_conditionals, start):
            return "conditional"
        if (
            self.retracted
            or self._in_clause(self._negations, start)
            or self._governed("negation", start)
        ):
            return "negated"
        if self._cues.negation_prefix.search(self._text, max(self._start, start - 8), start):
            return "negated"
        if end is not None and self._cues.negated_object.match(self._text, end, self._end):
            return "negated"
        if end is not None and self._denied_after(start, end):
            return "negated"
        if (
            self._in_clause(self._hedges, start)
            or self._under_preface(start)
            or self._governed("hedge", start)
        ):
            return "hedged"
        if self._quoted(start) or self._reported(start):
            return "reported"
        # version 5
        if (
            self._in_clause(self._beliefs, start)
            or self._governed("belief", start)
            or (end is not None and self._reported_after(end))
        ):
            return "attributed"
        if self._displaced(start):
            return "displaced"
        if self._framed(start):
            return "framed"
        return None

    def _reported_after(self, end: int) -> bool:
        """Version 5: whether the last report or belief verb that ends a clause of the sentence
        ("X is missing, I thought", "…, the dashboard claims", "… is what a junior would say")
        starts at or after `end`. Each clause's last words are read once, in a bounded tail,
        from the sentence's last clause back, and only as far back as a clause ending after
        `end`: a verb in a clause ending before it starts before it."""
        clauses = self.clauses
        while (
            self._trailing < 0
            and self._trailing_scan
            and clauses[self._trailing_scan - 1].end > end
        ):
            self._trailing_scan -= 1
            clause = clauses[self._trailing_scan]
            tail = max(clause.start, clause.end - 48)
            found = self._cues.trailing_report.search(self._text, tail, clause.end)
            if found is not None:
                self._trailing = found.start()  # the last one: the clauses after hold none
        return self._trailing >= end

    def _displaced(self, start: int) -> bool:
        """Version 5: a scope cue (another environment or time) anywhere in the phrase's clause
        or the clauses a parenthetical interrupted, or a clause before it that is nothing but
        scope ("In staging, X is missing")."""
        index = self._folded_clause_index(start)
        clause = self.clauses[index]
        if self._cue_before(self._scopes, clause.start, clause.end) or (
            clause.continues is not None and self._continued_has(self._scopes, clause.continues)
        ):
            return True
        if self._scope_prefaced is None:
            self._scope_prefaced = self._after_first_preface(
                self._cues.scope_only, self._cues.scope_filler, "scope_only", colon_only=False
            )
        return index >= self._scope_prefaced

    def _framed(self, start: int) -> bool:
        """Version 5: a clause before the phrase's, ended by a colon, semicolon or dash, that
        is nothing but a framing label ("Candidate cause:", "False lead:", "Title:"); or the
        phrase in that label itself."""
        if self._framed_from is None:
            self._framed_from = self._after_first_preface(
                self._cues.framing_preface,
                self._cues.framing_filler,
                "framing_preface",
                colon_only=True,
            )
        # the label's own words are no finding either ("Wrong guess: X is wrong", round 14)
        return self._folded_clause_index(start) >= self._framed_from - 1

    def _after_first_preface(
        self, cue: re.Pattern[str], filler: frozenset[str], test: str, *, colon_only: bool
    ) -> int:
        """The index of the clause after the first preface of the sentence made of nothing but
        `cue`, `filler` words and numbers (len(clauses) + 1 when there is none); `test` names
        the cue's test (`AssertionTests`)."""
        if not self._could_match(test):
            return len(self.clauses) + 1
        for index, clause in enumerate(self.clauses[:-1]):
            mark = self._text[clause.end : clause.end + 3].lstrip()[:1]
            if colon_only and mark not in (":", ";", "—", "–", "-"):
                continue
            if self._only(clause, cue, filler):
                return index + 1
        return len(self.clauses) + 1

    def _only(self, clause: Clause, cue: re.Pattern[str], filler: frozenset[str]) -> bool:
        text = self._text[clause.start : clause.end]
        rest, found = cue.subn(" ", text)
        return bool(found) and all(
            word.casefold() in filler or word.isdigit() for word in _FIRST_WORDS.findall(rest)
        )

    def _under_preface(self, start: int) -> bool:
        """Version 4: another clause of the sentence is nothing but a hedge — "Just guessing:
        X is missing", "50% chance: …", "I'm not sure; …", "X is missing, I guess." — so the
        whole sentence is a guess (the clauses are read once per sentence)."""
        if self._prefaces is None:
            self._prefaces = (
                [index for index, clause in enumerate(self.clauses) if self._is_preface(clause)]
                if self._could_match("hedge_preface")
                else []
            )
        if not self._prefaces:
            return False
        index = self._folded_clause_index(start)
        return any(preface != index for preface in self._prefaces)

    def _is_preface(self, clause: Clause) -> bool:
        """A hedge cue (`hedge_prefaces`) with nothing beside it but filler words and numbers."""
        cues = self._cues
        text = self._text[clause.start : clause.end]
        rest, found = cues.hedge_preface.subn(" ", text)
        if not found:
            return False
        return all(
            word.casefold() in cues.hedge_preface_filler or word.isdigit()
            for word in _FIRST_WORDS.findall(rest)
        )

    def _is_denial(self, clause: Clause) -> bool:
        """A clause that is nothing but a denial, alone (", or not.") or read with the word
        that opened it ("— as if.", ", which is false"); version 5: a self-correction (", but I
        was wrong") or a verdict of rejection ("— excluded after checking")."""
        cues = self._cues
        if cues.self_correction.fullmatch(self._text, clause.start, clause.end) or (
            cues.verdict.match(self._text, clause.start, clause.end)
        ):
            return True
        first = _FIRST_WORDS.search(self._text, clause.start, clause.end)
        if first is not None and first.group().casefold() in cues.denial_openers:
            span = (self._text, clause.start, clause.end)
            if cues.bare_denial.fullmatch(*span) or cues.truth_denial_clause.fullmatch(*span):
                return True
        if clause.opener and clause.opener.split()[0] in cues.denial_openers:
            text = f"{clause.opener} {self._text[clause.start : clause.end]}"
            return bool(
                cues.bare_denial.fullmatch(text) or cues.truth_denial_clause.fullmatch(text)
            )
        return False

    def _aims_back(self, clause: Clause) -> bool:
        """A clause that is nothing but a verb of rejection aimed back at what was said ("…,
        dismissing that as the reason", "…, ruling that out", "…, which I reject"): it rejects
        the phrase before it in its sentence, whatever clause word follows it ("as the
        reason")."""
        cues = self._cues
        if cues.aimed_back.fullmatch(self._text, clause.start, clause.end):
            return True
        return clause.opener in cues.relative_openers and (
            cues.aimed_back_relative.fullmatch(self._text, clause.start, clause.end) is not None
        )

    def _negates_next(self, index: int) -> bool:
        """Version 5: a bare denial that a clause word follows at once negates that clause, not
        the phrase before it ("X is missing, not because of the disk")."""
        following = index + 1
        return following < len(self.clauses) and (
            self.clauses[following].opener_start == self.clauses[index].end
        )

    def _denied_after(self, start: int, end: int) -> bool:
        """Version 3: the sentence denies the phrase after it — a later clause that is nothing
        but a denial ("SMTP_PORT is missing — not."), a report by nobody after it ("…, said
        nobody"), or its own clause ending by calling it untrue ("… is not true")."""
        index = self._folded_clause_index(start)
        last_clause = self._last_denial_from(index)
        if self._last_report is None:
            reports = (
                list(self._cues.denial_report.finditer(self._text, self._start, self._end))
                if self._could_match("denial_report")
                else []
            )
            self._last_report = reports[-1].start() if reports else -1
        last_report = self._last_report
        if last_clause > index or last_report >= end:
            return True
        if last_clause == index and self._cues.self_correction.fullmatch(
            self._text, self.clauses[index].start, self.clauses[index].end
        ):
            return True  # version 5: the phrase is the self-correction's ("…, but I was wrong")
        predicate = self._truth_at_end.get(index)
        if predicate is None:
            clause = self.clauses[index]
            found = (
                self._cues.truth_denial_at_end.search(self._text, clause.start, clause.end)
                if self._could_match("truth_denials")
                else None
            )
            predicate = found.start() if found else -1
            self._truth_at_end[index] = predicate
        return predicate >= end

    def _last_denial_from(self, index: int) -> int:
        """The last clause that is nothing but a denial or a rejection aimed back (`_is_denial`,
        `_aims_back`) when it is at or after clause `index`, else -1. The clauses are read from
        the sentence's end, each at most once, and only as far back as a phrase asks: the last
        such clause is all `_denied_after` needs, and a phrase in the last clause asks about no
        other."""
        while self._last_denial < 0 and self._denial_scan > index:
            self._denial_scan -= 1
            at = self._denial_scan
            clause = self.clauses[at]
            if self._aims_back(clause) or (self._is_denial(clause) and not self._negates_next(at)):
                self._last_denial = at
        return self._last_denial

    def _reported(self, start: int) -> bool:
        """A report cue ("claimed", "reads") before the phrase, with no clause word between
        them: punctuation does not end what is reported ("The alert reads: X is missing"), a
        clause word does ("X reads SMTP_PORT, but smtp-config lacks it")."""
        if self._report_scope is None:
            # for each clause, the nearest clause at or before it that a clause word opened
            # (one pass per sentence: a walk back per phrase is quadratic in a comma list)
            scope: list[int] = []
            for index, clause in enumerate(self.clauses):
                if index == 0 or clause.opener:
                    scope.append(index)
                elif (
                    index >= 2
                    and self.clauses[index - 1].opener in _RELATIVE_OPENERS
                    and "," in clause.joints
                ):
                    # ", which notification-service reads via …, is not defined": the relative
                    # clause set off by commas is an aside; the report cue inside it governs
                    # nothing after it (SI red team 31, H2)
                    scope.append(scope[index - 2])
                    relative = self.clauses[index - 1]
                    self._report_asides[index] = (relative.opener_start, clause.start)
                else:
                    scope.append(scope[-1])
                    if index - 1 in self._report_asides:
                        self._report_asides[index] = self._report_asides[index - 1]
            self._report_scope = scope
        at = self._folded_clause_index(start)
        since = self.clauses[self._report_scope[at]].start
        skipped = self._report_asides.get(at)
        if skipped is not None:
            return self._cue_before(self._reports, since, skipped[0]) or self._cue_before(
                self._reports, skipped[1], start
            )
        return self._cue_before(self._reports, since, start)

    def has_cause_cue(self, clause_index: int) -> bool:
        """An unwithheld cause phrase ("the root cause", "caused by") in the clause (each
        clause read once, however many identifiers it names)."""
        known = self._cause_cues.get(clause_index)
        if known is None:
            clause = self.clauses[clause_index]
            known = (
                self._could_match("cause")
                and any(
                    self._blocking(match.start(), match.end()) is None
                    for match in self._cues.cause.finditer(self._text, clause.start, clause.end)
                )
            ) or self._opened_by_cause(clause)
            self._cause_cues[clause_index] = known
        return known

    def _opened_by_cause(self, clause: Clause) -> bool:
        """Version 5: a cause phrase that begins with the clause word opening the clause
        ("…, because of ledger-exporter"), unless a negation stands right before that word
        ("not because of …"); read as the clause's own (its first position)."""
        if clause.opener_start < 0:
            return False
        found = self._cues.cause.match(self._text, clause.opener_start, clause.end)
        if found is None or found.end() <= clause.start:
            return False
        if self._cue_before(
            self._negations, max(self._start, clause.opener_start - 8), clause.opener_start
        ):
            return False
        return self._blocking(clause.start, found.end()) is None

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

    def retracts(self) -> bool:
        """The sentence opens by taking back the one before it ("That statement is false.")."""
        return self._cues.retraction.match(self._text, self._start, self._end) is not None

    def text(self) -> str:
        return self._original[self.start : self.end]


__all__ = [
    "AssertionCues",
    "BlockingRule",
    "Clause",
    "FoldedText",
    "SentenceReading",
    "WordGameCues",
    "fold_character",
    "renders_as_nothing",
]
