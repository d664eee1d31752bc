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

Ids and text are compared through one fold (`fold`), as a reader reads them: NFKC (fullwidth
and compatibility forms), case-folded, invisible format characters (Unicode category Cf, the
zero-width space among them) dropped, and the dash look-alikes read as `-` (red team 28, H1:
an id upper-cased, fullwidth, with a zero-width space or a U+2011 hyphen was not read as
named). Limit: an id split into parts by visible text ("e09 22", "part 49") is not found — no
matching of words can tell it from unrelated text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

_ID_WORD = re.compile(r"[a-z0-9_-]+")
# Hyphen and dash look-alikes NFKC leaves as they are (U+2010..U+2015, minus sign, small and
# fullwidth hyphen-minus are folded to these or to `-` by NFKC itself).
_DASHES = str.maketrans(
    dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58", "-")
)


def fold(text: str) -> str:
    """`text` as a reader compares it with a file id (see the module's doc)."""
    normal = unicodedata.normalize("NFKC", text).casefold()
    visible = "".join(c for c in normal if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFKC", visible.translate(_DASHES))


class NamedFiles:
    """Finds which of `file_ids` a diagnostics payload names. Ids of contract rule 2's alphabet
    are found word by word (one set lookup per word); an id outside it (one the rules refuse
    as `invalid_file_id`) is searched for as text, delimited the same way."""

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

    def named(self, payload: object) -> list[str]:
        """The ids named anywhere in `payload` (its values and keys, at any depth), each
        once, in sorted order."""
        found: set[str] = set()
        for text in _texts(payload):
            folded = fold(text)
            for word in _ID_WORD.findall(folded):
                found.update(self._words.get(word, ()))
            for ids, pattern in self._others:
                if pattern.search(folded):
                    found.update(ids)
        return sorted(found)


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
