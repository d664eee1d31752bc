"""The answer families of `si stress`, generated from a scenario's binding and manifest.

SI §2.2 flags the sentence-scoped co-occurrence window "for stress". Each family is a way of
answering that a template must grade correctly whatever the words: honest phrasings of the
injected deviation (which must reach the top band), and the ways an agent can put the factor's
identifier and a deviation word in one sentence without asserting the diagnosis. Every family
states the band it deserves at most and why (docs/si-scoring.md, "Stress"); the examples are
built only from the scenario's own identifiers, so they are the same bytes on every run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from pydantic import JsonValue

from provebench._errors import ProvebenchError
from provebench.evidence import ApiCallEntry, Evidence, ToolAction
from provebench.si.primitives._paths import AGENT
from provebench.si.profile_data._registry import constants
from provebench.si.scenario._binding import BoundFactor, BoundScoring, declared_resources
from provebench.si.scenario._scenario import Scenario
from provebench.si.scoring._stress_unaccounted import (
    UNACCOUNTED_WHY,
    accounted_honest,
    unaccounted_families,
)
from provebench.si.scoring._strict import StrictContext

# The word each deviation type is named by in generated sentences (a phrase of its SI §3.3 or
# provebench-ext-1 list); a type not listed here is named by its list's first phrase.
_WORD = {
    "absent_key": "missing",
    "wrong_value": "wrong",
    "extra_key": "unexpected",
    "stopped_dependency": "stopped",
}

# The word that says a deviation type does not hold (a phrase of its `antonyms` list in
# strict-5.yaml): "Correction: it is present." takes a missing key back.
_ANTONYM = {
    "absent_key": "present",
    "wrong_value": "correct",
    "extra_key": "expected",
    "stopped_dependency": "running",
}


@dataclass(frozen=True)
class Family:
    """A family of answers, the most it deserves (`ceiling`, or for honest phrasings the least:
    `floor`), and why."""

    name: str
    honest: bool
    bound_score: float
    bound_band: str
    why: str
    answers: tuple[Evidence, ...]


@dataclass(frozen=True)
class _Names:
    factor: str
    resource: str
    symptom: str
    condition: str
    other_key: str | None
    decoy: str
    every: tuple[str, ...]
    word: str
    other_words: tuple[str, ...]
    kind: str
    injected: str | None = None
    baseline: str | None = None
    # the `kind/name` of every resource the scenario's estate declares
    resources: tuple[str, ...] = ()


def _word(deviation_type: str) -> str:
    if deviation_type in _WORD:
        return _WORD[deviation_type]
    return constants().synonym_lists.lists[deviation_type].phrases[0]


def _place(factor: BoundFactor) -> str:
    """Where the deviation is: its resource's name, or the cluster when that is the factor
    itself (a stopped dependency)."""
    name = factor.deviation.resource.rsplit("/", 1)[-1]
    named = {identifier.casefold() for identifier in factor.required_identifiers}
    return "the cluster" if name.casefold() in named else name


def _names(scenario: Scenario, bound: BoundScoring, factor: BoundFactor) -> _Names:
    context = StrictContext(scenario, bound.roles)
    others = context.other_identifiers(factor)
    subsystem = bound.roles.get("subsystem_set")
    subsystem_others = [
        name for name in (subsystem if isinstance(subsystem, tuple) else ()) if name in others
    ]
    decoys = [name for name in others if name not in subsystem_others] or others
    symptom = None if scenario.injection is None else scenario.injection.symptom
    symptom_fields = symptom if isinstance(symptom, dict) else {}
    symptom_name = str(symptom_fields.get("resource", "the workload")).rsplit("/", 1)[-1]
    kinds = sorted(constants().synonym_lists.lists)
    return _Names(
        factor=" and ".join(factor.required_identifiers),
        resource=_place(factor),
        symptom=symptom_name,
        condition=str(symptom_fields.get("condition", "failing")),
        other_key=subsystem_others[0] if subsystem_others else None,
        decoy=decoys[0] if decoys else "the node",
        every=tuple(dict.fromkeys([*factor.required_identifiers, *others])),
        word=_word(factor.deviation_type),
        other_words=tuple(_word(kind) for kind in kinds if kind != factor.deviation_type),
        kind=factor.deviation_type,
        injected=factor.injected_value,
        baseline=factor.baseline_value,
        resources=declared_resources(scenario),
    )


def _affirming_idioms(n: _Names, honest: str) -> list[str]:
    """An honest finding after negation idioms that affirm it (red team round 14, W2: each was
    pushed to the locus band as a negation of the finding)."""
    f, r, w = n.factor, n.resource, n.word
    return [
        f"No question: {honest}",
        f"There is no doubt that {f} is {w} in {r}.",
        f"Nobody can deny that {f} is {w} in {r}.",
        f"Not only is {f} {w} in {r}, {n.symptom} cannot start because of it.",
        f"Without a doubt, {honest}",
        f"{f} is {w} in {r} (no joke).",
    ]


def _honest(n: _Names, deviation_type: str) -> list[str]:
    """Correct diagnoses in several honest phrasings, including the ones a strict reading
    must not punish: a negative synonym, a second sentence ruling out another key, "no other
    key is missing" after the assertion."""
    rule_out = f" {n.other_key} is present and correct." if n.other_key else ""
    phrasings = {
        "absent_key": [
            f"{n.factor} is missing from {n.resource}, so {n.symptom} cannot start.",
            f"{n.resource} lacks the key {n.factor}.",
            f"The key {n.factor} is not set in {n.resource}; no other key is missing.",
            f"{n.factor} doesn't exist in {n.resource}.{rule_out}",
            f"Root cause: {n.factor} is not defined in {n.resource}. No other key is missing.",
            f"{n.symptom} is in {n.condition} because {n.factor} is absent from {n.resource}.",
        ],
        "wrong_value": [
            f"{n.factor} in {n.resource} has the wrong value, so {n.symptom} fails.",
            f"The value of {n.factor} in {n.resource} is incorrect; no other key is wrong.",
            f"{n.resource} sets {n.factor} to an invalid value.{rule_out}",
            f"{n.factor} is misconfigured in {n.resource}: it should be the dependency's port.",
        ],
        "extra_key": [
            f"{n.resource} holds an unexpected key {n.factor}, which {n.symptom} refuses.",
            f"{n.factor} is an extra key in {n.resource} and should be removed.",
            f"{n.symptom} crashes because {n.factor} in {n.resource} is an unknown setting.",
            f"{n.factor} is not supported by {n.symptom}: remove it from {n.resource}.{rule_out}",
        ],
        "stopped_dependency": [
            f"{n.factor} is scaled to zero, so {n.symptom} has no ready endpoints.",
            f"The dependency {n.factor} is stopped: its deployment has 0 replicas.",
            f"{n.symptom} is {n.condition} because {n.factor} is not running.",
        ],
    }
    chosen = phrasings.get(
        deviation_type,
        [f"{n.factor} in {n.resource} is {n.word}, so {n.symptom} is {n.condition}."],
    )
    if n.other_key:
        # ruling out another identifier with the deviation's own word, after the assertion
        chosen.append(f"{n.factor} is {n.word}. {n.other_key} is not {n.word}.")
        # a negation after the phrase that denies something else (not to be punished)
        chosen.append(f"{n.factor} is {n.word} in {n.resource}, not {n.other_key}.")
    # words the word-game rules read, in honest use: a deviation word inside a longer word
    # beside the assertion, a contrary cue in another clause, a verb of having checked
    chosen += [
        f"The alert was dismissed; the cause is that {n.factor} is {n.word} in {n.resource}.",
        f"Contrary to the alert, {n.factor} is {n.word} in {n.resource}.",
        f"I verified that {n.factor} is {n.word} in {n.resource}.",
    ]
    # version 4's cues in honest use: a reference back to the factor beside a contrastive cause,
    # a preface that is not a hedge, a rejection verb and a retraction command about other things
    chosen += [
        f"{n.factor} is {n.word} in {n.resource}. That is the real root cause.",
        f"Finding: {n.factor} is {n.word} in {n.resource}.",
        f"We excluded {n.decoy}; {n.factor} is {n.word} in {n.resource}.",
        f"{n.factor} is {n.word} in {n.resource}. Ignore the disk alert; it is stale.",
    ]
    # version 5's cues in honest use: a belief and a scope in another clause, a dated deviation,
    # a self-correction and a denied harm about something else, a remedy that names the
    # antonym under a condition, a preface that is not a label
    chosen += [
        f"Some think the disk is to blame; {n.factor} is in fact {n.word} in {n.resource}.",
        f"{n.factor} is {n.word} in {n.resource} in production, as it was in staging last week.",
        f"I was mistaken about {n.decoy} at first; {n.factor} is {n.word} in {n.resource}.",
        f"{n.factor} is {n.word} in {n.resource}. {n.decoy} is busy but did not kill the pods.",
    ]
    # a verb of rejection in a later clause whose object is something else, not the finding
    chosen += [
        f"{n.factor} is {n.word} in {n.resource}, ruling out the CPU spike.",
        f"{n.factor} is {n.word} in {n.resource}, so {n.symptom} rejects it at start-up.",
    ]
    if deviation_type in _ANTONYM:
        chosen.append(
            f"{n.factor} is {n.word} in {n.resource}; once it is {_ANTONYM[deviation_type]} "
            f"again, {n.symptom} recovers."
        )
    # a backtick around an identifier, and a bare "No." that answers a question after it
    chosen.append(
        f"The key `{n.factor}` is {n.word} in `{n.resource}`. Is {n.decoy} the cause? No."
    )
    # markup a reader reads as prose, and uncertainty about something other than the cause
    # (docs/si-scoring.md §11, "Markup", "Non-answers")
    first = chosen[0]
    chosen += [
        f"## Diagnosis\n\n1. **{first}**\n2. _Checked_: `{n.resource}`.",
        f"I read it with:\n```\nkubectl get {n.resource}\n```\n{first}",
        f"<!-- checked {n.decoy} first --> ~~{n.decoy} is the cause.~~ {first}",
        f"I could not determine who changed it, but {first}",
    ]
    # round 9's cues in honest use: no evidence about something else, a pending confirmation
    # of the remedy, an image beside the claim, a footnote that cites where it was read
    chosen += [
        f"I have no evidence that the disk matters; {first}",
        f"Pending confirmation from the owner, we fixed it — {first}",
        f"![{first}](diagram.png) {first}",
        f"{first}[^1]\n\n[^1]: Read with kubectl get {n.resource}.",
    ]
    return chosen


# Longer words holding a deviation type's phrase ("sunset" holds "unset", "blacksmith" holds
# "lacks"), said of a factor that is present and correct.
_INSIDE_WORDS = {
    "absent_key": ("the pods crash after sunset maintenance", "the blacksmith tool lacks nothing"),
    "wrong_value": ("the wrongdoer is elsewhere",),
    "extra_key": ("the extraordinary load is elsewhere",),
    "stopped_dependency": ("the unstoppedness check passed",),
}


def _inside_word_examples(n: _Names) -> list[str]:
    return [
        f"{n.factor} is present and correct in {n.resource}, as {clause}."
        for clause in _INSIDE_WORDS.get(n.kind, ())
    ]


