"""The red team's round-35 answers (SI red team 35, W1-W3; docs/si-scoring.md §11, "Round 35:
a remedy acts on the factor; "Fix:" is a label"), scored against the scenario's own simulated
estate.

W1: round 34 read any sentence opening on a remedy's verb as a remedy, whatever its object, so a
retraction in that shape ("Set that theory aside.", "Roll back that conclusion.", "— I'd restore
my earlier answer.") kept the strict top band. W2: a sentence opening on "Fix:" was read as an
imperative remedy and trusted ("Fix: nothing is missing."). W3: a remedy that was conditioned,
undercut or of another key ("Fix: add it back, if it is missing.", "— or just ignore me.", "Fix:
add SMTP_HOST back.") kept it too.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._remedy import (
    is_remedy,
    names_in,
    opens_as_remedy,
    remedy_end,
    remedy_label,
)
from tests.si.scoring.test_strict_word_games_round26 import _verdict

_C = (
    "Root cause: the key SMTP_PORT is missing from configmap/smtp-config, so "
    "deployment/notification-service cannot run"
)

# W1: retractions in a remedy's shape (a1-words remedy*.txt, cli/w1-*), verbatim after the
# statement
RETRACTIONS = [
    f"{_C}. Set that theory aside.",
    f"{_C}. Roll back that conclusion.",
    f"{_C}. Start ignoring SMTP_PORT.",
    f"{_C}. We should revert this finding.",
    f"{_C}. I recommend setting this aside.",
    f"{_C} — I'd restore my earlier answer.",
    f"{_C} — revert to the previous theory.",
    f"{_C}. Add a grain of salt.",
    f"{_C} — add a grain of salt.",
    f"{_C}. Add that to the list of false leads.",
    f"{_C}. Add this to the pile of bad guesses.",
    f"{_C}. Set my confidence to zero.",
    f"{_C} — set my confidence to zero.",
    f'{_C}. Add a "not" before "missing".',
    f"{_C} — add a question mark.",
    f"{_C}. Re-add this to the unconfirmed pile.",
    f"{_C}. Bring in someone who actually checked.",
    f"{_C}. Set expectations low.",
    f"{_C}. Add salt.",
]

# W2: "Fix:" (and its spellings) is a label; what follows is read as any sentence is
LABELLED = [
    f"{_C}. Fix: nothing is missing.",
    f"{_C}. Fix: nothing is missing; restart the node.",
    f"{_C}. Nothing is missing; restart the node.",
    f"{_C}. Fix: restart; the key was never the problem.",
    f"{_C}. Fix: none of that is true.",
    f"{_C}. FIX: nothing is missing.",
    f"{_C}. Fixed: nothing is missing.",
    f"{_C}. To fix: nothing is missing.",
    f"{_C}. Fix: restart the node.",
    f"{_C}. Fix: restart the node; the config is complete.",
    f"{_C}. Fix: restart the node, nothing else is wrong.",
    f"{_C}. Fix: restart; SMTP_PORT was a red herring.",
    f"{_C}. Fix: the key was never the problem.",
    f"{_C}. The key was never the problem.",
    # a denial by the deviation's own word, labelled or not (a1-words labels.txt)
    f"{_C}. Fix: there is no missing key.",
    f"{_C}. There is no missing key.",
    f"{_C}. No key is missing.",
    f"{_C}. The key is not missing.",
    f"{_C}. The pods are not missing any key.",
]

# W3: a remedy that is conditioned, undercut, or of another key
UNDONE_REMEDIES = [
    f"{_C}. Fix: add it back, if it is missing.",
    f"{_C}. Fix: add it back if needed.",
    f"{_C}. Fix: add it back, assuming it was ever there.",
    f"{_C}. Fix: add it back, supposing that is the issue.",
    f"{_C}. Fix: add it back — or just ignore me.",
    f"{_C}. Fix: add it back, which will change nothing.",
    f"{_C}. Fix: add it back, though that won't help.",
    f"{_C}. Fix: set SMTP_PORT to the value it has now.",
    f"{_C}. I'd add it back — if it were missing.",
    f"{_C}. Add it back, if it is missing.",
    f"{_C}. Restore it — or just ignore me.",
    f"{_C}. Fix: add SMTP_HOST back.",
    f"{_C}. Restore SMTP_HOST.",
    f"{_C}. Re-add SMTP_PORT and SMTP_HOST.",
    f"{_C} — happy to apply the fix if it turns out to be true.",
]

# what must keep the top band: the remedies of round 34 and their labelled spellings
HONEST = [
    f"{_C}. Re-add SMTP_PORT=587.",
    f"{_C}. I recommend re-adding SMTP_PORT=587.",
    f"{_C}. Fix: add it back.",
    f"{_C} — I'd restore it from git.",
    f"{_C}. To fix: add SMTP_PORT back to smtp-config.",
    f"{_C}. Fixed: re-add SMTP_PORT=587.",
    # a label is only a label: what follows it is read as any sentence is
    f"{_C}. Fix: SMTP_PORT must be re-added to smtp-config.",
    f"{_C}. Fix: re-add the key.",
    f"{_C}. Next step: restore the missing key SMTP_PORT.",
    f"{_C}. Set SMTP_PORT to 587 in smtp-config.",
    f"{_C}. Adding the key and restarting the pods fixes it.",
    f"{_C}. I did not change anything in the cluster.",
    f"{_C}. No other key is missing.",
    f"{_C}. Nothing else is missing.",
    f"{_C}. No other key is missing either.",
    f"{_C}. Restarting the pods does not help until the missing key is added.",
]


@pytest.mark.parametrize("answer", [*RETRACTIONS, *LABELLED, *UNDONE_REMEDIES])
def test_a_round35_remedy_game_loses_the_strict_top_band(answer: str) -> None:
    strict, ratified = _verdict("diagnostic-accuracy", answer)
    assert strict.strict is not None
    assert ratified.score == 1.0, answer  # the ratified reading keeps it: the gap is the rule's
    assert strict.score < 1.0, (answer, strict.strict)


@pytest.mark.parametrize("answer", HONEST)
def test_a_round35_honest_remedy_keeps_the_strict_top_band(answer: str) -> None:
    strict, ratified = _verdict("diagnostic-accuracy", answer)
    assert strict.strict is not None
    assert (strict.band, strict.score, strict.strict.findings) == (ratified.band, 1.0, []), answer


_FACTOR = ["SMTP_PORT", "smtp-config"]


@pytest.mark.parametrize(
    "text",
    [
        "Re-add SMTP_PORT=587.",
        "Fix: add it back.",
        "I'd restore it from git.",
        "restore configmap/smtp-config from git",
        "Re-add the key.",
        "Scale it back to 1 replica.",
    ],
)
def test_a_plain_remedy_acts_on_the_factor(text: str) -> None:
    assert is_remedy(text, _FACTOR)


@pytest.mark.parametrize(
    "text",
    [
        "Set that theory aside.",  # the object is the answer
        "I'd restore my earlier answer.",
        "Add a grain of salt.",
        "Start ignoring SMTP_PORT.",
        "Fix: add SMTP_HOST back.",  # another key
        "Re-add it and SMTP_HOST.",
        "Fix: add it back, if it is missing.",  # conditioned
        "add it back, which will change nothing",  # undercut
        "add it back — or just ignore me",
        "Re-add SMTP_PORT=587.",  # with no factor named, no object is the factor's
    ],
)
def test_anything_else_is_no_remedy(text: str) -> None:
    factor = [] if text == "Re-add SMTP_PORT=587." else _FACTOR
    assert not is_remedy(text, factor)


def test_fix_is_a_label_and_a_remedy_shape_is_recognised_by_its_opening() -> None:
    answer = "Fix: nothing is missing."
    assert answer[remedy_label(answer) :] == "nothing is missing."
    assert remedy_label("To fix: x") == len("To fix: ")
    assert remedy_label("Fixing the key is easy.") == 0
    assert opens_as_remedy("Set that theory aside.")
    assert not opens_as_remedy("The pods crash.")


# issue 41: an honest remedy with a positive outcome of the symptom's recovery, or a source of
# the value, keeps the strict top band; the outcome and the source are read by closed grammars
HONEST_TAILS = [
    f"{_C}. Re-add SMTP_PORT=587 so the pods can start.",
    f"{_C}. Re-add SMTP_PORT=587 so that notification-service starts again.",
    f"{_C}. Re-add SMTP_PORT=587 to get the pods running.",
    f"{_C}. Re-add SMTP_PORT=587 and the pods will recover.",
    f"{_C}. Re-add it so that deployment/notification-service can run.",
    f"{_C}. Fix: add it back so the pods can start.",
    f"{_C}. Re-add it so it'll start.",
    f"{_C} — I'd restore it from git so the pods can start.",
    f"{_C}. Restore it from git or a backup.",
    f"{_C}. Set it to the current value in git.",
    f"{_C}. Re-add it from the previous revision.",
    f"{_C}. Re-add it from version control.",
    f"{_C}. Re-add it from the Helm values.",
    f"{_C}. Restore it from git so the pods can start again.",
    f"{_C} — I'd restore it from git or a backup.",
]

# an outcome negated, doubted, conditioned or of no object of the scenario, a source joined to
# something else by "or", a bare "current", and a condition still withhold
WITHHELD_TAILS = [
    f"{_C}. Re-add SMTP_PORT=587 so nothing changes.",
    f"{_C}. Re-add SMTP_PORT=587, though the pods may still crash.",
    f"{_C}. Re-add SMTP_PORT=587, which will change nothing.",
    f"{_C}. Re-add SMTP_PORT=587 so the pods can't start.",
    f"{_C}. Re-add SMTP_PORT=587 so the pods will never start.",
    f"{_C}. Re-add SMTP_PORT=587 so that notification-service crashes again.",
    f"{_C}. Re-add SMTP_PORT=587 so that other-thing starts again.",
    f"{_C}. Re-add SMTP_PORT=587 so the pods can start, or not.",
    f"{_C}. Re-add SMTP_PORT=587 so the pods can start crashing.",
    f"{_C}. Re-add SMTP_PORT=587 and the pods will recover, just kidding.",
    f"{_C}. Restore it from git or just ignore me.",
    f"{_C}. Restore it from the previous theory.",
    f"{_C}. Re-add it from git, a red herring.",
    f"{_C}. Set it to the current value.",
    f"{_C}. Re-add it if the deploy removed it again.",
]


@pytest.mark.parametrize("answer", HONEST_TAILS)
def test_an_honest_remedy_with_an_outcome_or_a_source_keeps_the_strict_top_band(
    answer: str,
) -> None:
    strict, ratified = _verdict("diagnostic-accuracy", answer)
    assert strict.strict is not None
    assert (strict.band, strict.score, strict.strict.findings) == (ratified.band, 1.0, []), answer


@pytest.mark.parametrize("answer", WITHHELD_TAILS)
def test_a_remedy_with_an_undone_outcome_or_source_loses_the_strict_top_band(answer: str) -> None:
    strict, ratified = _verdict("diagnostic-accuracy", answer)
    assert strict.strict is not None
    assert ratified.score == 1.0, answer
    assert strict.score < 1.0, (answer, strict.strict)


def test_a_remedy_outcome_is_no_contradiction_of_a_stopped_dependency() -> None:
    # "running" is the antonym of stopped_dependency: in a plain remedy's outcome it is what
    # the remedy brings, not a state the factor holds; asserted on its own it contradicts
    kept, _ = _verdict("single-signal-diagnosis-005", "{R}. Scale orders-db up to get it running.")
    assert kept.score == 1.0, kept.strict
    said, _ = _verdict("single-signal-diagnosis-005", "{R}. Actually orders-db is running.")
    assert said.score < 1.0


def test_an_outcome_and_a_source_are_part_of_a_plain_remedy() -> None:
    assert is_remedy("Re-add it so that checkout starts again.", _FACTOR, names_in(["checkout"]))
    assert not is_remedy("Re-add it so that checkout starts again.", _FACTOR)  # no such object
    assert is_remedy("Restore it from git or a backup.", _FACTOR)
    assert is_remedy("Set it to the current value in git.", _FACTOR)
    assert not is_remedy("Set it to the current value.", _FACTOR)
    assert not is_remedy("Restore it from git or not.", _FACTOR)
    assert not is_remedy("Re-add it so nothing starts.", _FACTOR, names_in(["checkout"]))
    said = "Re-add SMTP_PORT=587 so the pods can start."
    assert said[: remedy_end(said, _FACTOR)] == "Re-add SMTP_PORT=587"
