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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._identifier_shapes import IdentifierShapes
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
_HUMP = lazy_pattern(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


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

    def is_object(self, token: str) -> bool:
        """Whether an identifier-shaped token names an object: itself or, for a `kind/name`,
        its name."""
        return len(token) >= TOO_SHORT_FOR_AN_IDENTIFIER and (
            fold_name(token) in self.known or fold_name(token.rsplit("/", 1)[-1]) in self.known
        )

    def names_something(self, text: str) -> bool:
        """Whether `text` names something of the system: an identifier of the scenario, or a
        token naming an object of it (never a token by its shape alone)."""
        folded = text.casefold()
        if any(identifier.casefold() in folded for identifier in self.identifiers):
            return True
        return any(self.is_object(match.group()) for match in IDENTIFIER_SHAPED.finditer(text))


@functools.lru_cache(maxsize=64)
def _scene_names(identifiers: tuple[str, ...], objects: tuple[str, ...]) -> SceneNames:
    return SceneNames(identifiers, _folded_parts((*identifiers, *objects)))


def scene_names(identifiers: Sequence[str], objects: Sequence[str] = ()) -> SceneNames:
    """The names of a scenario (`identifiers`) and of its evidence's first snapshot (`objects`,
    `scenario_objects`), made once per scenario and estate."""
    return _scene_names(tuple(identifiers), tuple(objects))


__all__ = [
    "IDENTIFIER_SHAPED",
    "TOO_SHORT_FOR_AN_IDENTIFIER",
    "SceneNames",
    "scene_names",
    "split_shape",
]