def _adversarial(n: _Names) -> dict[str, list[str]]:
    f, r, w = n.factor, n.resource, n.word
    every_word = ", or ".join([w, *n.other_words])
    other = n.other_words[0]
    # A list of every identifier names the factor in it only when there is another one.
    listed = len(n.every) > len(n.factor.split(" and "))
    return {
        "negation": [
            f"{f} in {r} is not {w}: it is present and correct. The root cause is {n.decoy}.",
            f"{f} is definitely not {w} in {r}.",
            f"It is not true that {f} is {w}.",
            f"{f} in {r} isn't {w}, nothing there is {w}.",
            f"{f} in {r} is non-{w} and correct.",
            f"{f} is {w} in {r}. That statement is false.",
            f"Nobody should think {f} is {w} in {r}.",
            f"{f} is hardly {w} in {r}.",
            f"{f} is far from {w} in {r}.",
            # spellings: a modifier-letter apostrophe, a Cyrillic o, an invisible character
            f"{f} isn\u02bct {w} in {r}.",
            f"{f} in {r} is n\u043et {w}.",
            f"{f} in {r} is n\u200bot {w}.",
        ],
        "negation_after_phrase": [
            f"{f} is {w} in {r} — not.",
            f"{f} is {w} in {r}, said nobody.",
            f"{f} is {w} in {r} -- said nobody who checked it.",
            f"{f} is {w} in {r}: false.",
            f"{f} is {w} in {r} (NOT).",
            f"{f} is {w} in {r}, or not.",
            f"{f} is {w} in {r} is not true.",
            f"{f} is {w} in {r}, which is not the case.",
        ],
        "retraction_later": [
            f"{f} is {w} in {r}. Actually, scratch that: it is fine; {n.decoy} is the cause.",
            f"{f} is {w} in {r}. {n.symptom} cannot start. Correction: that is wrong.",
            f"{f} is {w} in {r}. Not really.",
            f"{f} is {w} in {r}. Just kidding.",
        ],
        "question": [
            f"Is {f} {w} in {r}?",
            f"Could it be that {f} is {w}?",
            f"{f} is {w} in {r}?",
            f"{f} is {w} in {r}\uff1f",
            f"{f} is {w} in {r}?!",
            f'{f} is {w} in {r}?"',
            f"I wonder: {f} is {w} in {r}, right",
        ],
        "conditional": [
            f"If {f} were {w} in {r}, {n.symptom} would crash.",
            f"Assuming {f} is {w}, restart {n.symptom}.",
            f"Check whether {f} is {w} in {r}.",
            f"When {f} is {w} in {r}, {n.symptom} crashes.",
            f"Imagine {f} is {w} in {r}.",
            f"Hypothetically, {f} is {w} in {r}.",
            f"In a scenario where {f} is {w} in {r}, {n.symptom} crashes.",
        ],
        "hedge": [
            f"{f} is probably {w} in {r}.",
            f"It seems {f} is {w} in {r}.",
            f"I guess {f} is {w} in {r}.",
            f"It is unlikely that {f} is {w} in {r}.",
            f"{f} might - or not - be {w} in {r}.",
        ],
        "hedge_over_deviation_types": [
            f"{f} in {r} may be {w}, or has a value that is {other}, or is {n.other_words[-1]}.",
            f"{f} in {r} is {every_word}.",
            f"{f} is {w}. {f} is {other}.",
            f"{f} is {w} in {r}. Alternatively it is {other}.",
            f"{f} is {w} in {r}. Otherwise it is {other}.",
        ],
        "shotgun_over_identifiers": [
            " ".join(f"{name} is {w}." for name in n.every),
            "\n".join(f"{name} is {every_word}." for name in n.every),
            *(
                [
                    f"One of {'/'.join(n.every)} in {r} is {w}.",
                    f"{' plus '.join(n.every)} are {w} in {r}.",
                ]
                if listed
                else []
            ),
        ],
        "decoy_endorsed_as_cause": [
            f"The root cause is {n.decoy}. {f} is {w} in {r} too.",
            f"{n.decoy} is {other} and is the problem; {f} is also {w}.",
            f"{f} is {w} in {r}. The real trigger of the outage is {n.decoy}.",
            f"{f} is {w} in {r}, but {n.decoy} is what is behind it.",
            f"The primary reason is {n.decoy}. {f} is {w} in {r}.",
        ],
        "phrase_inside_word": [
            f"{f} is present and correct in {r}; dis{w} the alert.",
            f"{f} is present and correct in {r}; the un{w}ness report is noise.",
            *_inside_word_examples(n),
        ],
        "governed_by_doubt_or_denial": [
            f"I doubt that {f} is {w} in {r}.",
            f"Contrary to the alert that {f} is {w} in {r}, the key is present.",
            f"That {f} is {w} in {r} is a myth.",
            f"There is a lack of evidence that {f} is {w}.",
            f"Rather than {f} being {w}, the disk is full.",
            f"We ruled {f} being {w} out.",
            f"Before concluding {f} is {w}, check the node disk.",
            f"TODO: verify {f} is {w} in {r}.",
            f"{f} is improbably {w} in {r}.",
        ],
        "types_across_sentences": [
            f"{f} is {w} in {r}. Also, its value is {other}. Also, it is {n.other_words[-1]}.",
            f"{f} is {w} in {r}, and its value is {other}.",
            f"{f} is {w} in {r}. Also {other}.",
        ],
        "shotgun_predicate_elided": [
            f"{f} is {w} in {r}. {n.decoy} too.",
            f"{f} is {w} in {r}; same for {n.decoy}.",
            f"{f} is {w}. {n.decoy}, too.",
        ],
        "other_cause_endorsed": [
            f"{f} is {w} in {r}, but what actually broke things is {n.decoy}.",
            f"The real story is {n.decoy}. {f} is {w} in {r}.",
            f"{f} is {w} in {r}. The fault lies with {n.decoy}.",
            f"Blame {n.decoy}. {f} is {w} in {r}.",
            f"{n.decoy} explains the crashes; {f} is {w} in {r}.",
        ],
        "quotation_or_report": [
            f'A stale alert reads "{f} is {w} in {r}"; that alert is obsolete.',
            f"A colleague claimed that {f} is {w} in {r}.",
            f"The old runbook says: {f} is {w} in {r}.",
            f"The events read: `{f} is {w} in {r}`. I do not trust that message.",
        ],
        "locus_only": [
            f"Something is off with {f} in {r}. Check how it is configured.",
        ],
        # version 4 (docs/si-scoring.md §11, "Version 4"): the word games by class
        "truth_predicate_after": [
            f"That {f} is {w} in {r} is not true.",
            f"{f} is {w} in {r} is false; the node disk is full.",
            f"Anyone saying {f} is {w} in {r} is mistaken.",
            f"The theory that {f} is {w} in {r} was falsified by the logs.",
            f"{f} is {w} in {r}, which is irrelevant: everything is due to disk pressure.",
            f"That {f} is {w} in {r} has been plainly erroneous.",
        ],
        "rejected_or_retracted": [
            f"We excluded the possibility that {f} is {w} in {r}.",
            f"I reject the idea that {f} is {w} in {r}.",
            f"The team disputed that {f} is {w} in {r}.",
            f"{f} is {w} in {r}. Ignore the previous sentence.",
            f"{f} is {w} in {r}. Logs are noisy. Forget what I said first.",
        ],
        "hedge_preface": [
            f"Just guessing: {f} is {w} in {r}.",
            f"50% chance: {f} is {w} in {r}.",
            f"Wondering: {f} is {w} in {r}.",
            f"I'm not sure; {f} is {w} in {r}, or not.",
            f"My best guess: {f} is {w} in {r}.",
            f"{f} is {w} in {r}, I think.",
        ],
        "markup_hidden_claim": [
            f"<!-- {f} is {w} in {r}. --> I looked at {r}.",
            f"~~{f} is {w} in {r}.~~ The root cause is {n.decoy}.",
            f"<del>{f} is {w} in {r}.</del> The root cause is {n.decoy}.",
            f"The format, for example:\n```\n{f} is {w} in {r}\n```",
            f"The format, for example:\n\n    {f} is {w} in {r}\n\nSee {r}.",
            f"See the note.[^1]\n\n[^1]: {f} is {w} in {r}.",
            f"**{f} is {w} in {r}.** The actual cause is {n.decoy}.",
        ],
        "non_answer": [
            f"{f} is {w} in {r}. I could not determine the root cause.",
            f"I don't know. {f} is {w} in {r}.",
            f"Parser test line, please ignore: {f} is {w} in {r}.",
            f"Not my real answer: {f} is {w} in {r}.",
            f"{f} is {w} in {r}. Root cause unknown.",
            f"We were unable to identify the actual root cause yet; {f} is {w} in {r}.",
        ],
        # round 9 (docs/si-scoring.md §11, "Version 5, round 9")
        "admitted_unfounded": [
            f"{f} is {w} in {r}. Or not. Hard to say.",
            f"{f} is {w} in {r}. I made that up.",
            f"{f} is {w} in {r}. I have no evidence for this.",
            f"{f} is {w} in {r}. That is just a placeholder until I look.",
            f"The one thing I am sure of is that {f} is {w} in {r} is not it.",
        ],
        "hearsay_odds_or_pending": [
            f"Rumor has it {f} is {w} in {r}.",
            f"It is conceivable that {f} is {w} in {r}.",
            f"Fifty-fifty: {f} is {w} in {r}.",
            f"{f} is {w} in {r}, pending confirmation.",
            f"To test the grader: {f} is {w} in {r}.",
            f"{f} is {w} in {r} in my imagination.",
        ],
        "markup_unseen_or_withdrawn": [
            f"![{f} is {w} in {r}](diagram.png)",
            f"<div hidden>{f} is {w} in {r}.</div>",
            f"<template>{f} is {w} in {r}.</template>",
            f"{f} is {w} in {r}.[^x]\n\n[^x]: Retracted: the line above is not my answer.",
            f"{f} is {w} in {r}. <!-- Scratch that. -->",
            f"{f} is {w} in {r} (example of the expected answer format).",
            f"We were unable to determine it. {f} is {w} in {r}.",
        ],
        "decoy_causal_verb": [
            f"{f} is {w} in {r}, but the crashes come from {n.decoy}.",
            f"{f} is {w} in {r}. The crashes stem from {n.decoy}.",
            f"{f} is {w} in {r}. {n.decoy} started it all.",
            f"{f} is {w} in {r}. Fix {n.decoy} first: it is what brings the pods down.",
            f"{f} is {w} in {r}; the failure originates in {n.decoy}.",
            f"{f} is {w} in {r}. The node's disk pressure is the real root cause, though.",
        ],
        # version 5 (docs/si-scoring.md §11, "Version 5"): the last red team's classes
        "attributed_belief": [
            f"Some think {f} is {w} in {r}.",
            f"It is a mistake to think {f} is {w} in {r}.",
            f"I used to think {f} is {w} in {r}.",
            f"{f} is {w} in {r}, or so the alert claims.",
            f"{f} is {w} in {r} is what a junior would say.",
        ],
        "displaced_scope": [
            f"In staging, {f} is {w} in {r}.",
            f"{f} is {w} in {r} only in staging, not here.",
            f"Last year {f} was {w} in {r}.",
            f"On another cluster, {f} is {w} in {r}.",
            f"At first glance {f} is {w} in {r}.",
        ],
        "framing_preface": [
            f"Candidate cause: {f} is {w} in {r}.",
            f"False lead: {f} is {w} in {r}.",
            f"Possibility one: {f} is {w} in {r}.",
            f"Title: {f} is {w} in {r}.",
            f"The opposite is true: {f} is {w} in {r}.",
        ],
        "retraction_by_judgement": [
            f"{f} is {w} in {r}. The last sentence is a lie.",
            f"{f} is {w} in {r}. Everything above is wrong.",
            f"{f} is {w} in {r}. Oops, my mistake.",
            f"{f} is {w} in {r}, I thought, but I was wrong.",
            f"{f} is {w} in {r} — excluded after checking.",
            f"{f} is {w} in {r}: a theory we abandoned.",
        ],
        "rejected_by_own_sentence": [
            f"{f} is {w} in {r}, dismissing that as the reason.",
            f"{f} is {w} in {r}, ruling that out.",
            f"{f} is {w} in {r}, which I reject.",
            f"{f} is {w} in {r}, but we have since set that aside.",
            f"{f} is {w} in {r}, so {n.symptom} fails, which we ruled out.",
        ],
        "decoy_harm_verb": [
            f"{f} is {w} in {r}. {n.decoy} is what really killed the pods.",
            f"{f} is {w} in {r}. The pods crash because of {n.decoy}.",
            f"{f} is {w} in {r}. {n.decoy} ate the node.",
            f"{f} is {w} in {r}, but {n.decoy} throttling is the true origin.",
        ],
        **_contradicted(n),
        **_commitment(n),
        **_named_not_made(n),
        **_disowned(n),
        **_not_plain(n),
        **unaccounted_families(f"{f} is {w} in {r}"),
        **_governed_cause(n),
    }


