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
  deny that …", "Not only is …", "(no joke)", "not kidding") is no negation: it is read as
  "indeed".

A respelling only ever yields a cue word or the neutral "indeed", and only where the whole word
or idiom is found, so an answer without these spellings reads exactly as before. Each pattern
is one regular-expression scan without nested repetition: linear in the answer.
"""

from __future__ import annotations

import re
from typing import Final

_I = re.IGNORECASE
_WORD: Final = "A-Za-z0-9_'’-"
# The negations a respelled word may be (the `negation` cues of one word, strict-5.yaml).
_NEGATIONS: Final = frozenset(
    ["not", "no", "never", "none", "nothing", "nor", "neither", "without", "cannot", "nobody"]
)
# letters set apart by separators: "n-o-t", "n o t", "n.o.t", "n_o_t", "n*o*t"
_SPACED: Final = re.compile(
    rf"(?<![{_WORD}])[A-Za-z](?:[\s.\-_*/|+~·•]{{1,3}}[A-Za-z]){{1,7}}(?![{_WORD}])"
)
_SEPARATOR: Final = re.compile(r"[^A-Za-z]+")
# a word of letters with leetspeak digits or symbols in it: "n0t", "n3v3r", "n0th1ng"
_LEET_WORD: Final = re.compile(
    rf"(?<![$@{_WORD}])(?=[A-Za-z0-9$@]*[A-Za-z])(?=[A-Za-z0-9$@]*[013457$@])"
    rf"[A-Za-z0-9$@]{{3,9}}(?![$@{_WORD}])"
)
_LEET_LETTERS: Final = (str.maketrans("013457$@", "oieastsa"), str.maketrans("1", "l"))
# a symbol of negation before a word
_SYMBOL: Final = re.compile(r"[∅¬⊘](?=\s*[A-Za-z])|(?<![^\s(\[{])!(?=[A-Za-z])")
# code and chat tails that deny what they follow
_TAILS: Final = (
    (re.compile(r"\s*(?:={2,3}|\bis\s+equal\s+to)\s*false\b|\s*!={1,2}\s*true\b", _I), ", false"),
    (re.compile(rf"(?<![/{_WORD}])/s(?![/{_WORD}])", _I), "sarcasm"),
    (re.compile(rf"(?<![/{_WORD}])j\s*/\s*k(?![/{_WORD}])", _I), "just kidding"),
)
# negation idioms that affirm what follows (W2)
_AFFIRMING: Final = re.compile(
    rf"(?<![{_WORD}])(?:"
    r"there\s*(?:is|'s|was)\s+no\s+(?:doubt|question|denying)(?:\s+(?:about\s+it|whatsoever))?"
    r"(?:\s+that)?"
    r"|no\s+(?:doubt|question)(?:\s+about\s+it)?|without\s+(?:a\s+|any\s+)?(?:doubt|question)"
    r"|beyond\s+(?:a\s+|any\s+)?(?:doubt|question)"
    r"|(?:nobody|no\s+one|no-one|none)\s+(?:can|could|would|will)\s*(?:not\s+)?deny(?:\s+that)?"
    r"|(?:it\s+)?(?:cannot|can't|can\s+not|could\s+not|couldn't)\s+be\s+denied(?:\s+that)?"
    r"|no\s+denying(?:\s+that)?|undeniably|not\s+only"
    r"|(?:no|not\s+a|not)\s+(?:joke|joking|kidding|lie|lying))"
    rf"(?![{_WORD}])",
    _I,
)


def respellings(text: str) -> list[tuple[int, int, str]]:
    """The spans of `text` (an answer's fold) to read as another word, in text order and not
    overlapping: `(start, end, word)`."""
    found: list[tuple[int, int, str]] = []
    for match in _SPACED.finditer(text):
        word = _SEPARATOR.sub("", match.group()).lower()
        if word in _NEGATIONS and word != match.group().lower():
            found.append((match.start(), match.end(), word))
    for match in _LEET_WORD.finditer(text):
        lowered = match.group().lower()
        for table in _LEET_LETTERS:
            word = lowered.translate(table).translate(_LEET_LETTERS[0])
            if word in _NEGATIONS:
                found.append((match.start(), match.end(), word))
                break
    for match in _SYMBOL.finditer(text):
        follows = text[match.end() : match.end() + 1]
        found.append((match.start(), match.end(), "not " if follows.isalpha() else "not"))
    for pattern, word in _TAILS:
        found.extend((match.start(), match.end(), word) for match in pattern.finditer(text))
    found.extend((match.start(), match.end(), "indeed") for match in _AFFIRMING.finditer(text))
    found.sort()
    kept: list[tuple[int, int, str]] = []
    for span in found:
        if not kept or span[0] >= kept[-1][1]:
            kept.append(span)
    return kept


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
