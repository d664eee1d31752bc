"""The names a comment on the statement may name (docs/si-scoring.md §11, "Round 38: a name is
an object, in comments too"; SI red team 38, H0).

The comment readers (`_plain_assertion`'s aside, label, tail and comment shapes and
`_attached_comment._vouched`) let a comment through where it names something of the system. Until
round 38 any identifier-shaped token of four characters or more counted as such a name, so a
disowning comment spelt as one token ("— it is a RedHerring.", "(NotTheCause)",
"[Retracted_Statement]", "; RedHerring.") was a locus and kept the strict top band. Round 26 had
already made a name an object of the scenario, not a shape, for the clause rules (`_accounted`);
here the comment readers follow it: a token names something only where it is one of the
scenario's identifiers or an object of the evidence's first full snapshot
(`_scenario_objects.scenario_objects`: its objects, their data keys and the names their values
hold), compared in one spelling (`fold_name`). Any other identifier-shaped token is words, split
at its joints and its camel humps (`split_shape`), so a disowning word inside it disowns.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._comment_disowning import disowns
from provebench.si.primitives._declared_calls import normal_kind
from provebench.si.primitives._identifier_shapes import IdentifierShapes
from provebench.si.primitives._operations import UNKNOWN_KIND
from provebench.si.primitives._scenario_objects import fold_name

# an identifier as an answer writes one: a word joined to another by _ / . - or :, or a word
# with an inner capital or digit ("configmap/smtp-config", "SMTP_PORT", "CrashLoopBackOff")
IDENTIFIER_SHAPED = IdentifierShapes(
    re.compile(
        r"[A-Za-z][A-Za-z0-9]*(?:[_/.:-][A-Za-z0-9]+)+|[A-Za-z]*[a-z][A-Z][A-Za-z0-9]*|"
        r"[A-Za-z]+[0-9][A-Za-z0-9]*"
    )
)
# the shapes above that are chat abbreviations, not identifiers ("j/k", "P.S.", "w/o")
TOO_SHORT_FOR_AN_IDENTIFIER = 4
# where a token's words meet: a lower-case letter before a capital ("RedHerring", "isFalse"), a
# run of capitals before a capitalised word ("NOTTrue"); a digit is no letter of a word already
# a token as written: letters and digits joined by _ . / : or - (a name is a whole token of it)
_TOKEN = lazy_pattern(r"[^\W_](?:[\w./:-]*[^\W_])?")
_PART = lazy_pattern(r"[^_./:-]+")
_PLAIN_WORD = lazy_pattern(r"[^\W\d_]+")
# the most words a name of the scenario is spelt in once its joints are spaces
_NAME_WORDS = 4
_HUMP = lazy_pattern(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _shaped(token: str) -> bool:
    """Whether `token` is, whole, of an identifier's shape."""
    return any(match.group() == token for match in IDENTIFIER_SHAPED.finditer(token))


def split_shape(text: str) -> str:
    """`text` with each identifier-shaped token's camel humps set apart by a space, so
    a reader of words reads its words ("RedHerring" -> "Red Herring"); the joints `_ / . - :`
    are no letters, and a reader of words already splits there."""
    return IDENTIFIER_SHAPED.sub(lambda match: _HUMP.sub(" ", match.group()), text)


def _folded_parts(names: Iterable[str]) -> frozenset[str]:
    """`names` and the name parts of a `kind/name`, in `fold_name`'s spelling."""
    return frozenset(
        fold_name(part)
        for name in names
        for part in (name, *name.split("/"))
        if len(part) >= TOO_SHORT_FOR_AN_IDENTIFIER
    )