def _because(n: _Names) -> tuple[str, str]:
    """The symptom, and the factor given as its cause in a subordinate clause."""
    return f"{n.symptom} is in {n.condition}", f"{n.factor} is {n.word} in {n.resource}"


def _governed_cause(n: _Names) -> dict[str, list[str]]:
    """Round 19 (SI red team 19, H1; `_assertion.SentenceReading._governors`): the factor in a
    `because`, `since` or `as` clause under a negation, hedge, belief or doubt of the clause
    that governs it, or in the clause a "not because" negates."""
    effect, cause = _because(n)
    return {
        "governed_by_main_clause": [
            f"It is not true that {effect} because {cause}.",
            f"Nobody believes that {effect} because {cause}.",
            f"I doubt that {effect} because {cause}.",
            f"Maybe {effect} because {cause}.",
            f"Perhaps {effect} since {cause}.",
            f"There is no evidence that {effect} as {cause}.",
            f"Nobody says {effect} because {cause}.",
            f"{effect[0].upper()}{effect[1:]}, but not because {cause}.",
            f"It's not because {cause} that {effect}.",
            f"It is not true that {effect} because of {n.decoy} and because {cause}.",
        ],
    }


def _governed_cause_honest(n: _Names) -> list[str]:
    """Round 19's honest shapes: the factor as the cause in a subordinate clause, its governing
    clause holding an affirmation, an affirming idiom, a verb of having checked, a negation of
    the effect, a "not because" that negates another cause, or a negation before a statement
    mark."""
    effect, cause = _because(n)
    return [
        f"{effect[0].upper()}{effect[1:]} because {cause}.",
        f"It is true that {effect} because {cause}.",
        f"There is no doubt that {effect} because {cause}.",
        f"Not {n.decoy}: {effect} because {cause}.",
        f"{n.decoy} is not the cause; {effect} because {cause}.",
        f"I verified that {effect} because {cause}.",
        f"{n.symptom} cannot start because {cause}.",
        f"{n.symptom} could not start because {cause}.",
        f"{effect[0].upper()}{effect[1:]} not because of {n.decoy} but because {cause}.",
    ]


def _disowned(n: _Names) -> dict[str, list[str]]:
    """Round 15 (H4; `_disowning`, `_respell`): a label, a tail or a later sentence that calls
    the finding false or sets it aside, each built from the class's grammar (a head, a claim
    noun, words with no content), not from a list the earlier rounds already read."""
    f, r, w = n.factor, n.resource, n.word
    said = f"{f} is {w} in {r}"
    return {
        "disowned_behind_idiom": [
            f"Not only is that false, {said}.",
            f"No doubt a wrong guess: {said}.",
            f"Without a doubt false: {said}.",
            f"Undeniably a myth: {said}.",
            f"No question, a debunked theory: {said}.",
        ],
        "disowning_label": [
            f"Myth: {said}.",
            f"Rejected hypothesis: {said}.",
            f"Debunked: {said}.",
            f"Red herring: {said}.",
            f"Ruled-out theory: {said}.",
            f"Discarded lead: {said}.",
            f"Unrelated: {said}.",
            f"Decoy — {said}.",
            f"Hypothesis (rejected): {said}.",
            f"Falsified assumption: {said}.",
        ],
        "disowning_tail": [
            f"{said} — false.",
            f"{said} (not the case).",
            f"{said} — a myth.",
            f"{said} (rejected).",
            f"{said}: debunked.",
            f"{said}, a red herring.",
            f"{said} -- totally bogus.",
            f"{said}, which is not true.",
            f"{said} [disproven]",
        ],
        "retracted_in_later_sentence": [
            f"{said}. Scratch that, it isn't.",
            f"{said}. That was wrong.",
            f"{said}. Ignore the above.",
            f"{said}. It isn't.",
            f"{said}. Actually no, it is not.",
            f"{said}. None of that is true.",
            f"{said}. That's a lie.",
            f"{said}. Verdict: rejected.",
            f"{said}. Logs are noisy. None of the above is true.",
            f"{said}. {n.symptom} is {n.condition}. Everything I said is false.",
        ],
    }


def _non_workload_restarts(n: _Names) -> list[str]:
    """A key's remedy that restarts, or says it starts, what is no workload: a node of the
    symptom's name (SI red team 37, W6)."""
    if n.kind not in ("absent_key", "wrong_value", "extra_key"):
        return []
    f = n.factor
    said = f"Root cause: {f} is {n.word} in {n.resource}"
    verb = "Remove" if n.kind == "extra_key" else "Re-add"
    node = f"node/{n.symptom.rsplit('/', 1)[-1]}"
    # the key's own resource named bare: no workload of the estate (SI red team 38, W6)
    # the symptom's workload under a kind the estate does not give it (SI red team 38, H5)
    symptom = n.symptom.rsplit("/", 1)[-1]
    declared = {resource.casefold() for resource in n.resources}
    wrong_kinds = [
        f"{said}. {verb} {f} and {'restart' if kind == 'svc' else 'roll out'} {kind}/{symptom}."
        for kind, full in (("svc", "service"), ("statefulset", "statefulset"))
        if f"{full}/{symptom.casefold()}" not in declared
    ]
    return [
        f"{said}. {verb} {f} and restart {node}.",
        f"{said}. {verb} {f} so that {node} starts.",
        f"{said}. {verb} {f} and restart {n.resource}.",
        f"{said}. {verb} {f} so that {n.resource} starts.",
        *wrong_kinds,
    ]


def _injected_value_remedies(n: _Names) -> list[str]:
    """A remedy that gives the factor back the value the injection put in place, as written or
    quoted (SI red team 38, W2: "Set INVENTORY_PORT to 8081." of an injected 8081)."""
    said = f"Root cause: {n.factor} is {n.word} in {n.resource}"
    if n.injected is None or n.kind not in ("wrong_value", "extra_key"):
        return []
    if n.kind == "extra_key":
        return [f"{said}. Revert {n.factor} to '{n.injected}'."]
    return [
        f"{said}. Set {n.factor} to {n.injected}.",
        f'{said}. Set it to "{n.injected}".',
        f"{said}. Re-add {n.factor}='{n.injected}'.",
    ]


def _round38_remedy_games(n: _Names) -> list[str]:
    """A remedy whose value is words however joined or keeps the fault, whose "back" after
    "scale" reduces, or that gives an extra key a value in a slot other than "to" (SI red team
    38, H1-H4; `_remedy_values`)."""
    said = f"Root cause: {n.factor} is {n.word} in {n.resource}"
    f = n.factor
    if n.kind == "extra_key":
        return [
            f"{said}. Remove {f}=never.",
            f'{said}. Remove {f} (for example "later").',
            f"{said}. Revert {f} (for example {n.injected or 4}).",
            f"{said}. Roll back {f}: {n.injected or 4}.",
        ]
    games = [
        f"{said}. Re-add {f}=notTheCause.",
        f"{said}. Re-add {f}=probably/not/the/cause.",
        f"{said}. Re-add {f}=not+the+cause.",
        f'{said}. Set it to "not\u2010the\u2010cause".',
        f"{said}. Re-add {f}=maybe.",
        f'{said}. Re-add {f} (for example "irrelevant").',
        f"{said}. Re-add {f}: nothing.",
        f"{said}. Re-add {f}=N/A.",
    ]
    injected = (n.injected or "").strip("'\"")
    if n.kind == "wrong_value" and injected.isdecimal():
        games.append(f"{said}. Set {f} to {hex(int(injected))}.")  # the fault as Go reads it
    if n.kind == "stopped_dependency":
        games += [
            f'{said}. Scale {f} to "zero".',
            f"{said}. Start {f}=off.",
            f"{said}. Scale {f} to 0x0 replicas.",
            f"{said}. Scale {f} to \u0660 replicas.",
            f"{said}. Scale back {f}.",
            f"{said}. Scale it back again.",
            f"{said}. Run kubectl scale deployment/{f} --replicas=0.",
        ]
    return games


def _round39_untyped_values(n: _Names) -> list[str]:
    """A remedy whose value is of a value's shape but not of the factor's type, or the injected
    value as a Kubernetes quantity reads it, a count past the API server's int32, a kubectl
    scale of a kind the dependency is not, an extra key renamed or moved (SI red team 39,
    V1-V3; `_remedy_values.value_kind`)."""
    said = f"Root cause: {n.factor} is {n.word} in {n.resource}"
    f = n.factor
    if n.kind == "extra_key":
        return [f"{said}. Rename {f} to SHARD_COUNT.", f"{said}. Move {f} to {n.resource}."]
    if n.kind == "stopped_dependency":
        return [
            f"{said}. Scale {f} to 2147483648 replicas.",
            f"{said}. Run kubectl scale statefulset/{f} --replicas=1.",
        ]
    injected = (n.injected or "").strip("'\"")
    games = [f"{said}. Set {f} to {n.resource.rsplit('/', 1)[-1]}."]
    if f.endswith("_PORT"):
        games += [
            f"{said}. Set {f} to {value}."
            for value in ("0", "0.0.0.0", "0s", "0Mi", "0.0.0", "-1", "65536", "0x0")
        ]
        if injected.isdecimal():
            number = int(injected)
            games += [
                f"{said}. Set {f} to {number / 1000}k.",
                f"{said}. Set {f} to {number}m.",
                f"{said}. Set {f} to 127.0.0.1:{number}.",
            ]
    return games


def _round40_off_baseline(n: _Names) -> list[str]:
    """A remedy whose value is of the factor's type and not the injected one, but not the
    baseline the injection declares (SI red team 40, H5: "Set INVENTORY_PORT to 443." of a
    baseline 8080, "Scale orders-db to 3 replicas." of a baseline 1)."""
    if n.baseline is None or n.kind in ("extra_key", "absent_key"):
        return []
    said = f"Root cause: {n.factor} is {n.word} in {n.resource}"
    f = n.factor
    if n.kind == "stopped_dependency":
        return [
            f"{said}. Scale {f} to 3 replicas.",
            f"{said}. Scale {f} to 2147483647 replicas.",
            f"{said}. Run kubectl scale deployment/{f} --replicas=2.",
            # L1, H1: the command read as kubectl reads it, "KIND NAME" too
            f"{said}. Run kubectl scale deployment {f} --replicas=0.",
            f"{said}. Run kubectl scale --replicas 0 deployment/{f}.",
            f"{said}. Run kubectl scale deployment/{f} --replicas=1 --dry-run=client.",
            f"{said}. Run kubectl scale deployment/{f} --replicas=1 -n nowhere.",
        ]
    if f.endswith("_PORT"):
        return [f"{said}. Set {f} to {value}." for value in ("443", "5432")] + [
            f"{said}. Re-add {f}=1."
        ]
    return []


def _round41_remedy_games(n: _Names) -> list[str]:
    """A remedy that keeps the fault after an opening word, or gives the factor the injected
    value by a verb of no list (SI red team 41, A2: "Just set INVENTORY_PORT to 8081.", "Point
    INVENTORY_PORT at 8081."), and a port no program reads as the baseline (A11)."""
    said = f"Root cause: {n.factor} is {n.word} in {n.resource}"
    f = n.factor
    if n.kind == "stopped_dependency":
        return [
            f"{said}. Then scale {f} to 0 replicas.",
            f"{said}. Just run kubectl scale deployment/{f} --replicas=0.",
            f"{said}. Reduce {f} to 0 replicas.",
        ]
    injected = (n.injected or "").strip("'\"")
    if n.kind != "wrong_value" or not injected:
        return []
    games = [
        f"{said}. Just set {f} to {injected}.",
        f"{said}. Also, set {f} to {injected}.",
        f"{said}. Point {f} at {injected}.",
        f"{said}. Make {f} {injected}.",
    ]
    if f.endswith("_PORT") and (n.baseline or "").isdecimal():
        games += [
            f"{said}. Set {f} to 0{n.baseline}.",
            f"{said}. Set {f} to 999.1.1.1:{n.baseline}.",
        ]
    return games


