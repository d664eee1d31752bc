"""The red team's round-40 answers (SI red team 40, H2-H4; docs/si-scoring.md §11, "Round 40:
a frame, a whole name and a neutral comment"), scored against the scenario's own simulated
estate.

H4: a place naming an object by a run of its parts ("in the shop-staging namespace" where the
namespace is `shop`) was a place of the live system. H3: an unreal frame with no place phrase
("… hypothetically.", "…, theoretically.", "… as a thought experiment.", "… elsewhere.") was
read by nothing. H2: a comment naming an object was vouched for once no word of a closed
verdict list was found ("— spurious, per payments-api.", "— checkout objects.").
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._scene_names import scene_names
from tests.si.scoring.test_strict_word_games_round26 import (
    _cases,
    keeps_the_top_band,
    loses_the_top_band,
)

# words/b_place and words/d_more, verbatim
FRAMES = [
    "{R} hypothetically.",
    "{R} as a thought experiment.",
    "{R} elsewhere.",
    "{R}, theoretically.",
    "{R}, in principle.",
    "{R} for argument's sake.",
    "{R}, notionally, that is.",
    "{R} — hypothetically.",
]
SCENARIOS = [f"single-signal-diagnosis-00{n}" for n in (2, 3, 4, 5)]
BY_SCENARIO = {
    "single-signal-diagnosis-002": ["{R} in the payments-staging namespace."],
    "single-signal-diagnosis-003": [
        "{R} in the shop-staging namespace.",
        "{R} in namespace shop-staging.",
        "{R} in the checkout-test namespace.",
    ],
}
# words/a_comment and words/d_more: the 22 of 40 that kept the band, with {X} the object
COMMENTS = [
    "{R} — spurious, per {X}.",
    "{R} — coincidental, per {X}.",
    "{R} — moot per {X}.",
    "{R} — misleading, per {X}.",
    "{R} — erroneous, see {X}.",
    "{R} — unfounded, see {X}.",
    "{R} — baseless, see {X}.",
    "{R} — {X} objects.",
    "{R} — {X} begs to differ.",
    "{R} — {X} would say no.",
    "{R} — {X} questions this.",
    "{R} — {X} challenges this.",
    "{R} — unverified per {X}.",
    "{R} — invalid, per {X}.",
    "{R} — a mistake, per {X}.",
    "{R} — an error on my part, per {X}.",
    "{R} — {X} shows the opposite.",
    "{R} — {X} rules this out.",
    "{R} — {X} says no.",
    "{R} — I misspoke about {X}.",
    "{R} — per {X}, hogwash.",
    "{R} (spurious, per {X})",
    "{R}; misleading per {X}.",
    "{R}, which {X} questions.",
    "{R} — {X}-spurious.",
]
OBJECT = {"single-signal-diagnosis-002": "payments-api", "single-signal-diagnosis-003": "checkout"}
HONEST = {
    "single-signal-diagnosis-003": [
        "{R} in the shop namespace.",
        "{R} in namespace shop.",
        "{R} in configmap/checkout-config.",
        "{R}, as a result.",
        "{R}, as expected from the events.",
    ],
    "single-signal-diagnosis-002": [
        "{R} on every replica.",
        "{R}, evidently.",
        # "— payments-api runs fine." contradicts "payments-api cannot run": a working state of
        # the statement's own workload, read since round 43 (SI red team 43, H11;
        # test_strict_word_games_round43)
        "{R} — payments-api never starts.",
        "{R} — ledger-exporter is not the cause.",
        "{R} — 3 restarts of payments-api in 5 minutes.",
        "{R} (see payments-api).",
        "{R}, which payments-api reads at start.",
        "{R} — payments-api-7f9c4 never starts.",
    ],
}


@pytest.mark.parametrize(
    ("name", "answer"),
    [
        *((name, answer) for name in SCENARIOS for answer in FRAMES),
        *_cases(BY_SCENARIO),
        *(
            (name, comment.replace("{X}", name_of))
            for name, name_of in OBJECT.items()
            for comment in COMMENTS
        ),
    ],
)
def test_a_round40_game_loses_the_strict_top_band(name: str, answer: str) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round40_honest_answer_keeps_the_strict_top_band(name: str, answer: str) -> None:
    keeps_the_top_band(name, answer)


def test_a_place_names_an_object_whole() -> None:
    names = scene_names(["INVENTORY_PORT"], ["namespace/shop", "configmap/checkout-config"])
    for token in ("shop", "namespace/shop", "checkout-config", "configmap/checkout-config"):
        assert names.names_whole(token), token
    for token in ("shop-staging", "checkout-config-old", "RedHerring/shop", "xshop"):
        assert not names.names_whole(token), token
