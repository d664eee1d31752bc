"""Statements named but not made (docs/si-scoring.md §11, "Round 13: named but not made").

The strict reading (a provebench registry extension beside SI §2.2, never a change to it)
withholds a deviation phrase that its sentence does not assert, and a dismissal of C-DA-003's
misleading signal that its sentence does not make. These rules read, each by class of language,
what the older lists miss:

* `retracted_after` — a later clause of the sentence, or the next sentence, disowns it: "…, or
  rather it does not", "…, I'm lying", "…; the opposite is true", "…, or is it.", "…; I cannot
  confirm it though", "… — not!", "Then again, it might (not) be.";
* `non_assertive` — the phrase said in a mood other than a statement of what is: the future
  ("will have the wrong value after the next deploy"), a wish ("I want X to be missing"), an
  imperative opening ("Make sure X is missing"), fiction ("In my dream, …"), a bet ("I'd bet
  …"), odds ("… with 50% probability") or a quiz ("True or false.");
* `negating_context` — a heading that negates the list items under it ("Things that are NOT the
  cause:", "Ruled out:") or a table row whose cell is a verdict of rejection ("| … | rejected |");
* `alternative_joined` — the factor joined to another key as an alternative by the connective
  itself: "X and/or Y", "X/Y" (two keys), "One of X, Y";

and, for a dismissal of the misleading signal (`signal_dismissed`):

* a double negation ("not NOT the cause", "It would be wrong to say … is not the cause"), a
  doubt or a report governing it ("I am not sure …", "Those who say … are mistaken") — the
  dismissal is not made;
* the signal endorsed by ellipsis after a negated dismissal ("X is not the cause. Y is.", where
  Y names the same misleading deviation) or by a causative ("… is also making user-service
  crash").

Honest phrasings are kept by the rules' shape: a trailing clause disowns only when it ends the
sentence ("…, or rather it does not match 6379" is a statement); the future and a wish only
count in the phrase's own clause ("add it back or payments-api will not start" is said of the
symptom); a heading governs only the list items directly under it; a slash joins two keys only
("user-service-config/SESSION_STORE_PORT" is a path).

Every rule reads one sentence (and the one after it) by regular expressions over its own range,
after a substring test that most answers fail: linear in the answer.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from provebench._lazy_pattern import TextPattern, lazy_pattern
from provebench.si.primitives._disowning import (
    disowning_label,
    disowning_sentence,
    disowning_tails,
    may_disown,
    tail_over,
)

WithdrawalRule = Literal[
    "retracted_after", "non_assertive", "negating_context", "alternative_joined"
]

_I = re.IGNORECASE
_APOSTROPHE = "['’]"

# --- `retracted_after` -----------------------------------------------------------------------
# What a clause that disowns the statement before it says (the whole clause, to its end)
_DISOWNING = (
    r"(?:or\s+rather\s*,?\s*(?:(?:it|this|that|they|he|she)\s+)?"
    r"(?:(?:is|was|are|were|does|did|do|has|have|had)\s*)?(?:not\b|n['’]?t\b)(?:\s+(?:be|have|do))?"
    r"|I\s*(?:['’]m|am)\s+(?:just\s+|only\s+)?(?:lying|joking|kidding|making\s+(?:this|it|that)\s+up)"
    r"|I\s+lie|(?:that|this)\s+(?:is|was)\s+a\s+lie"
    r"|(?:quite\s+)?the\s+(?:opposite|reverse|contrary)(?:\s+is\s+(?:true|the\s+case))?"
    r"|or\s+(?:is|was|does|did|has|are|were)\s+(?:it|they|that|this|he|she)(?:\s+not)?"
    r"|or\s+(?:isn|wasn|doesn|didn|hasn|aren)['’]?t\s+(?:it|they|that|this)"
    r"|(?:but\s+)?I\s+(?:cannot|can['’]?t|can\s+not|could\s+not|couldn['’]?t|am\s+unable\s+to"
    r"|am\s+not\s+able\s+to)\s+(?:confirm|verify|prove|vouch\s+for|be\s+sure\s+of|stand\s+by"
    r"|rule\s+out|rule|say\s+for\s+sure)(?:\s+(?:it|this|that|any\s+of\s+(?:it|this|that)))?(?:\s+out)?"
    r"|(?:then\s+again\s*,?\s*)?(?:it|this|that|they|he|she)\s+(?:might|may|could)"
    r"(?:\s+not|n['’]t)?(?:\s+(?:be|have|do))?(?:\s+after\s+all)?"
    r")"
)
_TAIL = (
    r"(?:\s*,?\s*(?:though|however|either|yet|after\s+all|honestly|to\s+be\s+honest))?"
    r"\s*[.!?…)\]]*\s*$"
)
# a later clause of the phrase's sentence: a clause boundary, then nothing but a disowning
_TRAILING = lazy_pattern(
    r"(?:[,;:—–(]|\s-{1,2}\s|\b(?:but|and|though|although)\b)\s*(?:(?:but|and|though)\s+)?"
    rf"(?:{_DISOWNING}|not|nope){_TAIL}",
    _I,
)
# the next sentence, whole: a disowning after an optional filler ("Then again, …", "Well, …")
_NEXT_DISOWNING = lazy_pattern(
    r"\W*(?:(?:then\s+again|but\s+then\s+again|on\s+the\s+other\s+hand|well|honestly|actually)"
    rf"\s*[,:]?\s*)?{_DISOWNING}{_TAIL}",
    _I,
)
_TRAILING_WORDS = (
    "rather",
    "lying",
    "joking",
    "kidding",
    "making",
    "lie",
    "opposite",
    "reverse",
    "contrary",
    " or ",
    "confirm",
    "verify",
    "prove",
    "vouch",
    "sure",
    "stand by",
    "rule",
    "might",
    "may",
    "could",
    "not",
    "nope",
)

# --- `non_assertive` -------------------------------------------------------------------------
# in the phrase's clause, before it: the future, a wish
_FUTURE = lazy_pattern(r"\b(?:will|shall|gonna|(?:is|are|am)\s+going\s+to)\b|['’]ll\b", _I)
_VOLITION = lazy_pattern(
    r"\b(?:want|wants|wanted|wish|wishes|wished|hope|hopes|hoped|(?:would|['’]d)\s+(?:like|love"
    r"|prefer)|prefer|prefers|intend|intends)\b",
    _I,
)
# at the start of the phrase's sentence: an imperative
_IMPERATIVE = lazy_pattern(
    r"[\W_]*(?:please\s+)?(?:make\s+sure|ensure|be\s+sure|see\s+to\s+it|double[-\s]?check"
    r"|verify|confirm|check|let['’]?s\s+(?:say|assume|pretend|make\s+sure)|let\s+us\s+(?:say"
    r"|assume|pretend))\b",
    _I,
)
# before the phrase in its sentence: fiction, a bet
_FICTION = lazy_pattern(
    r"\b(?:in\s+(?:my|a|your|his|her|our|their|the|this|that)\s+(?:wildest\s+)?(?:dreams?"
    r"|nightmares?|fantas(?:y|ies)|imagination|novel|story|fiction|game|movie|film|play"
    r"|fairy\s*tale|daydream)|(?:I|we)\s+(?:dreamt|dreamed|imagined|daydreamed)|once\s+upon\s+a"
    r"\s+time|in\s+fiction|make[-\s]believe)\b",
    _I,
)
_BET = lazy_pattern(
    r"\b(?:bet|bets|betting|wager|wagering|gamble|my\s+money\s+is\s+on|odds\s+are)\b", _I
)
# anywhere in the phrase's sentence: odds below certainty, a quiz
_ODDS = lazy_pattern(
    r"\bwith\s+(?:a\s+|an\s+)?(?:\d{1,2}(?:\.\d+)?\s*(?:%|percent\b|per\s+cent\b)|low|some|moderate"
    r"|fair|even|middling|50/50|fifty[-\s]fifty)\s*(?:probability|likelihood|chance|odds"
    r"|confidence|certainty)\b|\b\d{1,2}(?:\.\d+)?\s*(?:%|percent\b)\s*(?:probability|likelihood"
    r"|chance|likely|sure|confident|certain)\b|\b(?:fifty[-\s]fifty|50/50|a\s+coin\s+(?:toss"
    r"|flip))\b",
    _I,
)
_QUIZ = lazy_pattern(
    r"\b(?:quiz|trivia|exam\s+question|test\s+question|true\s+or\s+false|false\s+or\s+true"
    r"|fact\s+or\s+fiction|multiple\s+choice)\b",
    _I,
)
_NEXT_QUIZ = lazy_pattern(
    r"\W*(?:true\s+or\s+false|false\s+or\s+true|fact\s+or\s+fiction|right\s+or\s+wrong)\W*$", _I
)
# every cue of the class at once (`non_assertive` reads the sentence with it first)
_MOOD_ANY = lazy_pattern(
    "|".join(
        f"(?:{pattern.pattern})" for pattern in (_FUTURE, _VOLITION, _FICTION, _BET, _ODDS, _QUIZ)
    ),
    _I,
)
_MOOD_WORDS = (
    "will",
    "shall",
    "gonna",
    "going to",
    "'ll",
    "’ll",
    "want",
    "wish",
    "hope",
    "like",
    "love",
    "prefer",
    "intend",
    "sure",
    "ensure",
    "see to",
    "check",
    "verify",
    "confirm",
    "let",
    "dream",
    "nightmare",
    "fantas",
    "imagin",
    "novel",
    "story",
    "fiction",
    "game",
    "movie",
    "film",
    "play",
    "fairy",
    "once upon",
    "believe",
    "bet",
    "wager",
    "gamble",
    "money",
    "odds",
    "%",
    "percent",
    "per cent",
    "with ",
    "50/50",
    "fifty",
    "coin",
    "quiz",
    "trivia",
    "question",
    "true or",
    "false or",
    "fact or",
    "multiple choice",
)

# --- `negating_context` ----------------------------------------------------------------------
_LIST_ITEM = lazy_pattern(r"[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]")
_NEGATING_HEADING = lazy_pattern(
    r"\b(?:not\s+(?:the\s+|a\s+)?(?:causes?|culprits?|problems?|issues?|reasons?|it|relevant"
    r"|related|responsible|to\s+blame)|ruled\s+out|rule[ds]?\s+out|rejected|excluded|dismissed"
    r"|discarded|eliminated|red\s+herrings?|false\s+leads?|dead\s+ends?|non[-\s]?causes?"
    r"|innocent|cleared|exonerated|unrelated|irrelevant|myths?|debunked|disproven|refuted"
    r"|what\s+it\s+is\s+not)\b",
    _I,
)
_REJECTING_CELL = frozenset(
    {
        "rejected",
        "ruled out",
        "excluded",
        "dismissed",
        "discarded",
        "eliminated",
        "refuted",
        "disproven",
        "disproved",
        "debunked",
        "no",
        "false",
        "wrong",
        "invalid",
        "unlikely",
        "not the cause",
        "not a cause",
        "not it",
        "red herring",
        "✗",
        "✘",
        "❌",
    }
)
_CELL_MARKUP = " \t*_~`"

# --- `alternative_joined` --------------------------------------------------------------------
_AND_OR = lazy_pattern(r"\band\s*/\s*or\b", _I)
_KEY_SHAPED = lazy_pattern(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_SLASH_AFTER = lazy_pattern(r"\s*/\s*([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b")
_SLASH_BEFORE = lazy_pattern(r"\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\s*/\s*$")
_ONE_OF = lazy_pattern(r"\b(?<!none\s)(?<!not\s)(?:one|either|any)\s+of\b", _I)
_KEY_TOKEN = lazy_pattern(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")
_AND_OR_REACH = 80
_ONE_OF_REACH = 60


@dataclass(frozen=True)
class Withdrawal:
    """Why a sentence does not make a statement it names, and the words that say so."""

    rule: WithdrawalRule
    detail: str


@dataclass(frozen=True)
class SentenceRange:
    """A sentence by its offsets, and the two after it (None at the end)."""

    start: int
    end: int
    next_start: int | None = None
    next_end: int | None = None
    # the sentence after the next one, which a retraction naming what was said may be
    # (`_disowning`: "X is missing. Logs are noisy. None of the above is true.")
    later_start: int | None = None
    later_end: int | None = None


_NOT_FOUND = -1


@functools.lru_cache(maxsize=4)
def _may_hold(text: str) -> tuple[bool, bool, bool]:
    """Whether `text` holds a word a trailing disowning clause needs, one a mood cue needs, and
    one a disowning label, tail or later sentence needs. Asked once per answer text: the strict
    reading makes a `ChannelWithdrawals` per rule that reads it, over the same text."""
    lower = text.lower()
    return (
        any(word in lower for word in _TRAILING_WORDS),
        any(word in lower for word in _MOOD_WORDS),
        may_disown(lower),
    )


class ChannelWithdrawals:
    """The withdrawal rules over one channel's text. `structure` is the text as written (list
    markers and table bars kept: the reader's text blanks them), same offsets as `text`.

    Each scan is made once per sentence, clause or line and its answer kept, so that many
    phrases in one long sentence cost one scan, not one apiece: linear in the answer."""

    def __init__(self, text: str, structure: str) -> None:
        self.text = text
        self.structure = structure
        self._trailing_may, self._mood_may, self._disowning_may = _may_hold(text)
        self._structure_may = "|" in structure or ":" in structure or "#" in structure
        # each sentence's label, tails and verdict read once, whatever its phrases
        self._labels: dict[int, tuple[int, str] | None] = {}
        self._tails: dict[int, list[tuple[int, str]]] = {}
        self._verdicts: dict[tuple[int, bool], tuple[str | None, bool]] = {}
        self._found: dict[tuple[str, int], tuple[int, int, str]] = {}
        self._line_starts: list[int] | None = None
        self._heading_of: dict[int, int | None] = {}

    def _first(
        self, name: str, pattern: TextPattern, start: int, end: int, anchored: bool = False
    ) -> tuple[int, int, str]:
        """The first match of `pattern` in `[start, end)` (at `start` when anchored), once per
        (rule, start): (start, end, words), or (-1, -1, "")."""
        key = (name, start)
        if key not in self._found:
            found = (pattern.match if anchored else pattern.search)(self.text, start, end)
            self._found[key] = (
                (_NOT_FOUND, _NOT_FOUND, "")
                if found is None
                else (found.start(), found.end(), found.group())
            )
        return self._found[key]

    # -- a statement taken back -----------------------------------------------------------
    def retracted_after(
        self, phrase_start: int, phrase_end: int, sentence: SentenceRange
    ) -> Withdrawal | None:
        """A later clause of the sentence or the next sentence that disowns it (module
        docstring)."""
        if not self._trailing_may:
            return None
        at, _end, words = self._first("trailing", _TRAILING, sentence.start, sentence.end)
        if 0 <= at < phrase_end:
            # the first one starts before the phrase: one after it, in what is left (a
            # disowning clause ends the sentence, so what is left is short)
            found = _TRAILING.search(self.text, phrase_end, sentence.end)
            at, words = (_NOT_FOUND, "") if found is None else (found.start(), found.group())
        if at >= phrase_end:
            return Withdrawal(
                "retracted_after", f"{_shown(words)!r} after it takes the statement back"
            )
        if sentence.next_start is not None and sentence.next_end is not None:
            at, _end, words = self._first(
                "next", _NEXT_DISOWNING, sentence.next_start, sentence.next_end, anchored=True
            )
            if at >= 0:
                return Withdrawal(
                    "retracted_after", f"the next sentence {_shown(words)!r} takes it back"
                )
        return None

    # -- a statement labelled, tailed or followed by a verdict that disowns it ---------------
    def disowned(
        self, phrase_start: int, phrase_end: int, sentence: SentenceRange
    ) -> Withdrawal | None:
        """A verdict that calls the statement false or sets it aside (`_disowning`): a label
        opening its sentence, a tail ending it, the next sentence, or the one after that when
        it names what it judges as what was said."""
        if not self._disowning_may:
            return None
        text = self.text
        if sentence.start not in self._labels:
            self._labels[sentence.start] = disowning_label(text, sentence.start, sentence.end)
        label = self._labels[sentence.start]
        if label is not None and phrase_start <= label[0]:
            return Withdrawal("negating_context", f"the label {_shown(label[1])!r} disowns it")
        if sentence.start not in self._tails:
            self._tails[sentence.start] = disowning_tails(text, sentence.start, sentence.end)
        tails = self._tails[sentence.start]
        tail = tail_over(text, sentence.start, tails, phrase_start, phrase_end)
        if tail is not None:
            return Withdrawal("retracted_after", f"{_shown(tail)!r} after it disowns it")
        following = (
            (sentence.next_start, sentence.next_end, True),
            (sentence.later_start, sentence.later_end, False),
        )
        for start, end, next_one in following:
            if start is None or end is None:
                break
            if (start, next_one) not in self._verdicts:
                self._verdicts[(start, next_one)] = (
                    disowning_sentence(text, start, end, next_one=next_one),
                    text[start:end].rstrip().endswith(("?", "¿", "‽")),
                )
            verdict, question = self._verdicts[(start, next_one)]
            if verdict is not None:
                return Withdrawal(
                    "retracted_after", f"the sentence {_shown(verdict)!r} after it disowns it"
                )
            if question:
                break  # a verdict after a question answers the question
        return None

    # -- a statement not made in the indicative ---------------------------------------------
    def non_assertive(
        self, clause: tuple[int, int], phrase_start: int, sentence: SentenceRange
    ) -> Withdrawal | None:
        """The phrase in the future, wished, commanded, dreamt, bet on, given odds or quizzed
        (module docstring)."""
        if not self._mood_may:
            return None
        # one scan of the sentence for any cue of the class first: most sentences hold none
        if (
            self._first("mood", _MOOD_ANY, sentence.start, sentence.end)[0] < 0
            and self._first("command", _IMPERATIVE, sentence.start, sentence.end, True)[0] < 0
        ) and (
            sentence.next_start is None
            or sentence.next_end is None
            or self._first("next quiz", _NEXT_QUIZ, sentence.next_start, sentence.next_end, True)[0]
            < 0
        ):
            return None
        before_in_clause = (
            ("future", _FUTURE, "in the future tense"),
            ("wish", _VOLITION, "wished for"),
        )
        for name, pattern, what in before_in_clause:
            at, _end, words = self._first(name, pattern, clause[0], clause[1])
            if 0 <= at < phrase_start:
                return Withdrawal("non_assertive", f"{_shown(words)!r}: {what}")
        in_sentence = (
            ("fiction", _FICTION, "placed in a fiction", True),
            ("bet", _BET, "bet on", True),
            ("odds", _ODDS, "given odds below certainty", False),
            ("quiz", _QUIZ, "set as a quiz", False),
        )
        for name, pattern, what, before_only in in_sentence:
            at, _end, words = self._first(name, pattern, sentence.start, sentence.end)
            if at >= 0 and (not before_only or at < phrase_start):
                return Withdrawal("non_assertive", f"{_shown(words)!r}: {what}")
        at, end, words = self._first(
            "command", _IMPERATIVE, sentence.start, sentence.end, anchored=True
        )
        if at >= 0 and end <= phrase_start:
            return Withdrawal("non_assertive", f"{_shown(words)!r}: a command")
        if sentence.next_start is not None and sentence.next_end is not None:
            at, _end, words = self._first(
                "next quiz", _NEXT_QUIZ, sentence.next_start, sentence.next_end, anchored=True
            )
            if at >= 0:
                return Withdrawal("non_assertive", f"the next sentence {_shown(words)!r}: a quiz")
        return None

    # -- a statement under a negating heading or verdict ------------------------------------
    def _line(self, offset: int) -> tuple[int, int]:
        if self._line_starts is None:
            self._line_starts = [0, *(found.end() for found in _NEWLINE.finditer(self.structure))]
        starts = self._line_starts
        at = bisect_right(starts, offset) - 1
        end = starts[at + 1] - 1 if at + 1 < len(starts) else len(self.structure)
        return starts[at], end

    def negating_context(self, offset: int) -> Withdrawal | None:
        """The line holding `offset` is a list item under a negating heading, or a table row
        with a cell that rejects it (module docstring)."""
        if not self._structure_may:
            return None
        line_start, line_end = self._line(offset)
        line = self.structure[line_start:line_end]
        if line.lstrip().startswith("|"):
            for cell in line.strip().strip("|").split("|"):
                verdict = cell.strip(_CELL_MARKUP).lower().rstrip(".")
                if verdict in _REJECTING_CELL:
                    return Withdrawal(
                        "negating_context", f"its table row's verdict {verdict!r} rejects it"
                    )
            return None
        if not _LIST_ITEM.match(line):
            return None
        heading = self._heading(line_start)
        if heading is None:
            return None
        text = self.structure[heading : self._line(heading)[1]]
        if _NEGATING_HEADING.search(text) is None:
            return None
        return Withdrawal(
            "negating_context",
            f"a list item under the heading {_shown(text.strip())!r}, which negates its items",
        )

    def _heading(self, line_start: int) -> int | None:
        """The start of the heading line over the list item starting at `line_start`: the line
        before the run of items it belongs to, when it ends with a colon or is a Markdown
        heading (each line's answer kept: linear over a long list)."""
        if line_start in self._heading_of:
            return self._heading_of[line_start]
        heading: int | None = None
        if line_start > 0:
            before_start, before_end = self._line(line_start - 1)
            before = self.structure[before_start:before_end]
            if before.strip() and _LIST_ITEM.match(before):
                heading = self._heading(before_start)
            elif before.rstrip().rstrip("*_ ").endswith(":") or before.lstrip().startswith("#"):
                heading = before_start
        self._heading_of[line_start] = heading
        return heading

    # -- alternatives by the connective -----------------------------------------------------
    def alternative_joined(
        self,
        factor_start: int,
        factor_end: int,
        factor: str,
        sentence_start: int,
        sentence_end: int,
    ) -> Withdrawal | None:
        """The factor joined to another key as an alternative by "and/or", a slash or "one of"
        (module docstring); each test reads a bounded window around the factor."""
        text = self.text
        low = max(sentence_start, factor_start - _AND_OR_REACH)
        high = min(sentence_end, factor_end + _AND_OR_REACH)
        if "/" in text[low:high] and (found := _AND_OR.search(text, low, high)) is not None:
            return Withdrawal(
                "alternative_joined", f"{found.group()!r} offers the factor as an alternative"
            )
        folded = factor.casefold()
        if _KEY_SHAPED.fullmatch(text, factor_start, factor_end):
            after = _SLASH_AFTER.match(text, factor_end, min(sentence_end, factor_end + 64))
            before = _SLASH_BEFORE.search(
                text, max(sentence_start, factor_start - 64), factor_start
            )
            for joined in (after, before):
                if joined is not None and joined.group(1).casefold() != folded:
                    return Withdrawal(
                        "alternative_joined",
                        f"{factor!r}/{joined.group(1)!r}: two keys offered as alternatives",
                    )
        reach = max(sentence_start, factor_start - _ONE_OF_REACH)
        if " of" in text[reach:factor_start].lower():
            for found in _ONE_OF.finditer(text, reach, factor_start):
                keys = {
                    key.group().casefold()
                    for key in _KEY_TOKEN.finditer(
                        text, found.end(), min(sentence_end, found.end() + 2 * _ONE_OF_REACH)
                    )
                }
                if folded in keys and len(keys) >= 2:
                    return Withdrawal(
                        "alternative_joined",
                        f"{found.group()!r} offers the factor as one of several keys",
                    )
        return None


_NEWLINE = lazy_pattern(r"\n")


def _shown(words: str) -> str:
    shown = " ".join(words.split())
    return shown if len(shown) <= 80 else shown[:79] + "…"


# --- a dismissal of the misleading signal (`signal_dismissed`) -------------------------------
_NEGATION_TOKEN = lazy_pattern(
    r"\b(?:not|never|no)\b|n['’]?t\b|\b(?:wrong|incorrect|false|mistaken|untrue)\s+to\s+say\b"
    r"|\b(?:not\s+true|untrue|false)\s+that\b",
    _I,
)
_DOUBT_BEFORE = lazy_pattern(
    r"\b(?:not\s+(?:sure|certain|convinced|confident)|unsure|uncertain|doubt\w*|hard\s+to\s+say"
    r"|wonder\w*|unclear)\b|\b(?:those|people|anyone|whoever|some|others|many)\s+(?:who\s+)?"
    r"(?:say|says|said|claim|claims|claimed|think|thinks|thought|believe|believes)\b",
    _I,
)
_JUDGED_AFTER = lazy_pattern(
    r"\s+(?:is|are|was|were)\s+(?:\w+\s+)?(?:mistaken|wrong|incorrect|lying|misinformed|confused"
    r"|misguided)\b",
    _I,
)
_CAUSATIVE = lazy_pattern(
    r"\b(?:mak(?:e|es|ing)|made|caus(?:e|es|ing|ed))\s+(?:\S+\s+){1,3}?(?:to\s+)?(?:crash\w*"
    r"|fail\w*|restart\w*|die|dies|dying|break\w*|go\s+down|stop\w*|hang\w*|loop\w*)\b",
    _I,
)
_SIGNAL_NEGATION = lazy_pattern(r"\b(?:not|never|no)\b|n['’]?t\b", _I)
_CLAUSE_OPENING = lazy_pattern(r"(?:[,;:—–(]|\s-{1,2}\s|\b(?:but|and|or|yet)\b)", _I)


class DismissalWithdrawals:
    """The dismissal rules over one channel's text (module docstring), each scan made once per
    clause or sentence and its answer kept: many cues or signal names in one long sentence cost
    one scan, not one apiece."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._negations: dict[int, list[int]] = {}
        self._doubt: dict[int, tuple[int, str]] = {}

    def withheld(
        self, clause: tuple[int, int], cue_start: int, cue_end: int, sentence: SentenceRange
    ) -> str | None:
        """Why a negated cause phrase or a dismissal phrase at `[cue_start, cue_end)` does not
        dismiss, or None: an even count of negations before it in its clause ("not NOT the
        cause", "It would be wrong to say … is not the cause"), a doubt or report before it in
        its clause ("I am not sure …", "Those who say …"; "I doubt the CPU matters: X is a red
        herring" doubts the CPU), a judgement of error right after it ("Those who say X is not
        the cause are mistaken")."""
        text = self.text
        if clause[0] not in self._negations:
            self._negations[clause[0]] = [
                found.start() for found in _NEGATION_TOKEN.finditer(text, clause[0], clause[1])
            ]
        count = bisect_left(self._negations[clause[0]], cue_start)
        if count >= 2 and count % 2 == 0:
            return f"{count} negations before it cancel"
        if clause[0] not in self._doubt:
            found = _DOUBT_BEFORE.search(text, clause[0], clause[1])
            self._doubt[clause[0]] = (
                (_NOT_FOUND, "") if found is None else (found.start(), found.group())
            )
        at, words = self._doubt[clause[0]]
        if 0 <= at < cue_start:
            return f"{_shown(words)!r} governs the dismissal"
        judged = _JUDGED_AFTER.match(text, cue_end, sentence.end)
        if judged is not None:
            return f"{_shown(judged.group())!r} judges the dismissal false"
        return None


# how far before a signal name the words opening its clause may reach, and after it a
# causative: an elided clause is a few words ("; but the configmap batch-config is.")
_LEAD_REACH = 64
_CAUSATIVE_REACH = 96


def elided_endorsement(
    text: str,
    span_start: int,
    span_end: int,
    sentence: SentenceRange,
    previous: Callable[[], SentenceRange | None],
) -> str | None:
    """The signal identifier at `[span_start, span_end)` endorsed as the cause: a clause that is
    nothing but it and a copula after a negated statement ("X is not the cause. Y is.", "…; Y
    is.", "… but Y is."), or a causative ("Y is also making user-service crash"). Each test
    reads a bounded window around the name (`previous` is asked only for an elided sentence)."""
    low = max(sentence.start, span_start - _LEAD_REACH)
    opening_at = low
    for found in _CLAUSE_OPENING.finditer(text, low, span_start):
        opening_at = found.start()
    opened = opening_at > low or low == sentence.start
    if (
        opened
        and _ELIDED_REST.fullmatch(text, span_end, sentence.end) is not None
        and _ELIDED_LEAD.fullmatch(text, opening_at, span_start) is not None
    ):
        said = (sentence.start, opening_at)
        if not text[sentence.start : opening_at].strip():
            before = previous()
            said = (0, 0) if before is None else (before.start, before.end)
        if _SIGNAL_NEGATION.search(text, *said) is not None:
            shown = _shown(text[opening_at : sentence.end])
            return f"{shown!r}: the cause predicate negated before is given to the signal"
    high = min(sentence.end, span_end + _CAUSATIVE_REACH)
    clause_end = _CLAUSE_END.search(text, span_end, high)
    end = high if clause_end is None else clause_end.start()
    found_causative = _CAUSATIVE.search(text, span_end, end)
    if found_causative is not None and (
        _SIGNAL_NEGATION.search(text, opening_at, found_causative.start()) is None
    ):
        return f"{_shown(found_causative.group())!r}: the signal named as what breaks the workload"
    return None


# how far after a bare "No," its negation may stand ("No, it is not the cause")
_ANSWER_REACH = 120
_ANSWER_NO = lazy_pattern(r"\s*(?:no|nope|nah)\s*(?:[.,:;!—–-]|$)", _I)


def answered_no(
    text: str,
    question: SentenceRange,
    cause: re.Pattern[str],
    dismissal: re.Pattern[str] | None,
) -> bool:
    """A question that asks whether the signal is the cause ("Is batch-processor the
    problem?") answered by a sentence opening with a bare "No": a dismissal. A question about
    a dismissal ("Is it a red herring? No.") answered no dismisses nothing."""
    if question.next_start is None or question.next_end is None:
        return False
    answer = _ANSWER_NO.match(text, question.next_start, question.next_end)
    if answer is None:
        return False
    # "No." alone, or "No, it is not …": a "No, it is." that turns back is no answer
    rest = text[answer.end() : min(question.next_end, answer.end() + _ANSWER_REACH)]
    if rest.strip(" .!\n") and _SIGNAL_NEGATION.search(rest) is None:
        return False
    if dismissal is not None and dismissal.search(text, question.start, question.end):
        return False
    return cause.search(text, question.start, question.end) is not None


_ELIDED_REST = lazy_pattern(
    r"(?:\s+in\s+[\w./-]+)?\s+(?:is|was|are|were|does|did)(?:\s+(?:too|also|instead|indeed|though))?"
    r"\s*[.!]*\s*",
    _I,
)
_ELIDED_LEAD = lazy_pattern(
    r"[\s,;:—–-]*(?:(?:but|and|or|yet)\s+)?(?:(?:the|its|their)\s+)?(?:(?:key|configmap|deployment"
    r"|service|pod|secret|variable)\s+)?(?:[\w-]+/)?",
    _I,
)
_CLAUSE_END = lazy_pattern(r"[,;:—–()]|\s-{1,2}\s")


__all__ = [
    "ChannelWithdrawals",
    "DismissalWithdrawals",
    "SentenceRange",
    "Withdrawal",
    "WithdrawalRule",
    "answered_no",
    "elided_endorsement",
]