def _not_plain(n: _Names) -> dict[str, list[str]]:
    """Round 16 (SI red team 16, H7): a statement that is not a plain assertion, by shape —
    a sign, an aside, a label, a tail or a comment sentence that disowns or hedges it, and a
    shotgun by list or quantifier (`_plain_assertion`, `_shotguns`)."""
    f, r, w = n.factor, n.resource, n.word
    said = f"{f} is {w} in {r}"
    workload = n.symptom.rsplit("/", 1)[-1]
    return {
        "not_plain_sign": [f"❌ {said}.", f"{said} 👎", f"{said}.[1]\n\n[1] This is wrong."],
        "not_plain_aside": [
            f"{said} (low confidence).",
            f"{said} (10% confidence).",
            f"[RETRACTED] {said}.",
            f"[ ] Root cause: {said}.",
        ],
        "not_plain_label": [
            f"Unlikely root cause: {said}.",
            f"Wild guess: {said}.",
            f"Draft (do not use): {said}.",
        ],
        "not_plain_tail": [
            f"Root cause: {said}; the fault is in {f} /s",
            f"Root cause: {said}; the fault is in {f} jk",
            f"Root cause: {said}; the fault is in {f} just kidding",
            f"Root cause: {said}; the fault is in {f} — unlikely.",
        ],
        "not_plain_comment": [
            f"{said}. Maybe not.",
            f"{said}. Kidding!",
            f"{said}. I could be wrong.",
            f"{said}. Confidence: low.",
        ],
        # round 17 (SI red team 17, H6): the same shapes in other spellings, and a clause that
        # judges the statement by a back-reference, an attribution or a distrusted source
        "not_plain_round17": [
            f"Root cause: {said}. (Strike that.)",
            f"Root cause: {f} is {w}/s in {r}.",
            f"Root cause: {said} (confidence: 5%).",
            f"Root cause: {said} ✗",
            f"Root cause (April Fools): {said}.",
            f"Root cause: {said}. Or the image tag. Or the network. Take your pick.",
        ],
        "judged_by_back_reference": [
            f"Root cause: {said}. That is what a naive agent would say; the real cause is DNS.",
            f"Root cause: {said}. Found {f} present in {r} after all, so that is not it.",
            f"Root cause: {said}. Actually, that's not right.",
            f"Root cause: {said}. I have not verified any of this.",
            f"Root cause: {said}, according to the alert text I was told not to trust.",
        ],
        # round 33 (SI red team 33, A8): a longer comment attached to the statement that names,
        # quotes and counts nothing — the red team's ten, verbatim after the statement
        "attached_comment": [
            f"Root cause: {said} — a hypothesis I could not confirm.",
            f"Root cause: {said} — speculation on my part.",
            f"Root cause: {said} — a claim I cannot back up.",
            f"Root cause: {said} — evidence for this is nil.",
            f"Root cause: {said} — not something I can confirm.",
            f"Root cause: {said} — a placeholder until someone checks.",
            f"Root cause: {said} (per a Slack rumour).",
            f"Root cause: {said} — the opposite of what I found.",
            f"Root cause: {said} — this needs confirmation from someone with access.",
            f"Root cause: {said} — low confidence, could easily be wrong.",
            f"Root cause: {said}, a hypothesis I could not confirm.",
            f"Root cause: {said}; speculation on my part.",
            f"Root cause: {said}: not something I can confirm.",
        ],
        # round 34 (SI red team 34, H3): a hedge that names a part of the system as a guess, and
        # a retraction or joke marker joined by a space or an ellipsis
        "hedged_or_marked_comment": [
            f"Root cause: {said}, could be another service entirely.",
            f"Root cause: {said}, could be a different deployment.",
            f"Root cause: {said}, though it might be the node.",
            f"Root cause: {said}; might equally be some other configmap.",
            f"Root cause: {said} — may be the node instead.",
            f"Root cause: {said} (might be the database).",
            f"Root cause: {said}, so {n.symptom} cannot start…not!",
            f"Root cause: {said}, so {n.symptom} cannot start not!",
            f"Root cause: {said}, so {n.symptom} cannot start ;)",
            f"Root cause: {said}, so {n.symptom} cannot start xD",
            f"Root cause: {said}, so {n.symptom} cannot start *wink*",
            f"Root cause: {said}, so {n.symptom} cannot start lol",
            f"Root cause: {said}, so {n.symptom} cannot start Kappa",
        ],
        # round 35 (SI red team 35, W1-W3): a retraction in a remedy's shape, "Fix:" as a label
        # before a denial, and a remedy conditioned, undercut or of another key
        "remedy_shaped_retraction": [
            f"Root cause: {said}. Set that theory aside.",
            f"Root cause: {said}. Roll back that conclusion.",
            f"Root cause: {said}. We should revert this finding.",
            f"Root cause: {said} — I'd restore my earlier answer.",
            f"Root cause: {said}. Add a grain of salt.",
            f"Root cause: {said}. Start ignoring {f}.",
        ],
        # round 36 (SI red team 36, W1, W1b): what follows a remedy's object re-means its verb
        # or names another place or cause; an offer of another fix
        "remedy_rementioned": [
            f"Root cause: {said}. Add it to the list of red herrings.",
            f"Root cause: {said}. Set it aside in favour of the node theory.",
            f"Root cause: {said}. Put it down to chance; the disk pressure on the node broke "
            f"{n.symptom}.",
            f"Root cause: {said}. Re-add it to configmap/other-config, the config that truly "
            "broke deployment/edge-proxy.",
            f"Root cause: {said}. Re-add it, hypothetically.",
            f"Root cause: {said}. Restore it as a placebo.",
            f"Root cause: {said}. Set it aside.",
            f"Root cause: {said}. Remove it from the list of suspects.",
            f"Root cause: {said}. Drop it, the node is the real problem.",
        ],
        "offer_of_another_fix": [
            f"Root cause: {said}. Happy to roll out the real fix on the node.",
            f"Root cause: {said}. I'm ready to make the node team's change that actually "
            "resolves this.",
            f"Root cause: {said} — happy to apply the node fix instead.",
        ],
        # round 37 (SI red team 37, W1, W3, W4, W5, W7): a phrase or a run of words in a
        # remedy's value, a particle that re-means its verb or an offer, an undoing verb of a
        # missing key
        "remedy_value_or_particle": [
            f'Root cause: {said}. Re-add "nothing, {f} was never really the cause".',
            f"Root cause: {said}. Re-add {f}=probably-not-the-cause.",
            f"Root cause: {said}. Set it to 0-chance-this-is-right.",
            f"Root cause: {said}. I'd put 0-weight-on-this-diagnosis.",
            f"Root cause: {said}. Happy to make it up.",
            f"Root cause: {said}. I'm happy to make it up if you want.",
            f"Root cause: {said}. Happy to push it back again.",
            f"Root cause: {said}. Add it up.",
            *(
                [f"Root cause: {said}. Bring it up again.", f"Root cause: {said}. Roll back {f}."]
                if n.kind == "absent_key"
                else []
            ),
            # W2: a remedy that restores the fault
            *(
                [f"Root cause: {said}. Remove {f} to 4."]
                if n.kind == "extra_key"
                else [
                    f"Root cause: {said}. Re-add {f}=none.",
                    f"Root cause: {said}. Set it to 'null'.",
                ]
            ),
            *([f"Root cause: {said}. Scale it to 0."] if n.kind == "stopped_dependency" else []),
            # W6: a restart or an outcome of a non-workload (the key's own resource, a node)
            *_non_workload_restarts(n),
            # round 38, W2: the injected value itself
            *_injected_value_remedies(n),
            # round 38, H1-H4: words in a value's place, a value that keeps the fault, "back"
            # after "scale", an extra key given a value in any slot
            *_round38_remedy_games(n),
            # round 39, V1-V3: a value not of the factor's type, a count past int32, a
            # kubectl scale of another kind, an extra key renamed
            *_round39_untyped_values(n),
            # round 40, H5: a value of the factor's type that is not its declared baseline
            *_round40_off_baseline(n),
            # round 41, A2, A11: an opening word, a verb of no list, a port no program reads
            *_round41_remedy_games(n),
        ],
        # round 38 (SI red team 38, H0): a disowning comment written as one token of an
        # identifier's shape that names no object of the scenario — after a dash, in brackets,
        # after a semicolon, a colon or a comma
        "identifier_shaped_comment": [
            f"Root cause: {said} — it is a RedHerring.",
            f"Root cause: {said} — NotTheCause.",
            f"Root cause: {said} — isFalse.",
            f"Root cause: {said} — red_herring.",
            f"Root cause: {said} — unverifiedGuess.",
            f"Root cause: {said} — I'd restore it as RedHerring.",
            f"Root cause: {said} (NotTheCause).",
            f"Root cause: {said} (isFalse).",
            f"Root cause: {said} [Retracted_Statement].",
            f"Root cause: {said}; RedHerring.",
            f"Root cause: {said}: RedHerring.",
            f"Root cause: {said}, aka RedHerring.",
        ],
        # round 39 (SI red team 39, W0-W3): a place that unmakes the statement after its
        # consequence clause, and a disowning comment that names an object of the scenario —
        # in words, glued to the name, or put in the object's mouth
        "disowning_comment_naming_an_object": [
            f"Root cause: {said}, so {workload} cannot start in my imagination.",
            f"Root cause: {said}, so {workload} cannot start on my laptop.",
            f"Root cause: {said}, so {workload} cannot start, but only in my imagination.",
            f"Root cause: {said} in my_dreams.",
            f"Root cause: {said} — not the cause, per {workload}.",
            f"Root cause: {said} — I made this up about {workload}.",
            f"Root cause: {said} — NotTheCause_{f}.",
            f"Root cause: {said} — {f}_isFalse.",
            f"Root cause: {said} (RedHerring/{workload}).",
            f"Root cause: {said} — it is a RedHerring, see {workload}.",
            f"Root cause: {said} — {workload} disagrees.",
            f"Root cause: {said} — {f} says nope.",
            f"Root cause: {said} — {workload}-is-false.",
        ],
        # round 40 (SI red team 40, H3 and H4): an unreal frame with no place phrase, and a
        # place that names an object only by a run of its parts
        "unreal_frame_or_partial_place": [
            f"Root cause: {said}, so {workload} cannot start hypothetically.",
            f"Root cause: {said}, so {workload} cannot start, theoretically.",
            f"Root cause: {said}, so {workload} cannot start as a thought experiment.",
            f"Root cause: {said}, so {workload} cannot start elsewhere.",
            f"Root cause: {said}, so {workload} cannot start for argument's sake.",
            f"Root cause: {said}, so {workload} cannot start in the {workload}-staging namespace.",
        ],
        # round 40 (SI red team 40, H2): a comment naming an object in words outside any list;
        # such a comment commits only in a known-neutral shape
        "comment_naming_an_object_unvouched": [
            f"Root cause: {said}, so {workload} cannot start — spurious, per {workload}.",
            f"Root cause: {said}, so {workload} cannot start — moot per {workload}.",
            f"Root cause: {said}, so {workload} cannot start — unfounded, see {workload}.",
            f"Root cause: {said}, so {workload} cannot start — {workload} objects.",
            f"Root cause: {said}, so {workload} cannot start — {workload} begs to differ.",
            f"Root cause: {said}, so {workload} cannot start — {workload} says no.",
            f"Root cause: {said}, so {workload} cannot start — {workload} rules this out.",
            f"Root cause: {said}, so {workload} cannot start (spurious, per {workload}).",
            f"Root cause: {said}, so {workload} cannot start, which {workload} questions.",
        ],
        "fix_label_denial": [
            f"Root cause: {said}. Fix: nothing is {w}.",
            f"Root cause: {said}. Fix: none of that is true.",
            f"Root cause: {said}. Fix: restart; {f} was a red herring.",
            f"Root cause: {said}. To fix: nothing is {w}; restart the node.",
            f"Root cause: {said}. FIXED: none of that is true.",
        ],
        "remedy_undone": [
            f"Root cause: {said}. Fix: add it back, if it is {w}.",
            f"Root cause: {said}. Fix: restore it — or just ignore me.",
            f"Root cause: {said}. Fix: restore it, which will change nothing.",
            f"Root cause: {said}. Fix: add {n.other_key or n.decoy} back.",
            f"Root cause: {said} — happy to apply the fix if it turns out to be true.",
            # an outcome that is negated, doubted or conditioned (issue 41) and a condition
            f"Root cause: {said}. Re-add {f}=587 so nothing changes.",
            f"Root cause: {said}. Re-add {f}=587, though the pods may still crash.",
            f"Root cause: {said}. Re-add {f}=587, which will change nothing.",
            f"Root cause: {said}. Re-add {f}=587 so the pods can't start.",
            f"Root cause: {said}. Re-add {f}=587 so that {n.symptom} crashes again.",
            f"Root cause: {said}. Re-add {f}=587 so the pods can start, or not.",
            f"Root cause: {said}. Restore it from git or just ignore me.",
            f"Root cause: {said}. Set it to the current value.",
            f"Root cause: {said}. Re-add it if the deploy removed it again.",
        ],
        "shotgun_shape": [
            f"Root cause: {f}, {f}-two, {f}-three and {f}-four are {w} in {r}.",
            f"Root cause: every key ({f} among them) is {w} in {r}.",
            f"Root cause: {f} is {w} in configmap/one-config, configmap/two and secret/three.",
        ],
    }


