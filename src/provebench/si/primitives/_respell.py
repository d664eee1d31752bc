"""Words of the strict reading's cue lists spelled to slip past them, read as those words
(docs/si-scoring.md §11, "Round 14"; SI red team 14, W1 and W2).

The strict reading (a provebench registry extension beside SI §2.2, never a change to it) reads
its cues in the answer's fold (`_assertion.FoldedText`). Before the cues are matched, the fold
is respelled, each by class, never word by word:

* a negation spelled letter by letter with separators ("n-o-t", "n o t", "n.e.v.e.r") or with
  leetspeak digits ("n0t", "n3ver") is that negation; a symbol of negation before a word ("∅
  missing", "¬missing", "!missing") is "not";
* a tail in code or chat shorthand that takes back what it follows ("== false", "!= true",
  "/s", "j/k") is a clause of denial (", false", "sarcasm", "just kidding");
* a negation idiom that affirms ("No question: …", "There is no doubt that …", "Nobody can
  deny that …", "Not only is …", "(no joke)", "not kidding") is no negation, and no assertion
  either: it is struck out (round 15, H4). It was read as "indeed" until then, which made an
  affirmation of words that carry none and hid the label after it: "No doubt a wrong guess: X"
  read "indeed a wrong guess: X", "Not only is that false, X" read "indeed is that false, X";
  struck out, what is left is read as written (`_disowning` reads the label).

A code tail is code, not a denial, where a quotation or code span holds it together with its
left operand (`ready != true` in a quoted log line): the answer's own assertion is outside it
(round 15, H4). A span that holds nothing but the operator (X is missing `!= true`) still
denies.

A respelling only ever yields a cue word of negation or denial, or nothing, and only where the
whole word or idiom is found, so an answer without these spellings reads exactly as before: no
respelling creates an assertion or cancels a negation. Each pattern
is one regular-expression scan without nested repetition, linear in the answer, and runs only
where a substring it needs is present (most answers have none of them).
"""

from __future__ import annotations

import re
from typing import Final

from provebench._lazy_pattern import LazyPattern, lazy_pattern

_I = re.IGNORECASE
_WORD: Final = "A-Za-z0-9_'’-"
# The negations a respelled word may be (the `negation` cues of one word, strict-5.yaml).
_NEGATIONS: Final = (
    "not", "no", "never", "none", "nothing", "nor", "neither", "without", "cannot", "nobody"
)  # fmt: skip
_SEPARATORS: Final = r"[\s.\-_*/|+~·•]{1,3}"
_LEET_CLASS: Final = {"o": "0", "i": "1", "e": "3", "a": "4@", "s": "5$", "t": "7"}


def _letter(letter: str, *, leet: bool) -> str:
    """A character class for one letter in either case (and its leetspeak symbols)."""
    symbols = re.escape(_LEET_CLASS.get(letter, "")) if leet else ""
    return f"[{letter}{letter.upper()}{symbols}]"


def _negation_words(separator: str, *, leet: bool, shortest: int) -> LazyPattern:
    """The negations spelled letter by letter with `separator` between the letters, as whole
    words. Written to scan fast: case by character classes (no IGNORECASE), the first letter
    as one class the scan can skip to, the word start tested after it, and each alternative
    tied to its first letter by a lookbehind."""
    words = sorted((w for w in _NEGATIONS if len(w) >= shortest), key=len, reverse=True)
    firsts = sorted({word[0] for word in words})
    start = "[" + "".join(f"{c}{c.upper()}" for c in firsts) + "]"
    tails = "|".join(
        f"(?<={_letter(word[0], leet=False)})"
        + "".join(separator + _letter(letter, leet=leet) for letter in word[1:])
        for word in words
    )
    end = "[$@" + _WORD + "]" if leet else "[" + _WORD + "]"
    return lazy_pattern(f"{start}(?<!{end[:-1]}].)(?:{tails})(?!{end})")


