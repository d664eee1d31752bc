"""`IdentifierShapes` finds what its pattern's own `finditer` and `sub` find, from any start and
to any end, for each module's identifier-shaped pattern (`_identifier_shapes`' docstring says
why a scan may try the pattern at the openings of words only)."""

from __future__ import annotations

import random

import pytest

from provebench.si.primitives import _accounted, _scene_names, _unaccounted
from provebench.si.primitives._identifier_shapes import IdentifierShapes

SHAPES = [
    _accounted._IDENTIFIER_SHAPED,
    _scene_names.IDENTIFIER_SHAPED,
    _unaccounted._IDENTIFIER_SHAPED,
]
TEXTS = [
    "The ConfigMap smtp-config is missing the SMTP_PORT key (configMapKeyRef, smtp.internal).",
    "9abc-def x1y2 aB Ab ab-cd-ef configmap/smtp-config a.b.c abcDef1 http://a.b/c_d",
    "notification-service pods are in CrashLoopBackOff; kubectl get cm/smtp-config -o yaml",
    "éaB ÅbC-d ſmtp-config ÄxY _aB- -aB aB_ a__b a--b A1b2C3 k8s v1.2.3",
    "",
    "a",
    "aB",
]


def _random_texts(count: int) -> list[str]:
    chooser = random.Random(41)
    alphabet = "aAbBzZ019_-/.: é\n"
    return [
        "".join(chooser.choice(alphabet) for _ in range(chooser.randint(1, 24)))
        for _ in range(count)
    ]


@pytest.mark.parametrize("shapes", SHAPES)
def test_every_start_and_end_finds_what_the_pattern_finds(shapes: IdentifierShapes) -> None:
    found = 0
    for text in [*TEXTS, *_random_texts(200)]:
        for pos in range(len(text) + 1):
            for endpos in (None, pos, pos + 1, pos + 3, len(text) - 1, len(text) + 1):
                wanted = [
                    m.span()
                    for m in shapes.pattern.finditer(
                        text, pos, len(text) if endpos is None else endpos
                    )
                ]
                assert [m.span() for m in shapes.finditer(text, pos, endpos)] == wanted, (
                    text,
                    pos,
                    endpos,
                )
                found += len(wanted)
        assert shapes.sub(" ", text) == shapes.pattern.sub(" ", text)
    assert found > 1000  # the texts hold shapes, opening inside words and at their openings


def test_a_start_inside_a_word_is_tried_with_the_pattern_itself() -> None:
    shapes = _unaccounted._IDENTIFIER_SHAPED
    # "figMap" opens inside "configMap": only the pattern itself finds it there
    assert [m.group() for m in shapes.finditer("configMap", 3)] == ["figMap"]