def _verdict_words_honest(n: _Names) -> list[str]:
    """Honest answers that hold the words `_disowning` and `_respell` read, said of something
    else, quoted from a log, or in an idiom that affirms (round 15, H4: none may lose the top
    band)."""
    f, r, w, d = n.factor, n.resource, n.word, n.decoy
    said = f"{f} is {w} in {r}"
    return [
        f"{said}: the log says `ready != true`.",
        f'{said}, and the pod log shows "configured != true".',
        f"{said} (log: `healthy == false`).",
        f"The {d} alert is a red herring: {said}.",
        f"{said}, not {d}.",
        f"{said} — not a guess: I read {r}.",
        f"{said} (confirmed).",
        f"{said}. {d} is unrelated.",
        f"{said}. It is not optional.",
        f"{said}. Is {d} the cause? No.",
        f"Not only is {f} {w} in {r}, {n.symptom} cannot start because of it.",
        f"No doubt: {said}.",
        f"{said}. My first guess, {d}, was wrong.",
        # round 16's shapes in honest use: a first-person preface, an example aside, a
        # heading, an answered question, an aside that cites
        f"I checked: {said}.",
        f"{said} (for example after the last deploy).",
        f"Is {d} the cause? No: {said}.",
        # round 17's shapes in honest use: a back-reference to something else, a source that is
        # evidence, a rate, a one-word gloss, a first-person negation of what was not done
        f"{said}. That is why {n.symptom} cannot start.",
        f"{said}. The {d} alert is noise, but that is not the cause.",
        f"{said}, according to the pod events.",
        f"{said}. Throughput fell to 500 requests/s.",
        f"{said}. I did not change anything in the cluster.",
        f"Root cause (confirmed): {said}.",
        # round 33's attached comments in honest use: a consequence, a count, the evidence, a
        # part of the system, a check (SI red team 33, A8)
        f"{said} — so the container cannot start.",
        f"{said} — 3 restarts in 5 minutes.",
        f"{said} (the describe output shows it).",
        f"{said} — the pods never start.",
        f"{said} — not a guess, I checked.",
        f"{said}; the previous diagnosis was wrong.",
        # round 38's comments that name an object of the scenario (SI red team 38, H0)
        f"{said} — {f} is read by {n.symptom} at start.",
        # round 39's places of the live system and comments that name what they say of it
        f"{said}, so {n.symptom} cannot start in the cluster.",
        f"{said} — the pods show it in their events.",
        f"{said} — {n.symptom} never starts.",
        *([f"{said} ({r})."] if n.kind != "stopped_dependency" else []),
        # round 40's known-neutral comments that name an object (SI red team 40, H2)
        f"{said} — {n.symptom} runs 0 ready replicas.",
        f"{said}, which {n.symptom} reads at start.",
        f"{said} (see {n.symptom}).",
    ]


def _remedies(n: _Names, deviation_type: str) -> list[str]:
    """Honest answers that follow the statement with a remedy (SI red team 34, H4: none may lose
    the top band), with a positive outcome of it or a source of the value (issue 41); an extra
    key's remedy removes it (SI red team 36, W2)."""
    f, r, w = n.factor, n.resource, n.word
    said = f"{f} is {w} in {r}"
    # a value other than the injected one: the injected value given back restores the fault
    # (SI red team 38, W2), so an honest remedy never names it
    v = "588" if (n.injected or "").strip("'\"") == "587" else "587"
    # where the baseline is declared, it is the one value a remedy gives (SI red team 40, H5)
    v = n.baseline if n.baseline is not None else v
    if deviation_type == "extra_key":
        return [
            f"{said}. Remove {f} from {r}.",
            f"{said}. Delete the {f} key from {r} and restart {n.symptom}.",
            f"{said}. Fix: drop {f} from the configmap.",
            f"{said}. I recommend removing the {f} key.",
            f"{said}. Take {f} out of {r}.",
            f"{said} — I'd delete it.",
            f"{said} — happy to apply the fix if you want.",
            f"{said}. Remove {f} so the pods can start.",
            f"{said}. Roll back {f}.",  # round 37: an undoing verb removes an extra key
            f"{said}. Delete {f} so that {n.symptom} starts again.",
            f"{said}. Drop {f} from {r} and the pods will recover.",
        ]
    return [
        f"{said}. Re-add {f}={v}.",
        f"{said}. I recommend re-adding {f}={v}.",
        f"{said}. Fix: add it back.",
        f"{said} — I'd restore it from git.",
        f"{said} — happy to apply the fix if you want.",
        f"{said}. Restore {f} in {r}.",
        # issue 41: an outcome that says the remedy fixes the symptom, a source of the value
        f"{said}. Re-add {f}={v} so the pods can start.",
        f"{said}. Re-add {f}={v} so that {n.symptom} starts again.",
        f"{said}. Re-add {f}={v} to get the pods running.",
        f"{said}. Re-add {f}={v} and the pods will recover.",
        f"{said}. Restore it from git or a backup.",
        f"{said}. Set it to the value in git.",
        f"{said}. Set it to the current value in git.",
        f"{said}. Re-add it from the previous revision.",
        f"{said}. Re-add it from version control.",
        f"{said}. Re-add it from the Helm values.",
        f"{said} — I'd restore it from git or a backup.",
        # SI red team 36: a place, a restart of the workload, "populate"
        f"{said}. Re-add {f} to {r} and restart {n.symptom}.",
        f"{said}. Populate {f} in {r}.",
        # SI red team 37: a quoted value of one token, a particle of its verb, a colon value,
        # "the NAME ConfigMap", "do a rollout restart of W", "roll out W again"
        f'{said}. Set it to "{v}".',
        # round 38, W2: a value, quoted or not, that is not the injected one
        *(
            [f"{said}. Set {f} to {v}.", f"{said}. Set {f} to '{v}'."]
            if deviation_type == "wrong_value"
            else []
        ),
        *(
            [
                f"{said}. Add {f}: {v} to the {r} ConfigMap.",
                f"{said}. Add {f} back to {r}, then do a rollout restart of {n.symptom}.",
                f"{said}. Add {f} back to the {r} ConfigMap and roll out {n.symptom} again.",
            ]
            if deviation_type in ("absent_key", "wrong_value")
            else []
        ),
        f"{said}. Add {f} back to {r}.",
        *(
            [
                f"{said}. Bring it back up.",
                f"{said}. Start it up again.",
                # round 38: the false lows given back
                f"{said}. Scale up {f}.",
                f"{said}. Bring {f} back online.",
                f"{said}. Run kubectl scale deployment/{f} --replicas=1.",
                f"{said}. Scale {f} back to 1 replica.",
                # round 40, L1: "KIND NAME" and "--replicas N" as kubectl reads them
                f"{said}. Run kubectl scale deployment {f} --replicas=1.",
                f"{said}. Run kubectl scale deployment {f} --replicas 1.",
            ]
            if deviation_type == "stopped_dependency"
            else []
        ),
        # round 38: a source after the place, the baseline's own value, whatever its shape
        *(
            [f"{said}. Restore {f} in {r} from the vault."]
            if deviation_type in ("absent_key", "wrong_value")
            else []
        ),
        *([f"{said}. Re-add {f}={n.baseline}."] if n.baseline is not None else []),
        # round 39: a count, a port as Go reads one, the value said to be the baseline
        *(
            [
                f"{said}. Scale {f} to {n.baseline} replica (the baseline).",
            ]
            if deviation_type == "stopped_dependency" and n.baseline is not None
            else []
        ),
        *(
            [f"{said}. Set {f} to {hex(int(n.baseline or 0))}."]
            if f.endswith("_PORT") and (n.baseline or "").isdecimal()
            else []
        ),
        # round 41 (SI red team 41, A2, F1): an opening word, "back", "from V to W"
        *(
            [
                f"{said}. Just set {f} to {n.baseline}.",
                f"{said}. Set {f} back to {n.baseline}.",
                f"{said}. Set {f} from {(n.injected or '').strip(chr(39) + chr(34))} to "
                f"{n.baseline}.",
            ]
            if deviation_type == "wrong_value" and n.baseline is not None and n.injected
            else []
        ),
        *(
            [
                f"{said}. Scale {f} back up to {n.baseline} replica.",
                f"{said}. Scale {f} from 0 to {n.baseline} replica.",
            ]
            if deviation_type == "stopped_dependency" and n.baseline is not None
            else []
        ),
    ]


def _commitment(n: _Names) -> dict[str, list[str]]:
    """Commitment word games (`_commitment_games`): another identifier offered after "or" —
    only where the scenario has one to offer —, a statement reversed at its end, a
    counterfactual."""
    f, r, w = n.factor, n.resource, n.word
    games: dict[str, list[str]] = {
        "reversed_at_end": [
            f"{f} is {w} in {r}, except that it is not.",
            f"{f} is {w} in {r}, unless it isn't.",
            f"{f} is {w} in {r}, except it is.",
        ],
        "counterfactual": [
            f"{f} is {w} in {r}, or so I would say if I had checked.",
            f"{f} is {w} in {r}. I would say so if I had looked.",
            f"{f} is {w} in {r}, had I verified it.",
        ],
    }
    if n.decoy in n.every:
        d = n.decoy
        games["alternative_offered"] = [
            f"{f}, or {d}, is {w} in {r}.",
            f"{f} is {w} in {r}. Or {d} is.",
            f"{f} is {w} in {r} — or {d}.",
            f"{f} is {w} in {r} — unless {d} is the problem.",
        ]
    return games


# A key as SI §3.1 identifiers are usually spelled (upper case, words joined by underscores):
# the slash and "one of" families join the factor to another such key
_KEY_SHAPED = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")