# letters set apart by separators: "n-o-t", "n o t", "n.o.t", "n_o_t", "n*o*t"
_SPACED: Final = _negation_words(_SEPARATORS, leet=False, shortest=2)
# a negation of three letters or more with leetspeak digits or symbols for some letters:
# "n0t", "n3v3r", "n0th1ng", "n0b0dy"
_LEET_WORD: Final = _negation_words("", leet=True, shortest=3)
_LEET_LETTERS: Final = str.maketrans("013457$@", "oieastsa")
# a symbol of negation before a word
_SYMBOL: Final = lazy_pattern(r"[∅¬⊘](?=\s*[A-Za-z])|(?<![^\s(\[{])!(?=[A-Za-z])")
# code and chat tails that deny what they follow
_TAILS: Final = (
    (lazy_pattern(r"\s*(?:={2,3}\s*false|!={1,2}\s*true)\b", _I), ", false"),
    (lazy_pattern(rf"(?<![/{_WORD}])/s(?![/{_WORD}])", _I), "sarcasm"),
    (lazy_pattern(rf"(?<![/{_WORD}])j\s*/\s*k(?![/{_WORD}])", _I), "just kidding"),
)
# negation idioms that affirm what follows (W2): struck out, never read as an affirmation
_AFFIRMING: Final = lazy_pattern(
    rf"(?<![{_WORD}])(?=[tnwbiu])(?:"
    r"there\s*(?:is|'s|was)\s+no\s+(?:doubt|question|denying)(?:\s+(?:about\s+it|whatsoever))?"
    r"(?:\s+that)?"
    r"|no\s+(?:doubt|question)(?:\s+about\s+it)?|without\s+(?:a\s+|any\s+)?(?:doubt|question)"
    r"|beyond\s+(?:a\s+|any\s+)?(?:doubt|question)"
    r"|(?:nobody|no\s+one|no-one|none)\s+(?:can|could|would|will)\s*(?:not\s+)?deny(?:\s+that)?"
    r"|(?:it\s+)?(?:cannot|can't|can\s+not|could\s+not|couldn't)\s+be\s+denied(?:\s+that)?"
    r"|no\s+denying(?:\s+that)?|undeniably"
    # with the auxiliary it inverts ("Not only is X missing, …"): struck out, the rest is no
    # question
    r"|not\s+only(?:\s+(?:is|was|are|were|does|do|did|has|have|had))?"
    r"|(?:no|not\s+a|not)\s+(?:joke|joking|kidding|lie|lying))"
    rf"(?![{_WORD}])",
    _I,
)


# a substring of every affirming idiom, one of which must be present for the scan to find one
_AFFIRMING_NEEDS: Final = ("doubt", "question", "den", "only", "jok", "kidding", "lie", "lying")


def respellings(text: str) -> list[tuple[int, int, str]]:
    """The spans of `text` (an answer's fold) to read as another word, in text order and not
    overlapping: `(start, end, word)`."""
    found: list[tuple[int, int, str]] = []
    for match in _SPACED.finditer(text):
        word = re.sub(r"[^A-Za-z]+", "", match.group()).lower()
        found.append((match.start(), match.end(), word))
    if any(symbol in text for symbol in "013457$@"):
        for match in _LEET_WORD.finditer(text):
            if not match.group().isalpha():  # a negation written plainly is no respelling
                found.append(
                    (match.start(), match.end(), match.group().lower().translate(_LEET_LETTERS))
                )
    # the scans below run only where a substring they need is present (most answers lack it)
    lowered = text.lower()
    if "!" in text or not text.isascii():
        for match in _SYMBOL.finditer(text):
            follows = text[match.end() : match.end() + 1]
            found.append((match.start(), match.end(), "not " if follows.isalpha() else "not"))
    for (pattern, word), needed in zip(_TAILS, (("==", "!="), ("/s",), ("/",)), strict=True):
        if any(piece in lowered for piece in needed):
            found.extend(
                (match.start(), match.end(), word)
                for match in pattern.finditer(text)
                if not _operand_quoted(text, match.start())
            )
    if any(piece in lowered for piece in _AFFIRMING_NEEDS):
        found.extend((m.start(), m.end(), "") for m in _AFFIRMING.finditer(text))
    found.sort()
    kept: list[tuple[int, int, str]] = []
    for span in found:
        if not kept or span[0] >= kept[-1][1]:
            kept.append(span)
    return kept


# a quotation or code span on one line: backticks, straight or curly double quotes
_QUOTE_PAIRS = {"`": "`", '"': '"', "“": "”"}


def _operand_quoted(text: str, at: int) -> bool:
    """Whether the tail at `at` lies in a quotation or code span of its line that holds a
    left operand before it (`ready != true`): then it is code quoted, not the answer's
    denial. Reads the tail's line only (a tail is rare: linear in the answer)."""
    line_start = text.rfind("\n", 0, at) + 1
    for opening, closing in _QUOTE_PAIRS.items():
        before = text.count(opening, line_start, at)
        if opening == closing:
            inside = before % 2 == 1
            opened_at = text.rfind(opening, line_start, at)
        else:
            opened_at = text.rfind(opening, line_start, at)
            inside = opened_at > text.rfind(closing, line_start, at)
        line_end = text.find("\n", at)
        closed = text.find(closing, at, len(text) if line_end < 0 else line_end) >= 0
        if inside and closed and text[opened_at + 1 : at].strip():
            return True
    return False


def respell(text: str) -> tuple[str, list[int]] | None:
    """`text` respelled, and where each of its offsets (and its end) lands in the result; None
    when nothing is respelled."""
    spans = respellings(text)
    if not spans:
        return None
    pieces: list[str] = []
    to_respelled: list[int] = []
    position = 0
    length = 0
    for start, end, word in spans:
        pieces.append(text[position:start])
        to_respelled.extend(range(length, length + start - position))
        length += start - position
        pieces.append(word)
        to_respelled.extend([length] * (end - start))
        length += len(word)
        position = end
    pieces.append(text[position:])
    to_respelled.extend(range(length, length + len(text) - position + 1))
    return "".join(pieces), to_respelled


__all__ = ["respell", "respellings"]
