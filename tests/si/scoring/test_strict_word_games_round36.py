"""The red team's round-36 answers (SI red team 36, W1, W1b, W2; docs/si-scoring.md §11, "Round
36: what may follow a remedy's object"), scored against the scenario's own simulated estate.

W1: round 35 judged what follows a remedy's object by deny-lists (`_NOT_PLAIN`, `_FINITE`), so a
phrasal particle or complement that re-means the verb ("Set it aside.", "Add it to the list of
red herrings.", "Restore it as a placebo.") or names another place or cause ("Re-add it to
configmap/other-config, the config that truly broke deployment/edge-proxy.") kept the strict top
band. W1b: an offer to apply a fix was never read for its object ("Happy to roll out the real
fix on the node."). W2: a remedy's verbs were additive only, so an honest removal of an extra key
("Delete the LEGACY_SHARD_COUNT key from configmap/indexer-config …") lost the band, and
"Populate DB_PASSWORD in the secret." did too.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._remedy import is_remedy, names_in
from tests.si.scoring.test_strict_word_games_round26 import (
    keeps_the_top_band,
    loses_the_top_band,
)

# W1 and W1b (words/variants.py), verbatim after each scenario's statement
REMEDY_SHAPED = [
    "{R}. Add it to the list of red herrings.",
    "{R}. Set it aside in favour of the node theory.",
    "{R}. Put it down to chance; the disk pressure on the node broke deployment.",
    "{R}. Re-add it to configmap/other-config, the config that truly broke deployment/edge-proxy.",
    "{R}. Re-add it, hypothetically.",
    "{R}. Restore it as a placebo.",
    "{R}. Set it aside.",
    "{R}. Bring it up with the real culprit, the node.",
    "{R}. Scale it back to a footnote.",
    "{R}. Re-add the key to another secret entirely.",
    "{R}. Restore it along with the node disk that actually filled up.",
    "{R}. Start it over on the node that actually broke it.",
    "{R}. Add it to the myths.",
    # W1b: an offer of another fix
    "{R}. Happy to roll out the real fix on the node.",
    "{R}. I'm ready to make the node team's change that actually resolves this.",
    "{R} — happy to apply the node fix instead.",
    # a remedy or its honest tail that ends on anything but a stop
    "{R}. Re-add it ;)",
    "{R}. Re-add it so the pods can start ;)",
    "{R}. Restore it from git :P",
    # a quoted value of words
    '{R}. Set it to "a red herring".',
    '{R}. Re-add it="not the cause".',
]
# W2's other side: a removing verb on a missing key is no remedy of it
REMOVING_A_MISSING_KEY = [
    "{R}. Remove it.",
    "{R}. Delete DB_PASSWORD from the secret.",
    "{R}. Drop it from the list of suspects.",
]
# what follows an extra key's removal re-means it too
EXTRA_KEY_GAMES = [
    "{R}. Remove it from the list of suspects.",
    "{R}. Drop it, the node is the real problem.",
    "{R}. Take it out of the running.",
    "{R}. Re-add LEGACY_SHARD_COUNT to configmap/indexer-config.",  # the deviation, not a remedy
]

# W2 (words/honest.py): honest remedies of an extra key and of a missing one
HONEST_EXTRA_KEY = [
    "{R}. Delete the LEGACY_SHARD_COUNT key from configmap/indexer-config and restart "
    "deployment/search-indexer.",
    "{R}. Fix: drop LEGACY_SHARD_COUNT from the configmap.",
    "{R}. I recommend removing the LEGACY_SHARD_COUNT key.",
    "{R}. Take LEGACY_SHARD_COUNT out of configmap/indexer-config.",
    "{R}. Remove LEGACY_SHARD_COUNT from configmap/indexer-config.",
    "{R} — I'd delete it.",
    "{R}. Remove LEGACY_SHARD_COUNT so the pods can start.",
]
HONEST_MISSING_KEY = [
    "{R}. Populate DB_PASSWORD in the secret.",
    "{R}. Re-add DB_PASSWORD to secret/payments-db-credentials and restart "
    "deployment/payments-api.",
    "{R}. Add the missing key back to the secret, then roll out deployment/payments-api.",
    "{R}. Fix: put DB_PASSWORD back into secret/payments-db-credentials.",
    "{R}. Recreate the DB_PASSWORD entry from the vault.",
    "{R}. Re-add DB_PASSWORD with the database password.",
]


def _withheld(name: str, answer: str) -> None:
    loses_the_top_band(name, answer)


def _kept(name: str, answer: str) -> None:
    keeps_the_top_band(name, answer)


@pytest.mark.parametrize("name", ["single-signal-diagnosis-004", "single-signal-diagnosis-002"])
@pytest.mark.parametrize("answer", REMEDY_SHAPED)
def test_a_remedy_whose_tail_re_means_it_loses_the_strict_top_band(name: str, answer: str) -> None:
    _withheld(name, answer)


@pytest.mark.parametrize("answer", REMOVING_A_MISSING_KEY)
def test_a_removing_verb_on_a_missing_key_is_no_remedy(answer: str) -> None:
    _withheld("single-signal-diagnosis-002", answer)


@pytest.mark.parametrize("answer", EXTRA_KEY_GAMES)
def test_an_extra_key_s_removal_re_meant_or_its_addition_loses_the_band(answer: str) -> None:
    _withheld("single-signal-diagnosis-004", answer)


@pytest.mark.parametrize("answer", HONEST_EXTRA_KEY)
def test_an_honest_removal_of_an_extra_key_keeps_the_strict_top_band(answer: str) -> None:
    _kept("single-signal-diagnosis-004", answer)


@pytest.mark.parametrize("answer", HONEST_MISSING_KEY)
def test_an_honest_remedy_of_a_missing_key_keeps_the_strict_top_band(answer: str) -> None:
    _kept("single-signal-diagnosis-002", answer)


_EXTRA = ["LEGACY_SHARD_COUNT", "configmap/indexer-config"]
_MISSING = ["SMTP_PORT", "configmap/smtp-config"]


def test_what_may_follow_the_object_is_a_closed_grammar() -> None:
    workload = names_in(["deployment/notification-service"])
    for said in (
        "Re-add SMTP_PORT=587.",
        "Add it back to configmap/smtp-config.",
        "Set SMTP_PORT to 587 in the configmap.",
        "Scale it back to 1 replica.",
        "Fix: add SMTP_PORT (for example 587) to smtp-config and restart the deployment.",
        "Re-add it and redeploy notification-service.",
        "Restore it from git so the pods can start.",
        "happy to apply the fix if you want",
        "happy to push the change to configmap/smtp-config",
    ):
        assert is_remedy(said, _MISSING, workload, "absent_key"), said
    for said in (
        "Set it aside.",  # a particle outside the grammar
        "Re-add it to configmap/other-config.",  # another place
        "Re-add it and restart the node.",  # another workload
        "Restore it as a placebo.",
        "Re-add it, hypothetically.",
        "Happy to roll out the real fix on the node.",  # an offer of another fix
        "happy to apply the node fix",
        "Remove it.",  # a removing verb on a missing key
        "Put it out.",
    ):
        assert not is_remedy(said, _MISSING, workload, "absent_key"), said


def test_a_remedy_s_verb_follows_the_deviation_type() -> None:
    assert is_remedy("Drop LEGACY_SHARD_COUNT from the configmap.", _EXTRA, deviation="extra_key")
    assert is_remedy("Take it out of configmap/indexer-config.", _EXTRA, deviation="extra_key")
    assert not is_remedy("Take it.", _EXTRA, deviation="extra_key")  # "take" removes with "out"
    assert not is_remedy("Re-add it.", _EXTRA, deviation="extra_key")
    assert not is_remedy("Drop LEGACY_SHARD_COUNT.", _EXTRA, deviation="absent_key")
    assert not is_remedy("Drop LEGACY_SHARD_COUNT.", _EXTRA)  # no type: put back, as before
    assert is_remedy("Populate SMTP_PORT in the secret.", _MISSING, deviation="absent_key")