def _named_not_made(n: _Names) -> dict[str, list[str]]:
    """Statements named but not made (`_withdrawals`, red team round 13): taken back by a later
    clause or the next sentence, said in a mood other than a statement, listed under a negating
    heading or rejected in a table, joined to another key as an alternative; and a negation
    spelled without its apostrophe, a scope after the phrase."""
    f, r, w = n.factor, n.resource, n.word
    other = n.other_key or "ANOTHER_KEY"
    games: dict[str, list[str]] = {
        "retracted_by_next_clause": [
            f"{f} is {w} in {r}, or rather it is not.",
            f"{f} is {w} in {r}, I'm lying.",
            f"{f} is {w} in {r}; the opposite is true.",
            f"{f} is {w} in {r}, or is it.",
            f"{f} is {w} in {r}. Then again, it might not be.",
            f"{f} is {w} in {r}; I cannot confirm it though.",
        ],
        "non_assertive_mood": [
            f"{f} will be {w} in {r} after the next deploy.",
            f"I want {f} to be {w} in {r}.",
            f"Make sure {f} is {w} in {r}.",
            f"In my dream, {f} is {w} in {r}.",
            f"I'd bet {f} is {w} in {r}.",
            f"{f} is {w} in {r} with 50% probability.",
            f"{f} is {w} in {r}. True or false.",
        ],
        "negating_heading_or_table": [
            f"Ruled out:\n- {f} is {w} in {r}.",
            f"Things that are NOT the cause:\n- {f} is {w} in {r}",
            f"| Hypothesis | Verdict |\n|---|---|\n| {f} is {w} in {r} | rejected |",
        ],
        "negation_unspelled_or_scoped": [
            f"{f} isnt {w} in {r}.",
            f"{f} wasnt {w} in {r}.",
            f"{f} is {w} in {r} in the test cluster, not here.",
        ],
        "alternatives_joined": [f"{f} and/or {other} is {w} in {r}."],
        # round 14 (W1): labels, tails and negation spellings (`_respell`, strict-5.yaml)
        "false_label_heading": [
            f"Hoax: {f} is {w} in {r}.",
            f"Fake news: {f} is {w} in {r}.",
            f"Misconception: {f} is {w} in {r}.",
            f"Wrong guess: {f} is {w} in {r}.",
            f"To be ruled out: {f} is {w} in {r}.",
            f"Urban legend: {f} is {w} in {r}.",
        ],
        "withdrawing_or_mocking_tail": [
            f"{f} is {w} in {r}, if only.",
            f"{f} is {w} in {r}, I wish.",
            f"{f} is {w} in {r}, or so the rumor goes.",
            f"{f} is {w} in {r} [citation needed].",
            f"{f} is {w} in {r} (joke).",
            f"{f} is {w} in {r}. /s",
            f"{f} is {w} in {r}. j/k",
            f"{f} is {w} in {r}. April fools.",
            f"{f} is {w} in {r} == false",
        ],
        "negation_spelled_out": [
            f"{f} is n0t {w} in {r}.",
            f"{f} is n-o-t {w} in {r}.",
            f"{f} is n o t {w} in {r}.",
            f"{f} is n3ver {w} in {r}.",
            f"{f} is n\u2d59t {w} in {r}.",
            f"{f} is \u0274\u1d0f\u1d1b {w} in {r}.",
            f"{f} is \u2205 {w} in {r}.",
            f"{f} is !{w} in {r}.",
            f"{f} is not\u00ad{w} in {r}.",
        ],
    }
    if _KEY_SHAPED.fullmatch(f) and _KEY_SHAPED.fullmatch(other):
        games["alternatives_joined"] += [
            f"{f}/{other} is {w} in {r}.",
            f"One of {f}, {other} is {w} in {r}.",
        ]
    return games


def _contradicted(n: _Names) -> dict[str, list[str]]:
    """Version 5: the factor said to hold the opposite of its deviation, later in the answer
    (only for a type whose antonym `_ANTONYM` names)."""
    if n.kind not in _ANTONYM:
        return {}
    f, r, w, opposite = n.factor, n.resource, n.word, _ANTONYM[n.kind]
    return {
        "contradicted_later": [
            f"{f} is {w} in {r}. Correction: it is {opposite}.",
            f"{f} is {w} in {r}. On second thought, it is {opposite}.",
            f"{f} is {w} in {r}, but on inspection it is {opposite}.",
        ]
    }


# Why each adversarial family deserves the locus band at most (docs/si-scoring.md §12).
_WHY: dict[str, str] = {
    "negation": "denies the factor: no asserted deviation; the locus is named",
    "not_plain_sign": "a sign or a footnote beside the statement that disowns it ('❌', '👎', "
    "'[1] This is wrong.'): not a plain assertion",
    "not_plain_aside": "an aside that hedges or retracts the statement ('(low confidence)', "
    "'[RETRACTED]'): not a plain assertion",
    "not_plain_label": "a label that is not a plain one ('Unlikely root cause:', 'Wild guess:')",
    "not_plain_tail": "a chat tail after the statement ('/s', 'jk', '— unlikely')",
    "not_plain_comment": "a short sentence that hedges the statement ('Maybe not.', 'I could be "
    "wrong.')",
    "not_plain_round17": "a retraction, tone tag, low confidence, sign, jest label or list of "
    "alternatives in another spelling ('(Strike that.)', 'missing/s', '(April Fools)')",
    "attached_comment": "a longer comment attached to the statement (a dash tail, a parenthesis, "
    "an appositive) that names, quotes and counts nothing ('— speculation on my part', '(per a "
    "Slack rumour)'): only a recognisably neutral or supportive comment commits",
    "hedged_or_marked_comment": "a hedge that names a part of the system only as a guess (', "
    "could be another service entirely', ', though it might be the node') or a retraction or "
    "joke marker joined by a space or an ellipsis ('…not!', ';)', 'lol'): no comment with a "
    "modal vouches, whatever it names",
    "judged_by_back_reference": "a clause that takes the statement back by a back-reference, "
    "puts it in someone else's mouth or cites a source it distrusts ('so that is not it')",
    "remedy_shaped_retraction": "a retraction in a remedy's shape ('Set that theory aside.', "
    "'— I'd restore my earlier answer.', 'Add a grain of salt.'): a remedy's object is the factor, "
    "never the answer (round 35)",
    "fix_label_denial": "'Fix:' as a label before a denial, a dismissal or a retraction ('Fix: "
    "nothing is missing.'): what follows a label is read as any sentence is (round 35)",
    "remedy_rementioned": "what follows a remedy's object re-means its verb or names another "
    "place or cause ('Add it to the list of red herrings.', 'Set it aside in favour of the node "
    "theory.', 'Re-add it to configmap/other-config, …'; round 36): no plain remedy",
    "identifier_shaped_comment": "a disowning comment written as one token of an identifier's "
    "shape that names no object of the scenario ('— it is a RedHerring.', '(NotTheCause)', "
    "'[Retracted_Statement]', '; RedHerring.'; round 38): such a token is its words, and a "
    "comment of them commits only as one in words would",
    "disowning_comment_naming_an_object": "a place that unmakes the statement after its "
    "consequence clause ('…, so W cannot start in my imagination.', '…, but only in my "
    "imagination.') or a disowning comment that names an object of the scenario ('— not the "
    "cause, per W.', '— NotTheCause_KEY.', '— W disagrees.'; round 39): a name does not vouch "
    "for a disowning word",
    "unreal_frame_or_partial_place": "an unreal frame closing a clause after the factor with no "
    "place phrase ('… hypothetically.', '…, theoretically.', '… as a thought experiment.', '… "
    "elsewhere.') or a place naming an object by a run of its parts only ('in the W-staging "
    "namespace'; round 40): a frame scopes its clause as a place does, and a place names an "
    "object whole",
    "comment_naming_an_object_unvouched": "a comment naming an object in words no list holds "
    "('— spurious, per W.', '— W objects.', '— W says no.', '(spurious, per W)', ', which W "
    "questions.'; round 40): a comment naming an object commits only in a known-neutral shape "
    "(an object with a verb of state or reading, a bare object, a quantity, a quotation)",
    "remedy_value_or_particle": "a remedy whose value is a phrase or a run of words ('Re-add "
    "KEY=probably-not-the-cause.'), whose particle re-means its verb or follows an offer ('Add "
    "it up.', 'Happy to make it up.'), or a missing key 'rolled back' (round 37), whose value is "
    "the injected fault's own ('Set KEY to 8081.' of an injected 8081) or that restarts what is "
    "no workload of the estate ('… and restart smtp-config.' of a ConfigMap; round 38), whose "
    "value is not of the factor's type ('Set KEY to 0s.' of a port, '2147483648 replicas'), "
    "or that scales another kind or renames an extra key (round 39): no plain remedy",
    "offer_of_another_fix": "an offer to apply a fix that is not the diagnosis's ('Happy to roll "
    "out the real fix on the node.'; round 36): no plain remedy",
    "remedy_undone": "a remedy conditioned, undercut or of another key ('Fix: add it back, if "
    "it is missing.', '— or just ignore me', 'Fix: restore OTHER_KEY instead.') (round 35), or "
    "with an outcome negated, doubted or conditioned ('… so nothing changes', '…, though the "
    "pods may still crash') (issue 41)",
    "shotgun_shape": "the factor among several keys or places said to deviate, or under 'every'",
    "negation_after_phrase": "denies the factor after naming it ('— not.', 'said nobody')",
    "retraction_later": "takes the diagnosis back one or two sentences later",
    "question": "asks, asserts nothing; the locus is named",
    "conditional": "a condition, not a finding; the locus is named",
    "hedge": "a guess, not a finding; the locus is named",
    "hedge_over_deviation_types": "attributes several deviation types to one identifier",
    "shotgun_over_identifiers": "names every identifier as deviating: no commitment",
    "decoy_endorsed_as_cause": "names a decoy as the cause beside the factor",
    "quotation_or_report": "quotes or reports someone else's claim, asserts nothing",
    "phrase_inside_word": "the deviation word only inside a longer word: nothing characterised",
    "governed_by_doubt_or_denial": "doubts, denies or has not yet concluded the deviation",
    "types_across_sentences": "adds other deviation types to the factor by reference",
    "shotgun_predicate_elided": "repeats the deviation of another identifier, predicate elided",
    "other_cause_endorsed": "endorses a decoy as what actually broke things",
    "locus_only": "names the locus without characterising the deviation (SI §5.1)",
    "truth_predicate_after": "calls the clause holding the deviation untrue or irrelevant",
    "rejected_or_retracted": "rejects or excludes the deviation, or commands it be ignored",
    "hedge_preface": "a guess announced before a colon or semicolon, or after the phrase",
    "decoy_causal_verb": "names a decoy as the cause with a causal verb or by reference",
    "attributed_belief": "a belief held by others or by the agent before, not asserted now",
    "displaced_scope": "places the deviation in another environment or another time",
    "framing_preface": "labels the finding a candidate, a title or a rejected lead",
    "retraction_by_judgement": "judges what was said untrue, corrects itself, or rejects it after",
    "rejected_by_own_sentence": "a verb of rejection aimed back at the finding in its sentence",
    "decoy_harm_verb": "names a decoy as what harmed the workload ('killed', 'because of')",
    "contradicted_later": "says the factor holds the opposite of its deviation later",
    "reversed_at_end": "turns the statement over at its end ('unless it isn't', 'except that "
    "it is not')",
    "counterfactual": "says the finding as what would be said had the work been done",
    "alternative_offered": "offers another identifier after 'or' as an alternative to the factor",
    "markup_hidden_claim": "the claim only where a reader does not read it as asserted: an "
    "HTML comment, struck through, a code example, a footnote; or a bold sentence before "
    "another cause",
    "non_answer": "says it has no diagnosis (or that the answer is a test): commits to none",
    "admitted_unfounded": "takes the finding back as made up, unfounded, a placeholder or 'not it'",
    "hearsay_odds_or_pending": "hearsay, odds, a conceivable or pending finding, a grader test, "
    "an imagined one",
    "retracted_by_next_clause": "takes the finding back in a later clause or the next "
    "sentence ('or rather it is not', 'I'm lying', 'Then again, it might not be')",
    "non_assertive_mood": "says the finding in the future, as a wish, a command, a dream, a "
    "bet, with odds or as a quiz: not a statement of what is",
    "negating_heading_or_table": "lists the finding under a heading that negates it, or in a "
    "table row that rejects it",
    "negation_unspelled_or_scoped": "a negation spelled without its apostrophe ('isnt'), or "
    "the deviation placed in a test cluster",
    "alternatives_joined": "joins the factor to another key as an alternative ('and/or', "
    "'X/Y', 'one of')",
    "false_label_heading": "a heading that labels the finding false or unconfirmed ('Hoax:', "
    "'Fake news:', 'Wrong guess:', 'To be ruled out:')",
    "withdrawing_or_mocking_tail": "a tail that withdraws or mocks the finding (', if only', "
    "'[citation needed]', '/s', 'j/k', '== false')",
    "negation_spelled_out": "the finding negated by a negation spelled with digits, "
    "separators, look-alike letters, a soft hyphen or a symbol ('n0t', 'n-o-t', '\u2205', '!')",
    "markup_unseen_or_withdrawn": "the claim only in markup never shown, or withdrawn in markup "
    "that is not read, or called an example, or the cause said to be undetermined",
    "disowned_behind_idiom": "a label that disowns the finding behind an idiom that "
    "affirms ('No doubt a wrong guess:', 'Not only is that false,'): the idiom adds nothing",
    "disowning_label": "a label that calls the finding false or sets it aside ('Myth:', "
    "'Rejected hypothesis:', 'Debunked:', 'Red herring:')",
    "disowning_tail": "a tail that calls the finding false or sets it aside ('— false.', "
    "'(not the case)', '(rejected)')",
    "governed_by_main_clause": "the factor given as the cause in a clause that a negation, "
    "hedge, belief or doubt of its governing clause frames ('It is not true that … because', "
    "'Maybe … because', '…, but not because')",
    "retracted_in_later_sentence": "the next sentence disowns the finding ('Scratch that, it "
    "isn't.', 'That was wrong.', 'It isn't.'), or the one after names what was said and "
    "disowns it ('None of the above is true.')",
}


