"""A remedy after the diagnosis is a consequence of it, neither a contradiction nor a comment
(docs/si-scoring.md §11, "Round 34" to "Round 38"; SI red team 34, H4; SI red team 35, W1-W3;
SI red team 36, W1, W1b, W2; SI red team 37, W1-W7; SI red team 38, W2, W6, H1-H5).

"Re-add SMTP_PORT=587.", "I recommend re-adding SMTP_PORT=587.", "Fix: add it back.", "— I'd
restore it from git." follow a correct statement of the factor. The value a remedy gives a key is
the value to be restored, not one the system holds, so the contradiction rules
(`_accounted._contradicts_own`) do not read it as "the key is present", and the comment rules
(`_plain_assertion._comment`, `_attached_comment._vouched`) do not withhold it.

Only a plain remedy of the factor counts (fail closed; SI red team 35 and 36):
- its verb follows the deviation's type (SI red team 36, W2): an extra key is removed
  (*remove, delete, drop, unset, take … out, revert, roll back*), any other deviation is put
  back (*re-add, add, restore, set, populate, scale, start, …*); a removing verb on a missing key
  is no remedy of it, nor is *revert* / *roll back*, which add and remove (SI red team 37, W7);
- its object is the factor's own name (key, identifier or resource), "it"/"them", or a value —
  never the answer, a theory, a conclusion, a finding or a grain of salt ("Set that theory
  aside.", "Roll back that conclusion.", "— I'd restore my earlier answer." retract; W1);
- what follows the object is of a closed grammar (`_PLAIN_REST`; SI red team 36, W1): the kind
  word, "back"/"up"/"again", a value ("=587", "to 587", "(for example 587)"), the factor's own
  resource ("to configmap/smtp-config", "in the secret"), "with the … value/password", and "and
  restart / redeploy / roll out" a workload of the scenario. Anything else ("aside", "to the
  list of red herrings", "down to chance", "as a placebo", ", hypothetically", "to
  configmap/other-config", "and SMTP_HOST", ", if it is missing") is no plain remedy, which the
  deny-lists of round 35 could not close;
- every value in it, in every slot ("=V", ": V", "to V", "(for example V)", the object), is
  of a value's shape or the factor's baseline value, never a word or words however joined
  (`plain_value`, `_remedy_values`; SI red team 37, W1, W3; SI red team 38, H1), nor keeps the
  fault (`_restores_fault`: the value the injection put in place as Go reads it, a stopped
  dependency's count below one; SI red team 38, W2, H2); an extra key is given no value at
  all (H4); its particles belong to its verb (`_particles_belong`, W4, W5; "back" after
  "scale" only before its count, H3); who it restarts or an outcome names is a workload, of
  the estate and of the kind the answer gives it where the estate is at hand (`_workloads`,
  W6; SI red team 38, W6, H5);
- a stopped dependency's remedy may be the kubectl command that applies it ("Run kubectl scale
  deployment/orders-db --replicas=1."; `_KUBECTL_SCALE`), its count read as any value is;
- an offer keeps the band only as "happy / glad / ready / willing to apply / make / push the
  fix / the change / it" with the same grammar after it (SI red team 36, W1b: "Happy to roll
  out the real fix on the node." offers another fix) and no particle ("Happy to make it up.";
  SI red team 37, W4).
A label ("Fix:", "To fix:", "Fixed:") is only a label (W2): `remedy_label` finds it, and what
follows is read as any sentence is. Up to three opening words may stand before the verb ("Just
set …", "Then scale …", "Also, …"; `_LEAD`; SI red team 41, A2), none a subject, auxiliary or
subordinator, and the verb is then in its plain form. A sentence that gives the factor a value
whatever its verb ("Point INVENTORY_PORT at 8081.", "kubectl set env … INVENTORY_PORT=8081") has
that value read as a remedy's (`gives_no_fix`; SI red team 41, A2, the depth of SI red team 40,
H1). Since SI red team 43 (H01-H05, H13-H15) that value is read wherever the sentence gives the
factor one, in any clause, after any opener or label, before or after the key
(`sentence_values`), unless the clause states the deviation; the factor kept as it is
(`keeps_state`) and an undoing verb on a pronoun (`retracts`, H06) are no fix either. Since SI
red team 44 (H1-H4, F3, F4) a clause of time or condition ("once K is V") names a state to
reach, keeping the factor with no value prescribes its injected state whatever follows, putting
"it" back after a step retracts the fix, only a past makes a subject's clause a statement, a
workload's finite verb states, and "A -> B" reads as "from A to B" (docs/si-scoring.md §11,
"Round 44").

Two tails of an honest remedy are read as part of it (issue 41; docs/si-scoring.md §11, "Round
35", "The cost and the limits"), each by a closed grammar at the remedy's end, so that what it
does not hold is read by the rules above as before (fail closed):
- an outcome that says the remedy fixes the symptom, positively, of the workload, its pods, its
  service or "it" ("… so the pods can start.", "… so that notification-service starts again.",
  "… to get the pods running.", "… and the pods will recover."; `_OUTCOME`); any other clause
  opening on "so" is no plain remedy ("… so nothing changes.");
- a source of the value ("… from git or a backup.", "… to the current value in git.", "… from
  the previous revision."; `_SOURCE`): "or" between sources and "current"/"previous" before
  one are neither an alternative nor a doubt; the vault or a secret store is a source too.
A gerund subject's predicate is an outcome of the same grammar ("Adding the key and restarting
the pods fixes it."), and so is "… to fix it".
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection
from dataclasses import dataclass

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._remedy_values import (
    gives_baseline,
    keeps_fault,
    reads_as_value,
    same_value,
    value_kind,
)
from provebench.si.primitives._scenario_objects import fold_name


@dataclass(frozen=True)
class InjectedFault:
    """The factor's deviation as the injection manifest declares it (SI seed §5.1, the ground
    truth `si check` proves): its type and the value or state the injection put in place
    (`BoundFactor.injected_value`: a wrong value, an extra key's value, a stopped dependency's
    replica count), None where it put none (a missing key). A remedy that gives the factor this
    value restores the fault (SI red team 38, W2: "Set INVENTORY_PORT to 8081." where 8081 is
    the injected value). `workloads` are the workloads the estate holds, each as
    `kind/folded-name` (`_scenario_objects.scenario_workloads`; a folded name alone where its
    kind is not known), the only objects a remedy restarts or an outcome names, with their
    real kind (SI red team 38, W6: "… and restart smtp-config." of a ConfigMap; H5: "restart
    deployment/sim-node-1" of a node); None where no estate is at hand, and the factor's own
    names decide (`_workloads`). `resource` is the deviation's own resource
    (`configmap/smtp-config`), never a workload where its kind is none, however the answer
    spells it, estate or not. `baseline` is the factor's value in the injection's healthy
    baseline (`BoundFactor.baseline_value`), a value a remedy may give whatever its shape (SI
    red team 38, H1: `_remedy_values.reads_as_value`) and whose type every value a remedy gives
    must have (SI red team 39, V1-V3: `_remedy_values.value_kind`). `subject` is the
    deviation's subject (`INVENTORY_PORT`): a key named as a port holds a port."""

    deviation_type: str
    injected: str | None = None
    workloads: frozenset[str] | None = None
    resource: str | None = None
    baseline: str | None = None
    subject: str | None = None
    # the namespace the baseline declares the deviation's resource in: the only one a kubectl
    # command's "-n" may name (SI red team 40, L1)
    namespace: str | None = None


# what the remedy reader is told of the deviation: its type alone, or the fault as injected
RemedyDeviation = str | InjectedFault | None


def _fault(deviation: RemedyDeviation) -> InjectedFault | None:
    if deviation is None or isinstance(deviation, InjectedFault):
        return deviation
    return InjectedFault(deviation)


def deviation_type_of(deviation: RemedyDeviation) -> str | None:
    """The deviation's type, however the remedy reader was told of it."""
    fault = _fault(deviation)
    return None if fault is None else fault.deviation_type


# a label before the remedy ("Fix: …", "To fix: …", "Next step: …"); a label, never a remedy
_LABEL_WORDS = (
    r"(?:to\s+fix(?:\s+it|\s+this)?|fix(?:ed|es)?|remedy|solution|resolution|mitigation|"
    r"next\s+steps?|action)"
)
_LABEL_RE = lazy_pattern(rf"\W*{_LABEL_WORDS}\s*(?:[:—–]|-(?=\s))\s*", re.IGNORECASE)
_LABEL = rf"(?:{_LABEL_WORDS}\s*(?:[:—–]|-(?=\s))\s*)?"
# who proposes it ("I recommend …", "I'd …", "we should …", "please …")
_PROPOSER = (
    r"(?:(?:i|we)\s+(?:would\s+|['’]d\s+)?(?:recommend|suggest|propose|advise)\s+|"
    r"(?:i|we)\s*(?:['’]d|['’]ll|\s+would|\s+will|\s+can|\s+should)\s+|"
    r"(?:you\s+should|(?:the\s+)?fix\s+is\s+to|please)\s+)?"
)
# the remedy's verb follows the deviation's type (SI red team 36, W2): an extra key is removed,
# anything else is put back as it should be; its object follows (`_OBJECT`)
_PUTTING_BACK_VERB = (
    r"(?:re-?add|add|restor|reinstat|re-?creat|re-?apply|re-?set|set|put|defin|bring|"
    r"start|scal|populat|correct(?=\s))\w*\b"
)
# "revert" and "roll back" both add and remove (SI red team 37, W7: "Roll back SMTP_PORT." of a
# missing key may undo the key's addition): they put back a value or a state, never a missing key
_UNDOING_VERB = r"(?:roll\s+back|revert)\w*\b"
_ADDING_VERB = rf"(?:{_PUTTING_BACK_VERB}|{_UNDOING_VERB})"
_MISSING_TYPES = frozenset({"absent_key"})
_REMOVING_VERB = (
    r"(?:remov|delet|drop|unset|revert|roll\s+back)\w*\b|"
    # "take" removes only with "out" ("take K out of R"); "Take your pick." is no remedy's shape
    r"(?:take|takes|taking|taken)\b(?=[^.;!?]*\bout\b)"
)
_REMOVED_TYPES = frozenset({"extra_key"})
# an offer to apply it ("happy to apply the fix if you want"): its shape takes any of these
# verbs; only "apply / make / push" + "the fix / the change / it" is a plain offer (W1b)
_OFFER = (
    r"(?:(?:i\s+am\s+|i['’]m\s+)?(?:happy|glad|ready|willing)\s+to\s+"
    r"(?:(?P<offered>apply|make|push)|roll\s+out|implement|deploy|ship|do)\b)"
)
_OFFERED_OBJECT = lazy_pattern(r"\s+(?:the\s+(?:fix|change)|it)\b", re.IGNORECASE)


# words that open a sentence before its remedy's verb ("Just set …", "Then scale …", "Also, …",
# "And then …"; SI red team 41, A2): any words, each a run of letters with an optional comma,
# but a subject, an auxiliary, a determiner, a negation or a subordinator, which make the verb
# a statement's ("Someone set K to V", "It was set …", "If set to V …", "With K at V …"). Fail
# closed: an opening of words of no known kind before a remedy's verb is read as a remedy's,
# whose verb must then be in its plain form (`_PLAIN_VERB`: "Operators scaled it to 0" states)
_NOT_LEADING = (
    r"(?:i|we|you|he|she|it|they|one|someone|somebody|something|nobody|nothing|everyone|"
    r"everybody|everything|anyone|anybody|this|that|these|those|there|the|a|an|my|our|your|his|"
    r"her|its|their|who|whom|which|what|whose|is|was|were|are|am|be|been|being|has|have|had|do|"
    r"does|did|not|never|no|nor|if|when|whenever|unless|whether|once|until|till|because|since|"
    r"after|before|while|whilst|as|with|without|per|given|to|of|for|from|in|on|at|by|into|onto|"
    r"should|would|could|might|may|must|can|cannot|will|shall|let|lets|though|although|where|"
    r"still)"
)
# a word ending in "s" opens a remedy only before a comma or as an adverb of this list: else it
# is a plural subject ("Pods start again.", "Replicas scale up.")
_S_ADVERBS = (
    r"(?:afterwards|always|perhaps|sometimes|besides|thus|plus|nevertheless|nonetheless|"
    r"regardless|anyways|towards|backwards|forwards|likewise)"
)
_LEAD = (
    rf"(?P<lead>(?:(?!{_NOT_LEADING}\b)(?:[A-Za-z]+,\s+|{_S_ADVERBS}\s+|"
    rf"[A-Za-z]*[A-RT-Za-rt-z]\s+)){{0,3}})"
)
# an introductory phrase closed by a comma or a colon before a remedy ("For now, set …", "After
# that, …", "If needed, …", "In the meantime, …", "Step 2: set …", "Better: set …"; SI red team
# 42, H1): up to six words of any kind, prepositions, subordinators and modals included, which
# `_LEAD` refuses one by one. It opens a remedy only where it holds no clause of its own (a
# subject and a finite verb: "If it is set, …", "Once INVENTORY_PORT is 8080, …"; `_clause`),
# and the verb after it is then in its plain form (`_PLAIN_VERB`). Fail closed: the remedy after
# it is read whole, its value by `_not_the_fix`, so a phrase that merely opens the sentence
# cannot carry the fault past the remedy reader.
_INTRO = r"(?P<intro>(?:[\w'’./-]+[ \t]+){0,5}[\w'’./-]+\s*[,:]\s+)?"
_INTRO_RE = lazy_pattern(r"\W*" + _INTRO.replace("(?P<intro>", "(?:").removesuffix("?"))
# a finite verb or a subject pronoun with a word after it: the phrase is a clause
_CLAUSE = lazy_pattern(
    r"\b(?:is|was|were|are|am|has|have|had|do|does|did|will|would|can|could|shall|should|may|"
    r"might|must|isn['’]t|wasn['’]t|aren['’]t|don['’]t|doesn['’]t|didn['’]t|won['’]t|can['’]t)\b|"
    r"\b(?:i|we|you|he|she|it|they|someone|somebody|something|nothing|everything|"
    r"nobody|everyone|anyone)\s+[A-Za-z]|['’](?:s|re|ve|ll|d)\b",
    re.IGNORECASE,
)


def _clause(intro: str) -> bool:
    """Whether `intro`, an introductory phrase, holds a clause (a subject and a finite verb)."""
    return _CLAUSE.search(intro) is not None


_PLAIN_VERB = lazy_pattern(
    r"(?:re-?add|add|restore|reinstate|re-?create|re-?apply|re-?set|set|unset|put|define|bring|"
    r"start|scale|populate|correct|revert|roll\s+back|remove|delete|drop|take|rename|move|relocate|"
    r"migrate|copy|duplicate)\Z",
    re.IGNORECASE,
)


def _opening(verb: str) -> str:
    """A remedy's opening: a label, the words before it (`_LEAD`), a proposer and the verb, or
    an offer to apply it; an introductory phrase closed by a comma or a colon may open it
    (`_INTRO`; SI red team 42, H1)."""
    return rf"\W*{_LABEL}{_INTRO}{_LEAD}(?:{_PROPOSER}(?P<verb>{verb})|(?P<offer>{_OFFER}))"


def _opened(found: re.Match[str] | None) -> re.Match[str] | None:
    """`found`, a remedy's opening, where the words before its verb leave it a remedy's: none,
    or a verb in its plain form after them (SI red team 41, A2)."""
    if found is None:
        return None
    intro = found.groupdict().get("intro")
    if intro and _clause(intro):
        return None  # "If it is set, …": a subordinate clause, no opening (SI red team 42, H1)
    if not found.group("lead") and not intro:
        return found
    verb = found.group("verb")
    if verb is None or _PLAIN_VERB.match(" ".join(verb.split())) is None:
        return None
    return found


_ADDING = lazy_pattern(_opening(_ADDING_VERB), re.IGNORECASE)
_RE_ADDING = lazy_pattern(_opening(_PUTTING_BACK_VERB), re.IGNORECASE)
_REMOVING = lazy_pattern(_opening(_REMOVING_VERB), re.IGNORECASE)
# a verb that keeps the key under another name or in another place (SI red team 39, V3: "Rename
# LEGACY_SHARD_COUNT to SHARD_COUNT." keeps an unknown key): a remedy's shape, never a remedy
_MOVING_VERB = r"(?:renam|mov|relocat|migrat|copy|copie|duplicat)\w*\b"
_ANY_REMEDY = lazy_pattern(
    _opening(f"{_ADDING_VERB}|{_REMOVING_VERB}|{_MOVING_VERB}"), re.IGNORECASE
)
# what may stand between the verb and its object ("add back SMTP_PORT", "restore the missing
# key SMTP_PORT"), and a word for the factor's kind that is the object itself ("re-add the key")
_BEFORE_OBJECT = lazy_pattern(
    r"\s*(?:back\s+)?(?:(?P<article>the|its)\s+)?"
    r"(?:(?:missing|deleted|removed|lost|correct|right|original|expected)\s+)?",
    re.IGNORECASE,
)
_KIND_NOUN = lazy_pattern(
    r"(?:key|entry|variable|env\s+var|value|setting|port|configmap|config\s*map|secret|"
    r"deployment|replicas?|resource)(?![\w/-])\s*",
    re.IGNORECASE,
)
_PRONOUN = lazy_pattern(r"(?:it|them)\b", re.IGNORECASE)
# a value: a number or a quoted literal ("Set it to 587" has "it"; "Add 587 as …" a value); a
# quoted literal is one token, never a phrase (SI red team 37, W1: 'Re-add "nothing, SMTP_PORT
# was never really missing".'), and either is read by `plain_value`
_VALUE = lazy_pattern(r"(?:[-+]?\d[\w.:/-]*|[\"'`“‘][^\s\"'`”’]+[\"'`”’])")


def plain_value(
    token: str,
    fault: InjectedFault | None = None,
    names_object: Callable[[str], bool] = lambda _name: False,
) -> bool:
    """Whether `token`, a value a remedy gives the factor, reads as a value: a number, a
    duration, a quantity, a version, an address, or the factor's own baseline value
    (`_remedy_values.reads_as_value`; SI red team 38, H1), never a word or words however
    joined (SI red team 37, W3: "probably-not-the-cause"; SI red team 38, H1:
    "notTheCause", "probably/not/the/cause", "maybe"), and of the type of the factor's value
    (`_remedy_values.value_kind`; SI red team 39, V1, V2: "0s", "0.0.0.0", "checkout-config"
    or "65536" of a port, "2147483648" replicas)."""
    if fault is None:
        return reads_as_value(token, None, names_object)
    kind = value_kind(
        fault.baseline,
        fault.subject,
        fault.deviation_type in _STOPPED_TYPES,
        names_object,
    )
    return reads_as_value(token, fault.baseline, names_object, kind)


_TOKEN = lazy_pattern(r"[A-Za-z0-9][\w.:/-]*[A-Za-z0-9]|[A-Za-z0-9]")
# where a remedy or its tail ends: a stop, nothing else ("Re-add it ;)" winks, "Re-add it…"
# trails off; SI red team 36)
_END = r"[\s.!]*\Z"
# a courtesy condition after an offer ("…, if you want"): the reader's wish, not the fact's
_COURTESY_IF = lazy_pattern(
    rf"[,\s]*\bif\s+you\s+(?:want|like|wish|prefer|agree)\b{_END}", re.IGNORECASE
)
# a source of the value to restore (issue 41): a closed list, each of which holds the value as it
# was; "current"/"previous" say which version of the source, "or" joins two sources
_SOURCE_NOUN = (
    r"(?:git|version\s+control|source\s+control|(?:a\s+|the\s+|its\s+)?backups?|"
    r"(?:the\s+)?(?:vault|secrets?\s+(?:manager|store))|"
    r"(?:the\s+)?(?:helm\s+(?:values|chart)|values\s+file)|"
    r"(?:the\s+|its\s+)?(?:(?:current|previous|last(?:\s+known\s+good)?|prior|earlier|original)\s+)?"
    r"(?:revision|version|commit|release|manifest|backup|rollout))"
)
_SOURCE = lazy_pattern(
    rf"[,\s]*\b(?:(?:from|in|out\s+of)\s+|to\s+(?:the\s+|its\s+)?(?:(?:current|previous|original|"
    rf"old)\s+)?value\s+(?:in|from|of)\s+){_SOURCE_NOUN}(?:\s+or\s+{_SOURCE_NOUN})*{_END}",
    re.IGNORECASE,
)
# an outcome of the remedy that says it fixes the symptom (issue 41): who recovers (the pods,
# the workload, its service, "it"/"they" or a name of the scenario: `_who`), an optional
# "can"/"will", and a verb of recovery; positive only ("can't", "never", "may" are not in it)
_RECOVERS = (
    r"(?:start|run|recover|work|boot|come\s+(?:back\s+)?up|becomes?\s+ready|be\s+ready)"
    r"(?:s(?=\W|\Z))?"
)
# "back" and "online" of a workload (SI red team 45, F5: "… then restart checkout to bring it
# back.")
_RECOVERED = r"(?:running|started|up|back\s+up|back\s+online|back|online|healthy|ready|working)"
# a name of the scenario ("notification-service", "deployment/checkout", "checkout"): checked
# by the caller (`names_object`), so that "so nothing starts" names no one
_NAME = r"[a-z0-9](?:[\w./-]*[a-z0-9])?"
_GENERIC = r"(?:pods?|services?|deployments?|workloads?|app|application|containers?)"


def _who(tag: str) -> str:
    """Who recovers: "it", "they", the pods or service (of a name), or a name (group `name_*`)."""
    return (
        rf"(?:it|they|(?:the\s+)?(?:(?P<name_{tag}a>{_NAME})\s+)?{_GENERIC}|"
        rf"(?:the\s+)?(?P<name_{tag}b>{_NAME}))"
    )


_OUTCOME = lazy_pattern(
    rf"[,;\s]*\b(?:(?:so(?:\s+that)?|and(?:\s+then)?)\s+{_who('so')}"
    rf"(?:['’]ll\s+|\s+(?:can|will|is\s+able\s+to|are\s+able\s+to)\s+|\s+){_RECOVERS}|"
    rf"to\s+(?:get|bring|have)\s+{_who('get')}\s+{_RECOVERED}|"
    rf"to\s+let\s+{_who('let')}\s+{_RECOVERS}|"
    rf"to\s+fix\s+(?:it|this|the\s+(?:issue|problem))|"
    # a gerund subject's predicate ("Adding the key and restarting the pods fixes it.")
    rf"(?:fixes|will\s+fix|resolves|will\s+resolve)\s+(?:it|this|the\s+(?:issue|problem))|"
    rf"(?:lets|will\s+let)\s+{_who('lets')}\s+{_RECOVERS}|"
    # who recovers reaches its dependency again, a name of the scenario (SI red team 41, F1:
    # "… so that checkout can reach inventory.")
    rf"so(?:\s+that)?\s+{_who('reach')}(?:['’]ll\s+|\s+(?:can|will)\s+|\s+)"
    rf"(?:reach(?:es)?|connects?\s+to|talks?\s+to)\s+(?:the\s+)?(?P<name_reached>{_NAME})|"
    # after a semicolon or a comma, who recovers then (SI red team 43, F04: "…; checkout then
    # recovers."), a name of the scenario
    rf"{_who('semi')}\s+(?:then\s+)?(?:will\s+|can\s+)?(?:then\s+)?{_RECOVERS}|"
    # the restart's purpose (SI red team 46, F6: "… then restart checkout so it picks up the
    # change.")
    rf"so(?:\s+that)?\s+{_who('picks')}(?:['’]ll\s+|\s+(?:can|will)\s+|\s+)(?:picks?\s+up|"
    r"reloads?|re-?reads?|loads?|sees?|uses?)\s+(?:the\s+)?(?:change|new\s+(?:value|port|config\w*)|"
    r"fix|it|config(?:uration)?|new\s+setting))"
    rf"(?:\s+(?:again|normally|cleanly|successfully|properly))?{_END}",
    re.IGNORECASE,
)
# the value's source as an apposition after it (SI red team 41, F1: "Set INVENTORY_PORT to
# 8080, the port inventory listens on."): the port or value a name of the scenario listens on,
# serves, exposes or expects, or the baseline; the name is checked (`names_object`)
_VALUE_SOURCE = lazy_pattern(
    rf",\s*(?:which\s+is\s+)?(?:the|its)\s+(?:(?:port|value|target\s+port|replica\s+count)\s+"
    rf"(?:that\s+)?(?:the\s+)?(?P<name_source>{_NAME})\s+(?:listens\s+on|serves\s+on|"
    rf"exposes|expects|uses)|(?:healthy\s+)?baseline(?:\s+value)?){_END}|"
    # "… to 8080 (inventory's port).", "… to 8080 to match service inventory." (SI red team
    # 42, F4): the port or value of a name of the scenario, in a parenthesis or matched
    rf"\s*\(\s*(?:the\s+)?(?:service\s+|deployment\s+)?(?P<name_paren>{_NAME})['’]s?\s+"
    rf"(?:own\s+)?(?:port|value|target\s+port|replica\s+count|listening\s+port)\s*\){_END}|"
    rf",?\s+to\s+match\s+(?:the\s+)?(?:service\s+|deployment\s+)?(?P<name_match>{_NAME})"
    rf"(?:['’]s?\s+(?:port|value|target\s+port|listening\s+port))?{_END}|"
    # the value it had before the fault (SI red team 43, F04: "… to 8080, as before."), only
    # after a value it gives (SI red team 46, R6: "Then set K as before." gives none: undone)
    rf"(?P<as_before>,?\s*(?:as\s+(?:before|it\s+was(?:\s+before)?|in\s+the\s+baseline)|"
    rf"(?:its|the)\s+(?:previous|original|old|former)\s+value)){_END}",
    re.IGNORECASE,
)


def remedy_label(text: str) -> int:
    """Where a label ("Fix:", "To fix:", "Fixed:", "Remedy:") opening `text` ends, or 0: what
    follows is read as any sentence is (SI red team 35, W2: "Fix: nothing is missing." denies)."""
    found = _LABEL_RE.match(unicodedata.normalize("NFC", text))
    return 0 if found is None else found.end()


def opens_as_remedy(text: str) -> bool:
    """Whether `text` has a remedy's shape: a label, or a remedy's verb after an optional
    proposer, or an offer to apply one (whatever its object), or a kubectl scale command,
    flags before it or not (`_KUBECTL_WRITE`: "kubectl scale deployment orders-db
    --replicas=0" keeps the fault; SI red team 38, 40, H1)."""
    folded = unicodedata.normalize("NFC", text)
    return (
        remedy_label(folded) > 0
        or _opened(_ANY_REMEDY.match(folded)) is not None
        or _KUBECTL_WRITE.match(folded) is not None
    )


def _object_end(
    text: str,
    at: int,
    factor: Collection[str],
    fault: InjectedFault | None,
    names_object: Callable[[str], bool],
) -> int | None:
    """Where the remedy's object starting at `at` ends, when it is the factor's own name, "it"
    or "them", or a value that is not the fault's (`_restores_fault`); None for any other
    object ("that theory", "my earlier answer")."""
    before = _BEFORE_OBJECT.match(text, at)
    at = before.end() if before is not None else at
    found = _PRONOUN.match(text, at)
    if found is not None:
        return found.end()
    found = _VALUE.match(text, at)
    if found is not None:
        value = found.group()
        if fault is not None and fault.deviation_type in _REMOVED_TYPES:
            return None  # an extra key's value is what the remedy removes, never its object
        if plain_value(value, fault, names_object) and not _not_the_fix(value, fault):
            return found.end()
        return None
    noun = _KIND_NOUN.match(text, at)
    if noun is not None:
        at = noun.end()
    token = _TOKEN.match(text, at)
    names = {fold_name(own) for own in factor}
    if token is not None:
        name = token.group()
        # "SMTP_PORT=587", "configmap/smtp-config": the name, or its last part after a kind
        if fold_name(name) in names or fold_name(name.rsplit("/", 1)[-1]) in names:
            return token.end()
    if noun is not None and before is not None and before.group("article") is not None:
        return noun.end()  # "re-add the key": the factor's kind, after an article
    return None


# a time of the remedy that is the incident's present ("Set K to 8080 now."), and the value the
# remedy replaces in a parenthesis ("… to 8080 (was 8081)."), which must be the fault's (SI red
# team 43, F04)
_NOW_TAIL = lazy_pattern(
    rf"[,\s]*\b(?:now|right\s+now|immediately|first|straight\s+away|asap){_END}", re.IGNORECASE
)
_REPLACED_TAIL = lazy_pattern(
    r"\s*\((?:was|previously|formerly|currently|now|it\s+is|it\s+was|from|not|instead\s+of|"
    rf"replacing)\s+(?P<replaced>{_VALUE.pattern})\s*\){_END}",
    re.IGNORECASE,
)


def _tail_start(
    rest: str, names_object: Callable[[str], bool], fault: InjectedFault | None = None
) -> int:
    """Where an honest tail of the remedy (`_OUTCOME`, then `_SOURCE`, each at the end) starts
    in `rest`, what follows the remedy's object; `len(rest)` when it has none. A name an
    outcome gives who recovers must be an object of the scenario (`names_object`); a value a
    parenthesis says it replaces must be the fault's (`fault`)."""
    end = len(rest)
    now = _NOW_TAIL.search(rest)
    if now is not None:
        end = now.start()
    replaced = _REPLACED_TAIL.search(rest, 0, end)
    if replaced is not None and _restores_fault(replaced.group("replaced"), fault):
        end = replaced.start()
    outcome = _OUTCOME.search(rest, 0, end)
    if outcome is not None and all(
        names_object(name)
        for group, name in outcome.groupdict().items()
        if group.startswith("name_") and name is not None
    ):
        end = outcome.start()
    source = _SOURCE.search(rest, 0, end)
    end = end if source is None else source.start()
    given = _VALUE_SOURCE.search(rest, 0, end)
    if (
        given is not None
        and given.group("as_before") is not None
        and _ANY_VALUE.search(rest, 0, given.start()) is None
    ):
        given = None  # "Then set K as before.": no value, the fix undone (SI red team 46, R6)
    if given is not None and all(
        names_object(name)
        for group, name in given.groupdict().items()
        if group.startswith("name_") and name is not None
    ):
        end = given.start()
    return end


def _no_object(_name: str) -> bool:
    return False


def names_in(identifiers: Collection[str]) -> Callable[[str], bool]:
    """Whether a token names one of `identifiers` (itself or the name of a `kind/name`): the
    subjects an outcome may name where no reader of the scenario is at hand."""
    folded = {fold_name(name.rsplit("/", 1)[-1]) for name in identifiers}
    return lambda token: fold_name(token.rsplit("/", 1)[-1]) in folded


# What may follow a remedy's object, before its honest tail (SI red team 36, W1): a closed
# grammar, in this order, each part optional; anything else is no plain remedy (fail closed) and
# is read as a comment is. A phrasal particle or complement that re-means the verb ("set it
# aside", "add it to the list of red herrings", "put it down to chance", "restore it as a
# placebo") or names another place ("re-add it to configmap/other-config") is none of these.
# a tail that says when a step is done, of no tense and no value (SI red team 45, F7, H2): "as
# needed", "if required", "as planned", "if necessary", "when ready" after the restart of a
# workload, which it conditions; after the fix itself only "as planned / intended", since "add
# it back if needed" conditions the fix (SI red team 35, W3)
_NEUTRAL_TAIL = (
    r"(?:as|if|when|where)\s+(?:needed|required|necessary|planned|appropriate|applicable|"
    r"ready|possible|intended|expected)"
)
_PLANNED_TAIL = r"as\s+(?:planned|intended)"
_PLAIN_REST = lazy_pattern(
    # the factor's kind after its name ("the LEGACY_SHARD_COUNT key")
    r"(?:\s+(?:key|entry|variable|env\s+var|value|setting))?"
    # a particle of the verb: "back", "up" of a dependency, "out" of "take … out"
    r"(?:\s+(?P<particle>back(?:\s+(?:up|online))?|up|online|out))?"
    # the value to give it: "=587", "to 587", "to 1 replica", "(for example 587)"; a quoted
    # value is one token ('to "587"'), never words ('to "a red herring"')
    r"(?:\s*(?:=|:(?=\s))\s*(?P<value_is>[\"'`“‘][^\s\"'`”’]+[\"'`”’]|[\w.:/@+-]+)|"
    r"\s*\((?:for\s+example|e\.g\.,?|say|such\s+as)?\s*(?P<value_eg>[-+]?\d[\w.:/-]*|"
    r"[\"'`“‘][^\s\"'`”’]+[\"'`”’])\)|"
    # "from V to W" names the fault it replaces (SI red team 41, F1: "Scale orders-db from 0 to
    # 1 replica."), read by `_plain_rest`: the value the injection put in place
    r"(?:\s+from\s+(?P<value_from>[-+]?\d[\w.:/-]*|[\"'`“‘][^\s\"'`”’]+[\"'`”’]))?"
    r"\s+to\s+(?P<value_to>[-+]?\d[\w.:/-]*|[\"'`“‘][^\s\"'`”’]+[\"'`”’])"
    r"(?:\s+(?:replicas?|pods?|instances?))?"
    # the value said to be the baseline ("to 1 replica (the baseline)"), checked against it
    r"(?P<baseline_said>\s*\((?:the|its)\s+(?:healthy\s+)?baseline(?:\s+value)?\))?)?"
    r"(?P<again>(?:\s+(?:back|again)){0,2})"
    # where: the factor's own resource ("to configmap/smtp-config"), or its kind or the cluster
    # after an article ("in the secret", "in the cluster")
    r"(?:\s+(?P<back_to>back\s+)?(?P<preposition>to|in|into|inside|from|out\s+of)\s+"
    r"(?:(?P<article>the|its)\s+)?(?:(?P<kind>configmap|config\s*map|secret|deployment|"
    r"cluster|namespace)"
    r"(?![\w/-])\s*)?(?P<place>[A-Za-z0-9][\w.:/-]*[A-Za-z0-9]|[A-Za-z0-9])?"
    # its kind after the name ("to the smtp-config ConfigMap")
    r"(?:\s+(?P<kind_after>configmap|config\s*map|secret)(?![\w/-]))?)?"
    # the value it had ("with the database password")
    r"(?:\s+with\s+(?:the|its)\s+(?:(?:correct|right|original|previous|old|expected|real|"
    r"actual)\s+)?(?:database\s+|db\s+)?(?:value|password|port|setting))?"
    # the value it is given ('with value "2525"'; SI red team 43, F04), read as any value is
    r"(?:\s+with\s+(?:the\s+|a\s+)?value(?:\s+of)?\s+(?P<value_with>[-+]?\d[\w.:/-]*|"
    r"[\"'`“‘][^\s\"'`”’]+[\"'`”’]))?"
    # the workload restarted after it ("and restart deployment/search-indexer", ", then roll
    # out deployment/payments-api", "and restarting the pods", ", then do a rollout restart of
    # notification-service", "and roll out notification-service again")
    r"(?:\s*,?\s*(?:and\s+then|and|then)\s+(?:(?:re-?start|re-?deploy|roll\s*out|"
    r"rollout\s+restart|bounc)\w*|(?:do\s+)?(?:a\s+)?rollout\s+restart\s+of)\s+"
    r"(?P<workload>(?:the\s+)?(?:[a-z0-9](?:[\w./-]*[a-z0-9])?\s+)?"
    r"(?:pods?|services?|deployments?|workloads?|app|application|containers?)|"
    r"(?:the\s+)?[a-z0-9](?:[\w./-]*[a-z0-9])?)(?:\s+again)?"
    # a neutral tail of when to do it (SI red team 45, F7: "… and restart checkout as needed.")
    rf"(?:\s*,?\s*{_NEUTRAL_TAIL})?)?"
    rf"(?:\s*,?\s*{_PLANNED_TAIL})?"
    rf"{_END}",
    re.IGNORECASE,
)
_GENERIC_WORDS = frozenset(
    {"the", "pod", "pods", "service", "services", "deployment", "deployments", "workload",
     "workloads", "app", "application", "container", "containers", "it", "them"}
)  # fmt: skip


# the verbs a particle belongs to (SI red team 37, W4, W5): "back" puts a thing back only after
# these ("Happy to push it back again." postpones), and "up" starts a stopped dependency only
# after "start"/"bring"/"scale" ("Add it up." sums, "Bring it up again." of a missing key raises
# a topic, "make it up" fabricates); "online" is read as "up" ("Bring orders-db back online.").
# After "scale", "back" reduces ("Scale back orders-db.", "Scale it back again."; SI red team 38,
# H3): it belongs to "scale" only before the count it scales to ("Scale it back to 1 replica."),
# which is read as any value is, and "scale it back up" is refused with the rest (fail closed)
_BACK_VERBS = lazy_pattern(r"(?:re-?add|add|put|bring)", re.IGNORECASE)
_SCALE_VERB = lazy_pattern(r"scal", re.IGNORECASE)
# the verbs that set a value, whose "back" puts it back only before that value ("Set K back to
# V"; SI red team 41, F1): "Set it back." alone hinders
_SETTING_VERBS = lazy_pattern(r"(?:re-?set|set)\b", re.IGNORECASE)
_UP_VERBS = lazy_pattern(r"(?:start|bring|scal)", re.IGNORECASE)
_UP_TYPES = frozenset({"stopped_dependency"})
_BACK_BEFORE = lazy_pattern(r"\s*back\b", re.IGNORECASE)
# "up" before the object of a stopped dependency's verb ("Scale up orders-db.")
_UP_BEFORE = lazy_pattern(r"\s*up\b", re.IGNORECASE)


def _particles_belong(found: re.Match[str], verb: str | None, deviation: str | None) -> bool:
    """Whether the particles after a remedy's object belong to its verb (`verb`; None for an
    offer, which takes none: "happy to apply the fix", but not "happy to make it up"; W4)."""
    particle = (found.group("particle") or "").casefold()
    backs = "back" in particle or bool(found.group("back_to")) or "back" in found.group("again")
    if verb is None:
        return not (particle or found.group("again") or found.group("back_to"))
    again = found.group("again") or ""
    if backs and _SCALE_VERB.match(verb) is not None:
        # "scale it back to 1 replica", "scale it back up to 1 replica" (SI red team 41, F1):
        # "back" with the count, once, and nothing after it
        return (
            (particle == "back" or (particle == "back up" and deviation in _UP_TYPES))
            and found.group("value_to") is not None
            and not again.strip()
        )
    if backs and _SETTING_VERBS.match(verb) is not None:
        # "Set K back to V" (SI red team 41, F1): "back" before the value it is set to, once
        return particle == "back" and found.group("value_to") is not None and not again.strip()
    if backs and _BACK_VERBS.match(verb) is None:
        return False
    ups = particle.endswith(("up", "online"))
    return not ups or (_UP_VERBS.match(verb) is not None and deviation in _UP_TYPES)


_STOPPED_TYPES = frozenset({"stopped_dependency"})


def _restores_fault(value: str, fault: InjectedFault | None) -> bool:
    """Whether the value a remedy gives keeps the deviation (SI red team 37 and 38, W2, H2): the
    value the injection put in place (`InjectedFault.injected`: "Set INVENTORY_PORT to 8081."
    or "to 0x1F91" of an injected 8081), or of a stopped dependency no count of one replica or
    more (`_remedy_values.keeps_fault`). A word ("none", "zero", "off", "unchanged") is no
    value at all (`plain_value`)."""
    if fault is None:
        return False
    return keeps_fault(
        value, fault.injected, fault.deviation_type in _STOPPED_TYPES, fault.baseline
    )


def _not_the_fix(value: str, fault: InjectedFault | None) -> bool:
    """Whether the value a remedy gives is no fix of the factor: it keeps the fault
    (`_restores_fault`), or, where the injection declares the factor's healthy baseline, it is
    any other value (SI red team 40, H5: "Set INVENTORY_PORT to 443." of a baseline 8080 is a
    valid port and a wrong one; "Scale orders-db to 3 replicas." of a baseline 1). The baseline
    is the value the counterfactual restores (SI seed §5.1), so a plain remedy gives that
    value or none. A missing key is the exception: its value is nowhere in the estate for the
    agent to read, so any value of its type restores it ("Re-add SMTP_PORT=587." of a
    baseline 2525; docs/si-scoring.md, "Round 40", a limit)."""
    if _restores_fault(value, fault):
        return True
    return (
        fault is not None
        and fault.baseline is not None
        and fault.deviation_type not in _MISSING_TYPES
        and not gives_baseline(value, fault.baseline)
    )


# the verbs whose "to" gives the value, never a place ("Set K to V", "Scale W to N", "Revert K
# to V"); "Re-add K to configmap/R" and "Move …" put it somewhere (SI red team 39, V1)
_VALUE_TO_VERBS = lazy_pattern(r"(?:re-?set|set|scal|revert|roll\s+back|chang)", re.IGNORECASE)


def _gives_place_as_value(found: re.Match[str], verb: str | None) -> bool:
    """Whether the place `_PLAIN_REST` found is the value a setting verb gives: "to" and a bare
    name after "set", "scale", "revert" (no article, no kind: "set it in the configmap")."""
    return (
        verb is not None
        and _VALUE_TO_VERBS.match(verb) is not None
        and (found.group("preposition") or "").casefold() == "to"
        and found.group("place") is not None
        and found.group("article") is None
        and found.group("kind") is None
        and found.group("back_to") is None
    )


def _is_baseline(value: str, fault: InjectedFault | None) -> bool:
    """Whether `value` is the factor's declared baseline value, as written or as a number
    ("Scale orders-db to 1 replica (the baseline)."; SI red team 39, false lows)."""
    if fault is None or fault.baseline is None:
        return False
    return same_value(value, fault.baseline)


def _plain_rest(
    rest: str,
    names: set[str],
    names_object: Callable[[str], bool],
    verb: str | None,
    fault: InjectedFault | None,
) -> bool:
    """Whether what follows a remedy's object (`rest`, its honest tail cut off) is of
    `_PLAIN_REST`'s grammar: its values values (`plain_value`), its particles of its verb
    (`_particles_belong`), its place the factor's own resource, its workload an object of the
    scenario, and "out" the particle of a removing verb only, which "take" needs."""
    # a kind word before it ("re-add the key back") took the space that sets the rest off
    found = _PLAIN_REST.match(" " + rest)
    if found is None:
        return False
    values = [found.group(group) for group in ("value_is", "value_eg", "value_to", "value_with")]
    given = [value for value in values if value is not None]
    if _gives_place_as_value(found, verb):
        # "Set INVENTORY_PORT to checkout-config.": after a verb that sets a value, "to" gives
        # the value, and a name of the scenario there is read as one (SI red team 39, V1)
        given.append(found.group("place"))
    if not all(plain_value(value, fault, names_object) for value in given):
        return False  # words in a value's place (SI red team 37, W3; SI red team 38, H1)
    if any(_not_the_fix(value, fault) for value in given):
        return False  # the fault itself (SI red team 38, W2, H2)
    replaced = found.group("value_from")
    if replaced is not None and (fault is None or not _restores_fault(replaced, fault)):
        # "from V to W": V is the fault it replaces, or the sentence says another story (SI red
        # team 41, F1; fail closed where no injected value is known)
        return False
    said_baseline = found.group("baseline_said") is not None
    if said_baseline and not _is_baseline(found.group("value_to"), fault):
        return False  # "(the baseline)" of a value that is not the factor's baseline
    deviation = None if fault is None else fault.deviation_type
    if deviation in _REMOVED_TYPES and given:
        # "Revert LEGACY_SHARD_COUNT to 4.", "(for example 4)", ": 4" keep the extra key with
        # a value: removing it gives it none (SI red team 38, W2, H4)
        return False
    if not _particles_belong(found, verb, deviation):
        return False
    removing = deviation in _REMOVED_TYPES
    taking = verb is not None and verb.casefold().startswith("tak")
    particle = (found.group("particle") or "").casefold()
    preposition = (found.group("preposition") or "").casefold()
    if particle == "out" and not removing:
        return False  # "put it out": "out" is only the particle of "take … out"
    if taking and particle != "out" and not preposition.startswith("out"):
        return False  # "take it": only "take it out (of R)" removes it
    if (
        preposition
        and found.group("place") is None
        and (found.group("kind") is None or found.group("article") is None)
    ):
        return False  # a place is the factor's resource, or "the configmap", "its secret"
    place = None if _gives_place_as_value(found, verb) else found.group("place")
    if place is not None and fold_name(place.rsplit("/", 1)[-1]) not in {
        fold_name(name.rsplit("/", 1)[-1]) for name in names
    }:
        return False
    workload = found.group("workload")
    if workload is not None:
        named = [word for word in workload.split() if word.casefold() not in _GENERIC_WORDS]
        if not all(names_object(name) for name in named):
            return False
    return True


# who a restart or an outcome names is a workload (SI red team 37, W6: "… so that smtp-config
# starts.", "… and restart node/notification-service."): a `kind/` prefix is a workload's kind,
# each spelling by the kind it names, and the factor's resource (a configmap or a secret) is none
_WORKLOAD_KINDS = {
    **dict.fromkeys(("deployment", "deployments", "deploy"), "deployment"),
    **dict.fromkeys(("statefulset", "statefulsets", "sts"), "statefulset"),
    **dict.fromkeys(("daemonset", "daemonsets", "ds"), "daemonset"),
    **dict.fromkeys(("replicaset", "replicasets", "rs"), "replicaset"),
    **dict.fromkeys(("pod", "pods", "po"), "pod"),
    **dict.fromkeys(("job", "jobs"), "job"),
    **dict.fromkeys(("cronjob", "cronjobs"), "cronjob"),
    **dict.fromkeys(("service", "services", "svc"), "service"),
}


def _in_estate(kind: str, name: str, workloads: frozenset[str]) -> bool:
    """Whether the estate's workloads (`kind/folded-name`, or a folded name of no stated kind)
    hold `name`, and, where the answer spells a kind (`kind`), an object of that very kind (SI
    red team 38, H5: "restart deployment/sim-node-1" of a node, "svc/payments-api" where only
    a deployment bears the name)."""
    folded = fold_name(name)
    if folded in workloads:
        return True
    held = {entry.rpartition("/")[0] for entry in workloads if entry.rpartition("/")[2] == folded}
    return bool(held) and (not kind or _WORKLOAD_KINDS[kind] in held)


def _workloads(
    names_object: Callable[[str], bool], factor: Collection[str], fault: InjectedFault | None
) -> Callable[[str], bool]:
    """`names_object` narrowed to the workloads a remedy may restart or an outcome name: where
    the estate is at hand (`InjectedFault.workloads`), a name bare is one of its workloads (SI
    red team 38, W6: "smtp-config" names a ConfigMap), and a name after a workload's kind one
    of that kind (H5)."""
    workloads = None if fault is None else fault.workloads
    spelt = [*factor, *([fault.resource] if fault is not None and fault.resource else [])]
    # the factor's names hold the statement's, the symptom's workload among them, and the
    # deviation's own resource; a resource is one spelt with a kind that is no workload's
    # ("configmap/smtp-config")
    resources = {
        fold_name(name)
        for kind, _, name in (own.rpartition("/") for own in spelt)
        if kind and kind.rsplit("/", 1)[-1].casefold() not in _WORKLOAD_KINDS
    }

    def names_workload(token: str) -> bool:
        kind, _, name = token.rpartition("/")
        kind = kind.rsplit("/", 1)[-1].casefold()
        if kind and kind not in _WORKLOAD_KINDS:
            return False
        if workloads is not None and not _in_estate(kind, name, workloads):
            return False
        return names_object(token) and fold_name(name) not in resources

    return names_workload


# a stopped dependency's remedy as the kubectl command that applies it ("Run kubectl scale
# deployment/orders-db --replicas=1.", "kubectl -n orders scale deployment orders-db
# --replicas 1"; SI red team 38, false lows; SI red team 40, L1): its arguments read as kubectl
# reads them (`_scale_arguments`), its workload the factor's own of its real kind, its
# namespace the dependency's, its count read as any value is (`plain_value`, `_not_the_fix`);
# any other flag or argument is no plain remedy (fail closed: "--dry-run=client" applies
# nothing). An argument never ends on a stop, which ends the sentence.
_KUBECTL_ARGUMENT = r"[^\s`'\".]+(?:\.[^\s`'\".]+)*"
_KUBECTL_SCALE = lazy_pattern(
    rf"\W*{_LABEL}{_INTRO}{_LEAD}{_PROPOSER}(?:run\s+|execute\s+)?[`'\"]?kubectl"
    rf"(?P<arguments>(?:\s+{_KUBECTL_ARGUMENT})+)[`'\"]?",
    re.IGNORECASE,
)
# a kubectl scale command, whatever its flags before the command: a remedy's shape (SI red team
# 40, H1: "kubectl scale deployment orders-db --replicas=0" was read as a restatement), read
# by `_kubectl_scale`. Another kubectl write (`kubectl patch … -p '{"data": …}'`) is not one:
# the value it gives the factor is read by `gives_no_fix` (SI red team 41, A2; docs/si-scoring.md,
# "Round 41")
_KUBECTL_WRITE = lazy_pattern(
    rf"\W*{_LABEL}{_INTRO}{_LEAD}{_PROPOSER}(?:run\s+|execute\s+)?[`'\"]?kubectl"
    r"(?:\s+-{1,2}[\w-]+(?:[=\s]+[\w.-]+)?)*\s+scale\b",
    re.IGNORECASE,
)
_NAMESPACE_FLAGS = frozenset({"-n", "--namespace"})


def _scale_arguments(arguments: list[str]) -> tuple[str, str, str, str | None] | None:
    """A kubectl scale command's kind, name, count and namespace (None where no flag gives
    one), as kubectl reads its arguments: `KIND/NAME` or `KIND NAME`, `--replicas` and `-n` /
    `--namespace` with their value joined by "=" or as the next argument, anywhere in the
    line; None for any other flag or argument, or a flag given twice."""
    positionals: list[str] = []
    flags: dict[str, str] = {}
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        index += 1
        if not argument.startswith("-"):
            positionals.append(argument)
            continue
        name, equals, value = argument.partition("=")
        if name.startswith("-n") and name != "-n" and not name.startswith("--"):
            name, value, equals = "-n", name[2:], "="  # "-norders" is "-n orders"
        if name not in _NAMESPACE_FLAGS and name != "--replicas":
            return None
        if not equals:
            if index >= len(arguments):
                return None
            value = arguments[index]
            index += 1
        key = "namespace" if name in _NAMESPACE_FLAGS else "replicas"
        if key in flags or not value:
            return None
        flags[key] = value
    if not positionals or positionals[0].casefold() != "scale" or "replicas" not in flags:
        return None
    target = positionals[1:]
    if len(target) == 1 and "/" in target[0]:
        kind, _, name = target[0].partition("/")
    elif len(target) == 2 and "/" not in target[0] + target[1]:
        kind, name = target
    else:
        return None
    if kind.casefold() not in _SCALED_KINDS or not name:
        return None
    return kind, name, flags["replicas"], flags.get("namespace")


_SCALED_KINDS = frozenset(
    {"deployment", "deployments", "deploy", "statefulset", "statefulsets", "sts"}
)


def _scales_its_kind(kind: str, name: str, fault: InjectedFault) -> bool:
    """Whether a kubectl scale command's kind is the stopped dependency's real kind (SI red team
    39, V3: "kubectl scale statefulset/orders-db" of a deployment scales nothing that exists):
    the estate's where it is at hand, else the kind of the deviation's resource."""
    spelt = _WORKLOAD_KINDS[kind.casefold()]
    held = {
        entry.rpartition("/")[0]
        for entry in fault.workloads or ()
        if entry.rpartition("/")[2] == fold_name(name)
    } - {""}
    if held:
        return spelt in held
    own_kind = (fault.resource or "").rpartition("/")[0].casefold()
    return not own_kind or _WORKLOAD_KINDS.get(own_kind) == spelt


def _kubectl_scale(
    text: str, factor: Collection[str], names_object: Callable[[str], bool], fault: InjectedFault
) -> tuple[str, int, str | None] | None:
    """`_remedy_parts` of a kubectl scale command of the stopped dependency (`_KUBECTL_SCALE`)."""
    found = _KUBECTL_SCALE.match(text)
    read = None if found is None else _scale_arguments(found.group("arguments").split())
    if found is None or read is None:
        return None
    kind, name, count, namespace = read
    if fold_name(name) not in {fold_name(own.rsplit("/", 1)[-1]) for own in factor}:
        return None
    if not _scales_its_kind(kind, name, fault):
        return None
    if namespace is not None and namespace != fault.namespace:
        return None  # "-n nowhere": another namespace's workload, or none (fail closed)
    if not plain_value(count, fault, names_object) or _not_the_fix(count, fault):
        return None
    tail = found.end() + _tail_start(text[found.end() :], names_object)
    return text[found.end() : tail], tail, "scale"


def _remedy_parts(
    text: str,
    factor: Collection[str],
    names_object: Callable[[str], bool],
    fault: InjectedFault | None,
) -> tuple[str, int, str | None] | None:
    """What follows a remedy's object up to its honest tail, where that tail starts in `text`,
    and its verb (None for an offer, which takes no particle); None when `text` opens on no
    remedy of the factor: a verb of the deviation's type (`_REMOVING` for an extra key,
    `_RE_ADDING` for a missing one, `_ADDING` for any other) and an object that is the factor,
    or a plain offer ("happy to apply the fix")."""
    deviation = None if fault is None else fault.deviation_type
    if fault is not None and deviation in _STOPPED_TYPES and _KUBECTL_SCALE.match(text):
        return _kubectl_scale(text, factor, names_object, fault)
    removing = deviation in _REMOVED_TYPES
    opening = _RE_ADDING if deviation in _MISSING_TYPES else _ADDING
    found = _opened((_REMOVING if removing else opening).match(text))
    if found is None:
        return None
    if found.group("offer") is not None:
        # "happy to apply the fix if you want": the courtesy is read as part of the offer; the
        # offer's object is the fix, the change or "it" (SI red team 36, W1b: "happy to roll
        # out the real fix on the node" offers another fix)
        offered = _OFFERED_OBJECT.match(text, found.end())
        if found.group("offered") is None or offered is None:
            return None
        rest = _COURTESY_IF.sub("", text[offered.end() :])
        tail = _tail_start(rest, names_object)
        return rest[:tail], offered.end() + tail, None
    verb = found.group("verb")
    if _RETRACTS.match(text, found.start("verb")) is not None or retracts(text):
        # "Afterwards revert it.": a retraction, no remedy (SI red team 43, H06); "Afterwards
        # put it back.", "Set K to 8080, test, then restore it." (SI red team 44, H3)
        return None
    if _BACK_BEFORE.match(text, found.end()) is not None and _BACK_VERBS.match(verb) is None:
        return None  # "back" only puts back after its verbs ("push back SMTP_PORT"; W4; H3)
    at = found.end()
    up = _UP_BEFORE.match(text, at)
    if up is not None:
        if _UP_VERBS.match(verb) is None or deviation not in _UP_TYPES:
            return None  # "up" starts a stopped dependency only ("Add up SMTP_PORT.")
        at = up.end()
    end = _object_end(text, at, factor, fault, names_object)
    if end is None:
        return None
    tail = end + _tail_start(text[end:], names_object, fault)
    return text[end:tail], tail, verb


_APPOSITION = lazy_pattern(
    rf"(?<=[\w\"'`”’]),\s*(?:which\s+is\s+)?(?:the|its)\s+(?:port|value|target\s+port)\s+(?:that\s+)?"
    rf"(?:the\s+)?(?P<name>{_NAME})\s+(?:listens\s+on|serves\s+on|exposes|expects|uses)(?=\s*,)",
    re.IGNORECASE,
)
_CODE_SPAN = lazy_pattern(r"(?<!`)`([^`\s]+)`(?!`)")


def remedy_end(
    text: str,
    factor: Collection[str],
    names_object: Callable[[str], bool] = _no_object,
    deviation: RemedyDeviation = None,
) -> int | None:
    """Where a plain remedy of the factor in `text` ends before its honest tail (an outcome or a
    source, which say nothing the other rules need to read), or None when `text` is no plain
    remedy (`is_remedy`); `deviation` is the factor's deviation type, or the fault as injected
    (`InjectedFault`), whose value no remedy may give back."""
    # "Set K := 8080." reads as "Set K = 8080." (SI red team 45, F8), the length kept
    folded = unicodedata.normalize("NFC", text).replace(":=", " =")
    # a code span around the key, the object or the value is prose (SI red team 46, F4: "set
    # `INVENTORY_PORT` to `8080`", "add `SMTP_PORT=2525` to `smtp-config`"): its backticks read
    # as spaces, the length kept
    # (its first `_WINDOW` * 2 characters only: a remedy is short, and the reading stays linear)
    head = _CODE_SPAN.sub(lambda span: f" {span.group(1)} ", folded[: 2 * _WINDOW])
    folded = head + folded[2 * _WINDOW :]
    fault = _fault(deviation)
    names_object = _workloads(names_object, factor, fault)
    # the value's source as an apposition inside the remedy (SI red team 46, F6: "Set K to 8080,
    # the port inventory listens on, and restart checkout."), a name of the scenario: blanked
    folded = (
        _APPOSITION.sub(
            lambda found: (
                " " * len(found.group()) if names_object(found["name"]) else found.group()
            ),
            folded[: 2 * _WINDOW],
        )
        + folded[2 * _WINDOW :]
    )
    parts = _remedy_parts(folded, factor, names_object, fault)
    if parts is None or _retracts_factor(
        folded, factor, None if fault is None else fault.deviation_type
    ):
        # "Then restore INVENTORY_PORT.": the step before undone, no remedy (SI red team 45, H8)
        return None
    rest, tail, verb = parts
    names = {fold_name(own) for own in factor}
    if not _plain_rest(rest, names, names_object, verb, fault):
        return None
    # the offset is in the NFC spelling; where that changed the length, the whole text is read
    return tail if len(folded) == len(text) else len(text)


# A sentence that gives the factor a value, whatever its verb (SI red team 41, A2; the depth the
# docs name for SI red team 40, H1): an imperative — any word in its plain form after the
# opening words a remedy may have (`_LEAD`), then the factor's own name or "it", then the value
# in a slot that gives it ("to V", "at V", "as V", "=V", ": V", "from V0 to V", or bare after
# "make", "keep", "leave") — or a kubectl write (patch, set, edit, apply, replace, create) that
# names the factor with a value. Its value is read as a remedy's (`plain_value`, `_not_the_fix`)
# wherever its verb is on no list ("Point INVENTORY_PORT at 8081.", "Make it 8081.", "kubectl
# set env deployment/checkout INVENTORY_PORT=8081"). A statement of the deviation opens on its
# subject ("INVENTORY_PORT is 8081", "It was changed to 8081"), a gerund or a participle
# ("Changing it to 8081 broke checkout"), a preposition ("With INVENTORY_PORT at 8081, …") or a
# verb of reading ("Saw INVENTORY_PORT=8081 …"): none of these is an imperative.
_VERB_WORD = lazy_pattern(r"[A-Za-z]+(?:-[A-Za-z]+)?")
_SKIPPED_WORD = lazy_pattern(rf"(?!{_NOT_LEADING}\b)[A-Za-z]+,?\s+", re.IGNORECASE)
_NOT_IMPERATIVE = lazy_pattern(
    rf"(?:{_NOT_LEADING}|see|saw|seen|find|found|note|noted|notice|noticed|read|observe|"
    r"observed|check|checked|verify|verified|confirm|confirmed|inspect|compare|look|looked|"
    r"show|shows|showed|spot|spotted|got|get|gets|had|kept|left|made|said|says|say|root|cause|"
    r"reason|because|so|but|yet|also|then|just|now|here|and|or|why|how)\Z",
    re.IGNORECASE,
)
_BARE_VALUE_VERBS = frozenset({"make", "keep", "leave"})
_GIVEN = r"(?:[-+]?\d[\w.:/-]*|[\"'`“‘][^\s\"'`”’]+[\"'`”’]|[A-Za-z][\w.-]*:\d[\w]*)"
_GIVEN_SLOT = lazy_pattern(
    r"(?:['’]s)?(?:\s+(?:key|entry|variable|value|setting|port|replicas?|replica\s+count))?"
    r"(?:\s+(?:back|up|down|over))*"
    rf"(?:\s+from\s+{_GIVEN})?"
    rf"(?:\s+(?:to|at|as|into|onto|on)\s+(?:the\s+value\s+|a\s+value\s+of\s+)?|\s*[=:]\s*)"
    rf"(?P<value>{_GIVEN})",
    re.IGNORECASE,
)
_SPACE = lazy_pattern(r"\s+")
_OPENING_STOPS = lazy_pattern(r"\W*")
_PROPOSING = lazy_pattern(_PROPOSER, re.IGNORECASE)
_BARE_SLOT = lazy_pattern(rf"\s+(?P<value>{_GIVEN})", re.IGNORECASE)
_KUBECTL_WRITES = lazy_pattern(
    r"\W*(?:run\s+|execute\s+)?[`'\"]?kubectl\b(?:\s+-{1,2}[\w-]+(?:[=\s]+[\w.-]+)?)*\s+"
    r"(?:patch|set|edit|apply|replace|create)\b",
    re.IGNORECASE,
)
_KUBECTL_PAIR = lazy_pattern(
    r"(?P<key>[A-Za-z0-9][\w.-]*)[\"']?\s*(?:[=:]|\s+to\s+)\s*[\"']?(?P<value>[\w.:+-]+)"
)


def _values_given(
    text: str, factor: Collection[str], names_object: Callable[[str], bool], fault: InjectedFault
) -> list[str]:
    """The values an imperative or a kubectl write in `text` gives the factor (see above)."""
    names = {fold_name(own.rsplit("/", 1)[-1]) for own in factor}
    stopped = fault.deviation_type in _STOPPED_TYPES
    own = {fold_name(name.rsplit("/", 1)[-1]) for name in (fault.subject, fault.resource) if name}
    # the deviation's own subject and resource, not every name the statement gives (its
    # symptom's workload too: "Restart orders-api at 10:00." gives orders-db nothing)
    dependency = own or names
    at = remedy_label(text)
    lead = _OPENING_STOPS.match(text, at)
    at = lead.end() if lead is not None else at
    intro = _INTRO_RE.match(text, at)
    if intro is not None and not _KUBECTL_WRITES.match(text, at):
        # "For now, set …", "If needed, kubectl patch …", "Step 2: set …", "When it restarts,
        # set …": the value an imperative after an introductory phrase gives is read whatever
        # the phrase (SI red team 42, H1; fail closed: only a value that is no fix is punished)
        at = intro.end()
    for _ in range(4):
        kubectl = _KUBECTL_WRITES.match(text, at)
        if kubectl is not None:
            # a replica count is the stopped dependency's only where the command names it
            # ("kubectl patch deployment orders-api … replicas" is another workload's)
            named = any(
                fold_name(token.rsplit("/", 1)[-1]) in dependency
                for token in _TOKEN.findall(text, kubectl.end())
            )
            given = []
            for pair in _KUBECTL_PAIR.finditer(text, kubectl.end()):
                key = fold_name(pair.group("key").rsplit("/", 1)[-1])
                if key in dependency or (stopped and named and key == "replicas"):
                    given.append(pair.group("value"))
            return given
        proposer = _PROPOSING.match(text, at)
        if proposer is not None and proposer.end() > at:
            at = proposer.end()
        word = _VERB_WORD.match(text, at)
        if word is None:
            return []
        verb = word.group()
        imperative = (
            _NOT_IMPERATIVE.match(verb) is None
            and not verb.casefold().endswith(("ing", "ed"))
            and not (verb.casefold().endswith("s") and not verb.casefold().endswith("ss"))
            and fold_name(verb) not in names
            and not names_object(verb)
        )
        space = _SPACE.match(text, word.end())
        if imperative and space is not None:
            before = _BEFORE_OBJECT.match(text, space.end())
            start = before.end() if before is not None else space.end()
            noun = _KIND_NOUN.match(text, start)
            start = noun.end() if noun is not None else start
            token = _PRONOUN.match(text, start) or _TOKEN.match(text, start)
            if token is not None and (
                token.group().casefold() in ("it", "them")
                or fold_name(token.group().rsplit("/", 1)[-1]) in dependency
            ):
                slot = _GIVEN_SLOT.match(text, token.end())
                if slot is None and verb.casefold() in _BARE_VALUE_VERBS:
                    slot = _BARE_SLOT.match(text, token.end())
                return [] if slot is None else [slot.group("value")]
        skipped = _SKIPPED_WORD.match(text, at)
        if skipped is None:
            return []
        at = skipped.end()
    return []


# A remedy prescribed without an imperative (SI red team 42, H2, F1): the value a normative
# statement or a remedy label gives the factor is a remedy's value, read by `plain_value` and
# `_not_the_fix`, never a state ("INVENTORY_PORT should / ought to / needs to / has to / is
# supposed to be 8081.", "INVENTORY_PORT stays 8081.", "The right INVENTORY_PORT is 8081.",
# "Leaving INVENTORY_PORT at 8081 is the fix.", "The fix is setting …", "Best to set …", "It
# needs INVENTORY_PORT set to 8081.", "orders-db needs 0 replicas.", "Fix: INVENTORY_PORT=8081.",
# "Desired state: …", "Target value for INVENTORY_PORT: 8081."). `K` is the factor's own subject
# or resource, or "it"; each shape is closed, so a statement of the deviation ("INVENTORY_PORT
# was changed to 8081.", "Changing it to 8081 broke checkout.") is read as before.
_KEY = (
    r"(?P<key>[A-Za-z0-9][\w./-]*[A-Za-z0-9]|it)(?:['’]s)?"
    r"(?:\s+(?:key|value|setting|port|replicas?|replica\s+count))?"
)
_NORM_VALUE = rf"(?P<value>{_GIVEN})"
_BEING = (
    r"(?:\s+(?:be|stay|remain|read|equal|hold|run|have|go|get|keep))?"
    r"(?:\s+(?:set|kept|left|put|changed|reverted|restored|scaled|pinned|configured))?"
    r"(?:\s+(?:back|up|down))?(?:\s+(?:at|to|as|on|of|with))?"
)
_MODAL = (
    r"(?:should|must|shall|ought\s+to|has\s+to|have\s+to|needs?\s+to|needs|need|requires|"
    r"(?:is|are)\s+(?:supposed|meant|expected|required|intended)\s+to|(?:is|are)\s+to|"
    r"would\s+need\s+to|stays|remains|keeps|stay|remain)"
)
_GERUND = r"(?:leav|keep|sett|putt|mak|chang|revert|restor|scal|bring|point|mov|pinn|us)ing"
_FIXING = (
    r"(?:(?:is|are|was|would\s+be|will\s+be)\s+(?:the\s+|a\s+|our\s+)?"
    r"(?:fix|remedy|solution|answer|way\s+(?:forward|out)|cure|resolution)|"
    r"(?:fix|fixes|resolves?|solves?|restores?|repairs?|cures?|remedies)\b|"
    r"(?:will|would|should|does|do)\s+(?:fix|resolve|solve|restore|repair|cure))"
)
_NORMATIVE = (
    lazy_pattern(
        rf"\W*(?:the\s+)?{_KEY}\s+{_MODAL}{_BEING}\s*[=:]?\s*{_NORM_VALUE}", re.IGNORECASE
    ),
    lazy_pattern(
        r"\W*(?:the\s+)?(?:right|correct|proper|expected|desired|intended|target|healthy|good|"
        r"fixed|wanted|required|needed)\s+(?:value\s+(?:of|for)\s+(?:the\s+key\s+)?)?"
        rf"{_KEY}\s*(?:is|=|:|should\s+be|would\s+be|will\s+be|must\s+be)\s*{_NORM_VALUE}",
        re.IGNORECASE,
    ),
    lazy_pattern(
        rf"\W*(?:just\s+|simply\s+)?{_GERUND}\s+(?:the\s+key\s+)?{_KEY}(?:\s+(?:back|up|down))?"
        rf"\s*(?:at|to|as|=)\s*{_NORM_VALUE}(?=[^.;!?]*?\b{_FIXING})",
        re.IGNORECASE,
    ),
    # "The correct value is 8080." (SI red team 43, F04): the factor's value, its key implied
    lazy_pattern(
        r"\W*(?:the\s+)?(?:right|correct|proper|expected|desired|intended|target|healthy|good|"
        r"fixed|wanted|required|needed|baseline)\s+(?:value|port|setting|replica\s+count)"
        rf"(?P<key>)\s*(?:is|=|:|should\s+be|would\s+be|will\s+be|must\s+be)\s*{_NORM_VALUE}",
        re.IGNORECASE,
    ),
    # the value before the key ("Assign 8080 to K.", "Use 1 replica for orders-db.", "Give K
    # the value 8080."; SI red team 43, H15), read whole only as a plain prescription
    lazy_pattern(
        r"\W*(?:please\s+)?(?:assign|use|give|write|put|apply|pick|choose)\s+"
        rf"{_NORM_VALUE}(?:\s+(?:replicas?|pods?|instances?))?\s+(?:to|for|into|in|on|as)\s+"
        rf"(?:the\s+)?(?:key\s+)?{_KEY}",
        re.IGNORECASE,
    ),
    lazy_pattern(
        rf"\W*(?:please\s+)?give\s+{_KEY}\s+(?:the\s+value\s+(?:of\s+)?|a\s+value\s+of\s+)?"
        rf"{_NORM_VALUE}",
        re.IGNORECASE,
    ),
    lazy_pattern(
        r"\W*(?:[A-Za-z]+\s+){0,3}?(?:fix|remedy|solution|answer|step|plan|"
        r"recommendation|best|better|way|option|thing\s+to\s+do|needs?|requires?|wants?|"
        r"is|would\s+be|will\s+be)\s+(?:is\s+|would\s+be\s+|will\s+be\s+)?(?:to\s+)?"
        rf"(?:(?:{_GERUND}|leave|keep|set|put|make|change|revert|restore|scale|bring|point|move|"
        rf"pin|use)\s+)?(?:the\s+key\s+)?{_KEY}(?:\s+(?:set|kept|left|put|changed|scaled|"
        rf"back|up|down))*\s*(?:at|to|as|=|:)?\s*{_NORM_VALUE}",
        re.IGNORECASE,
    ),
)
_REMEDY_LABEL_WORDS = (
    r"(?:[A-Za-z][\w;'’#.-]*\s+){0,3}?(?:fix(?:es)?|hotfix|workaround|remed(?:y|iation)|"
    r"patch|(?:proposed\s+)?change|mitigation|solution|resolution|action(?:\s+item)?|"
    r"step\s*#?\s*\d*|plan|proposal|recommendation|suggestion|to\s*do|todo|next\s+steps?)"
)
# a remedy label ("Fix:", "Desired state:", "Recommended:", "Target value for K:", "Step 2:")
# before the factor and its value ("K=V", "K: V", "K set to V", or the value alone where the
# label names the factor)
_NORM_LABEL = lazy_pattern(
    rf"\W*(?:{_LABEL_WORDS}|desired(?:\s+(?:state|value|config(?:uration)?))?|"
    r"target(?:\s+(?:state|value|config(?:uration)?))?|recommend(?:ed|ation)(?:\s+fix)?|"
    r"suggest(?:ed|ion)(?:\s+fix)?|propos(?:ed|al)(?:\s+fix)?|better|best|needed|required|"
    r"expected(?:\s+(?:state|value))?|correct(?:\s+(?:state|value))?|right\s+value|"
    r"step\s*\d*|to\s*do|todo|change|plan|should\s+be|must\s+be|wanted|"
    # the good or the after side of a before / after pair (SI red team 44, F6: "Bad: K=8081.
    # Good: K=8080.", "Before: … After: K=8080."): a remedy label, so "After: K=8081." withholds
    r"good|after|new|fixed|corrected|to[\s-]be|"
    # any label whose words name a remedy ("Workaround:", "Remediation:", "Patch:", "Proposed
    # change:", "TL;DR fix:", "Fix →"; SI red team 43, H14, F05): a remedy, never a state, so
    # "Workaround: K=8080." gives the fix as "Fix: K=8080." does; an evidence label
    # ("Observed:", "Current:") is none of these and stays a state
    rf"{_REMEDY_LABEL_WORDS})"
    rf"(?:\s+(?:of|for)\s+(?:the\s+key\s+)?{_KEY})?\s*(?:[:—–→]|-(?=\s)|=>|->)\s*",
    re.IGNORECASE,
)
_LABELLED = lazy_pattern(
    rf"(?:the\s+key\s+)?{_KEY}(?:\s+(?:set|kept|left|put|changed|scaled|back|up|down))*"
    rf"\s*(?:=|:|\s(?:at|to|as|of))\s*{_NORM_VALUE}",
    re.IGNORECASE,
)
# a missing key kept missing ("SMTP_PORT should stay absent."): the fault, whatever the value
_STAYS_MISSING = lazy_pattern(
    rf"\W*(?:the\s+)?{_KEY}\s+{_MODAL}(?:\s+(?:be|stay|remain|keep|left|kept))*\s+"
    r"(?:absent|missing|out|removed|deleted|unset|undefined|gone|empty|as\s+is|that\s+way|"
    r"like\s+that|untouched|alone)\b",
    re.IGNORECASE,
)


def _own_key(key: str, dependency: Collection[str]) -> bool:
    """Whether `key`, the subject of a normative statement, is the factor's own or "it"."""
    # an empty key is one the shape implies ("The correct value is 8080."; SI red team 43, F04)
    return key in ("", "it", "It", "IT") or fold_name(key.rsplit("/", 1)[-1]) in dependency


def normative_values(text: str, factor: Collection[str], fault: InjectedFault) -> list[str] | None:
    """The values a normative statement or a remedy label in `text` gives the factor (see
    above), or None where `text` is none (a missing key said to stay missing is read by
    `keeps_missing`)."""
    read = _normative(text, factor, fault)
    return None if read is None else [read[0].rstrip(".:")]  # its stop is the sentence's


# what may close a normative remedy read whole (`prescribes_fix`): its stop, or the gerund's
# "is the fix" / "fixes it"
_NORMATIVE_END = lazy_pattern(
    # a replica count's noun after it ("orders-db needs 1 replica."; SI red team 43, F04)
    r"(?:\s+(?:replicas?|pods?|instances?))?"
    r"(?:\s+(?:is|would\s+be|will\s+be)\s+(?:the|a)\s+(?:fix|remedy|solution)|"
    r"\s+(?:fixes|resolves|solves|will\s+fix|would\s+fix)\s+(?:it|this|the\s+outage))?"
    r"\s*[.!]?\s*\Z",
    re.IGNORECASE,
)


def _normative(text: str, factor: Collection[str], fault: InjectedFault) -> tuple[str, int] | None:
    """The value a normative statement or a remedy label gives the factor, and where its value
    ends in `text` (NFC), or None."""
    folded = unicodedata.normalize("NFC", text)
    names = {fold_name(own.rsplit("/", 1)[-1]) for own in factor}
    own = {fold_name(name.rsplit("/", 1)[-1]) for name in (fault.subject, fault.resource) if name}
    dependency = own or names
    label = _NORM_LABEL.match(folded)
    if label is not None:
        key = label.group("key")
        if key is not None and _own_key(key, dependency):
            value = _BARE_SLOT.match(" " + folded[label.end() :])
            if value is not None:
                return value.group("value"), label.end() + value.end() - 1
        given = _LABELLED.match(folded, label.end())
        if given is not None and _own_key(given.group("key"), dependency):
            return given.group("value"), given.end()
        start = label.end()
    else:
        start = 0
    for pattern in _NORMATIVE:
        found = pattern.match(folded, start)
        if found is not None and _own_key(found.group("key"), dependency):
            return found.group("value"), found.end()
    return None


def keeps_missing(text: str, factor: Collection[str], fault: InjectedFault) -> bool:
    """Whether `text` prescribes that a missing key stay missing ("SMTP_PORT should stay
    absent."; SI red team 42, H2)."""
    if fault.deviation_type not in _MISSING_TYPES:
        return False
    names = {fold_name(own.rsplit("/", 1)[-1]) for own in factor}
    own = {fold_name(name.rsplit("/", 1)[-1]) for name in (fault.subject, fault.resource) if name}
    folded = unicodedata.normalize("NFC", text)
    found = _STAYS_MISSING.match(folded)
    if found is not None and _own_key(found.group("key"), own or names):
        return True
    # the key's absence with a good outcome (SI red team 46, R4: "With SMTP_PORT absent,
    # notification-service recovers.", "SMTP_PORT being absent lets notification-service run.")
    # the outcome read once for the whole text, so that the reading stays linear (§11)
    if not _good_outcome(folded) or _STOPS_WORKING.search(folded) is not None:
        return False
    return any(
        _own_key(absent.group("key"), own or names) for absent in _ABSENT_STATE.finditer(folded)
    )


_ABSENT_STATE = lazy_pattern(
    r"\b(?P<key>[A-Za-z0-9][\w./-]*[A-Za-z0-9])\s+(?:(?:being|is|are|stays?|remains?|left|"
    r"kept|still|staying|remaining)\s+)*(?:absent|missing|removed|gone|unset|undefined|deleted|"
    r"out)\b",
    re.IGNORECASE,
)
_STOPS_WORKING = lazy_pattern(
    r"\bstop\w*\s+(?:running|working|serving|starting|responding|sending)\b", re.IGNORECASE
)


def prescribes_fix(text: str, factor: Collection[str], deviation: RemedyDeviation = None) -> bool:
    """Whether `text` is, whole, a normative statement or a labelled value (`normative_values`)
    that gives the factor a value: a remedy, never a state of the factor (SI red team 42, F1); that
    its values give the fix is `gives_no_fix`'s to read."""
    fault = _fault(deviation)
    if fault is None:
        return False
    read = _normative(text, factor, fault)
    # read whole: "INVENTORY_PORT should be 8080, but it is fine." is read by the other rules
    folded = unicodedata.normalize("NFC", text)
    if read is None:
        return False
    at = read[1]
    source = _PRESCRIBED_SOURCE.match(folded, at)
    if source is not None and (
        source.group("port") is None or same_value(source.group("port"), read[0].rstrip(".:"))
    ):
        at = (
            source.end()
        )  # "Good: K=8080 (service inventory listens on 8080)." (SI red team 44, F6)
    return _NORMATIVE_END.match(folded, at) is not None


# where the prescribed value comes from, after it (SI red team 44, F6): the port a service or a
# deployment listens on, which must be the value given, or "matching" one
_PRESCRIBED_SOURCE = lazy_pattern(
    rf"\s*\(\s*(?:the\s+)?(?:service|deployment|svc)?\s*{_NAME}\s+(?:listens|serves|runs)\s+on"
    rf"\s+(?:port\s+)?(?P<port>{_GIVEN})\s*\)|,?\s+(?:matching|to\s+match)\s+(?:the\s+)?"
    rf"(?:service\s+|deployment\s+)?{_NAME}(?:['’]s?\s+(?:port|listening\s+port))?",
    re.IGNORECASE,
)


# A value read wherever the sentence gives the factor one (SI red team 43, H01-H05, H13-H15:
# the depth the red team named). Rounds 41 and 42 read the value only behind an opening
# grammar — an introductory phrase of at most six words closed by a comma or a colon, a list of
# modals, a list of labels, a verb before the key — and each list was outrun: a dash, a
# semicolon, "#", ")", a seventh word, "you can", "can stay", "Workaround:", "Assign 8081 to K".
# Here the sentence is cut into clauses (`_CLAUSE_BOUNDARY`), and in every clause that names the
# factor's own subject or resource the value given it — after the key in any slot ("K=V", "K:
# keep V", "K can stay V", "Give K the value V", "K … to V"), or before it ("Assign V to K",
# "Use V replicas for K") — is read as what the answer prescribes, unless the clause states the
# deviation (`_states`: a finite "is / was / has …", a verb of reading or of breaking, a
# subject before its verb, a gerund, or an evidence label before it) or negates (`_NEGATION`).
# A normative word ("should", "can", "may", "best", "right", "fix", …) makes a clause a
# prescription whatever else it holds. Fail closed: a clause that is neither is read as a
# prescription, so a value that is not the fix withholds the band, and the baseline keeps it.
_CLAUSE_BOUNDARY = lazy_pattern(
    r"[;,()\[\]{}—–→!?]|\s-\s|:(?=\s)|\.(?=\s|\Z)|"
    # a subordinator of time or condition opens a clause too, its words first (SI red team 44,
    # H1: "Restart checkout after K is 8081 again." held its "is" in the remedy's clause)
    r"\b(?:as\s+soon\s+as|as\s+long\s+as|so\s+that|by\s+the\s+time|but|while|whereas|although|"
    r"though|which|so|because|since|and|or|then|yet|unless|if|when|whenever|once|until|till|"
    # "the moment K reads 8081 again" is a "when" (SI red team 46, R4)
    r"after|the\s+(?:moment|minute|instant|second))\b",
    re.IGNORECASE,
)
_NORMATIVE_WORD = lazy_pattern(
    r"\b(?:should|must|shall|ought|can|could|may|might|would|will|need|needs|needed|supposed|"
    r"meant|required|intended|best|better|want|wants|wanted|let|please|recommend\w*|"
    # a verb of wanting in the third person: a workload's clause with it prescribes (SI red team
    # 44, F3: "Checkout requires / deserves / prefers K 8081." is no evidence)
    r"requires?|deserves?|prefers?|expects?|"
    r"suggest\w*|propos\w*|advis\w*|right|correct|proper|desired|target|ideal|ideally|fix|"
    r"fixes|workaround|remedy|solution|try|stick|ensure|make\s+sure|see\s+to\s+it)\b|\b['’](?:d|ll)\b|\b(?:has|have|is|are)\s+to\b",
    re.IGNORECASE,
)
_STATING_WORD = lazy_pattern(
    r"\b(?:is|was|were|are|am|has|had|have|been|being|got|gets|became|becomes|reads|holds|held|"
    r"contains|contained|shows|showed|shown|says|said|lists|listed|carries|carried|points|"
    r"pointed|uses|used|saw|seen|see|sees|found|finds|noticed|observed|logged|logs|reported|"
    r"reports|returned|returns|changed|modified|updated|edited|bumped|introduced|broke|breaks|"
    r"causes|caused|crashes|crashed|fails|failed|listens|listened|serves|served|runs|"
    r"ran|started|restarted|scaled)\b|\b['’]s\b",
    re.IGNORECASE,
)
_NEGATION = lazy_pattern(
    r"\b(?:not|never|no|nor|avoid|stop|without|cannot|instead|rather)\b|n['’]t\b", re.IGNORECASE
)
# a subject before the clause's verb ("Someone set K to 8081.", "We scaled orders-db to 0."), a
# gerund ("Setting K to 8081 crashed it."): a statement where no normative word makes it one's
_SUBJECT_OPENING = lazy_pattern(
    r"\W*(?:i|we|they|he|she|someone|somebody|nobody|everyone|anyone|you|the|a|an|this|that|"
    r"my|our|their|his|her|its|some|every|[A-Za-z]+ing)\b",
    re.IGNORECASE,
)
_SUBORDINATORS = frozenset(
    {"because", "since", "if", "when", "whenever", "once", "until", "unless", "while", "whereas",
     "although", "though", "till", "after", "as soon as", "as long as", "so that",
     "by the time", "the moment", "the minute", "the instant", "the second"}
)  # fmt: skip
# a subordinator of a time to come or of a condition to meet names a target state, never the
# state the system is in (SI red team 44, H1: "Checkout recovers once K is 8081.", "Restart
# checkout after K is 8081 again."): its clause prescribes its value, but where its own verb is
# in the past ("once K was changed to 8081, checkout failed")
_TARGET_SUBORDINATORS = frozenset(
    {"once", "until", "till", "after", "so that", "by the time", "unless"}
)  # fmt: skip
# "if" and "when" state the deviation only where the sentence says the symptom ("If K is 8081,
# checkout fails."); with a good outcome ("Checkout works when K is 8081.") they prescribe it
# "as long as" and "as soon as" are conditions as much as times (SI red team 45, F3: "Checkout
# fails as long as K is 8081." states as "If K is 8081, checkout fails." does)
_CONDITION_SUBORDINATORS = frozenset(
    {"if", "when", "whenever", "as long as", "as soon as", "the moment", "the minute",
     "the instant", "the second"}
)  # fmt: skip
_FAILING = lazy_pattern(
    r"\b(?:fail\w*|crash\w*|cannot|can\s+not|not|never|no|errors?|erroring|refus\w*|"
    r"time[sd]?\s+out|timing\s+out|timeouts?|break\w*|broke|broken|down|unreachable|"
    r"unavailable|stuck|hangs?|hung|backoff|wrong|bad|outage|dies|died|exits?|exited)\b|"
    r"n['’]t\b",
    re.IGNORECASE,
)
# a failing word under a negator, or after "stop / cease / no longer", is a good outcome (SI red
# team 45, H5: "If K is 8081, checkout does not crash.", "…, no errors.", "Checkout stops
# failing when K is 8081."): the sentence's polarity, not its words, says the symptom
_NEGATED_FAILING = lazy_pattern(
    r"(?:\b(?:not|never|no|without|no\s+longer|none|zero|stops?|stopped|stopping|ceases?|"
    r"ceased)|n['’]t)\s+(?:[a-z]+\s+){0,2}?(?:fail\w*|crash\w*|errors?|erroring|refus\w*|"
    r"time[sd]?\s+out|timing\s+out|timeouts?|break\w*|broke|broken|down|unreachable|"
    r"unavailable|stuck|hangs?|hung|backoff|outages?|dies|die|died|exits?|exited|problems?|"
    r"issues?|restarts?|restarting)\b",
    re.IGNORECASE,
)
# a good outcome in the rest of the sentence (SI red team 45, H1, H4: "Once K is updated to 8081,
# checkout recovers.", "Once K was set back to 8081, checkout recovered."): with the clause's
# value it names the state to reach, a prescription whatever the clause's tense
_GOOD_OUTCOME = lazy_pattern(
    r"\b(?:recover\w*|works?|worked|working|came\s+back|comes?\s+back|back\s+up|healthy|fine|"
    r"ok|okay|ready|stable|stabili[sz]\w*|succeed\w*|resum\w*|green|runs?|running|ran|"
    r"starts?|started|up|serv(?:es|ed|ing)|connect(?:s|ed)?|reach(?:es|ed)?|heal\w*|fixed|"
    r"restored|resolved)\b",
    re.IGNORECASE,
)


def _failing(said: str) -> bool:
    """Whether `said` says the symptom: a failing word (`_FAILING`) outside a negated failure
    (`_NEGATED_FAILING`; SI red team 45, H5)."""
    return _FAILING.search(_NEGATED_FAILING.sub(" ", said)) is not None


def _good_outcome(said: str) -> bool:
    """Whether `said` says a good outcome: a negated failure, or a word of recovery where no
    failing word is (SI red team 45, H1, H4, H5)."""
    if _NEGATED_FAILING.search(said):
        return True
    return _GOOD_OUTCOME.search(said) is not None and not _failing(said)


# a participle after a present auxiliary is a passive, no past (SI red team 45, H1: "Once K is
# updated to 8081, …", "After K is changed to 8081, restart checkout.")
_PASSIVE = lazy_pattern(
    r"\b(?:is|are|am|be|being|get|gets|getting)\s+(?:\w+ly\s+)?[A-Za-z]+\b", re.IGNORECASE
)
# a tail of when a step is done, no past (SI red team 45, H2: "… and restart checkout as
# needed / if required / as planned."): never read for a tense
_TENSELESS_TAIL = lazy_pattern(
    r"\b(?:as|if|when|where|unless)\s+(?:(?:it\s+is|is)\s+)?[A-Za-z]+ed\b", re.IGNORECASE
)
# a time when the fix holds, anywhere in the sentence (SI red team 45, H6: "Checkout uses K 8081
# going forward / henceforth / from the fix / once fixed."): what is asked for, never a state
_FIX_TIME = lazy_pattern(
    r"\b(?:henceforth|hereafter|thenceforth|going\s+forward|from\s+now\s+on|from\s+then\s+on|"
    r"in\s+(?:the\s+)?future|(?:once|when|after|from|with|post)[\s-]+(?:(?:it\s+is|is)\s+)?"
    r"(?:fixed|patched|repaired|corrected|resolved|remediated|the\s+(?:fix|patch|remedy|"
    r"rollout|change|repair))|after\s+fixing|post-?fix)\b",
    re.IGNORECASE,
)
# a verb of reading behind a modal, its subject the writer or the reader, right before the key
# (SI red team 45, F4: "You can see K=8081 in checkout-config.", "You'll find K=8081 …", "I can
# confirm K is 8081."): evidence, though "can" is a normative word
_MODAL_READING = lazy_pattern(
    r"\W*(?:i|we|you|one)(?:\s+(?:can|could|will|may|might)|['’]ll)\s+(?:also\s+)?"
    r"(?:see|find|confirm|verify|notice|observe|spot)\s+(?:that\s+)?(?:the\s+)?(?:key\s+)?",
    re.IGNORECASE,
)
# a subject in the third person singular before a verb without its "-s": the verb is a past
# ("Someone set K to 8081.", "A deploy set K to 8081."), where "Someone sets K to 8081 and
# restarts checkout." is a present (SI red team 45, H3)
_SINGULAR_BARE = lazy_pattern(
    r"\W*(?:someone|somebody|nobody|everyone|everybody|anyone|anybody|he|she|"
    r"(?:a|an|this|that|the|some)\s+[A-Za-z][\w-]*)\s+(?:(?:just|accidentally|also|then|"
    r"simply)\s+)?(?!(?:can|could|will|would|shall|should|may|might|must|do|did|ought)\b)"
    r"[a-z]+(?<![sS])\b(?!['’])",
    re.IGNORECASE,
)
# a verb in the past, or a time of the past: what makes a subject's clause a statement (SI red
# team 44, H1, H4: "Someone set K to 8081 last night.", "We scaled orders-db to 0.")
_PAST = lazy_pattern(
    r"\b(?:was|were|had|did|been|became|went|got|ago|yesterday|earlier|previously|formerly|"
    r"originally|last\s+(?:night|week|month|time|deploy\w*|release|rollout|change)|"
    r"this\s+morning|broke|ran|took|made|came|began|brought|fell|gave|held|lost|sent|wrote|saw|"
    r"knew|went|stood|threw|told|thought|caught|died|quit)\b|\b[A-Za-z]{2,}(?<![eE])ed\b",
    re.IGNORECASE,
)
# a time of the future: what the sentence asks for next (SI red team 44, H4: "Then you set K to
# 8081.", "The operator sets K to 8081 next."); "now" is the incident's present ("The checkout
# pods now dial K 8081."), and with a subject that acts it prescribes anyway
_FUTURE = lazy_pattern(
    r"\b(?:next|then|afterwards?|later|tomorrow|soon|tonight|going\s+to|gonna|"
    r"from\s+now\s+on|going\s+forward)\b",
    re.IGNORECASE,
)
# who acts on the estate: the reader, the writer or the team that runs it (SI red team 44, H4:
# "We set K to 8081 and redeploy checkout.", "Next, you set K to 8081."); their clause in the
# present prescribes
_AGENT_SUBJECT = lazy_pattern(
    r"\W*(?:i|we|you|let['’]?s|one|(?:the|our|your)\s+(?:operators?|team|on-?call|admins?|"
    r"administrators?|sres?|engineers?|ops|platform\s+team|oncall))\b",
    re.IGNORECASE,
)
# what may stand before a subordinate clause's key that is its subject: an article
_SUBJECT_KEY = lazy_pattern(r"\s*(?:(?:the|its)\s+)?(?:key\s+)?", re.IGNORECASE)
# a preposition that opens a state ("With K at 8081, …", "Given K=8081, …")
_STATE_OPENING = lazy_pattern(r"\W*(?:with|given|under|having)\b", re.IGNORECASE)
# the words of reading in a label before the clause
_READING_WORD = lazy_pattern(
    r"\b(?:get|describe|cat|grep|logs?|output|shows?|showed|says|said|reads|printed|returned|"
    r"returns|saw|seen|found|observed|evidence|current(?:ly)?|actual)\b",
    re.IGNORECASE,
)
# an evidence label before the clause: what follows is what was seen ("Observed: K=8081.")
_EVIDENCE_LABEL = lazy_pattern(
    r"\W*(?:(?:root\s+)?cause|evidence|observed(?:\s+(?:state|value))?|observations?|"
    r"current(?:ly)?(?:\s+(?:state|value|config(?:uration)?))?|actual(?:\s+(?:state|value))?|"
    r"saw|seen|found|findings?|now|before|was|is|status|state|live|logs?|events?|symptoms?|"
    r"diagnosis|problem|issue|why|reason|note|facts?|data|output|results?|proof|details|"
    r"context|background|summary|tl;?dr|"
    # the bad or the before side of a pair (SI red team 44, F6: "Bad: K=8081. Good: K=8080.")
    r"bad|culprit|wrong|broken|faulty|old|as[\s-]is)\s*(?:\([^)]*\))?\s*(?:[:—–→]|-(?=\s))",
    re.IGNORECASE,
)
_GIVEN_VALUE = rf"(?:{_GIVEN}|zero)"
_AT_VALUE = lazy_pattern(rf"(?P<value>{_GIVEN_VALUE})(?![\w])", re.IGNORECASE)
_KEY_SLOT = lazy_pattern(
    r"(?:['’]s)?(?:\s+(?:key|entry|variable|env\s+var|value|setting|port|replicas?|"
    rf"replica\s+count))?\s*[=:]\s*(?P<value>{_GIVEN_VALUE})(?![\w])",
    re.IGNORECASE,
)
_KEY_MARK = lazy_pattern(r"\s*[=:]\s*")
_FILLER = lazy_pattern(r"\s*(?:[=:]\s*)?(?P<word>[A-Za-z][A-Za-z'’-]*)", re.IGNORECASE)
_VALUE_AHEAD = lazy_pattern(r"\s*(?:[=:]\s*)?", re.IGNORECASE)
# what a value after the key may not be read through: the value it replaces ("from 8081 to
# 8080" skips 8081), or a state of it ("currently 8081")
_NOT_THROUGH = frozenset(
    {"not", "never", "no", "instead", "rather", "than", "except", "currently", "formerly",
     "previously", "unlike", "vs", "versus"}
)  # fmt: skip
_ANY_VALUE = lazy_pattern(rf"(?<![\w.:/-])(?P<value>{_GIVEN_VALUE})(?![\w])", re.IGNORECASE)
_VALUE_BEFORE_KEY = lazy_pattern(
    rf"(?P<value>{_GIVEN_VALUE})(?:\s+(?:replicas?|pods?|instances?|copies))?\s+"
    r"(?:to|for|into|in|as|on|onto|at)\s+(?:the\s+)?(?:(?:key|variable|entry|setting|"
    r"deployment|configmap|value\s+of)\s+)?\Z",
    re.IGNORECASE,
)
# a replica count is a stopped dependency's only in a clause of replicas or scaling
_REPLICA_CLAUSE = lazy_pattern(
    r"\b(?:replicas?|scal\w*|pods?|instances?|copies|zero)\b", re.IGNORECASE
)
# the factor kept as it is (SI red team 43, H04, H05): the injected state, whatever the
# deviation's type — "Keep K as is.", "Leave K alone.", "K ought to remain unchanged.", "K
# should stay scaled down.", "K can stay absent.", "K is best left out."
_KEEPING_VERB = lazy_pattern(
    r"\b(?:keep|keeps|keeping|kept|leave|leaves|leaving|left|stay|stays|staying|remain|remains|"
    r"remaining|let|"
    # the verbs of holding on (SI red team 45, H7: "Hold K as is.", "Preserve K.", "Retain the
    # current K.", "Freeze K.", "Stick with the current K.")
    r"hold|holds|holding|preserv\w*|retain\w*|freez\w*|frozen|stick\w*|stuck|pin|pins|pinned|"
    r"pinning|maintain\w*|lock|locks|locked|persist\w*|conserv\w*|sustain\w*)\b",
    re.IGNORECASE,
)
_KEPT_STATE = lazy_pattern(
    r"\b(?:as\s+(?:it\s+)?(?:is|stands)|alone|unchanged|untouched|intact|the\s+way\s+it\s+is|"
    r"that\s+way|like\s+that|where\s+it\s+is|in\s+place|(?:scaled\s+)?down|"
    r"(?:scaled\s+)?to\s+zero|at\s+zero|stopped|off|offline|absent|missing|out|unset|removed|"
    r"deleted|gone|empty|be(?=[\s.!]*\Z))\b",
    re.IGNORECASE,
)
# what a kept state is of an extra key: the fix ("Leave LEGACY_SHARD_COUNT out.")
_REMOVED_STATE = lazy_pattern(
    r"\b(?:absent|missing|out|unset|removed|deleted|gone)\b", re.IGNORECASE
)


@dataclass(frozen=True)
class _Clause:
    start: int
    end: int
    key_start: int
    key_end: int
    # opened by a subordinator ("because", "if", "once", …): the subordinator, folded
    subordinator: str = ""

    @property
    def subordinate(self) -> bool:
        return bool(self.subordinator)


def _clauses_naming(text: str, dependency: Collection[str]) -> list[_Clause]:
    """Each occurrence of the factor's own subject or resource in `text`, with its clause."""
    cuts = [0]
    subordinated: dict[int, str] = {}
    for cut in _CLAUSE_BOUNDARY.finditer(text):
        cuts += [cut.start(), cut.end()]
        word = " ".join(cut.group().casefold().split())
        if word in _SUBORDINATORS:
            subordinated[cut.end()] = word
    cuts.append(len(text))
    found = []
    for token in _TOKEN.finditer(text):
        if fold_name(token.group().rsplit("/", 1)[-1]) not in dependency:
            continue
        # each look-up a bisection: the reading stays linear in the answer (docs/si-scoring.md §11)
        start = cuts[bisect_right(cuts, token.start()) - 1]
        # "K: keep 8081", "K=8081": a slot right after the key is the key's, not a boundary
        slot = _KEY_SLOT.match(text, token.end()) or _KEY_MARK.match(text, token.end())
        after = token.end() if slot is None else slot.end()
        end = cuts[bisect_left(cuts, after)]
        found.append(_Clause(start, end, token.start(), token.end(), subordinated.get(start, "")))
    return found


def _label_before(text: str, at: int) -> str:
    """The words before a colon that opens the clause at `at` (at most 80 characters, so that
    each look-up is bounded and the reading stays linear), or ""."""
    index = at - 1
    while index >= 0 and text[index].isspace():
        index -= 1
    if index < 0 or text[index] != ":":
        return ""
    return text[max(0, index - 80) : index]


# a workload or an object of the scenario as a clause's subject, then its finite verb in the third
# person or the past (SI red team 44, F3: "Checkout dials K 8081 and times out.", "Checkout
# talks to K 8081"): what the system does, a statement whatever the verb, so that no list of
# stating verbs has to hold every verb of evidence
_OBJECT_SUBJECT = lazy_pattern(
    r"\W*(?:the\s+)?(?P<subject>[A-Za-z0-9][\w./-]*[A-Za-z0-9])"
    r"(?:\s+(?:pods?|deployment|service|app|application|containers?|workload|process))?"
    r"\s+(?:(?:still|always|also|just|only|now|then|repeatedly|never)\s+)?"
    r"(?P<verb>[a-z]+(?<!s)s|[a-z]{2,}(?<!e)ed)\b",
    re.IGNORECASE,
)


def _no_subject(_name: str) -> bool:
    return False


# What makes a clause that gives the factor a value a prescription before any verb of it is read
# (SI red team 46, R2-R4: `_states` fell through to "states" for each of these, so the value was
# never checked): a noun of change before the key ("Fix: the restoration of K to 8081", "an
# update of K to 8081", "a scale of orders-db to 0 replicas"), a causative opening of the
# sentence ("Have K set to 8081.", "Have someone set …", "Make it so K is 8081.", "Get …"), a
# noun of the fix before the clause in its part of the sentence ("Recommended: …", "The fix:
# …"), and a good outcome in the rest of the sentence where the clause's own verb is no present
# verb of being or reading ("With K at 8081, checkout recovers.", "K being 8081 lets checkout
# recover.", "A value of 8081 for K fixes checkout."). A present verb of being or reading ("K
# is 8081 today; set it to 8080.") states; so does a past under "until" or "before" that
# changes the factor to its value after a good outcome ("Checkout worked until K was changed
# to 8081.": a history).
_CHANGE_NOUN = lazy_pattern(
    r"\b(?:restoration|restore|update|patch|change|reset|scale|scaling|setting|revert|reversion|"
    r"rollback|roll-?back|return|move|switch|bump|edit|correction|adjustment|increase|decrease|"
    r"reduction|assignment|modification)\s+of\s+(?:the\s+)?(?:key\s+|deployment\s+|"
    r"configmap\s+)?\Z",
    re.IGNORECASE,
)
_CAUSATIVE = lazy_pattern(
    rf"\W*{_LABEL}(?:please\s+|just\s+|simply\s+)?(?:have|get|make)\s+"
    r"(?!(?:a|an)\s+(?:look|glance|check|quick)\b|(?:been|had|seen|to)\b)",
    re.IGNORECASE,
)
_FIX_NOUN = lazy_pattern(
    r"\b(?:fix|fixes|remedy|remediation|recommended|recommendation|solution|workaround|"
    r"mitigation|resolution|action|next\s+step|to-?do|plan)\b",
    re.IGNORECASE,
)
_FIXES = lazy_pattern(r"\b(?:fix|fixes|resolves?|cures?|heals?|unblocks?)\b", re.IGNORECASE)
_PRESENT_BEING = lazy_pattern(
    r"\b(?:is|are|am|reads|holds|shows|contains|says|lists|equals)\b|\b['’]s\b", re.IGNORECASE
)
_WINDOW = 300
_SO_BEFORE = lazy_pattern(r"\bso(?:\s+that)?\s*\Z", re.IGNORECASE)
_SEGMENT_END = lazy_pattern(r"[;.!?](?=\s|\Z)")
_CHANGED_TO = lazy_pattern(
    r"\b(?:chang|set|mov|bump|switch|updat|edit|flipp|revert|turn|scal)\w*\b[^;.]*?\bto\s*\Z",
    re.IGNORECASE,
)


def _prescribed_in_sentence(text: str, clause: _Clause, upto: int) -> bool | None:
    """True where the clause prescribes whatever its verb (the comment above), False where its
    present verb of being or reading states, None where neither is said."""
    # each look is bounded (`_WINDOW` characters either side), so that the reading stays linear
    segment = 0 if clause.start <= _WINDOW else clause.start - _WINDOW
    for stop in _SEGMENT_END.finditer(text, segment, clause.start):
        segment = stop.end()
    if _CHANGE_NOUN.search(text, max(segment, clause.key_start - 60), clause.key_start):
        return True
    said = text[clause.start : upto]
    if _CAUSATIVE.match(text) is not None and segment == 0:
        return True
    if _SO_BEFORE.search(text, segment, clause.start) and _STEP_OPENING.match(text, segment):
        return True  # "I'd patch checkout-config so K is 8081.": the step's result (F5's twin)
    if _PRESENT_BEING.search(said):
        return False
    if _FIX_NOUN.search(text, segment, clause.start):
        return True
    # the words before the clause only where it is subordinate ("Everything worked while K was
    # 8081."): a main clause's own opening ("Run kubectl get …: K=8081.") is no outcome
    rest = (
        (text[segment : clause.start] if clause.subordinate else "")
        + " "
        + text[upto : upto + _WINDOW]
    )
    if not (_good_outcome(rest) or (_FIXES.search(rest) and not _failing(rest))):
        return None
    if clause.subordinator in ("until", "till") and _CHANGED_TO.search(text, clause.start, upto):
        return None  # "Checkout worked until K was changed to 8081.": a history
    return True


def _states(
    text: str,
    clause: _Clause,
    upto: int,
    names_subject: Callable[[str], bool] = _no_subject,
    past_after: bool = True,
) -> bool:
    """Whether `clause`, up to `upto` (its value), states the deviation rather than prescribes:
    a normative word makes it a prescription, and so does a subordinator of a time to come or a
    condition to meet (`_TARGET_SUBORDINATORS`; SI red team 44, H1); else a finite verb of
    being, reading or breaking, a subject in the past or a workload's finite verb
    (`names_subject`; F3), or a gerund opening make it a statement; a subject that acts on the
    estate in the present or a time to come prescribes (H4); else it prescribes (fail
    closed). The past is looked for after `upto` too ("… to 8081 yesterday, which broke
    checkout") unless `past_after` is False: what follows a kept factor is its state ("the way
    you found it"), never the clause's tense."""
    said = text[clause.start : upto]
    reading = _MODAL_READING.match(text, clause.start, clause.key_start)
    if (
        reading is not None
        and not clause.subordinate
        and not _NORMATIVE_WORD.search(text, reading.end(), upto)
    ):
        return True  # "You can see K=8081 in checkout-config." (SI red team 45, F4)
    if _NORMATIVE_WORD.search(said):
        return False
    if _FIX_TIME.search(text):
        return False  # "Checkout uses K 8081 going forward / once fixed." (SI red team 45, H6)
    subordinator = clause.subordinator
    rest = text[: clause.start] + " " + text[clause.end :]
    if subordinator in _TARGET_SUBORDINATORS or (
        subordinator in _CONDITION_SUBORDINATORS and not _failing(rest)
    ):
        # "once K is 8081", "after K is 8081 again", "Checkout works when K is 8081.": the
        # state to reach, a prescription (SI red team 44, H1); with a good outcome whatever
        # its tense ("Once K was set back to 8081, checkout recovered."), else unless its own
        # finite verb is past, a passive participle being none (SI red team 45, H1, H4)
        if _good_outcome(rest):
            return False
        return _PAST.search(_PASSIVE.sub(" ", said)) is not None
    prescribed = _prescribed_in_sentence(text, clause, upto)
    if prescribed is not None:
        return not prescribed  # SI red team 46, R2-R4
    if _STATING_WORD.search(said):
        return True
    label = _label_before(text, clause.start)
    if label and not _NORMATIVE_WORD.search(label) and _READING_WORD.search(label):
        # "Run kubectl get configmap checkout-config: INVENTORY_PORT=8081.": what a read
        # printed, a statement; a label of no reading is read as a remedy's (fail closed)
        return True
    if clause.subordinate and _SUBJECT_KEY.fullmatch(text, clause.start, clause.key_start):
        return True  # "Because INVENTORY_PORT=8081, checkout cannot connect.": the key its subject
    if _STATE_OPENING.match(said):
        return True  # "With INVENTORY_PORT at 8081, checkout fails.": a state, no verb
    opening = _SUBJECT_OPENING.match(said)
    # "The INVENTORY_PORT …": an article before the key is the key's, not another subject
    subject = opening is not None and not (
        opening.group().strip().casefold() in ("the", "a", "an")
        and clause.start + opening.end() >= clause.key_start - 1
    )
    acting = _OBJECT_SUBJECT.match(said)
    if not subject and acting is not None and names_subject(acting.group("subject")):
        subject = acting.end() <= clause.key_start - clause.start
    if not subject:
        return False
    # only a past makes a subject's clause a statement (SI red team 44, H4): a time to come
    # ("Then you set K to 8081.", "The operator sets K to 8081 next.") or who acts on the estate
    # in the present ("We set K to 8081 and redeploy checkout.") prescribes
    # the past after the value is read outside the tails of when a step is done (SI red team
    # 45, H2: "We set K to 8081 and restart checkout as needed." is a plan)
    if _PAST.search(said) or (past_after and _PAST.search(_TENSELESS_TAIL.sub(" ", text[upto:]))):
        return True
    if _FUTURE.search(text, 0, clause.end):
        return False
    if _SINGULAR_BARE.match(said):
        return True  # "Someone set K to 8081.", "A deploy set K to 8081.": no present, a past
    # a present clause of any subject prescribes but a workload's or an object's finite verb
    # (F3 above): the test is inverted from round 44's list of subjects that act, which
    # "they" and "someone" outran (SI red team 45, H3: "They set K to 8081 and restart
    # checkout." is a plan; fail closed)
    return (
        _AGENT_SUBJECT.match(said) is None
        and acting is not None
        and names_subject(acting.group("subject"))
    )


def _value_after(text: str, clause: _Clause) -> tuple[str, int] | None:
    """The value given after the key in its clause, and where it starts: in a slot ("=V",
    ": V"), or after up to six words ("can stay V", "the value V", "to V"), the value a "from"
    names replaced and skipped ("from 8081 to 8080")."""
    slot = _KEY_SLOT.match(text, clause.key_end)
    if slot is not None:
        return slot.group("value"), slot.start("value")
    at = clause.key_end
    for _ in range(7):
        ahead = _VALUE_AHEAD.match(text, at)
        at = ahead.end() if ahead is not None else at
        if at >= clause.end:
            return None
        value = _AT_VALUE.match(text, at)
        if value is not None:
            # the clause's stop is no part of the value ("… to 8081.")
            return text[at : min(value.end(), clause.end)], at
        word = _FILLER.match(text, at)
        if word is None or word.end() > clause.end:
            return None
        said = word.group("word").casefold()
        if said in _NOT_THROUGH:
            return None
        at = word.end()
        if said == "from":
            skipped = _AT_VALUE.match(text, at + 1) if at < len(text) else None
            if skipped is None:
                return None
            at = skipped.end()
    return None


# an arrow between two values ("K 8081 -> 8080", "=>", "-->", "→") reads as "from A to B" (SI
# red team 44, F4): the value before it is the one replaced, the one after it the one given
# (SI red team 45, H9, F8: any run of dashes, tildes or equals signs before ">" and the arrow
# signs of Unicode, "—>", "--->", "~>", "⟹", "➔"); ":=" is an "=" (`_arrows_read`)
_ARROW_SIGN = r"(?:[-‐‑‒–—―−~=]+>|[→⟶⇒⟹➔➜➝➞➙➛⇨⇾⟾⤍⤏⥤⇛⇉])"
_ARROW = lazy_pattern(
    rf"(?P<old>{_GIVEN_VALUE})\s*{_ARROW_SIGN}\s*(?P<new>{_GIVEN_VALUE})(?![\w])",
    re.IGNORECASE,
)
_ASSIGN = lazy_pattern(r"\s*:=\s*")


def _arrows_read(text: str) -> str:
    """`text` with each arrow between two values written as "from A to B"."""
    text = _ASSIGN.sub("=", text)  # "K := 8081" (SI red team 45, H9)
    return _ARROW.sub(lambda found: f"from {found['old']} to {found['new']}", text)


def _subjects(
    factor: Collection[str], fault: InjectedFault, names_object: Callable[[str], bool]
) -> Callable[[str], bool]:
    """Whether a token names an object of the scenario other than the factor's own subject and
    resource: the statement's names (its workload), the estate's workloads, or an object the
    reader knows (`names_object`); a clause's subject of these states (SI red team 44, F3)."""
    own = {fold_name(name.rsplit("/", 1)[-1]) for name in (fault.subject, fault.resource) if name}
    known = {fold_name(name.rsplit("/", 1)[-1]) for name in factor}
    known |= {entry.rpartition("/")[2] for entry in fault.workloads or ()}

    def names_subject(token: str) -> bool:
        folded = fold_name(token.rsplit("/", 1)[-1])
        return folded not in own and (folded in known or names_object(token))

    return names_subject


# a condition whose main clause is an imperative remedy giving the fix states its own value: the
# fault as the case to repair (SI red team 46, F3: "If K is still 8081, set it to 8080.",
# "Whenever K drifts to 8081, reset it to 8080.", "Should K be 8081 again, set it back to 8080.")
_INVERTED_CONDITION = lazy_pattern(r"\W*(?:should|were)\s+(?:the\s+)?(?:key\s+)?", re.IGNORECASE)
_MAIN_AFTER = lazy_pattern(r"[,\s]*(?:then\s+)?")


def _repaired_case(
    text: str,
    clause: _Clause,
    factor: Collection[str],
    fault: InjectedFault,
    names_object: Callable[[str], bool],
) -> bool:
    if not (
        clause.subordinator in _CONDITION_SUBORDINATORS
        or _INVERTED_CONDITION.fullmatch(text, clause.start, clause.key_start)
    ):
        return False
    main = _MAIN_AFTER.match(text, clause.end)
    at = main.end() if main is not None else clause.end
    rest = text[at : at + _WINDOW]  # bounded, so that the reading stays linear
    given = _values_given(rest, factor, names_object, fault)
    return bool(given) and not any(
        not plain_value(value, fault, names_object) or _not_the_fix(value, fault) for value in given
    )


def sentence_values(
    text: str,
    factor: Collection[str],
    fault: InjectedFault,
    names_object: Callable[[str], bool] = _no_object,
) -> list[str]:
    """The values `text` prescribes for the factor wherever it gives it one (see above): each
    clause naming the factor's own subject or resource that neither states the deviation nor
    negates, its value after the key or before it; "zero" is 0. A value after an arrow is the
    one given, the one before it the one replaced (`_arrows_read`; SI red team 44, F4)."""
    folded = _arrows_read(unicodedata.normalize("NFC", text))
    if _EVIDENCE_LABEL.match(folded):
        return []
    names = {fold_name(own.rsplit("/", 1)[-1]) for own in factor}
    own = {fold_name(name.rsplit("/", 1)[-1]) for name in (fault.subject, fault.resource) if name}
    names_subject = _subjects(factor, fault, names_object)
    # the factor's resource as the subject of a present verb states what it holds (SI red team
    # 45, F4: "checkout-config sets K to 8081."); of a stopped dependency the resource is the
    # subject itself, which a verb of change prescribes ("orders-db scales to 0")
    resource_names = (
        {fold_name(fault.resource.rsplit("/", 1)[-1])}
        if fault.resource and fault.subject and fault.resource != fault.subject
        else set()
    )
    stopped = fault.deviation_type in _STOPPED_TYPES
    given: list[str] = []
    for clause in _clauses_naming(folded, own or names):
        said = folded[clause.start : clause.end]
        if stopped and not _REPLICA_CLAUSE.search(said):
            continue  # "orders-db listens on 5432" gives no count
        after = _value_after(folded, clause)
        before = _VALUE_BEFORE_KEY.search(folded, clause.start, clause.key_start)
        upto_before = clause.key_end
        if before is None and after is None and _NORMATIVE_WORD.search(said):
            # "8081 is the value INVENTORY_PORT should have.": the last value before the key in
            # a clause that prescribes, read with the whole clause (SI red team 43, H15)
            values = list(_ANY_VALUE.finditer(folded, clause.start, clause.key_start))
            before = values[-1] if values else None
            upto_before = clause.end
        read = (
            after
            if after is not None
            else None
            if before is None
            else (before.group("value"), upto_before)
        )
        if read is None:
            continue
        value, upto = read
        resource = _OBJECT_SUBJECT.match(folded, clause.start, clause.key_start)
        if (
            resource is not None
            and fold_name(resource["subject"].rsplit("/", 1)[-1]) in resource_names
            and not _NORMATIVE_WORD.search(folded, clause.start, upto)
            and not _FUTURE.search(folded, clause.start, upto)
            and not _FIX_TIME.search(folded)
        ):
            continue  # "checkout-config sets K to 8081.": the resource's own verb states (F4)
        if _NEGATION.search(folded, clause.start, upto) or _states(
            folded, clause, upto, names_subject
        ):
            continue
        if _repaired_case(folded, clause, factor, fault, names_object):
            continue  # "If K is still 8081, set it to 8080.": the case to repair (F3)
        value = value.rstrip(".:")
        given.append("0" if value.casefold() == "zero" else value)
    return given


# what keeping the factor does not keep its state: a verb or a noun of change ("Keep the
# INVENTORY_PORT fix in place."), or the rest of its resource ("Leave the rest of
# checkout-config untouched.")
_CHANGED_KEPT = lazy_pattern(
    r"\b(?:chang\w*|fix\w*|patch\w*|updat\w*|edit\w*|correct\w*|new|rest|other|others|"
    r"remaining|everything\s+else|restor\w*|revert\w*|set|sets|setting|replac\w*|switch\w*|"
    # keeping watch or a record of the factor keeps nothing of its state ("Keep an eye on K.")
    r"eye|eyes|watch\w*|track|monitor\w*|note|notes|record|records|log|logs|copy|backup|"
    # upkeep, a check or a store of it (SI red team 45, F6: "Keep K in sync with inventory.",
    # "Keep an alert on K.", "Keep K in git.", "Let checkout reload K.")
    r"sync|synced|consistent|aligned|matching|match|alert\w*|alarm\w*|check|checks|git|"
    r"version\s+control|reload\w*|re-?read\w*|pick\s+up|picks\s+up)\b",
    re.IGNORECASE,
)


def keeps_state(text: str, factor: Collection[str], fault: InjectedFault) -> bool:
    """Whether `text` prescribes that the factor stay as the injection left it (SI red team 43,
    H04, H05; SI red team 44, H2): a clause naming it with a verb of keeping, no value and no
    word of change ("Keep K as is.", "Keep K the same.", "Keep the current K.", "Leave the K
    value the way you found it.", "K should stay scaled down.", "K can stay absent."), of every
    deviation type, whatever follows the factor: the test is inverted from round 43's list of
    kept states, which could not hold every way of saying "as it is" (fail closed). Of an extra
    key, a state of absence is the fix. A clause that states or negates is none; a value the
    clause gives is read by `sentence_values`."""
    folded = unicodedata.normalize("NFC", text)
    if _EVIDENCE_LABEL.match(folded):
        return False
    names = {fold_name(own.rsplit("/", 1)[-1]) for own in factor}
    own = {fold_name(name.rsplit("/", 1)[-1]) for name in (fault.subject, fault.resource) if name}
    for clause in _clauses_naming(folded, own or names):
        keeping = _KEEPING_VERB.search(folded, clause.start, clause.end)
        if keeping is None or _CHANGED_KEPT.search(folded, clause.start, clause.end):
            continue
        if _value_after(folded, clause) is not None:
            continue  # "Keep K at 8081.": its value, read by `sentence_values`
        removed = _REMOVED_STATE.search(folded, clause.key_end, clause.end)
        if fault.deviation_type in _REMOVED_TYPES and removed is not None:
            continue  # "Leave LEGACY_SHARD_COUNT out.": the fix
        upto = max(keeping.end(), clause.key_end)
        if _NEGATION.search(folded, clause.start, clause.end):
            continue
        if _states(folded, clause, upto, past_after=False):
            continue
        return True
    return False


_UNDONE_OBJECT = (
    r"(?:it|them|that|this|these|those|the\s+(?:change|fix|remedy|edit|patch|update)s?)"
)
# an undoing verb whose object is a pronoun or the change (SI red team 43, H06: "Set K to 8080.
# Afterwards revert it."): after a remedy, "it" is the remedy, and the sentence retracts it; an
# undoing verb with a value ("Revert it to 8080.") is read as any remedy is
_RETRACTS = lazy_pattern(
    # "back out the change", "back it out" (SI red team 45, H8)
    rf"\bback(?:s|ed|ing)?\s+out\s+{_UNDONE_OBJECT}\b|\bback(?:s|ed|ing)?\s+{_UNDONE_OBJECT}\s+"
    r"out\b|"
    # back to where it was: no value (SI red team 45, H8: "roll it back to where it was", "go
    # back to the old setting")
    r"\b(?:go|goes|going|went|roll\w*|switch\w*|chang\w*|revert\w*|return\w*|put\w*|set\w*|"
    r"mov\w*|turn\w*|flip\w*)\s+(?:(?:it|them|that|this)\s+)?back\s+to\s+(?:where\s+it\s+was|"
    r"the\s+way\s+it\s+was|how\s+it\s+was|what\s+it\s+was|(?:the|its)\s+(?:old|previous|"
    r"original|former|earlier|prior)\b)|"
    r"\b(?:revert\w*|undo(?:es|ing|ne)?|roll(?:s|ed|ing)?\s+back)\s+(?:it|them|that|this|these|"
    r"those|the\s+(?:change|fix|remedy|edit|patch|update))\b(?!\s+(?:to|at)\b)|"
    r"\broll(?:s|ed|ing)?\s+(?:it|them|that|this|the\s+(?:change|fix|remedy|edit))\s+back\b"
    r"(?!\s+(?:to|at)\b)",
    re.IGNORECASE,
)
# the thing undone: a pronoun, the change, or the value before it
_UNDONE = (
    r"(?:it|them|that|this|these|those|the\s+(?:change|fix|remedy|edit|patch|update)|"
    r"(?:the|its)\s+(?:old|previous|original|former|earlier|prior)\s+(?:value|setting|state|"
    r"config(?:uration)?|port|one|count|replicas?))"
)
# a verb that puts a thing back as it was, with that thing as its object and no value or source
# after it (SI red team 44, H3: "Afterwards put it back.", "…, test, then restore it.", "bring it
# back", "reinstate it", "reset it"): after a remedy, an undoing. Alone it may be a missing
# key's remedy ("Restore it from git.", "Put it back."), so it retracts only after a time of
# sequence in its sentence (`_SEQUENCE`), which says a step before it is undone
_PUTS_BACK = lazy_pattern(
    rf"\b(?:(?:put|puts|putting|bring|brings|bringing|brought|switch\w*|chang\w*|set|sets|"
    rf"setting|turn\w*|flip\w*|mov\w*|scal\w*|go|goes|going)\s+(?:{_UNDONE}\s+)?back|"
    rf"(?:restor|reinstat|re-?set|re-?appl|re-?enabl)\w*\s+{_UNDONE})\b"
    r"(?!\s+(?:to|at|from|with|in|into|on)\b|\s*[=:(])",
    re.IGNORECASE,
)
_SEQUENCE = lazy_pattern(
    r"\b(?:then|afterwards?|later|after(?:\s+(?:that|this|testing|the\s+test|a\s+while|\w+))?|"
    r"next|finally|eventually|once\s+(?:done|tested|it\s+works|verified)|when\s+(?:done|"
    r"finished)|subsequently|tomorrow|at\s+the\s+end)\b|"
    # a step between commas before "and" (SI red team 45, H8: "Set K to 8080, verify, and put
    # it back.")
    r",\s*[A-Za-z]+(?:\s+[A-Za-z]+)?\s*,\s*and\b",
    re.IGNORECASE,
)


# a negation that asserts the act it governs (SI red team 45, H8: "Do not forget to revert it
# afterwards."): no negation of the undoing
_ASSERTING_NEGATION = lazy_pattern(
    r"\b(?:do\s+not|don['’]t|never|not)\s+(?:forget|fail|neglect|omit|skip)\s+to\b",
    re.IGNORECASE,
)
# a workload brought back up (SI red team 45, F5: "… restart checkout to bring it back.", "bring
# it back online", "scale it back up"): no undoing of the fix
_BACK_UP = lazy_pattern(
    r"\s*(?:up|online|on|to\s+life|into\s+service|to\s+health)\b|\s+by\s+\w+ing\b",
    re.IGNORECASE,
)
_WORKLOAD_STEP = lazy_pattern(
    r"\b(?:re-?start\w*|re-?deploy\w*|roll(?:ing)?\s*out|bounc\w*|scal\w*\s+[\w/-]+\s+down)"
    r"\s+[^.;]*?\bto\s*\Z",
    re.IGNORECASE,
)


def _brings_workload_back(text: str, found: re.Match[str]) -> bool:
    """Whether the putting back `found` is of a workload (SI red team 45, F5): "up / online"
    after it, or a restart before it whose purpose it is ("restart checkout to bring it
    back")."""
    if _BACK_UP.match(text, found.end()):
        return True
    return _WORKLOAD_STEP.search(text, 0, found.start()) is not None


# the change undone in the passive, its subject the change or the value it replaced (SI red team
# 46, R6: "The old value should then be restored.", "The change is later rolled back."), with
# no value after it; and the change called temporary ("The change is temporary.", "This is only
# a temporary workaround; revert after the incident.", "The fix is a stopgap.", "This change is
# for testing only."): either withholds the band, fail closed; "As a temporary measure until the
# next maintenance window, set K to 8080." is a time of the fix (round 43's honest table)
_MODAL_CHAIN = (
    r"(?:(?:should|must|will|can|could|may|might|would|shall|needs?\s+to|has\s+to|is\s+to|"
    r"ought\s+to|then|later|afterwards?|eventually|again|also|just|simply|be|is|are|gets?|"
    r"been|being)\s+)+"
)
_UNDONE_PASSIVE = lazy_pattern(
    r"\b(?:the\s+(?:change|fix|remedy|edit|patch|update|workaround)s?|(?:the|its)\s+(?:old|"
    r"previous|original|former|earlier|prior)\s+(?:value|setting|state|config(?:uration)?|port|"
    rf"one|count|replicas?))\s+{_MODAL_CHAIN}(?:restored|reverted|rolled\s+back|undone|"
    r"reinstated|put\s+back|brought\s+back|backed\s+out|reapplied|re-applied)\b"
    r"(?!\s+(?:to|at)\s+[-+\d\"'`“‘]|\s+(?:from|with|in|into)\b)",
    re.IGNORECASE,
)
_TEMPORARY = lazy_pattern(
    r"\b(?:change|fix|remedy|patch|edit|update|this|that|it|workaround|value|setting|port)\s+"
    r"(?:is|are|should\s+be|will\s+be|would\s+be|stays?|remains?)\s+(?:(?:only|just|purely|"
    r"merely|meant\s+to\s+be)\s+)?(?:(?:a|an)\s+)?(?:temporary|temporarily|stop-?gap|interim|"
    r"short-?term|provisional|band-?aid|for\s+(?:testing|the\s+test|the\s+demo|a\s+test|"
    r"debugging|now|the\s+(?:incident|outage)))\b|"
    r"\b(?:a|an|the|this|only)\s+(?:(?:only|just|purely)\s+)?(?:temporary|stop-?gap|interim|"
    r"short-?term|provisional|band-?aid)\s+(?:workaround|fix|change|patch|solution|"
    r"mitigation|remedy)\b|\bstop-?gap\b|\bfor\s+(?:testing|the\s+demo|debugging)\s+only\b|"
    r"\brevert\w*\s+(?:it\s+|this\s+|that\s+)?(?:after|once|when|later|tomorrow)\b",
    re.IGNORECASE,
)


def retracts(text: str) -> bool:
    """Whether `text` undoes "it" or "the change" (`_RETRACTS`), or puts it back after a time
    of sequence (`_PUTS_BACK`; SI red team 44, H3), not under a negation that governs the
    undoing (SI red team 45, H8); or undoes the change in the passive, or calls it temporary
    (`_UNDONE_PASSIVE`, `_TEMPORARY`; SI red team 46, R6)."""
    folded = _ASSERTING_NEGATION.sub("remember to", unicodedata.normalize("NFC", text))
    found = _RETRACTS.search(folded) or _UNDONE_PASSIVE.search(folded)
    if found is None:
        found = _TEMPORARY.search(folded)
    if found is None:
        found = _PUTS_BACK.search(folded)
        if found is not None and (
            _SEQUENCE.search(folded, 0, found.start()) is None
            or _brings_workload_back(folded, found)
        ):
            found = None
    return found is not None and _NEGATION.search(folded, 0, found.start()) is None


# an undoing verb whose object is the factor's key or its resource, no value or source after it
# (SI red team 45, H8: "Then restore INVENTORY_PORT.", "Then revert checkout-config."): after a
# time of sequence, the step before it undone
_UNDOES_NAME = lazy_pattern(
    r"\b(?:restor\w*|revert\w*|roll(?:s|ed|ing)?\s+back|reinstat\w*|re-?set\w*|undo\w*|"
    r"re-?appl\w*|back(?:s|ed|ing)?\s+out)\s+(?:the\s+)?(?:(?:old|previous|original|former|"
    r"prior|earlier)\s+)?(?:(?:configmap|deployment|key)[\s/]+)?"
    r"(?P<name>[A-Za-z0-9][\w./-]*[A-Za-z0-9])(?:\s+(?:key|configmap|value|setting|change))?"
    r"(?!\s+(?:to|at|from|with|in|into|on|back\s+to)\b|\s*[=:(]|[\w/-]|\.\w)",
    re.IGNORECASE,
)


# the factor's key or resource undone in the passive, or returning to what it was, with no value
# after it (SI red team 46, R6: "Later, K is reverted.", "K should later be restored.", "K gets
# reverted to its prior value.", "K returns to its original value.", "SMTP_PORT should later
# be removed again."): the verbs of putting back are a missing key's fix, and of removing an
# extra key's (`_retracts_factor`)
_PUT_BACK_WORDS = frozenset(
    {"restored", "reinstated", "put back", "brought back", "re-added", "readded"}
)
_REMOVED_WORDS = frozenset({"removed", "deleted", "dropped"})
_NAME_UNDONE = lazy_pattern(
    rf"\b(?P<name>[A-Za-z0-9][\w./-]*[A-Za-z0-9])\s+(?:{_MODAL_CHAIN}(?P<verb>restored|reverted|"
    r"rolled\s+back|undone|reinstated|put\s+back|brought\s+back|re-?added|removed|deleted|"
    r"dropped|reset|changed\s+back|set\s+back|switched\s+back|scaled\s+back)|(?P<active>"
    r"(?:returns?|reverts?|goes\s+back|falls\s+back|switches\s+back|changes\s+back)))\b"
    r"(?!\s+(?:back\s+)?(?:to|at)\s+(?!(?:its|the)\s+(?:old|previous|original|former|earlier|"
    r"prior)\b|(?:where|how|what|the\s+way)\b)|\s+(?:from|with|in|into)\b)",
    re.IGNORECASE,
)
_UNDONE_TIME = lazy_pattern(
    r"\b(?:should|must|will|can|needs?|has\s+to|is\s+to|ought|shall|gets?|then|later|"
    r"afterwards?|eventually|next|tomorrow|once|after|again)\b",
    re.IGNORECASE,
)
_UNDONE_PAST = lazy_pattern(r"\b(?:was|were|had|got|been|did)\b", re.IGNORECASE)


def _names_undone(folded: str, names: set[str], deviation: str | None) -> bool:
    """Whether `folded` undoes the factor by name in the passive or returns it to what it was,
    at a time to come (`_NAME_UNDONE`; SI red team 46, R6), not in the past."""
    for found in _NAME_UNDONE.finditer(folded):
        if fold_name(found["name"].rsplit("/", 1)[-1]) not in names:
            continue
        verb = " ".join((found["verb"] or "").casefold().split())
        if deviation in _MISSING_TYPES and verb in _PUT_BACK_WORDS:
            continue  # "SMTP_PORT should be restored.": a missing key's fix
        if deviation in _REMOVED_TYPES and verb in _REMOVED_WORDS:
            continue  # "LEGACY_SHARD_COUNT should be removed.": an extra key's fix
        if found["active"] is not None and _ACTIVE_UNDONE.match(folded, found.end()) is None:
            continue  # "K returns 8081" is no undoing; "K returns to its original value" is
        said = folded[max(0, found.start() - _WINDOW) : found.end()]
        if _UNDONE_PAST.search(folded, found.end("name"), found.end()):
            continue  # "K was reverted in the last deploy.": a history
        if _UNDONE_TIME.search(said) is None and found["active"] is None:
            continue
        if _NEGATION.search(folded, 0, found.start()) is None:
            return True
    return False


_ACTIVE_UNDONE = lazy_pattern(
    r"\s+(?:back\s+)?to\s+(?:its|the)\s+(?:old|previous|original|former|earlier|prior)\b",
    re.IGNORECASE,
)


def _retracts_factor(text: str, factor: Collection[str], deviation: str | None = None) -> bool:
    """Whether `text` undoes the factor's key or resource by name after a time of sequence, not
    under a negation that governs the undoing (SI red team 45, H8), or in the passive or
    returning it to what it was (`_names_undone`; SI red team 46, R6)."""
    folded = _ASSERTING_NEGATION.sub("remember to", unicodedata.normalize("NFC", text))
    names = {fold_name(own.rsplit("/", 1)[-1]) for own in factor}
    if _names_undone(folded, names, deviation):
        return True
    for found in _UNDOES_NAME.finditer(folded):
        if fold_name(found["name"].rsplit("/", 1)[-1]) not in names:
            continue
        if _SEQUENCE.search(folded, 0, found.start()) is None:
            continue
        if _NEGATION.search(folded, 0, found.start()) is None:
            return True
    return False


def gives_no_fix(
    text: str,
    factor: Collection[str],
    names_object: Callable[[str], bool] = _no_object,
    deviation: RemedyDeviation = None,
) -> bool:
    """Whether `text` gives the factor a value, whatever its verb (`_values_given`), that is no
    fix of it: not a value of its type (`plain_value`), or one that keeps the fault or is not
    the declared baseline (`_not_the_fix`; SI red team 41, A2)."""
    fault = _fault(deviation)
    if fault is None:
        return False
    if keeps_missing(text, factor, fault) or keeps_state(text, factor, fault):
        return True
    if retracts(text) or _retracts_factor(text, factor, fault.deviation_type):
        return True  # "Afterwards revert it." (SI red team 43, H06), "… put it back" (44, H3)
    text = _arrows_read(text)  # "Change K 8081 -> 8080." (SI red team 44, F4)
    given = _values_given(unicodedata.normalize("NFC", text), factor, names_object, fault)
    given += normative_values(text, factor, fault) or []
    given += sentence_values(text, factor, fault, names_object)
    return any(
        not plain_value(value, fault, names_object) or _not_the_fix(value, fault) for value in given
    )


# A kubectl write inside a code block (SI red team 46, R1): the strict reading drops a code block
# as an example (`_markup`), so a remedy there was never read, and "```kubectl patch configmap
# checkout-config -p '{"data":{"K":"8081"}}'```" after the diagnosis kept the top band that the
# same command in prose loses (SI red team 41, A2). Each line of a code block that is a kubectl
# write naming the factor's own subject or resource is read as round 41's argument reader reads
# it (`_kubectl_scale`, `_values_given`): a value that is no fix, or a write the reader gives no
# value to ("kubectl edit …", "kubectl delete configmap …", a JSON patch that removes the key),
# is no plain remedy (fail closed). A read ("kubectl get …", "kubectl describe …") and a restart
# ("kubectl rollout restart …") write nothing of the factor.
_CODE_KUBECTL = lazy_pattern(
    r"[ \t]*(?:[$#>%][ \t]*)?(?:sudo\s+)?kubectl(?P<arguments>(?:[ \t]+\S+)+)", re.IGNORECASE
)
_CODE_WRITES = frozenset(
    {"patch", "set", "edit", "apply", "replace", "create", "delete", "scale", "label",
     "annotate", "autoscale"}
)  # fmt: skip
_VALUED_FLAGS = frozenset({"-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user"})
_CONTINUED = lazy_pattern(r"\\[ \t]*\r?\n")
_REMOVE_OP = lazy_pattern(r"[\"']op[\"']\s*:\s*[\"']remove[\"']", re.IGNORECASE)


def _kubectl_verb(arguments: list[str]) -> tuple[str, str]:
    """The kubectl command's verb and the one after it ("rollout undo"), its flags skipped."""
    words: list[str] = []
    skip = False
    for argument in arguments:
        if skip:
            skip = False
            continue
        if argument.startswith("-"):
            skip = "=" not in argument and argument in _VALUED_FLAGS
            continue
        words.append(argument.casefold())
        if len(words) == 2:
            break
    padded = [*words, "", ""]
    return padded[0], padded[1]


def code_gives_no_fix(
    code: str,
    factor: Collection[str],
    names_object: Callable[[str], bool] = _no_object,
    deviation: RemedyDeviation = None,
) -> bool:
    """Whether a code block `code` holds a kubectl write of the factor that is no plain remedy
    of it (the comment above; SI red team 46, R1)."""
    fault = _fault(deviation)
    if fault is None:
        return False
    names_object = _workloads(names_object, factor, fault)
    names = {fold_name(own.rsplit("/", 1)[-1]) for own in factor}
    own = {fold_name(name.rsplit("/", 1)[-1]) for name in (fault.subject, fault.resource) if name}
    dependency = (own or names) | names
    for line in _CONTINUED.sub(" ", unicodedata.normalize("NFC", code)).splitlines():
        found = _CODE_KUBECTL.match(line)
        if found is None:
            continue
        arguments = found.group("arguments").split()
        verb, following = _kubectl_verb(arguments)
        if verb not in _CODE_WRITES and not (verb == "rollout" and following == "undo"):
            continue
        if not any(
            fold_name(token.rsplit("/", 1)[-1]) in dependency
            for token in _TOKEN.findall(line, found.start("arguments"))
        ):
            continue
        said = line.strip().lstrip("$#>% \t")
        if verb == "scale":
            if fault.deviation_type not in _STOPPED_TYPES:
                return True  # a count is no value of a key
            if _kubectl_scale(said, {*factor, *own}, names_object, fault) is None:
                return True
            continue
        if verb in ("patch", "set"):
            if fault.deviation_type in _REMOVED_TYPES and _REMOVE_OP.search(said):
                continue  # a JSON patch that removes the extra key: its fix
            given = _values_given(said, factor, names_object, fault)
            if not given or any(
                not plain_value(value, fault, names_object) or _not_the_fix(value, fault)
                for value in given
            ):
                return True
            continue
        return True  # edit, apply, delete, …: a write whose value the reader cannot give
    return False


# an imperative step or a first-person plan opening a sentence (SI red team 46, F5)
_STEP_OPENING = lazy_pattern(
    rf"\W*{_LABEL}(?:(?:then|next|now|first|please)\s*,?\s+)?(?:(?:i|we)(?:['’]d|['’]ll|\s+would|"
    r"\s+will|\s+should|\s+can|\s+plan\s+to|\s+am\s+going\s+to|\s+are\s+going\s+to)|let['’]s|"
    r"re-?start|re-?deploy|roll\s*out|rollout|bounce|reload|set|patch|change|update|scale|apply|"
    r"edit|fix|correct|wait|run|redeploy|recreate|delete|add|re-?add|restore|put|remove|drop|"
    r"insert|append|reset)\b",
    re.IGNORECASE,
)


_CONDITION_OPENING = lazy_pattern(r"\W*(?:if|when|whenever|should)\b[^,;]*,\s*", re.IGNORECASE)


def plans_the_fix(
    text: str,
    factor: Collection[str],
    names_object: Callable[[str], bool] = _no_object,
    deviation: RemedyDeviation = None,
) -> bool:
    """Whether `text` is an imperative step or a first-person plan whose clause under *after,
    once, until, so (that)* gives the factor the fix ("Restart checkout after K is set to
    8080.", "I'd patch checkout-config so K is 8080, then restart checkout."): the remedy's
    target, never a denial that the factor deviates now (SI red team 46, F5)."""
    fault = _fault(deviation)
    opening = _CONDITION_OPENING.match(text)
    if fault is None or _STEP_OPENING.match(text, opening.end() if opening else 0) is None:
        return False
    if (
        opening is not None
        and remedy_end(text[opening.end() :], factor, names_object, deviation) is None
    ):
        return False  # after a condition, the step is a plain remedy ("If K is missing, add K=V.")
    folded = _arrows_read(unicodedata.normalize("NFC", text))
    given = sentence_values(folded, factor, fault, names_object)
    if not given or gives_no_fix(text, factor, names_object, deviation):
        return False
    return all(plain_value(value, fault, names_object) for value in given)


# a history that makes the faulty value the healthy state (SI red team 46, R5): a failure when,
# since, after or once the factor left the injected value ("Checkout broke when K changed from
# 8081.", "… was changed from 8081 to 8080.", "Checkout failed since K moved off 8081."), or a
# good outcome until or before it left it ("Checkout was healthy until K changed from 8081."):
# the contrary of the statement, the mirror of round 45's H4
_LEFT_VALUE = lazy_pattern(
    r"\b(?P<subordinator>when|whenever|since|after|once|as\s+soon\s+as|the\s+moment|until|till|"
    r"before)\s+(?:the\s+)?(?:key\s+)?(?P<key>[A-Za-z0-9][\w./-]*[A-Za-z0-9])\s+(?:(?:was|got|"
    r"had\s+been|has\s+been|is|were)\s+)?(?:chang|mov|switch|updat|bump|flipp|set|edit|revert|"
    r"turn|drift|went|go|shift|patch)\w*\s+(?:away\s+)?(?:from|off(?:\s+of)?)\s+"
    rf"(?P<value>{_GIVEN})",
    re.IGNORECASE,
)


def healthy_on_fault(text: str, factor: Collection[str], deviation: RemedyDeviation = None) -> bool:
    """Whether `text` tells a history in which the injected value was the healthy state (the
    comment above; SI red team 46, R5)."""
    fault = _fault(deviation)
    if fault is None or fault.injected is None:
        return False
    names = {fold_name(own.rsplit("/", 1)[-1]) for own in factor}
    for found in _LEFT_VALUE.finditer(unicodedata.normalize("NFC", text)):
        if fold_name(found["key"].rsplit("/", 1)[-1]) not in names:
            continue
        if not _restores_fault(found["value"].strip("\"'`“”‘’"), fault):
            continue
        before = found.string[max(0, found.start() - _WINDOW) : found.start()]
        subordinator = " ".join(found["subordinator"].casefold().split())
        if subordinator in ("until", "till", "before"):
            if _good_outcome(before):
                return True
        elif _failing(before):
            return True
    return False


def is_remedy(
    text: str,
    factor: Collection[str],
    names_object: Callable[[str], bool] = _no_object,
    deviation: RemedyDeviation = None,
) -> bool:
    """Whether `text` (a sentence or an attached comment) is a plain remedy of the factor whose
    names are `factor` and whose deviation type is `deviation`: it opens on a remedy's verb of
    that type, after an optional label and proposer ("Fix: add it back.", "I recommend
    re-adding SMTP_PORT=587.", "Delete the LEGACY_SHARD_COUNT key."), whose object is the
    factor (`_object_end`), or on a plain offer to apply it ("happy to apply the fix"); what
    follows is of `_PLAIN_REST`'s closed grammar, but for an honest tail at its end: a positive
    outcome of the symptom's recovery or a source of the value (`_tail_start`; issue 41)."""
    return remedy_end(text, factor, names_object, deviation) is not None


__all__ = [
    "InjectedFault",
    "RemedyDeviation",
    "code_gives_no_fix",
    "deviation_type_of",
    "gives_no_fix",
    "healthy_on_fault",
    "is_remedy",
    "keeps_missing",
    "names_in",
    "normative_values",
    "opens_as_remedy",
    "plans_the_fix",
    "prescribes_fix",
    "remedy_end",
    "remedy_label",
]