@dataclass(frozen=True)
class SceneNames:
    """The scenario's identifiers (looked for as written, inside any token, as before) and every
    name of the scenario and its estate folded (`is_object`)."""

    identifiers: tuple[str, ...]
    known: frozenset[str]
    # the objects' own names (a `kind/name`'s name, never its kind): a plain word names an
    # object only as one of these ("checkout"; "node" is a kind)
    object_names: frozenset[str] = frozenset()
    # the symptom's workload (`symptom_name`), folded: the object the incident says fails, whose
    # working state a comment may not state whether the statement names it or not (SI red team
    # 44, H8: "{R} — checkout is up." where the statement names only the key and the configmap)
    symptom: frozenset[str] = frozenset()

    def is_object(self, token: str) -> bool:
        """Whether an identifier-shaped token names an object: itself or, for a `kind/name`,
        its name."""
        return len(token) >= TOO_SHORT_FOR_AN_IDENTIFIER and (
            fold_name(token) in self.known or fold_name(token.rsplit("/", 1)[-1]) in self.known
        )

    def names_something(self, text: str) -> bool:
        """Whether `text` names something of the system: a whole token that is an identifier of
        the scenario or names an object of it, or a token with such a name as a part between its
        joints whose other parts hold no verdict ("payments-api-7f9c", "registry.local/api:5";
        not "NotTheCause_DB_PASSWORD", "(RedHerring/payments-api)": SI red team 39, W2). Never
        a token by its shape alone, never a name found inside a word."""
        for token in _TOKEN.finditer(text):
            if self._token_names(token.group()):
                return True
        return self.names_apart(text)

    def names_apart(self, text: str) -> bool:
        """Whether `text` spells an identifier of several words as those words ("Batch
        Processor" for batch-processor; SI red team 44, F2)."""
        folded = f" {' '.join(_PLAIN_WORD.findall(text.casefold()))} "
        return any(f" {spaced} " in folded for spaced in self._spaced)

    def names_whole(self, token: str) -> bool:
        """Whether the token `token` is, whole, a name of the scenario (a `kind/name` by its
        name): a place names an object whole, never by a run of its parts ("in the
        shop-staging namespace" names no namespace of a scenario whose namespace is `shop`;
        SI red team 40, H4)."""
        kind, slash, name = token.rpartition("/")
        if self._is_name(token):
            return True
        # a `kind/name` whose kind is a kind ("configmap/checkout-config"; not
        # "RedHerring/shop") and whose name is whole
        return bool(slash) and normal_kind(kind) != UNKNOWN_KIND and self._is_name(name)

    def names_in_words(self, words: Sequence[str], but: Collection[str] = ()) -> bool:
        """Whether a run of `words` (a comment's words, its tokens split) spells a name of the
        scenario other than those of `but` ("ledger exporter" is ledger-exporter)."""
        excluded = {fold_name(name) for name in but}
        for start in range(len(words)):
            for end in range(start + 1, min(len(words), start + _NAME_WORDS) + 1):
                run = fold_name("".join(words[start:end]))
                if run in self.known and run not in excluded:
                    return True
        return False

    def _token_names(self, token: str) -> bool:
        if self._is_name(token):
            return True
        parts = list(_PART.finditer(token))
        # the longest run of parts that is a name, leftmost first
        for size in range(len(parts) - 1, 0, -1):
            for start in range(len(parts) - size + 1):
                run = parts[start : start + size]
                if not self._is_name(token[run[0].start() : run[-1].end()]):
                    continue
                rest = [split_shape(part.group()) for part in parts if part not in run]
                # the rest of the token is words, judged as words (a verdict glued to a name)
                words = _PLAIN_WORD.findall(" ".join(rest).casefold())
                return not disowns(words, lambda subject: False)
        return False

    def _is_name(self, part: str) -> bool:
        """Whether `part` is, whole, a name (a `kind/name`'s kind is judged as the rest of its
        token: "RedHerring/payments-api" is no kind; SI red team 39, W2)."""
        if part.casefold() in self._folded_identifiers:
            return True
        # a token of an identifier's shape names an object by any of its names; a plain word
        # only as an object's own name ("checkout"; "node", "secret" are kinds, words)
        if len(part) < TOO_SHORT_FOR_AN_IDENTIFIER:
            return False
        if _shaped(part):
            return fold_name(part) in self.known
        return fold_name(part) in self.object_names

    @functools.cached_property
    def _folded_identifiers(self) -> frozenset[str]:
        return frozenset(identifier.casefold() for identifier in self.identifiers)

    @functools.cached_property
    def _spaced(self) -> tuple[str, ...]:
        return tuple(
            dict.fromkeys(
                [
                    *(
                        " ".join(_PLAIN_WORD.findall(identifier.casefold()))
                        for identifier in self.identifiers
                        if " " in identifier.strip()
                    ),
                    *spaced_names(self.identifiers),
                ]
            )
        )


# an object's name of words joined by hyphens ("batch-processor"): an answer may write its words
# apart ("Batch Processor"); a key's underscores are left alone ("the inventory port" is words)
_HYPHENED = lazy_pattern(r"[A-Za-z]+(?:-[A-Za-z]+)+")


def spaced_names(identifiers: Iterable[str]) -> list[str]:
    """The identifiers (a `kind/name` by its name) whose words are joined by hyphens, spelt with
    spaces and casefolded ("batch-processor" -> "batch processor"): the name written apart (SI
    red team 44, F2: "Batch Processor is not the cause." named nothing of the system)."""
    return [
        " ".join(name.casefold().split("-"))
        for identifier in identifiers
        if _HYPHENED.fullmatch(name := identifier.strip().rsplit("/", 1)[-1]) is not None
    ]


@functools.lru_cache(maxsize=64)
def _scene_names(
    identifiers: tuple[str, ...], objects: tuple[str, ...], symptom: tuple[str, ...]
) -> SceneNames:
    own = frozenset(fold_name(name.rsplit("/", 1)[-1]) for name in objects)
    failing = frozenset(fold_name(name.rsplit("/", 1)[-1]) for name in symptom if name)
    return SceneNames(identifiers, _folded_parts((*identifiers, *objects)), own, failing)


def scene_names(
    identifiers: Sequence[str], objects: Sequence[str] = (), symptom: Sequence[str] = ()
) -> SceneNames:
    """The names of a scenario (`identifiers`) and of its evidence's first snapshot (`objects`,
    `scenario_objects`), with the symptom's workload (`symptom`), made once per scenario and
    estate."""
    return _scene_names(tuple(identifiers), tuple(objects), tuple(symptom))


__all__ = [
    "IDENTIFIER_SHAPED",
    "TOO_SHORT_FOR_AN_IDENTIFIER",
    "SceneNames",
    "scene_names",
    "spaced_names",
    "split_shape",
]