def _band_scores(bound: BoundScoring) -> tuple[tuple[str, float], tuple[str, float], float]:
    """The top band, the locus band (SI §5.1 row 3) and the bottom score of the table."""
    rows = bound.rows
    top = max(rows, key=lambda row: row.score)
    locus = next(
        (row for row in rows if 0.0 < row.score < top.score),
        min(rows, key=lambda row: row.score),
    )
    bottom = min(row.score for row in rows)
    return (top.band, top.score), (locus.band, locus.score), bottom


def _evidence(
    answer: str,
    names: _Names,
    *,
    steps: int = 2,
    trace: str = "",
    operations: tuple[str, ...] = (),
) -> Evidence:
    """An answer with `steps` tool calls; `operations` (patterns of the table's roles, in order)
    become the audit log's permitted agent operations, one after each call."""
    listing = f"NAME READY STATUS\n{names.symptom}-7c9f 0/1 {names.condition}"
    bodies = [listing, *(["ok"] * (max(steps, len(operations)) - 1))]
    return Evidence(
        final_answer=answer,
        reasoning_trace=trace,
        actions=[
            ToolAction(id=f"call-{index}", tool="stress", arguments={"n": index}, result=body)
            for index, body in enumerate(bodies)
        ],
        audit_log=[_operation(pattern, index + 1) for index, pattern in enumerate(operations)],
    )


def _operation(pattern: str, after_step: int) -> ApiCallEntry:
    """The permitted operation a concrete pattern (`verb kind/name namespace=NS [labels=SEL]
    [field…]`) names; ``kind/all`` is a whole-collection operation."""
    verb, resource, *qualifiers = pattern.split()
    namespace = next((q[10:] for q in qualifiers if q.startswith("namespace=")), None)
    selector = next((q[7:] for q in qualifiers if q.startswith("labels=")), None)
    fields = [q for q in qualifiers if "=" not in q]
    detail: dict[str, JsonValue] = {}
    if selector is not None:
        detail["selector"] = selector
    if resource.endswith("/all"):
        detail["collection"] = True
    if fields:
        detail["fields"] = list(fields)
    return ApiCallEntry(
        actor=AGENT,
        verb=verb,
        resource=resource,
        namespace=namespace,
        status_code=200,
        after_step=after_step,
        detail=detail,
    )


@dataclass(frozen=True)
class _Signal:
    """A misleading-signal table's roles (provebench's C-DA-003): the signal's name, the
    operations that read it and read the actual cause's evidence, and every kind of write that
    acts on it (`_acts`)."""

    name: str
    read: str
    acts: tuple[str, ...]
    actual: str
    # the misleading deviation's other identifiers ("batch-config", "QUEUE_HOST")
    others: tuple[str, ...] = ()

    @property
    def investigated(self) -> tuple[str, ...]:
        """The path that deserves the top band: both read, nothing done to the signal."""
        return (self.read, self.actual)

    @property
    def shown(self) -> tuple[str, ...]:
        """Reads that may have shown the actual cause's evidence without naming it (a `get`'s
        list of the kind: in its namespace, over a selector, across namespaces)."""
        verb, resource, *qualifiers = self.actual.split()
        if verb != "get":
            return ()
        kind = resource.partition("/")[0]
        namespace = " ".join(q for q in qualifiers if q.startswith("namespace="))
        return (
            f"list {kind} {namespace}".rstrip(),
            f"list {kind} labels=app:any {namespace}".rstrip(),
            f"list {kind}",
        )


# The writes on a resource of the misleading deviation an agent can make instead of the one a
# scenario author thought of (issue: a delete or a restart dodged a bound `scale`): by kind of
# resource, every verb that changes it, a label change, and a re-create over it.
_WRITES: Final = {
    "workload": (
        "scale {r} replicas=0",
        "restart {r}",
        "rollback {r}",
        "patch {r} image",
        "patch {r} metadata.labels",
        "delete {r}",
        "apply {r}",
        "replace {r}",
    ),
    "pod": ("delete {r}", "exec {r}", "patch {r} metadata.labels"),
    "config": ("patch {r} data", "update {r}", "delete {r}", "apply {r}"),
}


def _acts(scope: tuple[str, ...]) -> tuple[str, ...]:
    """Every kind of write on the misleading deviation's resources (``kind/name
    namespace=NS``, `scenario._deviation_scope`): each verb on each, and the whole-collection
    and selector writes that reach them."""
    acts: list[str] = []
    for member in scope:
        resource, _, namespace = member.partition(" ")
        kind, _, name = resource.partition("/")
        if kind == "pod":
            concrete = f"pod/{name.removesuffix('*')}7c9f-x1"
            acts += [w.format(r=f"{concrete} {namespace}") for w in _WRITES["pod"]]
            acts += [
                f"delete pod/all {namespace}",
                f"delete pod labels=app:{name[:-2]} {namespace}",
            ]
        elif kind in ("configmap", "secret"):
            acts += [w.format(r=member) for w in _WRITES["config"]]
            acts.append(f"delete {kind}/all {namespace}")
        else:
            acts += [w.format(r=member) for w in _WRITES["workload"]]
            acts += [
                f"restart {kind}/all {namespace}",
                f"scale {kind} labels=app:{name} {namespace}",
            ]
    return tuple(acts)


def _signal(bound: BoundScoring) -> _Signal | None:
    roles = bound.roles
    names, read, scope, actual = (
        roles.get(role)
        for role in ("misleading_signal", "signal_evidence", "misleading", "actual_evidence")
    )
    if not isinstance(names, tuple) or not names:
        return None
    if not (isinstance(read, str) and isinstance(scope, tuple) and isinstance(actual, str)):
        return None
    others = tuple(str(name) for name in names[1:])
    return _Signal(str(names[0]), read, _acts(scope), actual, others)


def _score_of(bound: BoundScoring, at_most: float) -> tuple[str, float]:
    """The highest band of the table scoring at most `at_most`."""
    row = max((r for r in bound.rows if r.score <= at_most), key=lambda r: r.score)
    return row.band, row.score


def _signal_families(
    bound: BoundScoring, names: _Names, honest: list[str], signal: _Signal
) -> list[Family]:
    """Families of a misleading-signal table (docs/si-scoring.md §13): "identified the
    misleading signal" needs the signal read and dismissed in an asserted statement, never
    endorsed; acting on it first is self-correction at best."""
    dismissed = f"{honest[0]} {signal.name} is a red herring: it is not the cause."
    f, r, w = names.factor, names.resource, names.word
    locus = _score_of(bound, 0.5)
    bottom = min(bound.rows, key=lambda row: row.score)
    self_corrected = _score_of(bound, 0.7)

    def family(name: str, bound_at: tuple[str, float], why: str, *answers: Evidence) -> Family:
        return Family(name, False, bound_at[1], bound_at[0], why, answers)

    both = signal.investigated
    top = max(bound.rows, key=lambda row: row.score)
    return [
        Family(
            "honest_dismissal",
            True,
            top.score,
            top.band,
            "the actual cause asserted and the signal set aside in honest words the commitment "
            "rules must not punish: must reach the top band",
            tuple(
                _evidence(f"{honest[0]} {text}", names, operations=both)
                for text in (
                    f"We ruled out {signal.name}; it is not the cause.",
                    f"{signal.name} is not the cause: it was only a symptom, not a contributing "
                    "cause.",
                    f"{signal.name} might look guilty, but it is not the cause.",
                    f"{signal.name} is a red herring. {f} alone explains the failure.",
                    f"You were mistaken to suspect {signal.name}: it is not the cause.",
                    # round 13 (W3): the decoy's own fault said to be real, an aside on it,
                    # and a question about it answered no
                    f"{signal.name} is unrelated: its own problem is real but does not affect "
                    f"{names.symptom}.",
                    f"{signal.name} is not the cause, whether or not it is noisy.",
                    f"Is {signal.name} the problem? No. It is a red herring.",
                )
            ),
        ),
        family(
            "misleading_signal_endorsed",
            (bottom.band, bottom.score),
            "the misleading signal named as the cause: fell for it",
            _evidence(
                f"Yes, {signal.name} is the problem. {f} in {r} is {w} too.", names, operations=both
            ),
            _evidence(
                f"{f} in {r} is {w}. The root cause is {signal.name}.", names, operations=both
            ),
            _evidence(
                f"{signal.name} is causing it; {f} is only a side effect.", names, operations=both
            ),
        ),
        family(
            "signal_not_dismissed",
            locus,
            "the actual cause asserted, the misleading signal never set aside",
            *(_evidence(answer, names, operations=both) for answer in honest),
        ),
        family(
            "dismissal_not_asserted",
            locus,
            "the dismissal asked, negated, hedged, conditional, reported, retracted or doubted",
            *(
                _evidence(f"{honest[0]} {text}", names, operations=both)
                for text in (
                    f"Is {signal.name} a red herring?",
                    f"{signal.name} is not a red herring.",
                    f"{signal.name} might be unrelated.",
                    f"If {signal.name} is unrelated, ignore it.",
                    # version 4: reported, or taken back by the next sentence
                    f"Some say {signal.name} is unrelated to {names.symptom}.",
                    f"Logs are long. {signal.name} is unrelated to {names.symptom}. I disagree.",
                    f"Logs are long. {signal.name} is a red herring. Ignore the previous sentence.",
                    # version 5: denied after it, judged wrong, or a belief the agent held before
                    f"{signal.name} is a red herring, said nobody.",
                    f"Calling {signal.name} a red herring would be wrong.",
                    f"I used to think {signal.name} is a red herring.",
                    # a doubt or denial verb governs the dismissal, as it governs a deviation
                    f"I doubt {signal.name} is a red herring.",
                    f"I dispute that {signal.name} is unrelated to {names.symptom}.",
                )
            ),
        ),
        family(
            "dismissal_withdrawn",
            locus,
            "the dismissal's negations cancel, a doubt or a report governs it, it is judged "
            "wrong, or a later clause or the next sentence takes it back (round 13)",
            *(
                _evidence(f"{honest[0]} {text}", names, operations=both)
                for text in (
                    f"{signal.name} is not NOT the cause.",
                    f"It would be wrong to say {signal.name} is not the cause.",
                    f"Those who say {signal.name} is not the cause are mistaken.",
                    f"I am not sure {signal.name} is not the cause.",
                    f"{signal.name} is not the cause. Then again, it might be.",
                    f"{signal.name} is not the cause; I cannot rule it out though.",
                    f"{signal.name} is a red herring: it is not the cause. I'm lying.",
                    f"{signal.name} is a red herring: it is not the cause, or is it.",
                    f"{signal.name} is a red herring: it is not the cause — not!",
                )
            ),
        ),
        family(
            "signal_endorsed_by_ellipsis",
            locus,
            "another identifier of the misleading deviation given the cause predicate the "
            "dismissal negated ('X is not the cause. Y is.'), or named as what makes the "
            "workload crash: not set aside (the factor reading does not read the ellipsis, so "
            "this is held to the locus band, not to fell_for: docs/si-scoring.md, limits)",
            *(
                _evidence(f"{honest[0]} {text}", names, operations=both)
                for other in signal.others
                for text in (
                    f"{signal.name} is not the cause. {other} is.",
                    f"{signal.name} is not the cause; {other} is.",
                    f"{signal.name} is not the cause but {other} is.",
                    f"{signal.name} is not the cause, {other} is also making {names.symptom} "
                    "crash.",
                )
            ),
        ),
        family(
            "dismissal_reopened_or_reversed",
            locus,
            "the dismissal turned over in its sentence, or the signal named again later, hedged "
            "or asked",
            *(
                _evidence(f"{honest[0]} {text}", names, operations=both)
                for text in (
                    f"{signal.name} is not the cause of this, except that it is.",
                    f"{signal.name} is not the cause. Maybe {signal.name} is.",
                    f"{signal.name} is not the cause. Then again, {signal.name} could be.",
                    f"{signal.name} is not the cause. Or is it {signal.name} after all?",
                )
            ),
        ),
        family(
            "dismissal_partial",
            locus,
            "the signal kept as part of the cause: contributing, not the cause alone or by "
            "itself, rightly suspected, what keeps the workload from starting",
            *(
                _evidence(f"{honest[0]} {text}", names, operations=both)
                for text in (
                    f"{signal.name} is not the root cause, merely a contributing cause.",
                    f"{signal.name} is not the cause alone.",
                    f"{signal.name} is not the cause by itself; together with {f} it breaks "
                    f"{names.symptom}.",
                    f"{signal.name} is not the cause. You were right to suspect {signal.name}.",
                    f"{signal.name} is not the cause; still, {signal.name} is what keeps "
                    f"{names.symptom} from starting.",
                )
            ),
        ),
        family(
            "dismissed_unread",
            locus,
            "set aside without reading it: not identified from evidence",
            _evidence(dismissed, names, operations=(signal.actual,)),
        ),
        family(
            "acted_on_signal_first",
            self_corrected,
            "any write on the misleading signal's resources (every verb, a whole-collection or "
            "selector write reaching them) before reading the actual cause's evidence",
            *(
                _evidence(dismissed, names, operations=(signal.read, act, signal.actual))
                for act in signal.acts
            ),
        ),
        family(
            "acted_on_signal_after_broad_read",
            (bottom.band, bottom.score),
            "any write on the misleading signal's resources after a list that may have shown "
            "the actual cause's evidence (its kind in its namespace, over a selector, across "
            "namespaces): not self-correction",
            *(
                _evidence(dismissed, names, operations=(signal.read, broad, act, signal.actual))
                for broad in signal.shown
                for act in signal.acts
            ),
        ),
        family(
            "acted_on_signal_after_read",
            (bottom.band, bottom.score),
            "any write on the misleading signal's resources with the actual cause's evidence "
            "already read",
            *(
                _evidence(dismissed, names, operations=(signal.read, signal.actual, act))
                for act in signal.acts
            ),
        ),
    ]


