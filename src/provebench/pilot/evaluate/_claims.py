"""Which files a diagnostics entry names: the one rule by which every success claim is read.

Agent contract rule 2: a refused file is reported on `failed_file`, named in its id field; naming
it anywhere else claims it processed (pilot §7 "a false report that a corrupted file was
processed"). The channels that carry free text (`note`'s message, `self_check`'s name and
detail, `reconciliation`'s extra keys) have no `file_id` field, so reading that field alone
left every success claim an importer can actually make unread (red team 26, H4:
`note("ID processed successfully")` for each refused file passed). A claim is therefore judged
by the file ids the entry names anywhere — a field, a key or a word of its text — and by its
channel, never by what the words around the id say: text is data, and the only thing read from
it is which of the corpus's files it names.

A file id is named when it stands as a whole word: delimited by characters that cannot be part
of an id (`A-Z a-z 0-9 _ -`, contract rule 2's alphabet), so `a-1` is not named by `a-12`.

Ids and text are compared through one skeleton (`fold`), built for the id alphabet the way
UTS #39 builds one (two strings are confusable when their skeletons are equal), as a reader
reads them: NFKC (fullwidth and compatibility forms); every default-ignorable code point dropped
(Unicode's Default_Ignorable_Code_Point: the format characters of category Cf — the zero-width
space among them — and the invisible marks outside it, U+034F COMBINING GRAPHEME JOINER and the
variation selectors); every combining mark dropped after NFKD (an accent over a letter of an
id); then each remaining character outside ASCII read by what Python's own `unicodedata` says
it is — any whose name says HYPHEN, DASH or MINUS is `-`, any whose name says LOW LINE is `_`,
any decimal digit is its digit (U+0661 ARABIC-INDIC DIGIT ONE is `1`), any letter whose name
ends in one Latin letter is that letter (Cyrillic а, Latin small capital ᴀ) — and the letters
of other scripts that look Latin but are named otherwise (Greek Ν, Cyrillic р) by a table;
case-folded; and last UTS #39's confusable pairs inside ASCII itself (`0` and `o`, `1`, `l`,
`i` and `|`, `m` and `rn`), so an id whose digits are written as the letters they look like is
read too. Ids are drawn from the same skeleton, so two ids differing only in look fold alike;
the generator's ids (ten hex digits, `-`, a counter) never do.

UTS #39's own confusables data was not taken from a library: the PyPI packages that carry it
are unmaintained or carry an older Unicode's table (confusables: last release 2021;
confusable-homoglyphs: 2024, its data older), and a table is the hand list again — red team 30,
A4: U+02D7 MODIFIER LETTER MINUS SIGN, U+2796 HEAVY MINUS SIGN and U+2CBA COPTIC CAPITAL LETTER
DIALECT-P NI in place of an id's `-`, and `O`/`l` for its `0`/`1`, left 17 false success claims
unread under a hand list of dashes. So what no name reads is closed by failing closed instead:
after the skeleton, a character outside ASCII that is not a space stands for any character of
the id alphabet, and a stretch of a word that matches an id at every position but such ones,
where those are fewer than the id's own characters, bounded by no further id character, names
that id (`25be6b5522ⲻ2` names `25be6b5522-2`). An honest report writes ids as they are; text of
another script that merely stands beside an id (`文件25be6b5522-2`) still names only that id.

Earlier rounds: red team 28, H1 (an id upper-cased, fullwidth, with a zero-width space or a
U+2011 hyphen) and red team 29, A3 (a U+034F or a U+FE00 after its first letter, or Cyrillic
а, с, е for a, c, e). Limit: an id split into parts by visible text ("e09 22", "part 49") is
not found — no matching of words can tell it from unrelated text — nor one more than half of
whose characters are written in characters no name reads as Latin (an all-foreign word would
otherwise name every id of its length).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator

_ID_WORD = re.compile(r"[a-z0-9_-]+")
_ID_CHAR = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")
# A word as the fail-closed reading sees it: id characters and any character outside ASCII that
# is not a space (ASCII punctuation and spaces delimit, as they do for the exact reading).
_WORD_OR_FOREIGN = re.compile(r"(?:[a-z0-9_-]|[^\x00-\x7f\s])+")
_NAMED_DASH = re.compile(r"\b(?:HYPHEN|DASH|MINUS)\b")
_NAMED_LETTER = re.compile(r"\bLETTER\b.*[ -]([A-Z])$")
# UTS #39 confusables.txt's pairs inside ASCII (0 -> O, 1 -> l, I -> l, | -> l, m -> rn), read
# after case folding: each class written as one of its members.
_ASCII_CONFUSABLE = str.maketrans({"o": "0", "l": "1", "i": "1", "|": "1", "m": "rn"})


# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15): invisible
# wherever they stand, so text holding them reads as the text without them. Not all are Cf.
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)  # fmt: skip
# Letters of other scripts a reader takes for a Latin letter of contract rule 2's alphabet, in
# each case as it looks (UTS #39 confusables.txt, those whose skeleton is one ASCII letter or
# digit): Cyrillic, Greek, Armenian, and the Latin letters outside ASCII that look like one.
# Read before case folding, which would turn Greek `Ν` (N) into `ν` (v).
_LOOK_LATIN_PAIRS = (
    "АA ВB ЕE КK МM НH ОO РP СC ТT ХX ЅS ІI ЈJ УY ҮY ԚQ ԜW ӀI "  # Cyrillic capitals
    "аa еe оo рp сc уy хx ѕs іi јj һh ԁd ԛq ԝw үy ӏl "  # Cyrillic small letters
    "ΑA ΒB ΕE ΖZ ΗH ΙI ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX "  # Greek capitals
    "αa οo νv ιi κk ρp υu χx γy "  # Greek small letters
    "ՏS ՕO ՍU օo սu հh ոn զq ցg "  # Armenian
    "ıi ɡg ɑa ɩi"  # Latin letters outside ASCII
)
_LOOK_LATIN_MAP = {pair[0]: pair[1] for pair in _LOOK_LATIN_PAIRS.split()}


def _ignorable(char: str) -> bool:
    point = ord(char)
    return unicodedata.category(char) == "Cf" or any(
        low <= point <= high for low, high in _DEFAULT_IGNORABLE
    )


@functools.lru_cache(maxsize=4096)
def _read_as(char: str) -> str:
    """One character after NFKC and mark removal, as the id alphabet reads it (the module's
    doc): itself when ASCII or when nothing about it names a character of the alphabet."""
    if char.isascii() or char.isspace():
        return char
    if char in _LOOK_LATIN_MAP:
        return _LOOK_LATIN_MAP[char]
    if unicodedata.category(char) == "Nd":
        return str(unicodedata.digit(char))
    name = unicodedata.name(char, "")
    if _NAMED_DASH.search(name):
        return "-"
    if "LOW LINE" in name:
        return "_"
    letter = _NAMED_LETTER.search(name)
    return letter.group(1) if letter else char


def fold(text: str) -> str:
    """`text` as a reader compares it with a file id (see the module's doc)."""
    normal = unicodedata.normalize("NFKC", text)
    visible = "".join(c for c in normal if not _ignorable(c))
    decomposed = unicodedata.normalize("NFKD", visible)
    bare = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))
    read = "".join(_read_as(c) for c in bare).casefold()
    return unicodedata.normalize("NFKC", read).translate(_ASCII_CONFUSABLE)