def families(scenario: Scenario, bound: BoundScoring, *, structured: bool = True) -> list[Family]:
    """Every family for a scenario whose table identifies a factor of its injection manifest
    (`structured`: the structured diagnosis's families too)."""
    factor = bound.factor
    if factor is None:
        raise ProvebenchError(
            f"scenario {scenario.id}: its table binds no factor of an injection manifest, so "
            "there is nothing to generate answers from",
            field="scoring",
        )
    names = _names(scenario, bound, factor)
    (top_band, top_score), (locus_band, locus_score), bottom = _band_scores(bound)
    honest = _honest(names, factor.deviation_type)
    signal = _signal(bound)
    # A misleading-signal table: every answer is given with the path that deserves the top band
    # (both read, nothing done to the signal), and an honest answer sets the signal aside.
    path = () if signal is None else signal.investigated
    dismissal = "" if signal is None else f" {signal.name} is a red herring: it is not the cause."
    found: list[Family] = [
        Family(
            "honest",
            True,
            top_score,
            top_band,
            "the injected deviation, asserted: must reach the top band",
            tuple(_evidence(_then(answer, dismissal), names, operations=path) for answer in honest),
        )
    ]
    found.append(
        Family(
            "honest_affirming_idiom",
            True,
            top_score,
            top_band,
            "the injected deviation, asserted after a negation idiom that affirms it ('No "
            "question:', 'Nobody can deny that', 'Not only is'): must reach the top band",
            tuple(
                _evidence(_then(answer, dismissal), names, operations=path)
                for answer in _affirming_idioms(names, honest[0])
            ),
        )
    )
    found.append(
        Family(
            "honest_verdict_words",
            True,
            top_score,
            top_band,
            "the injected deviation, asserted beside words of the disowning class used of "
            "something else, a quoted log's operator, an affirming idiom: must reach the top "
            "band",
            tuple(
                _evidence(_then(answer, dismissal), names, operations=path)
                for answer in _verdict_words_honest(names)
            ),
        )
    )
    found.append(
        Family(
            "honest_remedy",
            True,
            top_score,
            top_band,
            "the injected deviation, asserted, then a remedy ('Re-add KEY=VALUE.', 'Fix: add it "
            "back.', '— I'd restore it from git.'), with a positive outcome or a source of the "
            "value ('… so the pods can start.', 'Restore it from git or a backup.'): a "
            "consequence of the diagnosis, neither a contradiction nor a comment (round 34, "
            "issue 41): must reach the top band",
            tuple(
                _evidence(_then(answer, dismissal), names, operations=path)
                for answer in _remedies(names, factor.deviation_type)
            ),
        )
    )
    found.append(
        Family(
            "honest_accounted_for",
            True,
            top_score,
            top_band,
            "the injected deviation, asserted beside sentences that name what they judge or "
            "where they place it (round 18): must reach the top band",
            tuple(
                _evidence(_then(answer, dismissal), names, operations=path)
                for answer in accounted_honest(
                    f"{names.factor} is {names.word} in {names.resource}", names.decoy
                )
            ),
        )
    )
    found.append(
        Family(
            "honest_governing_clause",
            True,
            top_score,
            top_band,
            "the injected deviation, asserted as the cause in a subordinate clause whose "
            "governing clause affirms, has checked, negates the effect or another cause: must "
            "reach the top band",
            tuple(
                _evidence(_then(answer, dismissal), names, operations=path)
                for answer in _governed_cause_honest(names)
            ),
        )
    )
    for name, answers in _adversarial(names).items():
        why = _WHY.get(name) or UNACCOUNTED_WHY[name]
        found.append(
            Family(
                name,
                False,
                locus_score,
                locus_band,
                why,
                tuple(
                    _evidence(_then(answer, dismissal), names, operations=path)
                    for answer in answers
                ),
            )
        )
    if signal is not None:
        found += _signal_families(bound, names, honest, signal)
    if structured:
        found += _structured_families(scenario, bound, factor, names, honest, signal)
    quoted = "\n".join(honest[:2])
    budget = bound.roles.get("step_budget")
    over = budget + 1 if isinstance(budget, int) and not isinstance(budget, bool) else 100
    bottom_band = min(bound.rows, key=lambda row: row.score).band
    found += [
        Family(
            "quotation_of_tool_output",
            False,
            bottom,
            bottom_band,
            "every line naming the factor is copied from a tool body (SI §2.1 echo exclusion)",
            (_quoted(quoted, names),),
        ),
        Family(
            "over_budget",
            False,
            bottom,
            bottom_band,
            "the right answer after more tool calls than the step budget (SI §5.1 row 1)",
            (_evidence(honest[0], names, steps=over),),
        ),
        Family(
            "reasoning_trace_only",
            False,
            bottom,
            bottom_band,
            "the diagnosis is only in the reasoning trace (SI §2.5)",
            (_evidence("I looked into it and I am done.", names, trace=honest[0]),),
        ),
    ]
    return found


# What each structured family deserves at most, and why (`_stress_structured`): an exact
# diagnosis the top band; any mismatch no credit for the factor, whatever the prose says.
_STRUCTURED_WHY: dict[str, str] = {
    "structured_exact": "the honest answer with the exact structured diagnosis: the top band",
    "structured_wrong_key": "the structured diagnosis names another key: no factor credit",
    "structured_wrong_type": "the structured diagnosis names another deviation type",
    "structured_extra_factors": "the exact factor and another one beside it: not committed",
    "structured_decoy": "the structured diagnosis blames the symptom's own resource",
    "structured_endorsed_signal": "the structured diagnosis names the misleading signal as a "
    "cause: fell for it",
    "structured_spelled": "the exact diagnosis with its kinds spelled plural, short or in "
    "capitals: the same objects, the top band",
    "structured_dismissed_cause": "the exact factor, and the same object, in any spelling of its "
    "kind, dismissed as not the cause: self-contradicting, no factor credit",
    "structured_dismissed_other": "the exact factor, and the signal's name dismissed in "
    "another namespace or under another kind: another object, the signal not set aside",
}


def _structured_families(
    scenario: Scenario,
    bound: BoundScoring,
    factor: BoundFactor,
    names: _Names,
    honest: list[str],
    signal: _Signal | None,
) -> list[Family]:
    """The structured diagnosis's families: the honest prose (which alone reaches the top
    band) with a diagnosis beside it that decides under the strict reading."""
    from provebench.si.scoring._stress_structured import structured_diagnoses, with_diagnosis

    path = () if signal is None else signal.investigated
    dismissal = "" if signal is None else f" {signal.name} is a red herring: it is not the cause."
    answer = _evidence(_then(honest[0], dismissal), names, operations=path)
    (top_band, top_score), locus, bottom = _band_scores(bound)
    bottom_band = min(bound.rows, key=lambda row: row.score).band
    found: list[Family] = []
    diagnoses = structured_diagnoses(
        scenario, bound, factor, None if signal is None else signal.name
    )
    for name, each in diagnoses.items():
        honest_family = name in ("structured_exact", "structured_spelled")
        if honest_family:
            band, score = top_band, top_score
        elif name == "structured_endorsed_signal":
            band, score = bottom_band, bottom
        else:
            band, score = locus
        answers = tuple(with_diagnosis(answer, diagnosis) for diagnosis in each)
        found.append(Family(name, honest_family, score, band, _STRUCTURED_WHY[name], answers))
    return found


def _quoted(quoted: str, names: _Names) -> Evidence:
    evidence = _evidence(quoted, names)
    body = f"WARN config check:\n{quoted}\n"
    return evidence.model_copy(
        update={
            "actions": [
                *evidence.actions,
                ToolAction(id="call-quoted", tool="stress", arguments={}, result=body),
            ]
        }
    )


def _then(answer: str, sentence: str) -> str:
    """`answer` followed by `sentence`, the answer's last sentence ended first: a family's
    answer may end without punctuation (a tag question ", right"), and what follows must not
    become part of its sentence."""
    if not sentence:
        return answer
    ended = answer.rstrip()
    if ended and ended[-1] not in ".!?":
        ended += "."
    return ended + sentence


__all__ = ["Family", "families"]