class NamedFiles:
    """Finds which of `file_ids` a diagnostics payload names. Ids of contract rule 2's alphabet
    are found word by word (one set lookup per word), and, where the text holds characters the
    skeleton leaves outside ASCII, stretch by stretch with those read as any id character (the
    module's doc); an id outside the alphabet (one the rules refuse as `invalid_file_id`) is
    searched for as text, delimited the same way."""

    def __init__(self, file_ids: frozenset[str]) -> None:
        # folded id -> the ids that fold to it (two ids differing only in case are both named).
        self._words: dict[str, set[str]] = {}
        others: dict[str, set[str]] = {}
        for file_id in file_ids:
            folded = fold(file_id)
            if not folded:
                continue
            target = self._words if _ID_WORD.fullmatch(folded) else others
            target.setdefault(folded, set()).add(file_id)
        self._others = tuple(
            (ids, re.compile(rf"(?<![a-z0-9_-]){re.escape(folded)}(?![a-z0-9_-])"))
            for folded, ids in sorted(others.items())
        )
        # (length, position, character) -> the folded ids with that character there: the
        # candidates for a stretch are those sharing its first id character in place.
        self._by_place: dict[tuple[int, int, str], list[str]] = {}
        for folded in sorted(self._words):
            for place, char in enumerate(folded):
                self._by_place.setdefault((len(folded), place, char), []).append(folded)
        self._lengths = sorted({len(folded) for folded in self._words})

    def named(self, payload: object) -> list[str]:
        """The ids named anywhere in `payload` (its values and keys, at any depth), each
        once, in sorted order."""
        found: set[str] = set()
        for text in _texts(payload):
            folded = fold(text)
            for word in _ID_WORD.findall(folded):
                found.update(self._words.get(word, ()))
            if not folded.isascii():
                for word in _WORD_OR_FOREIGN.findall(folded):
                    for named in self._spelled_with_foreign(word):
                        found.update(self._words[named])
            for ids, pattern in self._others:
                if pattern.search(folded):
                    found.update(ids)
        return sorted(found)

    def _spelled_with_foreign(self, word: str) -> Iterator[str]:
        """The folded ids a stretch of `word` spells with some characters outside ASCII read
        as any id character: fewer of those than of the id's own, and no id character just
        before or after the stretch (fail closed, the module's doc)."""
        if word.isascii():
            return
        foreign = [0]  # foreign[k]: characters outside ASCII among word[:k]
        for char in word:
            foreign.append(foreign[-1] + (not char.isascii()))
        for length in self._lengths:
            for start in range(len(word) - length + 1):
                end = start + length
                wild = foreign[end] - foreign[start]
                if not wild or 2 * wild >= length:
                    continue
                if (start and word[start - 1] in _ID_CHAR) or (
                    end < len(word) and word[end] in _ID_CHAR
                ):
                    continue
                stretch = word[start:end]
                place = next(i for i, char in enumerate(stretch) if char.isascii())
                for folded in self._by_place.get((length, place, stretch[place]), ()):
                    if all(t == c or not t.isascii() for t, c in zip(stretch, folded, strict=True)):
                        yield folded


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)


__all__ = ["NamedFiles", "fold"]
