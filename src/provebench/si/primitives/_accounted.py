"""What the statement's sentence and the sentences after it must name (docs/si-scoring.md §11,
"Round 21: the positive shape"; SI red team 21, H3 and H4).

Round 18 (`_unaccounted`) withheld the top band where a word of a list judged the statement;
every round found words the lists lacked ("I take it back.", "Every word above is false.",
"Alice concludes …", "It's a lie that …", "… due to a kernel bug"). The rules here are the
positive shape docs/si-scoring.md promises: what keeps the top band is what is accounted for.

* **unaccounted sentence**: a sentence after the statement that names nothing of the system —
  no identifier of the scenario, no identifier-shaped token, no value, no word of
  `_SYSTEM_WORDS` (an object, a place, a remediation or an evidence verb) — and is not a
  courtesy (`_COURTESY`: "Hope this helps."), a back-reference that affirms ("That is the real
  root cause.") or the scope of the finding ("Nothing else is wrong."). A sentence that names
  nothing is read with the nearest one before it that names another identifier or asks of
  something else ("Is the disk the cause? No. It is a red herring.");
* **question of the factor**: a question after the statement that names the statement's own
  names or nothing else ("Is smtp-config the cause? No."); a question of something else ("Is
  the disk the cause? No.") and its bare answer are accounted for;
* **factor negated after it**: a later sentence naming the statement's names with a negation
  just before the statement's deviation word ("… isn't missing");
* **unaccounted tail**: the statement's sentence ending on a clause after a comma or dash that
  names nothing, opens on no clause word and has no verb (", hypothetically speaking");
* **ungoverned frame**: the words of the statement's sentence before its first name of the
  system must be a frame known to affirm or to be neutral (`_FRAME_WORDS`: "Root cause:", "I
  verified that", "Contrary to the alert,"); any other ("On my laptop,", "Alice concludes",
  "It's a lie that", "I'm not convinced") governs the statement, also across ", which", "and
  that" and a clause opening on a pronoun. A semicolon, colon, dash or "but" followed by a
  clause that opens on anything else ends the frame ("We excluded D; X is missing"); a label
  before a colon is read by the label rules of `_plain_assertion` and `_unaccounted`.

Round 22 (SI red team 22, W1–W3; docs/si-scoring.md §11, "Round 22: the positive shape,
tightened"): a mention is not enough. A sentence that names no object of the scenario must say
something of the system (`_after_accounted`); a bare digit names nothing; a later sentence
naming the factor is read like every later one (a healthy state of its objects, a value given
to its key, or a frame before its name withholds); sentences before the statement, and a clause
cut from it by ";" or a dash, are read (`_earlier_accounted`); system words are words of the
frame, which starts at the first identifier; a tail opening on "or" or on a verb of attribution
withholds; and the strict reading's sentences also end after a stop followed by a closing quote
or bracket and at a CJK or Indic stop (`_strict_sentences`; SI §3.2 stays the ratified split).

Round 25 (SI red team 24, H1–H3, H5; docs/si-scoring.md §11, "Round 25: sentences that name an
object"): a sentence that names an object is read as one naming none, its names taken out
(`_named_withholds`): of the factor's objects or its workload, a denial, a dismissal or a
second cause withholds; a sentence that rules another object out keeps the top band.

Round 26 (SI red team 26; docs/si-scoring.md §11, "Round 26: names are objects, clauses are
read"): a name is an object of the scenario (`_Reader`, `scenario_objects`), compared in one
spelling (`fold_name`), and a hyphenated word is words; the contrary of a deviation is read by
its type (`_contrary_of_type`); a sentence that rules another object out is read clause by
clause (`_dismisses_the_factor_too`, `_ASSERTED_CAUSE`), a negated dismissal asserts, a question
is one only where the sentence asks (`_asks`) and a bare answer is read by its question's
polarity (`_affirms_other`).

Round 27 (SI red team 27, W; docs/si-scoring.md §11, "Round 27: the contrary is read in its
clause"): the contrary of a deviation is read by its type in the clause that governs the
factor's name (`_contrary`), not by a verb within 60 characters of it; a later sentence whose
words before the name open on a part of the system is a clause of the system; an "or rather"
correction opening on a place restates only where it names an object; the factor dismissed by
one of the statement's nouns withholds; a quoted span is tool output only as whole words of a
tool response.

Cost: one pass over the sentences, each read once by a few compiled patterns.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Collection, Iterable, Sequence

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._contrary import (
    ABSENT,
    HELD,
    MARK,
    identity_denied,
    key_said,
    postposed_condition,
    runs,
)
from provebench.si.primitives._disowning import judging_tail
from provebench.si.primitives._identifier_shapes import IdentifierShapes
from provebench.si.primitives._matching import ChannelText
from provebench.si.primitives._neutral_comment import restates, says_working
from provebench.si.primitives._plain_assertion import Unplain
from provebench.si.primitives._remedy import (
    InjectedFault,
    RemedyDeviation,
    gives_no_fix,
    healthy_on_fault,
    is_remedy,
    opens_as_remedy,
    plans_the_fix,
    prescribes_fix,
    remedy_end,
    remedy_label,
)
from provebench.si.primitives._scenario_objects import fold_name
from provebench.si.primitives._scene_names import spaced_names

# an object, place, remediation or evidence verb of a system under diagnosis: a sentence naming
# one speaks of the system (it may still be read by the other rules)
_SYSTEM_NOUNS = (
    r"configmaps?|config|configuration|keys?|pods?|deployments?|containers?|secrets?|services?|"
    r"namespaces?|clusters?|nodes?|disks?|cpu|memory|alerts?|logs?|events?|replicas?|ports?|"
    r"env|environment|variables?|images?|volumes?|kubectl|dependenc(?:y|ies)|settings?|"
    r"endpoints?|manifests?|spec|probes?|startup|start-up|crashloopbackoff|oomkilled|"
    r"statefulsets?|daemonsets?|jobs?|scheduler|network|dns|tls|smtp|database|queue|"
    r"storage|quota|limits?|requests?|entry|entries|field|fields|data|metadata|yaml|json"
)
# a remediation or an evidence verb: a sentence of system nouns that holds one says what to do
# or what was read ("Adding the key and restarting the pods fixes it.")
_ACTION_WORDS = (
    r"add|adding|added|set|setting|restore|restoring|patch|patching|apply|applying|restart|"
    r"restored|restarting|roll(?:ed|ing)?|rollout|redeploy(?:ing)?|scale|scaling|scaled|remove|removing|"
    r"revert(?:ing)?|recreate|edit|fix(?:ed|es|ing)?|removed|deleted|chang(?:e|ed|es)|deploy(?:ed)?|"
    r"checked|verified|confirmed|observed|inspected|read|shows?|showed|describe|output|find|found"
)
_SYSTEM_WORDS = f"{_SYSTEM_NOUNS}|{_ACTION_WORDS}"
# SI red team 22, W2: no bare digit. A digit is no name (the fold makes one of "²", "①", "١"):
# a number speaks of the system only as the value of a named field, which the name carries.
_SYSTEM = lazy_pattern(rf"\b(?:{_SYSTEM_WORDS})\b", re.IGNORECASE)
_ACTION = lazy_pattern(rf"\b(?:{_ACTION_WORDS})\b", re.IGNORECASE)
_IDENTIFIER_SHAPED = IdentifierShapes(
    re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_/.:-][A-Za-z0-9]+)+|[A-Za-z]*[a-z][A-Z][A-Za-z0-9]*")
)
# any identifier-shaped token, whatever its length: `_Reader.without_objects` keeps those that
# name no object
_IDENTIFIER_SHAPED_ANY = lazy_pattern(
    r"[A-Za-z][A-Za-z0-9]*(?:[_/.:-][A-Za-z0-9]+)+|[A-Za-z]*[a-z][A-Z][A-Za-z0-9]*"
)
_HAS_SEPARATOR = lazy_pattern(r"[-_./:]")
# a constant's shape: a key the scenario may not list ("SMTP_TLS"), never a sentence's words
_KEY_SHAPED = lazy_pattern(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")
# a hyphen or an underscore between letters joins words ("red-herring", "not_missing")
_JOINED_WORDS = lazy_pattern(r"(?<=[^\W\d_])[-_\u2010\u2011](?=[^\W\d_])")
# what `_Reader.without_objects` writes for a name of the factor: a word no answer holds
_MARK = MARK
_WORD = lazy_pattern(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
# a courtesy closes an answer and says nothing of it
_COURTESY = lazy_pattern(
    r"\A\W*(?:thanks?(?:\s+you)?|cheers|hope\s+(?:this|that|it)\s+helps|"
    r"happy\s+to\s+help(?:\s+further)?|that(?:['’]s|\s+is)\s+(?:it|all)|simple\s+as\s+that|"
    r"let\s+me\s+know\b[^?]*|done|(?:best|kind|warm)\s+regards|regards|sincerely|"
    # agreement with the one who asked (SI red team 43, F03: "I agree.")
    r"i\s+agree|agreed|i\s+concur)\W*\Z",
    re.IGNORECASE,
)
# a sentence that refers back to the statement and says it is the cause, or that it is needed
# ("That is the real root cause.", "That is why S cannot start.", "It is not optional."): it
# speaks of the statement and affirms it
_AFFIRMS_BACK = lazy_pattern(
    r"\A\W*(?:that|this|it|which)(?:['’]s|\s+is|\s+was)?\s+(?:exactly\s+|precisely\s+|also\s+)?"
    r"(?:(?:the\s+)?(?:(?:real|actual|root|main|only|underlying|true|sole)\s+)*"
    r"(?:cause|culprit|reason|problem|fault)\b|why\b|(?:explains|causes|caused)\b|"
    r"(?:required|needed|mandatory|necessary|not\s+optional)\b)|"
    r"\A\W*(?:that|this|the)\s+(?:statement|claim|finding|diagnosis)(?:\s+above)?\s+(?:is|was)\s+"
    r"(?:correct|right|accurate|true|confirmed)\W*\Z|"
    # "I am confident in this diagnosis.": the agent stands by it (SI red team 29, H10)
    r"\A\W*(?:i\s+am|i['’]m|we\s+are|we['’]re)\s+(?:very\s+|fully\s+|quite\s+|highly\s+)?"
    r"(?:confident|certain|sure)\s+(?:in|of|about)\s+(?:this|the|my|our)\s+"
    r"(?:diagnosis|finding|answer|conclusion|root\s+cause)\W*\Z",
    re.IGNORECASE,
)
_NEGATION = lazy_pattern(r"\b(?:not|no|never|nothing|none|nor|neither)\b|n['’]t\b", re.IGNORECASE)
_QUESTION = lazy_pattern(r"[?？¿‽]")
_NEGATED = lazy_pattern(r"(?:\bnot|\bno\s+longer|\bnever|n['’]t)\s+(?:\w+\s+){0,2}?(\w+)", re.I)
_DEVIATION = frozenset(
    {
        "missing", "absent", "unset", "wrong", "incorrect", "invalid", "stopped", "extra",
        "removed", "deleted", "cause", "culprit", "misconfigured", "undefined", "defined", "set",
    }
)  # fmt: skip
# a clause word opens a clause that goes on with the statement ("…, so S fails")
_CLAUSE_WORD = frozenset(
    {
        "so", "because", "which", "and", "but", "that", "since", "when", "where", "while",
        "as", "then", "not", "ruling", "meaning", "causing", "leaving", "making", "preventing",
        "hence", "thus", "therefore", "i", "we", "it", "its", "this", "after", "before",
    }
)  # fmt: skip
_VERB_LIKE = lazy_pattern(
    r"\b(?:is|are|was|were|be|can|cannot|can['’]t|could|will|would|does|did|has|have|had|"
    r"[a-z]+(?:s|ed))\b",
    re.IGNORECASE,
)
# the words a frame before the statement may hold: a label, a verb of having checked, a
# connective (docs/si-scoring.md §11). No negation and no speaker but the agent.
_FRAME_WORDS = frozenset(
    {
        "the", "a", "an", "root", "cause", "causes", "reason", "problem", "issue", "is", "was",
        "are", "that", "this", "diagnosis", "finding", "findings", "conclusion", "summary",
        "answer", "result", "verdict", "in", "short", "tl", "dr", "tldr", "i", "we", "have",
        "verified", "confirmed", "found", "checked", "observed", "determined", "can", "confirm",
        "see", "saw", "after", "checking", "inspecting", "investigating", "reading", "looking",
        "based", "on", "per", "according", "to", "contrary", "because", "since", "as", "so",
        "thus", "therefore", "hence", "also", "and", "fact", "indeed", "clearly", "actually",
        "here", "it", "looks", "like", "appears", "turns", "out", "my", "our", "of", "at",
        "with", "main", "primary", "underlying", "real", "actual", "why", "what", "happened",
        "failing", "crashing", "crash", "crashes", "fails", "failure", "outage", "incident",
        "symptom", "culprit", "key", "point", "bottom", "line", "update", "note", "both",
        "first", "then", "finally", "now", "currently", "evidently", "plainly", "simply",
        "put", "recorded", "live", "production", "prod", "running", "deployed", "its", "true",
        "value", "values", "data", "pending", "confirmation", "from", "owner", "come", "comes",
        "came", "stem", "stems", "results", "rather", "than", "instead", "caused", "by",
        "due", "owing", "honestly", "reviewing", "everything",
    }
)  # fmt: skip
_AFFIRMING_FRAME = lazy_pattern(
    r"\A(?:there\s+is\s+no\s+doubt\s+that|there\s+is\s+no\s+denying(?:\s+that)?|"
    r"it\s+cannot\s+be\s+denied(?:\s+that)?|nobody\s+can\s+deny\s+that|"
    r"beyond\s+(?:any|all|a)\s+doubt|without\s+(?:a\s+)?doubt|no\s+question|no\s+doubt|"
    r"not\s+only\s+is|for\s+sure|certainly|definitely|undoubtedly|unquestionably|no|yes)"
    r"(?:\Z|\s)"
)
# where a frame stops governing: a clause that opens on a name after one of these
_FRAME_END = lazy_pattern(r"[;:—–]|\bbut\b", re.IGNORECASE)
_ANSWERING = frozenset(
    {"no", "yes", "it", "it's", "that", "that's", "this", "they", "neither", "both"}
)
_CLAUSE_END = lazy_pattern(r"[,;:—–]")
_TAG = lazy_pattern(r"<[^<>]*>")
# a sentence of the scope of the finding ("Nothing else is wrong."): it speaks of the system
_SCOPE = lazy_pattern(
    r"\A\W*(?:nothing\s+else|no\s+other\s+\w+)\s+(?:is|was|seems|looks)\s+(?:wrong|missing|"
    r"broken|misconfigured|affected|changed)\W*\Z",
    re.IGNORECASE,
)
_CAUSAL = lazy_pattern(r"\b(?:because|since|so|as|due|owing)\b", re.IGNORECASE)
_STATE_SUBJECT = lazy_pattern(
    r"\b([^\W\d_][\w-]*)\s+(?:is|are|was|were|cannot|can['’]t|could|couldn['’]t|fails?|failed|"
    r"crash(?:es|ed)?|keeps?|stays?|remains?|won['’]t|has|have|does|doesn['’]t|did|didn['’]t)\b",
    re.IGNORECASE,
)
_PRONOUNS = frozenset(
    {
        "it", "there", "this", "that", "i", "we", "you", "he", "she", "they", "nobody", "one",
        "everyone", "everybody", "someone", "somebody", "who", "what", "which", "no", "not",
    }
)  # fmt: skip
_SYSTEM_WORD = lazy_pattern(rf"(?:{_SYSTEM_WORDS})", re.IGNORECASE)
_SYSTEM_NOUN = lazy_pattern(rf"(?:{_SYSTEM_NOUNS})", re.IGNORECASE)
_GREETING = lazy_pattern(r"\A\W*(?:hi|hello|hey|sure|ok(?:ay)?|alright)\W*\Z", re.IGNORECASE)
# the words of a symptom said before the statement ("The pods are in CrashLoopBackOff.")
_STATE_WORDS = frozenset(
    {"crashlooping", "restarting", "down", "failing", "unhealthy", "erroring", "error", "errors"}
)
# a later sentence may open on an instruction or a condition before the name it speaks of
_LATER_FRAME_WORDS = frozenset(
    {
        "once", "when", "if", "to", "please", "you", "should", "need", "needs", "must", "will",
        "just", "be", "back", "simply", "so", "fix", "make", "sure", "into", "for", "which",
        "get", "describe",
    }
)  # fmt: skip
# a verb that opens a clause with no subject of its own and attributes the statement
_ATTRIBUTING = frozenset(
    {
        "says", "said", "claims", "claimed", "insists", "insisted", "reports", "reported",
        "argues", "argued", "alleges", "alleged", "thinks", "thought", "believes", "believed",
        "suggests", "suggested", "reportedly", "allegedly", "supposedly",
    }
)  # fmt: skip
_TOKEN = lazy_pattern(r"\W*([\w'’-]+)")
_ALTERNATIVE = frozenset({"or", "either", "maybe", "perhaps", "possibly", "unless"})
# The compound cues here and in `_RETRACTION` are read with or without their space: the fold
# drops a format character inside a word (U+00AD, U+200B) so that "n\u00adot" reads "not" (SI
# red team 20, W1), and the same fold glues "red\u00adherring" into "redherring" (SI red team 27)
_DISMISSAL = lazy_pattern(
    r"\b(?:unrelated|irrelevant|red\s*herring|wrong|benign|coincidental|harmless|noise|"
    r"a\s*distraction|expected|a\s*symptom|stale|dismissed|excluded|non\s*issue|"
    r"not\s+an?\s+(?:issue|factor|problem)|no\s+issue|non\s+factor)\b",
    re.IGNORECASE,
)
_UNCHANGED = lazy_pattern(
    r"\b(?:did\s+not|didn['’]t|have\s+not|haven['’]t|never)\s+(?:change|changed|modify|"
    r"modified|touch|touched|edit|edited)\b",
    re.IGNORECASE,
)
# a sentence that speaks of the answer or the analysis, not of the system
_META = lazy_pattern(
    r"\b(?:answer|analysis|above|wrote|written|claim|diagnosis|statement|previous|disregard|"
    r"retract|made\s+(?:\w+\s+){0,3}?up|another\s+reason|other\s+reason|"
    r"something\s+else|different|otherwise|somewhere\s+else|elsewhere|in\s+reality|reason|"
    r"believ\w*|doubt\w*|support\w*|contradict\w*|refut\w*|a\s+word\s+of|scratch|"
    r"take\s+(?:\w+\s+){0,3}?back|everything\s+i\s+(?:said|say|wrote)|all\s+of\s+this)\b",
    re.IGNORECASE,
)
# a first-person disclaimer of the evidence ("I never looked at the pods.")
_DISCLAIMER = lazy_pattern(
    r"\b(?:i|we)\b.*?(?:\b(?:not|never|no)\b|n['’]t\b|\bwithout\b).*?\b(?:look(?:ed|ing)?|"
    r"read(?:ing)?|check(?:ed|ing)?|verif(?:y|ied|ying)|saw|seen|see|inspect(?:ed|ing)?|"
    r"open(?:ed)?)\b",
    re.IGNORECASE,
)
# the three parts of `_DISCLAIMER`, looked for one after the other: one pass over a sentence
# however many first persons and negations it holds (the lazy pattern rescans from each)
_FIRST_PERSON = lazy_pattern(r"\b(?:i|we)\b", re.IGNORECASE)
_DISCLAIMING = lazy_pattern(r"\b(?:not|never|no)\b|n['’]t\b|\bwithout\b", re.IGNORECASE)
_EVIDENCE_VERB = lazy_pattern(
    r"\b(?:look(?:ed|ing)?|read(?:ing)?|check(?:ed|ing)?|verif(?:y|ied|ying)|saw|seen|see|"
    r"inspect(?:ed|ing)?|open(?:ed)?)\b",
    re.IGNORECASE,
)


def _disclaims(piece: str) -> bool:
    """`_DISCLAIMER.search(piece)`, in linear time: the first first person, the first negation
    after it and an evidence verb after that."""
    person = _FIRST_PERSON.search(piece)
    if person is None:
        return False
    negation = _DISCLAIMING.search(piece, person.end())
    return negation is not None and _EVIDENCE_VERB.search(piece, negation.end()) is not None


_ABSENT = frozenset({"missing", "absent", "unset", "undefined", "empty", "lacks", "lacking"})
# parts of a system that are not a configuration object or the failing workload
_OTHER_PART = lazy_pattern(
    r"nodes?|disks?|cpu|memory|network|dns|tls|database|queue|storage|quota|scheduler|"
    r"alerts?|warnings?|logs?|events?",
    re.IGNORECASE,
)
# a value the statement's field should hold, said of it by a pronoun ("It should be 587."), the
# value ending the sentence: "It should be 587 — and it is." says more (SI red team 26, H15)
_VALUE_OF_IT = lazy_pattern(
    r"\A\W*(?:it|its\s+value)\s+(?:should|must|needs\s+to|has\s+to)\s+be\s+"
    r"(?:\"[^\"]*\"|'[^']*'|`[^`]*`|“[^”]*”|‘[^’]*’|[\w./:-]*\w)[\s.!)\]\"'”’*_]*\Z",
    re.IGNORECASE,
)
# the value it should hold, then the value it holds ("It should be 8080, not 8081.")
_VALUE_INSTEAD = lazy_pattern(
    r"\A\W*(?:it|its\s+value)\s+(?:should|must|needs\s+to|has\s+to)\s+be\s+[\"'`]?(\d+)[\"'`]?"
    r"\s*,?\s*(?:not|instead\s+of|rather\s+than)\s+[\"'`]?(\d+)[\"'`]?[\s.!)\]*_]*\Z",
    re.IGNORECASE,
)


def _wrong_value(
    text: str, start: int, end: int, factor_texts: set[str], bodies: Sequence[str]
) -> str | None:
    """The wrong value the key holds: the one a tool response recorded for it ("INVENTORY_PORT:
    '8081'"), else the statement's first number after the key's name (SI red team 29, G6: the
    statement's first number was taken, so "listens on 8080 and the key … has a wrong value"
    made 8080 the wrong value and "INVENTORY_PORT is 8080" a restatement)."""
    keys = [name for name in factor_texts if "_" in name]
    for key in keys:
        recorded = re.compile(re.escape(key) + r"[\"']?\s*[:=]\s*[\"']?(\d+)", re.IGNORECASE)
        for body in bodies:
            found = recorded.search(body)
            if found is not None:
                return found.group(1)
    folded = text[start:end].casefold()
    after = min((at for key in keys if (at := folded.find(key.casefold())) >= 0), default=-1)
    if after < 0:
        return None
    number = _FIRST_NUMBER.search(folded, after)
    return number.group() if number is not None else None


def _value_instead(piece: str, restated: str | None) -> bool:
    """Whether a sentence gives the value the field should hold and, after "not", the one it
    holds (SI red team 29, H13): the wrong value restated, the statement's own where it gave one
    ("it is '8081' but …"), any other than the right one where it gave none."""
    found = _VALUE_INSTEAD.match(piece)
    if found is None or found.group(1) == found.group(2):
        return False
    return restated is None or found.group(2) == restated


_CONDITIONS = frozenset({"once", "when", "if", "after", "until", "unless", "whenever", "as"})
_CLAUSES = lazy_pattern(r"[,;:—–]|\b(?:but|and|so|because|while)\b", re.IGNORECASE)
# a healthy or present state: of the factor's object, the contrary of a deviation
_CONTRARY = lazy_pattern(
    r"\b(?:is|are|was|were|looks?|seems?|appears?|remains?)\s+(?:\w+\s+){0,2}?"
    r"(?:fine|ok|okay|healthy|present|intact|correct|valid|good|defined|populated|there|set)\b|"
    r"\b(?:running|works?|working)\s+(?:just\s+)?(?:fine|normally|well|correctly)\b|"
    r"\b(?:has|have|had|contains?|includes?)\s+(?:the\s+|a\s+|its\s+)?(?:\w+\s+)?"
    r"(?:key|value|entry|field|setting)\b|\bafter\s+all\b|\bexists?\b",
    re.IGNORECASE,
)
# a named field given a number ("SMTP_PORT: 587", "SMTP_PORT=587"): the key is there
# or in brackets after it ("INVENTORY_PORT (8080)": a cited number is no aside, SI red team 29)
_VALUE_GIVEN = r"\s*[:=(]\s*[\"'`]?(\d+)"
# a named key given a number by a copula or a verb of holding ("INVENTORY_PORT is 8080", "… is
# now set to 8080", "… already points at 8080")
_VALUE_STATED = (
    # a place between the key and its verb ("INVENTORY_PORT in checkout-config is 8080"; SI red
    # team 29, G6)
    r"(?:\s+(?:in|inside|of|within)\s+[\w./-]+)?"
    r"\s+(?:(?:now|currently|actually|still|already|really)\s+)*(?:is|equals|reads|was|holds|"
    r"contains|carries|has|points\s+(?:at|to))\s+(?:(?:now|currently|actually|still|already|"
    r"really|set\s+to|the\s+value|a\s+value\s+of|at)\s+)*[\"'`]?(\d+)"
)
# the wrong value said to be past ("INVENTORY_PORT used to be 8081 in checkout-config")
_PAST_VALUE = r"(?:\s+(?:in|inside|of|within)\s+[\w./-]+)?\s+used\s+to\s+(?:be|hold)\s+[\"'`]?(\d+)"
# an object's name, a colon and a port glued to both ("orders-db:5432"): an address the logs
# dial, no value given to a field (SI red team 29, H2); a key's name keeps it ("SMTP_PORT:587")
_ADDRESS = lazy_pattern(r":\d+\b")
# the value a wrong-value statement says the key holds: its first number ("it is '8081' but …")
_FIRST_NUMBER = lazy_pattern(r"\d+")
_WRONG_TYPES = frozenset({"wrong", "incorrect", "invalid", "misconfigured"})


def _unicode_punctuation() -> tuple[str, str]:
    """The sentence terminals beyond ASCII (category Po, named a full stop, a question or an
    exclamation mark, or a danda; not an inverted mark, which opens a sentence) and the closing
    marks (categories Pe and Pf), read from Python's Unicode data rather than listed by hand
    (SI red team 24, H4: `」`, `』`, `։`, `።`, `۔`, `．` were missing from the lists)."""
    terminals: list[str] = []
    closers: list[str] = []
    for code in range(0x80, 0x10000):
        char = chr(code)
        category = unicodedata.category(char)
        if category in ("Pe", "Pf"):
            closers.append(char)
        elif category == "Po":
            name = unicodedata.name(char, "")
            marks = ("FULL STOP", "QUESTION MARK", "EXCLAMATION MARK", "DANDA")
            if "INVERTED" not in name and any(mark in name for mark in marks):
                terminals.append(char)
    return "".join(terminals), "".join(closers)


@functools.cache
def _strict_stop() -> re.Pattern[str]:
    """The strict split's stops, built on first use: reading Unicode's data takes a few
    milliseconds that no command which never reads an answer strictly should pay at start-up."""
    terminals, closers = _unicode_punctuation()
    closing = "\"'”’»)\\]*_\u200b-\u200d\u2060\ufeff" + re.escape(closers)
    return re.compile(rf"[.!?][{closing}]+(?=\s|\Z)|[{re.escape(terminals)}][{closing}]*")


_CARRIED = frozenset({"they", "it", "this", "that", "which", "these", "those", "and", "so"})


def _folded_parts(names: Iterable[str]) -> set[str]:
    """`names` and the name parts of a `kind/name`, in `fold_name`'s spelling."""
    return {
        fold_name(part) for name in names for part in (name, *name.split("/")) if len(part) >= 4
    }


@functools.lru_cache(maxsize=64)
def _scenario_names(
    identifiers: tuple[str, ...], objects: tuple[str, ...]
) -> tuple[list[str], frozenset[str]]:
    """The names looked for as written, inside any token ("…-smtp-config-fixes-it": the
    identifiers and the objects whose name holds a separator; a plain word is no name by
    itself), and every name folded (`_Reader.is_object`); made once per scenario and estate."""
    literal = list(
        dict.fromkeys(
            [
                *(
                    name.casefold()
                    for name in (*identifiers, *objects)
                    if name
                    and (name in identifiers or (len(name) >= 4 and _HAS_SEPARATOR.search(name)))
                ),
                # an identifier's hyphened words written apart ("Batch Processor"; SI red team
                # 44, F2), looked for as its spelling with the hyphens is
                *spaced_names(identifiers),
            ]
        )
    )
    return literal, frozenset(_folded_parts((*identifiers, *objects)))


class _Reader:
    """Reads a channel's sentences for the names of the scenario. A name is an object of the
    scenario, not a shape (SI red team 26, H1): one of its identifiers, an object of the
    evidence's first snapshot (`scenario_objects`) or a name of the statement's sentence; an
    identifier-shaped token ("Just-kidding", "red-herring") that is none of them is words, read
    as words. Names are compared in one spelling (`fold_name`; SI red team 26, H13): "smtp_config",
    "SmtpConfig" and "smtp-config" are one name."""

    def __init__(
        self,
        channel: ChannelText,
        identifiers: Sequence[str],
        objects: Sequence[str] = (),
        bodies: Sequence[str] = (),
    ) -> None:
        self.text = channel.text
        self.channel = channel
        self._bodies = bodies
        self._folded_bodies: list[str] | None = None
        self._names, known = _scenario_names(tuple(identifiers), tuple(objects))
        self._known: set[str] = set(known)
        self._folds: dict[int, tuple[set[str], frozenset[str]]] = {}

    def know(self, names: Iterable[str]) -> None:
        """Counts `names` (and the name parts of a `kind/name`) as objects of the scenario."""
        self._known.update(_folded_parts(names))

    def _folded(self, names: set[str]) -> frozenset[str]:
        """`names` in `fold_name`'s spelling, made once per set (the sets a reading passes are
        made once per statement and not changed after)."""
        known = self._folds.get(id(names))
        if known is None or known[0] is not names:
            known = (names, frozenset(fold_name(name) for name in names))
            self._folds[id(names)] = known
        return known[1]

    def is_object(self, token: str) -> bool:
        """Whether an identifier-shaped token names an object: itself or, for a `kind/name`,
        its name."""
        return len(token) >= 4 and (
            fold_name(token) in self._known or fold_name(token.rsplit("/", 1)[-1]) in self._known
        )

    def objects(self, piece: str) -> list[re.Match[str]]:
        """The identifier-shaped tokens of `piece` that name an object."""
        return [m for m in _IDENTIFIER_SHAPED.finditer(piece) if self.is_object(m.group())]

    def names_a_key(self, piece: str) -> bool:
        """Whether `piece` names an object or a key the scenario does not list ("The key
        SMTP_TLS = false is fine;"): a constant's shape (`_KEY_SHAPED`) names a key; it is
        still read as words ("NOT_TRUE" says "not true")."""
        return bool(self.objects(piece)) or _KEY_SHAPED.search(piece) is not None

    def names(self, start: int, end: int) -> bool:
        """Whether `text[start:end]` names something of the system."""
        piece = self.text[start:end]
        return self.names_object(start, end) or _SYSTEM.search(piece) is not None

    def names_object(self, start: int, end: int) -> bool:
        """Whether `text[start:end]` names an object of the scenario: one of its identifiers or
        a token naming one of its objects (SI red team 22, W1: a system word alone names none;
        SI red team 26, H1: a hyphenated word alone names none)."""
        piece = self.text[start:end]
        folded = piece.casefold()
        return any(name in folded for name in self._names) or self.names_a_key(piece)

    def echoed(self, quoted: str) -> bool:
        """Whether a quoted span's words are found in a tool response, as whole words: the
        environment's words (the pods' own log line), not the agent's (SI red team 26, H3). A
        span found inside a longer word ("not" in "notification-service") or a single word
        shorter than `_SHORTEST_ECHO` is the agent's (SI red team 27, W)."""
        said = " ".join(quoted.casefold().split())
        if not said:
            return True
        if " " not in said and len(said) < _SHORTEST_ECHO:
            # one short word ("not", "false", "fine") is no line of output: any body may hold
            # it, and the agent's own word would be blanked (SI red team 27, W)
            return False
        if self._folded_bodies is None:
            self._folded_bodies = [" ".join(body.casefold().split()) for body in self._bodies]
        return any(_holds_words(body, said) for body in self._folded_bodies)

    def without_objects(
        self, start: int, end: int, mark: set[str] | None = None, *, echo: bool = False
    ) -> str:
        """`text[start:end]` casefolded with the scenario's names blanked (those of `mark`
        written `_MARK`): what is left are the words said of them. A hyphen or an underscore
        joining words is a space: "red-herring", "not-missing" and "non_issue" are words
        (SI red team 26, H1). With `echo`, a quoted span found in a tool response is blanked
        too; any other quoted span is the agent's words and is read."""
        piece = self.text[start:end]
        if echo:
            piece = _QUOTED.sub(
                lambda m: " " * len(m.group()) if self.echoed(m.group()[1:-1]) else m.group(),
                piece,
            )
        folded_mark = {fold_name(name) for name in mark or ()}

        def blank(match: re.Match[str]) -> str:
            token = match.group()
            if not self.is_object(token):
                return token
            return f" {_MARK} " if fold_name(token) in folded_mark else " "

        piece = _IDENTIFIER_SHAPED_ANY.sub(blank, piece)
        folded = piece.casefold()
        for name in self._names:
            if name in folded:
                replacement = f" {_MARK} " if fold_name(name) in folded_mark else " "
                folded = folded.replace(name, replacement)
        return _JOINED_WORDS.sub(" ", folded)

    def names_other(self, start: int, end: int, own: set[str]) -> bool:
        """Whether `text[start:end]` names an object that is not one of `own`, in any
        spelling."""
        piece = self.text[start:end]
        folded = piece.casefold()
        folded_own = self._folded(own)
        return (
            any(name in folded and fold_name(name) not in folded_own for name in self._names)
            or any(
                fold_name(m.group()) not in folded_own
                and fold_name(m.group().rsplit("/", 1)[-1]) not in folded_own
                for m in self.objects(piece)
            )
            or any(fold_name(m.group()) not in folded_own for m in _KEY_SHAPED.finditer(piece))
        )

    def first_name(self, start: int, end: int) -> int:
        """Where the first name of the system in `text[start:end]` begins (`end` if none)."""
        piece = self.text[start:end]
        folded = piece.casefold()
        found = [folded.find(name) for name in self._names]
        # the factor's own name is folded out of the shaped text: `end` stands for it. A system
        # word is no name: it is read as a word of the frame ("The pod team insists that X";
        # SI red team 22, W1)
        at = min([where for where in found if where >= 0], default=len(piece))
        for match in self.objects(piece):
            at = min(at, match.start())
            break
        key = _KEY_SHAPED.search(piece)
        if key is not None:
            at = min(at, key.start())
        return start + at


# the shortest single word a quoted span may be and still be read as tool output
# ("CreateContainerConfigError", "connection-refused"); a phrase of two words or more is
# read as output wherever a tool response holds it whole
_SHORTEST_ECHO = 8


def _holds_words(body: str, said: str) -> bool:
    """Whether `body` holds `said` with no letter or digit joined to either end."""
    at = body.find(said)
    while at >= 0:
        before = body[at - 1] if at > 0 else " "
        after = body[at + len(said)] if at + len(said) < len(body) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        at = body.find(said, at + 1)
    return False


def _affirms_back(sentence: str) -> bool:
    said = _AFFIRMS_BACK.match(sentence)
    return said is not None and _NEGATION.search(sentence, said.end()) is None


def _continues(words: list[str], sentence: str) -> bool:
    """A sentence that opens on a pronoun and says a deviation of a statement that said none
    ("SMTP_PORT is the key. It is missing."): the statement continued (the adjacent window)."""
    return (
        bool(words)
        and words[0] in _ANSWERING
        and any(word in _DEVIATION for word in words)
        and _NEGATION.search(sentence) is None
    )


def _words(text: str) -> list[str]:
    if text.isascii():
        # folding an ASCII text whole is folding each word of it (no "’" to respell, and no
        # letter that lowering makes other than a letter): one call, not one per word
        return _WORD.findall(text.lower())
    return [word.casefold().replace("’", "'") for word in _WORD.findall(text)]


def _statement_names(reader: _Reader, start: int, end: int, factor_texts: set[str]) -> set[str]:
    # the objects the sentence names: a hyphenated word is no name ("… — a total-fabrication")
    shaped = {m.group().casefold() for m in reader.objects(reader.text[start:end])}
    # "configmap/smtp-config" names smtp-config too: a later "smtp-config" is the statement's
    # own name, not another's (SI red team 22, W1)
    parts = {part for name in shaped for part in name.split("/") if len(part) >= 4}
    return factor_texts | shaped | parts


def _subject_at(frame: str, rest: str) -> int:
    """Where a main clause's own subject opens in `frame`, when the clause states the symptom
    and the statement is its cause ("Checkout is in CrashLoopBackOff because X"): the subject
    is a name the reading may not know (a symptom's), so it is read by its shape."""
    if _CAUSAL.search(rest) is None:
        return len(frame)
    for match in _STATE_SUBJECT.finditer(frame):
        word = match.group(1).casefold()
        if word not in _FRAME_WORDS and word not in _PRONOUNS:
            return match.start(1)
    return len(frame)


# a topic frame: the name set off by a comma after it
_TOPIC_FRAMES = (["as", "for"], ["as", "to"], ["regarding"], ["concerning"], ["about"])
_NAME_SET_OFF = lazy_pattern(r"[\w./-]+\s*(?:,|\bbut\b|;)", re.IGNORECASE)
# what a part of the system needs of the name ("The deployment expects SMTP_PORT")
_REQUIRING = frozenset(
    {"expects", "needs", "requires", "reads", "references", "wants", "uses", "mounts", "consumes"}
)


def _requirement_of_the_system(words: list[str]) -> bool:
    """A frame that is a part of the system and a verb of requiring, nothing else."""
    return (
        len(words) >= 3
        and words[-1] in _REQUIRING
        and words[0] in _DETERMINERS
        and all(_SYSTEM_NOUN.fullmatch(word) is not None for word in words[1:-1])
    )


def _frame_holds(reader: _Reader, start: int, first: int) -> bool:
    """Whether the words from `start` to the first name of the system before `first` are a
    frame known to affirm or to be neutral."""
    text = reader.text
    name_at = reader.first_name(start, first)
    name_at = start + _subject_at(text[start:name_at], text[start:first])
    frame = _TAG.sub(" ", text[start:name_at])  # an HTML tag is markup, not words
    words = _words(re.sub(r"['’]s\b", " is", frame))
    if all(_neutral(word) or word in _FRAME_DEVIATION for word in words):
        return True
    if _NAME_SET_OFF.match(text, name_at) and (
        words in _TOPIC_FRAMES or _requirement_of_the_system(words)
    ):
        # the name set off as a topic or as what the system needs ("As for SMTP_PORT, …", "The
        # deployment expects SMTP_PORT, but …"): the statement follows in a clause of its own,
        # read by the other rules (SI red team 31, H2)
        return True
    # an idiom that affirms, then neutral words ("There is no doubt that the …")
    joined = " ".join(words)
    idiom = _AFFIRMING_FRAME.match(joined)
    return idiom is not None and all(_neutral(word) for word in joined[idiom.end() :].split())


# the statement's own deviation said before the factor's name ("… has DB_USER but lacks
# DB_PASSWORD", "Root cause: an unexpected extra key LEGACY_SHARD_COUNT"): the statement, not
# a frame of it (SI red team 29, H1 and H14). "defined" and "set" are no deviation before a name.
_FRAME_DEVIATION = frozenset(
    {
        "missing", "absent", "unset", "undefined", "lacks", "lacking", "lack", "misses",
        "wrong", "incorrect", "invalid", "misconfigured", "extra", "unexpected", "stopped",
        "removed", "deleted", "stale", "superfluous", "leftover",
    }
)  # fmt: skip


def _neutral(word: str) -> bool:
    """A word of a frame: a label, a connective, a verb of having checked, or a system word."""
    return word in _FRAME_WORDS or _SYSTEM_WORD.fullmatch(word) is not None


def _ungoverned_frame(reader: _Reader, start: int, first: int) -> Unplain | None:
    text = reader.text
    frame_start = start
    # a clause after ";", ":", a dash or "but" that opens on anything but a pronoun is out of
    # the reach of what came before ("We excluded D; X is missing"); one opening on a pronoun
    # is carried ("…; they crash because X"). A label before a colon is read by the judging
    # rule (`_unaccounted`), not here: a documented limit (docs/si-scoring.md §11).
    for end in _FRAME_END.finditer(text, start, first):
        opening = _words(text[end.end() : end.end() + 24])
        if opening and opening[0] in _CARRIED:
            continue
        frame_start = end.end()
    # what the cut clause says is read as a sentence before the statement ("I have not
    # verified anything; X": SI red team 22, W1)
    if frame_start > start and not _cut_clause_accounted(
        reader, start, frame_start, _statement_nouns(text[frame_start:first])
    ):
        said = text[start:frame_start].strip()
        return Unplain("ungoverned_frame", start, frame_start, f"the clause {said!r}")
    if _frame_holds(reader, frame_start, first):
        return None
    said = text[start:first].strip()
    return Unplain("ungoverned_frame", start, first, f"the frame {said!r}")


def _cut_clause_accounted(reader: _Reader, start: int, end: int, statement_nouns: set[str]) -> bool:
    """A clause cut from the statement by `_FRAME_END` is read as a sentence before it; a
    label before a colon (no verb, no negation: "Résumé:") is read by the label rules of
    `_plain_assertion` and `_unaccounted`."""
    clause = reader.text[start:end]
    if _FRAMES_AHEAD.search(reader.without_objects(start, end)):
        return False  # "(Half-joking, re D:)": a frame of what follows (SI red team 26, H8)
    if clause.rstrip().endswith(":") and _NEGATION.search(clause) is None:
        return True  # a label or a lead-in ("I want to be clear:"), read by the label rules
    words = _words(clause)
    if words and words[-1] == "but":
        # "I could not determine who changed it, but X": what follows "but" is asserted over
        # what it concedes (a limit, docs/si-scoring.md §11)
        return True
    joined = " ".join(words)
    idiom = _AFFIRMING_FRAME.match(joined)
    if idiom is not None and all(_neutral(word) for word in joined[idiom.end() :].split()):
        return True  # "No doubt:", "No question:"
    if reader.names_object(start, end) or _other_part(clause, statement_nouns):
        # of another object or part of the system ("We excluded D;", "Not D:", "The alert
        # was dismissed;"): the dismissal rules read it, a frame of what follows withholds
        # ("(Half-joking, re D:)"; SI red team 26, H8)
        return _FRAMES_AHEAD.search(reader.without_objects(start, end)) is None
    return _before_accounted(reader, start, end)


def _statement_nouns(statement: str) -> set[str]:
    return {word for word in _words(statement) if _SYSTEM_NOUN.fullmatch(word) is not None}


def _other_part(piece: str, statement_nouns: set[str]) -> bool:
    """Whether `piece` names a system noun the statement's sentence does not hold."""
    return any(
        _SYSTEM_NOUN.fullmatch(word) is not None and word not in statement_nouns
        for word in _words(piece)
    )


def _earlier_accounted(
    reader: _Reader, start: int, end: int, names: _StatementNames, deviation: set[str]
) -> bool:
    """A sentence before the statement naming another object of the scenario is read by the
    dismissal rules; one naming only the factor's is read as a later one
    (`_object_frame_holds`); one naming none by `_before_accounted`."""
    if reader.names_object(start, end):
        if _named_withholds(reader, start, end, names, deviation) is not None:
            return False
        if _FRAMES_AHEAD.search(reader.without_objects(start, end)):
            # "report-renderer aside, this is pure guess-work.": the frame rules of a
            # sentence naming none hold wherever the names are (SI red team 26, H8)
            return False
        return reader.names_other(start, end, names.own) or _object_frame_holds(reader, start, end)
    return _before_accounted(reader, start, end)


def _before_accounted(reader: _Reader, start: int, end: int) -> bool:
    """Whether a sentence (or a clause cut by `_FRAME_END`) before the statement is accounted
    for: a courtesy, a question of the system, or words of a frame and of the system with no
    negation ("Here is what I found.", "The pods are in CrashLoopBackOff.", "Root cause:"); a
    frame or a disclaimer ("This is a guess.", "What follows is fiction.") withholds (SI red
    team 22, W1)."""
    piece = reader.text[start:end]
    if _COURTESY.match(piece.strip()) or _GREETING.match(piece.strip()):
        return True
    if _QUESTION.search(piece):
        return reader.names(start, end)
    if _label(piece):
        return True  # a label line ("Ruled out:"), read by the label rules
    rest = reader.without_objects(start, end)
    if _contradicts(rest) or _FRAMES_AHEAD.search(rest):
        return False
    words = _words(_TAG.sub(" ", re.sub(r"['’]s\b", " is", rest)))
    if _NEGATION.search(rest) is None and all(
        _neutral(word) or word in _STATE_WORDS for word in words
    ):
        return True
    return _after_accounted(reader, start, end, set(), set())[0]


def _label(clause: str) -> bool:
    """A label or a lead-in before a colon, with no negation ("Ruled out:", "Résumé:")."""
    return clause.rstrip().endswith(":") and _NEGATION.search(clause) is None


def _contradicts(piece: str) -> bool:
    # of another part of the system ("No, the node is fine: the disk warning is old.") a
    # healthy state contradicts nothing: only of the factor's objects and its workload
    """Whether a main clause of `piece` states a healthy or present state ("the configmap is
    fine", "has the SMTP_PORT key after all", "The pods are actually running fine"): of the
    factor's objects, the contrary of the deviation (SI red team 22, W1). A clause that opens
    on a condition ("Once the key is set, …") asserts nothing."""
    for clause in _CLAUSES.split(piece):
        if _CONTRARY.search(clause) is None:
            continue  # most clauses state no healthy state: their words are not needed
        words = _words(clause)
        if words and words[0] in _CONDITIONS:
            continue
        if _NEGATION.search(clause) is None and not any(
            _OTHER_PART.fullmatch(word) for word in words
        ):
            return True
    return False


def _after_accounted(
    reader: _Reader,
    start: int,
    end: int,
    deviation: set[str],
    statement_nouns: set[str],
    own: Collection[str] = (),
) -> tuple[bool, str]:
    """Whether a sentence that names no object of the scenario says something of the system
    (SI red team 22, W1 and W2). A mention is not enough: a sentence that speaks of the answer
    or the analysis ("Please disregard the pod analysis above.", "That was the answer for a
    different cluster."), a first-person disclaimer of the evidence ("I never looked at the
    pods or the logs.", "I made all of this up without reading any logs.") and one of the
    statement's own parts that states no deviation ("The pods crash for another reason.")
    withhold. What is accounted for: a remediation or an evidence verb ("Adding the key and
    restarting the pods fixes it."), a deviation ("The pods crash because the key is
    missing."), or a part of the system the statement does not name ("The DNS alert is noise;
    that is not it.", "The node's CPU is only busy.")."""
    piece = reader.text[start:end]
    if _SYSTEM.search(piece) is None:
        return False, "names nothing of the system"
    if _META.search(piece) is not None:
        return False, "speaks of the answer, not of the system"
    negation = _NEGATION.search(piece)
    if _DISCLAIMER.search(piece) is not None or (
        negation is not None and _CHECKED.search(piece, negation.end())
    ):
        # "The logs were not consulted." (SI red team 26, H1)
        return False, "disclaims the evidence"
    if own and _denies_deviation(piece, deviation | _ABSENT):
        # after the statement, "No key is missing.", "Fix: there is no missing key.": a denial
        # by the deviation's own word, read as any sentence is (SI red team 35, W2)
        return False, "denies the deviation"
    if own and _remedy_undone(piece):
        # after the statement (`own`), "Nothing is missing; restart the node.": an action word
        # accounts for no sentence that denies the deviation or says the factor is well beside
        # it (SI red team 35, W2)
        return False, "gives a remedy beside a denial"
    words = set(_words(piece))
    if _ACTION.search(piece) or words & (deviation | _ABSENT):
        return True, ""
    if any(_SYSTEM_NOUN.fullmatch(word) and word not in statement_nouns for word in words):
        return True, ""  # of another part of the system
    return False, "states nothing of an object of the scenario"


# a negation right before a deviation word ("not missing", "no missing key", "isn't really
# missing"), and a clause that opens on one ("No key is missing.", "None of the keys is absent.")
_NEGATED_WORD = lazy_pattern(
    r"(?:\b(?:not|no|never|nothing|none)|n['’]t)\s+(?:(?:be|been|really|actually|at\s+all|"
    r"any\s+longer|longer)\s+)?(\w+)",
    re.IGNORECASE,
)
_OPENING_NEGATION = frozenset({"no", "not", "nothing", "none", "neither", "nor"})
# a scope beside the factor ("No other key is missing.", "Nothing else is absent."): no denial
_SCOPE_WORDS = frozenset({"other", "else", "besides", "except", "apart", "another", "more"})


def _denies_deviation(piece: str, deviation: set[str]) -> bool:
    """Whether a clause of a sentence naming no object denies the deviation by its own word: a
    negation right before it ("The key is not missing.", "There is no missing key.") or a clause
    opening on a negation that holds it ("No key is missing."), unless the clause speaks of
    the rest beside the factor (`_SCOPE_WORDS`: "No other key is missing.")."""
    for clause in _CLAUSES.split(piece):
        words = _words(clause)
        if not set(words) & deviation or set(words) & _SCOPE_WORDS:
            continue
        if words[0] in _OPENING_NEGATION:
            return True
        if any(found.group(1).casefold() in deviation for found in _NEGATED_WORD.finditer(clause)):
            return True
    return False


def _remedy_undone(piece: str) -> bool:
    """Whether a sentence with a remedy in the imperative (a clause opening on an action word:
    "…; restart the node.") also denies, dismisses or retracts ("nothing is missing", "none of
    that is true", "the key was never the problem"), or says a healthy state ("the config is
    complete", "nothing else is wrong"): the remedy beside it does not account for it (SI red
    team 35, W2). A negation that restates the deviation ("SMTP_PORT is not set", "the pods are
    not ready") is no denial (`_NOT_CONTRARY`); a report of what was done ("I did not change
    anything") has no imperative."""
    if not any(_ACTION.match(clause.strip()) for clause in _CLAUSES.split(piece)):
        return False
    denied = any(
        (following.group(1) or "").casefold() not in _NOT_CONTRARY
        for following in _NEGATION_OF_WORDS.finditer(_TAG_QUESTION.sub("", piece))
    )
    return (
        denied
        or _DISMISSAL.search(piece) is not None
        or _RETRACTION.search(piece) is not None
        or _healthy_state(piece)
    )


# What a sentence naming an object says of it once the names are taken out (SI red team 24,
# H1-H3): a withdrawal or a bet on another cause, a second cause, a disclaimer of what was
# checked, a healthy state of the factor's own objects. Read of every sentence naming an object,
# before or after the statement, as a sentence naming none is read by `_after_accounted`.
_WITHDRAWN = lazy_pattern(
    r"\b(?:instead|more\s+likely|likely|unlikely|probably|bet|guess|hunch|decoy|innocent|"
    r"fiction|made\s+up|culprit|at\s+fault|the\s+problem|the\s+issue|nothing\s+to\s+do|"
    r"rumou?rs?|busted|otherwise)\b",
    re.IGNORECASE,
)
_SECOND_CAUSE = lazy_pattern(
    r"\b(?:because|due\s+to|caused\s+by)\b(?!\s+(?:of\s+)?(?:it|this|that)\b)|"
    r"\b(?:kill(?:s|ed)?|evict(?:s|ed)?|oomkilled|leak\w*|breaks?|pressure|exhaust\w*)\b",
    re.IGNORECASE,
)
_CHECKED = lazy_pattern(
    r"\b(?:check(?:ed)?|verif\w*|look(?:ed)?|inspect\w*|consult\w*|read|seen|saw)\b", re.IGNORECASE
)
# a healthy state: of the factor's objects or its workload, the contrary of the deviation.
# Holding or showing is no state: `_contrary_of_type` reads it by the deviation's type (SI red
# team 26, H6: "smtp-config holds only SMTP_HOST" restates the absence)
_OWN_HEALTHY = lazy_pattern(
    r"\b(?:complete|normally|up\s+and\s+running|recovered|serving|healthy|fine|ok|okay|"
    r"running|ready|available|is\s+back|back\s+in|intact|present|populated|defined|"
    r"configured|exists?)\b",
    re.IGNORECASE,
)
# a negation that governs words, not a blanked name ("has SMTP_HOST but no SMTP_PORT"); after
# "be" the word it negates is the next ("could not be found"; SI red team 27, W6)
_NEGATION_OF_WORDS = lazy_pattern(
    r"(?:\b(?:not|no|never|nothing|none|nor|neither|without)\b|n['’]t\b)(?!\s*(?:[.,;:!]|$))"
    r"\s*(?:(?:be|been|being)\s+)?(\w*)",
    re.IGNORECASE,
)
# a negated present state restates the deviation ("Smtp_Port is NOT SET.")
_PRESENT_STATES = frozenset(
    {"set", "defined", "present", "there", "configured", "found", "key", "such", "entry"}
)
# a negation of these restates the deviation or its symptom ("SMTP_PORT is not set", "shows no
# SMTP_PORT key", "search-indexer is not ready"; SI red team 26, H6)
_NOT_CONTRARY = _PRESENT_STATES | {
    _MARK, "ready", "serving", "running", "healthy", "available", "working", "up", "starting",
    "started", "able", "help", "fix", "resolved", "reachable",
    # a verb of holding negated restates an absence ("which smtp-config does not contain"); of
    # an extra key or a wrong value it is the contrary, read by `_contrary_of_type`
    "contain", "contains", "have", "has", "hold", "holds", "include", "includes", "list",
    "lists", "define", "defines", "carry", "carries", "exist", "exists", "had", "get", "gets",
    "got",
    # a verb of finding negated restates it too ("couldn't find key SMTP_PORT": the event's
    # words; SI red team 29, H6); found, it is a verb of holding (`_contrary._HOLDING`)
    "find", "locate", "located", "resolve", "see", "seen",
    # the passive of a verb of holding ("is not held by smtp-config"; SI red team 29, G1)
    "held", "provided", "contained", "included", "listed",
}  # fmt: skip
_QUOTED = lazy_pattern(r'"[^"]*"|“[^”]*”')
# a count of none before a healthy word restates the failure ("shows 0/0 ready")
_ZERO_COUNT = lazy_pattern(r"\b(?:0|zero)\b")
# a state conceded: "but" or "yet", then a negation or a failure in the clause after it
_CONCEDED = lazy_pattern(
    r"\s*,?\s*(?:but|yet)\b[^,;:—–]*?(?:\b(?:not|never|no|fail\w*|crash\w*|unable)\b|n['’]t\b)",
    re.IGNORECASE,
)
_YES = frozenset({"yes", "yeah", "yep", "yup", "correct", "indeed", "absolutely", "definitely"})
_NO = frozenset({"no", "nope", "nah"})
_CAUSE_WORDS = lazy_pattern(
    r"\b(?:cause\w*|culprit|blame|problem|responsible|reason|issue|fault|root|behind|why|"
    r"break\w*|kill\w*|stop\w*)\b",
    re.IGNORECASE,
)
# a retraction said after the statement's last name (`_tail`)
_RETRACTION = lazy_pattern(
    r"\b(?:just\s*kidding|kidding|joking|jk|not\s*really|fabricat\w*|made\s*up|fiction\w*|"
    r"untrue|not\s*true|a\s+lie|april\s*fools?|scratch\s*that|psych)\b",
    re.IGNORECASE,
)
_PLACE_WORDS = frozenset({"from", "in", "inside", "within", "of", "on", "at", "under", "into"})
# a place correction that moves the deviation off the estate ("…, or rather in the smtp-config
# of some other cluster"; SI red team 29, G10)
_ELSEWHERE = lazy_pattern(
    r"\b(?:other|another|different|elsewhere|some|imaginary|hypothetical|parallel|staging|"
    r"test(?:ing)?)\b",
    re.IGNORECASE,
)
_OR_RATHER = lazy_pattern(r"\bor\s+rather\b", re.IGNORECASE)
# a remedy that gives a value, and a clause after it saying the value is there already
_REMEDY_VALUE = lazy_pattern(
    r"\b(?:should|must|needs?\s+to|has\s+to|ought\s+to)\s+be\s+(?:set\s+(?:back\s+)?to\s+)?"
    r"(?:\"[^\"]*\"|'[^']*'|`[^`]*`|“[^”]*”|‘[^’]*’|\d[\w.]*)",
    re.IGNORECASE,
)
_ALREADY = lazy_pattern(
    r"\b(?:already|all\s+along|same\s+as|as\s+(?:it\s+)?is|it\s+is|currently|now|today|still|"
    r"unchanged|as\s+before|has\s+been|have\s+been|it\s+was|which\s+it\s+is)\b",
    re.IGNORECASE,
)
_CLOSING = "\"'”’»)]*_ "
# the words that open a question (`_asks`)
_ASKING = frozenset(
    {
        "is", "are", "was", "were", "do", "does", "did", "can", "could", "would", "will",
        "should", "has", "have", "had", "may", "might", "must", "shall", "what", "why", "how",
        "which", "who", "whom", "whose", "where", "when", "isn't", "aren't", "wasn't",
        "doesn't", "didn't", "couldn't", "wouldn't", "won't", "can't", "shouldn't",
    }
)  # fmt: skip
_TAGS = frozenset({"it", "right", "no", "yes", "ok", "okay", "correct", "true", "eh", "huh"})
# a dismissal denied ("not the only cause", "not unrelated", "I would not rule out D", "cannot
# be excluded", "no less responsible"): it asserts the object (SI red team 26, H10)
_NEGATED_DISMISSAL = lazy_pattern(
    r"(?:\b(?:not|no|never|cannot)\b|n['’]t\b)\s+(?:\w+\s+){0,3}?(?:the\s+only|only|"
    r"unrelated|irrelevant|blameless|innocent|harmless|benign|less|rule|ruled|exclud\w*|"
    r"impossible|unlikely|a\s+red\s+herring|coincidental|noise|a\s+distraction)\b",
    re.IGNORECASE,
)
# what the statement's deviation is, by its words (`_contrary_of_type`)
_ABSENCE_TYPES = frozenset({"missing", "absent", "unset", "undefined", "removed", "deleted"})
_STOPPED_TYPES = frozenset({"stopped", "zero", "scaled", "down"})
_EXTRA_TYPES = frozenset({"extra", "unexpected"})
# neither/nor/none bind the names of a sentence into one clause (`_dismisses_the_factor_too`)
_JOINT = lazy_pattern(r"\b(?:neither|nor|none)\b", re.IGNORECASE)
_DISMISSAL_CLAUSES = lazy_pattern(r"[,;:—–]|\b(?:and|but|while|whereas|yet)\b", re.IGNORECASE)
_DETERMINER = lazy_pattern(r"\b(?:the|that|this|its|their|our|said)\b", re.IGNORECASE)
# the clauses a cause is read in (`_named_withholds`): "D is unrelated, yet E is what stops S"
_CAUSE_CLAUSES = lazy_pattern(r"[;:—–]|\b(?:but|yet|whereas|while)\b", re.IGNORECASE)
# a tag that makes a statement a question ("…, isn't it?", "…, right?"): the statement stands
_TAG_QUESTION = lazy_pattern(
    r",\s*(?:(?:is|are|was|were|does|do|did|has|have|can|could|would|will)n['’]?t\s+"
    r"(?:it|they|he|she|there|that)|right|no|correct|true|ok(?:ay)?|eh|huh)\s*[?？‽¿]+\W*\Z",
    re.IGNORECASE,
)
# another object asserted as the cause (`_named_withholds`): the cause words of the profile's
# `cause` list that say it of a subject ("sim-node-1 is behind it": SI red team 27, W; an object
# of the first snapshot's string values is no identifier the rule `several_causes` reads)
_ASSERTED_CAUSE = lazy_pattern(
    r"\b(?:(?:real|actual|true|main|underlying|root|primary|sole)\s+(?:root\s+)?cause|"
    r"what\s+(?:\w+\s+)?(?:stops|breaks|kills|causes|crashes|blocks)|caused|causing|causes|"
    r"is\s+to\s+blame|to\s+blame|responsible|behind|(?:source|origin|root)\s+of|trigger(?:s|ed)?|"
    r"stems?\s+from)\b",
    re.IGNORECASE,
)
# a copula carried with "too" ("QUEUE_HOST is, too"), and a cause given as a label's value
# ("- QUEUE_HOST: the cause", a list item; SI red team 29, G11)
_TOO = lazy_pattern(r"\b(?:is|are|was|were|does|do|did)\s*,?\s*(?:too|as\s+well|also)\b", re.I)
_LABELLED_CAUSE = lazy_pattern(
    r"\A[\s*•-]*(?:is\s+)?(?:the|a|one)\s+(?:(?:real|actual|root|main|other|second)\s+)*"
    r"(?:cause|culprit)\b",
    re.IGNORECASE,
)
_CARRIES = lazy_pattern(r"\b(?:so|as|nor|neither)\s+(?:is|are|was|were|does|do)\b", re.I)
# a sentence before the statement that frames what follows as a guess, a joke or fiction
# (`_before_accounted`'s frames), read also where it names an object (SI red team 26, H8)
_FRAMES_AHEAD = lazy_pattern(
    r"\b(?:guess\w*|jok\w*|joking|kidding|fiction\w*|made\s+up|invent\w*|pretend\w*|"
    r"hypothetical\w*|speculat\w*|what\s+follows|the\s+following|the\s+next|below|the\s+rest|"
    r"after\s+this|i\s+write\s+next|fake|untrue|unverified|not\s+(?:\w+\s+)?(?:checked|"
    r"verified|cross\s+checked))\b",
    re.IGNORECASE,
)


def _named_withholds(
    reader: _Reader,
    start: int,
    end: int,
    names: _StatementNames,
    deviation: set[str],
    after_other: bool = False,
) -> str | None:
    """Why a sentence naming an object withholds the statement, or None (SI red team 24, H1-H3;
    SI red team 26). Its words with the names taken out (and quoted tool output, the pods' own
    words) are read as those of a sentence naming none: a withdrawal, a disclaimer or the answer
    spoken of withhold wherever the names are. A sentence that names another object and not
    the factor's own key or resource, and denies or dismisses, rules that object out
    ("batch-processor is not the cause.", "My first guess, report-renderer, was wrong."): it
    keeps the top band, unless a clause of it gives a cause, withdraws, or dismisses the factor
    too by a word for it ("…, and neither is the missing key."); a negated dismissal ("not the
    only cause", "I would not rule out D") asserts. Of the factor's own objects, when the
    statement states a deviation, a negation of words, a healthy state, the contrary of the
    deviation's type or a dismissal withholds; of its workload, a healthy state or a dismissal
    (a failure word restates the symptom). A clause opening on a condition ("Unless SMTP_PORT
    is set, …") asserts nothing; a question is read by the question rules."""
    piece = reader.text[start:end]
    if _asks(piece):
        return None
    rest = reader.without_objects(start, end, names.key, echo=True)
    # linear: the verbs are looked for once, after the first negation
    negation = _NEGATION.search(rest)
    if _disclaims(rest) or (negation is not None and _CHECKED.search(rest, negation.end())):
        return "disclaims the evidence"
    # "It fails for its own reason, which does not affect user-service": the reason is the
    # subject's own, not the answer's, where the subject takes up the sentence before and the
    # workload is only its object (SI red team 42, F2)
    spares = after_other and _spares(piece, names.own)
    of_the_answer = _OWN_REASON.sub(" ", rest) if spares else rest
    if _META.search(of_the_answer) and _meta_of_the_answer(reader, start, end, names):
        return "speaks of the answer, not of the system"
    retraction = _RETRACTION.search(rest)
    if retraction is not None and not _NEGATION.search(
        " ".join(_words(rest[: retraction.start()])[-2:])
    ):
        return "withdraws the statement"  # "NOT_TRUE.", "Just-kidding, smtp-config." (H1)
    names_factor = _names_any(piece, names.factor)
    names_workload = not names_factor and _names_any(piece, names.own)
    names_other = reader.names_other(start, end, names.held)
    if names_other and not names_factor and _NEGATED_DISMISSAL.search(rest):
        # "D is not the only cause", "I would not rule out D": a dismissal denied asserts D
        return "withdraws the statement or gives a second cause"
    negated = any(
        (following.group(1) or "").casefold() not in _NOT_CONTRARY
        for following in _NEGATION_OF_WORDS.finditer(_TAG_QUESTION.sub("", rest))
    )
    dismissed = negated or _DISMISSAL.search(rest) is not None
    rules_out_other = dismissed and not names_factor and names_other
    if rules_out_other and _dismisses_the_factor_too(rest, names.nouns):
        return "dismisses the factor with another object"
    words = _words(rest)
    conditional = _opens_on_condition(words) or _remedy_and_outcome(rest)
    if deviation and not conditional and not rules_out_other:
        if names_factor and (
            negated
            or _healthy_state(rest)
            or _DISMISSAL.search(rest)
            or _WORKLOAD_WELL.search(rest)
            or _contrary_of_type(rest, deviation)
        ):
            return "says of the factor's own objects something other than the deviation"
        if names_workload and (
            _healthy_state(rest)
            # the dismissal's subject, not its complement: "user-service is unrelated" is a
            # verdict on the workload, "Its CPU spike is unrelated to user-service" one on the
            # spike (SI red team 42, F2)
            or (_DISMISSAL.search(rest) and not spares)
            or _WORKLOAD_WELL.search(rest)
        ):
            return "says of the factor's workload something other than the deviation"
    denied_before = False
    for clause in _CAUSE_CLAUSES.split(_TAG_QUESTION.sub("", rest)):
        denies = _NEGATION.search(clause) or _DISMISSAL.search(clause)
        if (
            names_other
            and not names_factor
            and not denies
            and denied_before
            and _TOO.search(clause)
        ):
            # "batch-processor is not the cause; QUEUE_HOST is, too.": "is, too" after a denial
            # asserts what was denied of the other (SI red team 29, G11)
            return "withdraws the statement or gives a second cause"
        denied_before = _NEGATION.search(clause) is not None
        if (
            names_other
            and not names_factor
            and not denies
            and (_ASSERTED_CAUSE.search(clause) or _LABELLED_CAUSE.match(clause))
        ):
            # "D is the real cause", "sim-node-1 is what really stops S", "D caused all of
            # this, right?" (SI red team 26, H2 and H12)
            return "withdraws the statement or gives a second cause"
        if not (_WITHDRAWN.search(clause) or _other_cause(clause)):
            continue
        # "batch-processor is not the cause": the clause rules another object out; one that
        # denies nothing gives a cause or withdraws ("…; notification-service leaks memory")
        if not (rules_out_other and (_NEGATION.search(clause) or _DISMISSAL.search(clause))):
            return "withdraws the statement or gives a second cause"
    return None


# a hedge or a bet: said after a sentence of another object, of the answer as much as of it
_HEDGE = lazy_pattern(
    r"\b(?:probably|maybe|perhaps|possibly|likely|unlikely|guess\w*|hunch\w*|bet|coin|"
    r"random\w*|unsure|not\s+sure|uncertain|made\s+up|fiction\w*|rumou?rs?|speculat\w*)\b",
    re.IGNORECASE,
)


def _hedges_after_other(rest: str) -> bool:
    """Whether a sentence in the window after one naming another object hedges, disclaims,
    retracts or speaks of the answer (SI red team 29, G12); a dismissal with it ("It is
    probably a red herring.") is of the other object."""
    if _META.search(rest) or _disclaims(rest) or _FRAMES_AHEAD.search(rest):
        return True
    if _RETRACTION.search(rest):
        return True
    negation = _NEGATION.search(rest)
    if negation is not None and _CHECKED.search(rest, negation.end()):
        return True
    return _HEDGE.search(rest) is not None and _NOUN_DISMISSAL.search(rest) is None


# a Markdown table's rule line ("|---|:--:|") and its head's words (`_table_head`)
_TABLE_RULE = lazy_pattern(r"\A\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*\Z")
_TABLE_ROW = lazy_pattern(r"\A\s*\|(?:[^|\n]*\|)+\s*\Z")
_HEAD_WORDS = frozenset(
    {"state", "status", "name", "kind", "object", "resource", "type", "present", "expected"}
)


# a table cell that says a key or an object is there or well (`_present_cell`)
_PRESENT_CELL = frozenset(
    {
        "set", "present", "ok", "okay", "fine", "healthy", "defined", "exists", "yes", "true",
        "there", "running", "ready", "available", "populated", "found", "configured",
    }
)  # fmt: skip


def _present_cell(row: str) -> bool:
    """Whether a cell of a table row naming the factor says it is there or well (SI red team
    29, H9: the head row is read as labels, so a row is read by its cells)."""
    for cell in row.strip().strip("|").split("|"):
        words = _words(cell)
        if words and all(word in _PRESENT_CELL for word in words):
            return True
    return False


def _table_head(piece: str) -> bool:
    """Whether a sentence is a Markdown table's rule line or a head row of labels ("| configmap
    | key | state |"): the columns the rows below name, read as those rows are (SI red team 29,
    H9)."""
    if _TABLE_RULE.match(piece):
        return True
    if _TABLE_ROW.match(piece) is None or _NEGATION.search(piece):
        return False
    return all(_neutral(word) or word in _HEAD_WORDS for word in _words(piece))


def _asks(piece: str) -> bool:
    """Whether a sentence is a question: it ends on a question mark and opens on a word that
    asks ("Is D the cause?", "Why?"). A question mark inside it ("wiki?page=7"), after a tag
    ("…, isn't it?", "…, right?") or on a sentence that opens on anything else ("Ignore the
    above, D?") asks nothing of the reader: the sentence is read as what it states (SI red team
    26, H12)."""
    stripped = piece.rstrip().rstrip(_CLOSING)
    if not stripped or stripped[-1] not in "?？‽":
        return False
    words = _words(piece)
    if not words or words[0] not in _ASKING:
        return False
    # a tag after the last comma ("…, isn't it?", "…, right?"): the clause before it states
    tail = _words(stripped[stripped.rfind(",") + 1 :]) if "," in stripped else []
    return not (tail and len(tail) <= 3 and tail[-1] in _TAGS)


def _opens_on_condition(words: list[str]) -> bool:
    """Whether a clause opens on a condition ("Once SMTP_PORT is set, …"); "as" only as "as
    soon as" or "as long as": "As it turns out, …", "As of now, …" state (SI red team 26,
    H7)."""
    if not words:
        return False
    if words[0] == "as":
        return words[1:3] in (["soon", "as"], ["long", "as"])
    return words[0] in _CONDITIONS


# a remedy in the imperative, and the change it brings after it (`_remedy_and_outcome`)
_REMEDY_OPENING = lazy_pattern(
    r"\A\W*(?:scale|set|restore|re-?add|add|patch|bring|apply|restart|revert|roll\s+back)\b",
    re.IGNORECASE,
)
_OUTCOME = lazy_pattern(
    r"\b(?:becomes?|become|will|turns?|recovers?|starts?|comes?\s+back|goes|gets?)\b", re.I
)


# the workload said well as the factor's contrary is read: a failure negated, a full ready
# count, a probe passed ("does not actually fail", "is at 3/3", "passes its readiness probe";
# SI red team 29, G8)
_WORKLOAD_WELL = lazy_pattern(
    r"(?:\b(?:not|never)|n['’]t)\s+(?:\w+\s+)?(?:fail|crash|error)\w*|"
    r"\bwithout\s+(?:any\s+)?(?:trouble|errors?|issues?|problems?|failures?)\b|"
    r"\bpass(?:es|ed|ing)?\s+(?:its\s+|the\s+|all\s+)?(?:readiness|liveness|health)|"
    r"\b([1-9]\d*)\s*/\s*\1\b",
    re.IGNORECASE,
)


def _remedy_and_outcome(rest: str) -> bool:
    """Whether a sentence is a remedy in the imperative and the change it brings ("Scale
    orders-db back to 1 replica and orders-api becomes ready."): what it says of a state is
    what to do and what follows, a condition (SI red team 29, H3). A clause after it that says
    a state without a verb of change ("… and orders-db runs 1 replica") or with "already"
    states what is."""
    if _REMEDY_OPENING.match(rest) is None or _ALREADY.search(rest) is not None:
        return False
    for clause in _CLAUSES.split(rest)[1:]:
        states = _healthy_state(clause) or runs(clause)
        if states and _OUTCOME.search(clause) is None:
            return False
        if _DISMISSAL.search(clause) or _RETRACTION.search(clause) or _NEGATION.search(clause):
            # "Restart; SMTP_PORT was a red herring.": a clause after the remedy that dismisses,
            # retracts or denies is read, not shielded as the remedy's outcome (SI red team 35, W2)
            return False
    return True


def _healthy_state(rest: str) -> bool:
    """A healthy state said of an object (`_OWN_HEALTHY`) in a clause with no negation before
    it: "is up and running" is one, "is not serving traffic" restates the failure, and so does
    a state conceded before "but" or "yet" and a failure ("is running but not ready": the pods'
    phase, then what the statement says of them; SI red team 27, W6) and a healthy word after
    a count of none ("0/0 ready")."""
    start = 0
    for cut in (*_CLAUSES.finditer(rest), None):
        end = cut.start() if cut is not None else len(rest)
        clause = rest[start:end]
        found = _OWN_HEALTHY.search(clause)
        if (
            found is not None
            and _NEGATION.search(clause, 0, found.start()) is None
            and _ZERO_COUNT.search(clause, 0, found.start()) is None
            and _CONCEDED.match(rest, end) is None
        ):
            return True
        start = cut.end() if cut is not None else end
    return False


def _contrary_of_type(rest: str, deviation: set[str]) -> bool:
    """The contrary of the statement's deviation in words of its own type, read in the clause
    that governs the factor's name (`_contrary`; SI red team 26, H6 and H16; SI red team 27, W):
    of an absent key, the key held ("smtp-config carries SMTP_PORT", not "has SMTP_HOST but
    lacks SMTP_PORT"); of an extra key or a wrong value, the key said absent ("indexer-config
    has no LEGACY_SHARD_COUNT"); of an object stopped or scaled to zero, a count above zero or
    a running state ("orders-db is at 1/1"), a remedy aside ("Scaling orders-db back to 1
    replica fixes it."). Holding a key restates an extra key or a wrong value."""
    if deviation & (_ABSENCE_TYPES | _EXTRA_TYPES | _WRONG_TYPES):
        said = key_said(rest)
        if deviation & _ABSENCE_TYPES and HELD in said:
            return True
        if deviation & (_EXTRA_TYPES | _WRONG_TYPES) and ABSENT in said:
            return True
    return bool(deviation & _STOPPED_TYPES) and runs(rest)


def _other_cause(clause: str) -> bool:
    """A cause given in a clause (`_SECOND_CAUSE`) that is not the factor: "because SMTP_PORT
    cannot be resolved" restates the statement's cause (SI red team 26, H6)."""
    for found in _SECOND_CAUSE.finditer(clause):
        if _MARK not in _words(clause[found.end() :])[:4]:
            return True
    return False


def _refers_to(clause: str, nouns: set[str]) -> bool:
    """Whether a clause refers to one of `nouns` after a determiner ("the missing key")."""
    for found in _DETERMINER.finditer(clause):
        following = _words(clause[found.end() : found.end() + 40])[:3]
        if any(word in nouns or word.rstrip("s") in nouns for word in following):
            return True
    return False


def _dismisses_the_factor_too(rest: str, nouns: set[str]) -> bool:
    """Whether a sentence that rules another object out dismisses the factor as well, by a
    word for it ("…, and neither is the missing key.", "Neither D nor the configmap is the
    cause.", "D is harmless and so is the key."; SI red team 26, H2): a clause that refers to
    one of the statement's nouns ("the key", "that port") and denies, dismisses or carries
    the dismissal ("so is", "as is")."""
    if not nouns:
        return False
    clauses = [rest] if _JOINT.search(rest) else _DISMISSAL_CLAUSES.split(rest)
    for clause in clauses:
        if _refers_to(clause, nouns) and (
            _NEGATION.search(clause) or _DISMISSAL.search(clause) or _CARRIES.search(clause)
        ):
            return True
    return False


# a dismissal of the factor by a word for it, the deviation's own words aside ("the port is
# wrong" restates a wrong value)
_NOUN_DISMISSAL = lazy_pattern(
    r"\b(?:unrelated|irrelevant|red\s*herring|benign|coincidental|harmless|noise|a\s*distraction|"
    r"a\s*symptom|symptom|a\s*decoy|innocent|non\s*issue|beside\s+the\s+point|only\s+looks?\s+like|"
    r"(?:does|did|causes?|caused)\s+no\s+harm|"
    r"not\s+(?:\w+\s+)?(?:the\s+|an?\s+)?(?:cause|culprit|problem|reason|issue|factor))\b",
    re.IGNORECASE,
)


# the factor's key referred to by a noun after a determiner ("that key", "the missing entry")
_KEY_NOUN = lazy_pattern(
    r"\b(?:the|that|this|its|said|such\s+a|such)\s+(?:\w+\s+)?(?:key|entry|variable|setting)\b",
    re.IGNORECASE,
)


def _noun_says_contrary(rest: str, deviation: set[str]) -> bool:
    """Whether a sentence naming no object says the contrary of a key's deviation of the key
    referred to by its noun (SI red team 29, G13): "that key" read as the key's name is, by
    `_contrary.key_said`."""
    if not deviation & (_ABSENCE_TYPES | _EXTRA_TYPES | _WRONG_TYPES):
        return False
    marked = _KEY_NOUN.sub(_MARK, rest)
    if marked == rest:
        return False
    return _contrary_of_type(marked, deviation & (_ABSENCE_TYPES | _EXTRA_TYPES | _WRONG_TYPES))


def _opens_on_noun(rest: str, nouns: set[str]) -> bool:
    """Whether a sentence opens on one of `nouns`, a deviation word or two before it and no
    determiner ("Missing key = symptom, not cause.", "Key: a symptom", "Keys like that one …";
    SI red team 29, G9)."""
    for word in _words(rest)[:3]:
        if word in nouns or word.rstrip("s") in nouns:
            return True
        if word not in _FRAME_DEVIATION:
            return False
    return False


def _dismisses_by_noun(rest: str, nouns: set[str]) -> bool:
    """Whether a sentence naming no object dismisses the factor by one of the statement's nouns
    after a determiner ("The key is a symptom, not the cause."); a dismissal denied ("The key
    is not unrelated") asserts, and a part the statement does not name ("The DNS alert is
    noise.") is another's."""
    if not nouns or _NOUN_DISMISSAL.search(rest) is None:
        return False
    return _NEGATED_DISMISSAL.search(rest) is None and (
        _refers_to(rest, nouns) or _opens_on_noun(rest, nouns)
    )


def _meta_of_the_answer(reader: _Reader, start: int, end: int, names: _StatementNames) -> bool:
    """Whether a clause (cut by ";", ":", a dash or "but") holding a word of the answer
    (`_META`) speaks of the answer: one naming another object or part of the system and not the
    factor's key or object speaks of that ("I doubt the CPU matters: batch-processor is not the
    cause.", C-DA-003's honest dismissal); any other does ("smtp-config: I made it up.")."""
    text = reader.text
    # cut at commas too: "D is irrelevant, as is every word above" (SI red team 26, H2)
    cuts = [start, *(m.end() for m in _DISMISSAL_CLAUSES.finditer(text, start, end)), end]
    for clause_start, clause_end in itertools.pairwise(cuts):
        if clause_end <= clause_start:
            continue
        if _META.search(reader.without_objects(clause_start, clause_end)) is None:
            continue
        clause = text[clause_start:clause_end]
        of_another = reader.names_other(clause_start, clause_end, names.held) or _other_part(
            clause, names.nouns
        )
        if _names_any(clause.casefold(), names.factor) or not of_another:
            return True
    return False


class _StatementNames:
    """The statement's names: `own`, every object its sentence names; `factor`, those of the
    factor's own clause; `key`, the factor's identifiers as written; `held`, those and the
    workload's, the names of its sentence said to fail ("…, so deployment/notification-service
    cannot run"), found only when a sentence naming an object asks (most answers hold none).
    Another identifier of the sentence ("…, whether or not batch-processor is noisy") is
    neither."""

    def __init__(
        self,
        text: str,
        statement: tuple[int, int],
        own: set[str],
        factor: set[str],
        key: set[str] | None = None,
    ) -> None:
        self.own = own
        self.factor = factor
        # the factor's identifiers as the statement writes them ("SMTP_PORT")
        self.key = key if key is not None else factor
        self.nouns = _statement_nouns(text[statement[0] : statement[1]])
        self._text = text
        self._statement = statement

    @functools.cached_property
    def held(self) -> set[str]:
        start, end = self._statement
        return self.factor | _workload(self._text, start, end, self.own - self.factor)


# what the statement says of its workload after naming it ("cannot run", "fails", "crashes")
_FAILING = lazy_pattern(
    r"\W*(?:is\s+|are\s+|keeps\s+|still\s+)?(?:cannot|can['’]t|could\s+not|couldn['’]t|"
    r"won['’]t|fails?|failed|failing|crash\w*|exits?|exited|stops?|stopped|breaks?|broke|"
    r"down|unable|never|does\s+not|doesn['’]t|is\s+not|isn['’]t)\b",
    re.IGNORECASE,
)


def _workload(text: str, start: int, end: int, candidates: set[str]) -> set[str]:
    """The names among `candidates` that the statement's sentence says fail, with the name
    parts of a `kind/name`."""
    folded = text[start:end].casefold()
    failing: set[str] = set()
    for name in candidates:
        at = folded.find(name)
        while at >= 0:
            if _FAILING.match(folded, at + len(name)):
                failing.add(name)
                failing.update(part for part in name.split("/") if len(part) >= 4)
                break
            at = folded.find(name, at + 1)
    return failing


# SI red team 42, F2: what a sentence that takes up the one before may say of the workload and
# still be a verdict on its own subject: "… is unrelated to user-service", "… does not affect
# user-service"
_SPARING_BEFORE = lazy_pattern(
    r"(?:\b(?:unrelated|irrelevant|not\s+related)\s+(?:to|for|with)|(?:\b(?:does|did|do|would|"
    r"will|can|could)\s*(?:not\b|n['’]t)|\bnever)\s+(?:affect|hurt|touch|impact|reach|help|"
    r"explain|matter\s+to|crash|break)s?|\b(?:has|have|had|with)\s+no\s+(?:effect|impact|"
    r"bearing|influence)\s+(?:at\s+all\s+)?on)\s+(?:the\s+)?(?:[a-z]+/)?\Z",
    re.IGNORECASE,
)
_OWN_REASON = lazy_pattern(r"\b(?:its|their)\s+own\s+reasons?\b", re.IGNORECASE)
# the previous sentence's subject taken up ("Its CPU spike …", "It …")
_ANAPHORIC_SUBJECT = lazy_pattern(r"\s*(?:it|its|this|that|they|their)\b", re.IGNORECASE)


def _spares(piece: str, names: set[str]) -> bool:
    """Whether a sentence whose subject takes up the one before ("Its CPU spike", "It") names
    the workload only as what that subject leaves alone ("… is unrelated to user-service", "…,
    which does not affect user-service"), with no other negation: a dismissal of the object the
    sentence before named, not a verdict on the workload (SI red team 42, F2). The caller asks
    it only after a sentence naming another object."""
    if _ANAPHORIC_SUBJECT.match(piece) is None:
        return False
    starts = {
        match.start()
        for name in names
        if _SYSTEM_NOUN.fullmatch(name) is None
        for match in re.finditer(
            r"(?<![\w-])"
            + r"[-_.\s]+".join(map(re.escape, re.split(r"[-_.\s]+", name.rsplit("/", 1)[-1])))
            + r"(?![\w-])",
            piece,
            re.IGNORECASE,
        )
    }
    sparing = [_SPARING_BEFORE.search(piece[max(0, at - 60) : at]) for at in starts]
    if not starts or any(found is None for found in sparing):
        return False
    negations = sum(
        1 for found in sparing if found is not None and _NEGATION.search(found.group(0))
    )
    return len(_NEGATION.findall(piece)) == negations


# a verb of holding or reading before the factor's key and a number after it ("checkout-config
# holds INVENTORY_PORT 8080.", "notification-service reads SMTP_PORT 2525 from smtp-config.")
_HOLDING = lazy_pattern(
    r"\b(?:holds?|contains?|has|have|reads?|carries|carry|stores?|gets?|receives?|passes)\b",
    re.IGNORECASE,
)


def _holds_another_value(piece: str, statement: str, keys: Iterable[str]) -> bool:
    """Whether `piece` gives the factor's key, after a verb of holding or reading with no
    negation between, a number the statement does not give it (quoted, or after the key): the
    contrary of the finding's value, or a value for a missing key (SI red team 42, H3; fail
    closed: the value readers read remedies, this reads states)."""
    for key in keys:
        for found in re.finditer(
            rf"(?<![\w-]){re.escape(key)}(?![\w-])\s*(?:=|:|\s)\s*(?:is\s+|of\s+|at\s+)?"
            r"['\"‘’]?(\d+)\b",
            piece,
            re.IGNORECASE,
        ):
            verbs = list(_HOLDING.finditer(piece, 0, found.start()))
            if not verbs or _NEGATION.search(piece, verbs[-1].start(), found.start()):
                continue
            value = found[1]
            given = rf"['\"‘’]{value}['\"‘’]|{re.escape(key)}\s*(?:=|:|\s+is\s+)\s*['\"]?{value}\b"
            if re.search(given, statement, re.IGNORECASE) is None:
                return True
    return False


_WORD_TOKEN = lazy_pattern(r"[A-Za-z][\w.-]*[A-Za-z0-9]")


def _upstream_well(
    reader: _Reader,
    piece: str,
    factor_texts: Collection[str],
    deviation: RemedyDeviation,
    symptom: Sequence[str],
) -> bool:
    """Whether `piece` gives no number and names only objects that are none of the factor's
    (its names, its resource) nor the symptom's workload: an upstream the statement names as
    healthy ("… but service inventory listens on 8080. inventory itself is healthy."), whose
    working state agrees with the finding (SI red team 44, F10). Without a known resource and
    symptom nothing is an upstream (fail closed)."""
    if not symptom or not isinstance(deviation, InjectedFault) or deviation.resource is None:
        return False
    if _DIGITS.search(piece) is not None or _TAKES_IN_MORE.search(piece) is not None:
        return False
    own = {fold_name(name.rsplit("/", 1)[-1]) for name in (*factor_texts, *symptom)}
    own.add(fold_name(deviation.resource.rsplit("/", 1)[-1]))
    if deviation.subject:
        own.add(fold_name(deviation.subject))
    named = [
        fold_name(token.rsplit("/", 1)[-1])
        for token in _WORD_TOKEN.findall(piece)
        if reader.is_object(token)
    ]
    return bool(named) and not any(name in own for name in named)


_DIGITS = lazy_pattern(r"\d")
# SI red team 45, H11: words that name no object but take in the symptom's workload with the
# upstream ("… and so are its clients", "everything else", "like the rest of the cluster")
_TAKES_IN_MORE = lazy_pattern(
    r"\b(?:every(?:thing|one|body|\s+(?:other\s+)?(?:service|pod|deployment|workload|app))|all\b|"
    r"the\s+rest|(?:its|their|the)\s+(?:clients|consumers|callers|users|dependents|"
    r"downstreams?)|so\s+(?:is|are|does|do)\b|as\s+well|too\b|also\b|both\b|others?\b|"
    r"the\s+whole|entire|cluster|everywhere)",
    re.IGNORECASE,
)


def _names_stated(reader: _Reader, piece: str, statement: str, names_own: bool) -> bool:
    """Whether `piece` names an object the statement names: its own names, or any object of
    the scenario its words name ("service inventory listens on 8080": inventory; SI red team
    42, H3)."""
    if names_own:
        return True
    folded = statement.casefold()
    return any(
        reader.is_object(token)
        and re.search(rf"(?<![\w-]){re.escape(token.casefold())}(?![\w-])", folded) is not None
        for token in _WORD_TOKEN.findall(piece)
    )


# a bare state said of the statement's objects: a copula or a verb of running first, at most
# five words, no negation (SI red team 43, H11: "inventory is up on 8081.", "checkout is up.");
# such a sentence is read by the comments' allow-list, any longer one by the working words
_BARE_STATE = lazy_pattern(r"\A\W*(?:is|are|was|were|runs|run|stays|remains)\b", re.IGNORECASE)
_BARE_WORDS = 5


def _bare_state(said: str) -> bool:
    """Whether `said` (a sentence, its names blanked) is a bare state (`_BARE_STATE`)."""
    words = re.findall(r"[\w'’]+", said)
    return (
        _BARE_STATE.match(said) is not None
        and len(words) <= _BARE_WORDS
        and _NEGATION.search(said) is None
    )


def _names_unstated(reader: _Reader, piece: str, statement: str) -> bool:
    """Whether `piece` names an object of the scenario the statement does not name (the
    subject of a verdict on it: "batch-processor is unrelated to user-service."; SI red team
    43, H11)."""
    folded = statement.casefold()
    return any(
        reader.is_object(token)
        and re.search(rf"(?<![\w-]){re.escape(token.casefold())}(?![\w-])", folded) is None
        for token in _WORD_TOKEN.findall(piece)
    )


def _names_any(piece: str, names: set[str]) -> bool:
    """Whether `piece` holds one of `names` in any spelling (`fold_name`), a kind word of a
    `kind/name` ("deployment", "configmap") aside: it names no object of its own."""
    folded = fold_name(piece)
    return any(fold_name(name) in folded for name in names if _SYSTEM_NOUN.fullmatch(name) is None)


def _holds_name(piece: str, names: set[str]) -> bool:
    """Whether `piece` holds one of `names` in any spelling (`fold_name`)."""
    folded = fold_name(piece)
    return any(fold_name(name) in folded for name in names)


def _object_frame_holds(reader: _Reader, start: int, end: int) -> bool:
    """Whether the words of a later sentence before its first object name are a frame
    ("To fix it, add SMTP_PORT …", "Once SMTP_PORT is back, …"); any other ("Everything I
    wrote about smtp-config is made up.", "Please disregard smtp-config.") governs what it
    says of the name (SI red team 22, W1)."""
    text = reader.text
    at = reader.first_name(start, end)
    for quoted in _QUOTED.finditer(text, start, end):
        if quoted.start() < at < quoted.end() and reader.echoed(quoted.group()[1:-1]):
            at = quoted.start()  # a name inside quoted tool output: the frame ends at the quote
            break
    frame = text[start:at]
    label = frame.rfind(":")
    if label >= 0 and _label(frame[: label + 1]) and len(_words(frame[:label])) <= _LABEL_WORDS:
        frame = frame[label + 1 :]  # "Evidence: the events show …": the label, then the clause
    if _command_frame(frame):
        return True
    words = _words(_TAG.sub(" ", re.sub(r"['’]s\b", " is", frame)))
    if _system_subject(words) and not _FRAMES_AHEAD.search(" ".join(words)):
        return True
    # "No pod of notification-service is ready.": "no" before a system noun counts what the
    # evidence shows (SI red team 26, H6)
    return all(
        _neutral(word)
        or word in _LATER_FRAME_WORDS
        or (word == "no" and following is not None and _SYSTEM_NOUN.fullmatch(following))
        for word, following in itertools.zip_longest(words, words[1:])
    )


_DETERMINERS = frozenset({"the", "a", "an", "its", "their", "this", "that", "each", "every"})
_LABEL_WORDS = 3
# a command line's words: its verbs, its flags and a flag's argument (`_command_frame`)
_KUBECTL_VERBS = frozenset(
    {
        "get", "describe", "scale", "patch", "apply", "edit", "set", "rollout", "restart",
        "delete", "create", "logs", "label", "annotate", "env", "data", "configmap", "secret",
        "generic", "from", "literal",
    }
)  # fmt: skip
_FLAG_WITH_ARGUMENT = frozenset({"-n", "--namespace", "--type", "-p", "--patch", "-o", "-c"})
_COMMAND_LEAD = frozenset({"run", "execute", "apply", "fix", "remedy", "fixed", "by", "with"})


def _command_frame(frame: str) -> bool:
    """Whether the words before a later sentence's first name are a kubectl command line ("Fix:
    kubectl -n orders scale deployment/", "Run kubectl -n default patch configmap"): the
    command's verbs, flags and a flag's argument say what to do, not a speaker's frame of the
    name (SI red team 29, H4). Any other word in the command ("kubectl says I made up") is
    read as a frame."""
    found = re.search(r"\bkubectl\b", frame, re.IGNORECASE)
    if found is None:
        return False
    if not all(
        _neutral(word) or word in _LATER_FRAME_WORDS or word in _COMMAND_LEAD
        for word in _words(frame[: found.start()])
    ):
        return False
    tokens = frame[found.end() :].split()
    argument = False
    for token in tokens:
        word = token.strip("/").casefold()
        if argument:
            argument = False
        elif word in _FLAG_WITH_ARGUMENT:
            argument = True
        elif word.startswith("-") or word in _KUBECTL_VERBS:
            continue
        elif _SYSTEM_NOUN.fullmatch(word) is None:
            return False
    return True


def _system_subject(words: list[str]) -> bool:
    """Whether the words before a later sentence's first name open on a part of the system as
    its subject ("The error says the key …", "The deployment has an env entry referencing …",
    "The configmap contains no …"): a clause of the system, what it says of the name read by
    the other rules (`_named_withholds` first), not a speaker's frame (SI red team 27, W6)."""
    return (
        len(words) >= 2
        and words[0] in _DETERMINERS
        and (_SYSTEM_NOUN.fullmatch(words[1]) is not None or words[1] in _STATE_WORDS)
    )


def _tail(
    reader: _Reader,
    end: int,
    last: int,
    own: set[str],
    sentence_start: int,
    deviation_type: RemedyDeviation = None,
) -> Unplain | None:
    text = reader.text
    after = reader.without_objects(last, end)
    retraction = _RETRACTION.search(after)
    if retraction is not None and not _NEGATION.search(
        " ".join(_words(after[: retraction.start()])[-2:])
    ):
        # "… — not-really.", "… (just-kidding).": a retraction after the factor's last name,
        # whatever clause word or bracket it follows (SI red team 26, H1)
        return Unplain("unaccounted_tail", last, end, f"{retraction.group()!r}")
    rather = _OR_RATHER.search(text, last, end)
    before = (
        _statement_names(reader, sentence_start, rather.start(), own) if rather is not None else own
    )
    correction = _words(text[rather.end() : end]) if rather is not None else []
    if (
        rather is not None
        and not (
            correction
            and correction[0] in _PLACE_WORDS
            and reader.names_object(rather.end(), end)
            and not _ELSEWHERE.search(text, rather.end(), end)
        )
        and (
            _ELSEWHERE.search(text, rather.end(), end)
            or reader.names_other(rather.end(), end, before)
            or not _holds_name(text[rather.end() : end], before)
        )
    ):
        # "… — or rather, sim-node-1 does.", ", or rather it would if it were true.": a
        # correction naming another object, or none of the statement's, replaces it. One that
        # opens on a place and names an object ("…, or rather from the copy that payments-api
        # mounts") restates where the deviation is (SI red team 26, H14); a place that names
        # none (", or rather in my imagination", "… in theory", "… under a
        # different assumption") is no place of the system: it replaces the statement too (SI
        # red team 27, W: the opening word alone exempted it)
        said = text[rather.start() : end].strip()
        return Unplain("unaccounted_tail", rather.start(), end, f"{said!r}")
    # the last comma or dash after the factor's last name (found from the right: linear)
    separator = max(text.rfind(mark, last, end) for mark in ",—–")
    if separator < 0:
        return None
    tail_start = separator + 1
    tail = text[tail_start:end].rstrip().rstrip(".!").rstrip()
    words = _words(tail)
    if words and words[0] in _ALTERNATIVE and words[:2] != ["or", "rather"]:
        # "…, or the deployment is, or the image is": a shotgun of causes (SI red team 22, W1)
        return Unplain("unaccounted_tail", tail_start, tail_start + len(tail), f"{tail.strip()!r}")
    opening = _TOKEN.match(tail)
    if opening is not None and opening.group(1).casefold() in _ATTRIBUTING:
        # "…, says the pod that cannot be trusted": a clause with no subject of its own
        # attributes the statement (SI red team 22, W1)
        return Unplain("unaccounted_tail", tail_start, tail_start + len(tail), f"{tail.strip()!r}")
    if not words or words[0] in _CLAUSE_WORD or "(" in tail or ")" in tail:
        return None
    if _WITHDRAWN.search(tail):
        # "… — busted.", ", per a rumour.": a tail that withdraws (SI red team 24, H5)
        return Unplain("unaccounted_tail", tail_start, tail_start + len(tail), f"{tail.strip()!r}")
    if reader.names(tail_start, end) or reader.names_other(last, separator, own):
        return None  # it speaks of a name, or of the names listed before it ("…, D or E, run fine")
    if _AFFIRMING_FRAME.match(" ".join(words)):
        return None  # ", no doubt": an idiom that affirms
    if _VERB_LIKE.search(tail):
        return None  # a clause with a verb goes on with the statement ("…, checkout recovers")
    if is_remedy(tail, own, reader.is_object, deviation_type):
        return None  # "— I'd delete it": the diagnosis's consequence (SI red team 36, W2)
    remedy = remedy_end(text[sentence_start:end], own, reader.is_object, deviation_type)
    if remedy is not None and sentence_start + remedy < tail_start:
        # "Scale orders-db to 1 replica, the baseline.": the honest tail of a plain remedy,
        # read by the remedy reader (`_remedy._tail_start`), not a clause of its own (SI red
        # team 43, left open; SI red team 44)
        return None
    return Unplain(
        "unaccounted_tail", tail_start, tail_start + len(tail), f"the clause {tail.strip()!r}"
    )


def _strict_sentences(channel: ChannelText) -> list[tuple[int, int]]:
    """The channel's sentences (SI §3.2), each split again after a stop followed by closing
    quotes, brackets or emphasis (`run." I take it back.`) and after a CJK or Indic stop
    (`run。Maybe not.`). SI §3.2 is normative for the ratified reading ("Nothing cleverer"), so
    only the strict reading splits so (SI red team 22, W3)."""
    text = channel.text
    pieces: list[tuple[int, int]] = []
    for sentence in channel.sentences:
        start = sentence.start
        for stop in _strict_stop().finditer(text, sentence.start, sentence.end):
            if text[start : stop.end()].strip():
                pieces.append((start, stop.end()))
            start = stop.end()
        if text[start : sentence.end].strip():
            pieces.append((start, sentence.end))
    return pieces


def _piece_at(pieces: list[tuple[int, int]], at: int) -> tuple[int, int] | None:
    for start, end in pieces:
        if start <= at < end:
            return start, end
    return None


def _contradicts_own(
    reader: _Reader,
    start: int,
    end: int,
    own: set[str],
    restated: str | None = None,
    deviation_type: RemedyDeviation = None,
) -> bool:
    """Whether a later sentence says of the factor the contrary of its deviation: a healthy or
    present state in a sentence naming no other object, or a value given to one of its names
    ("SMTP_PORT: 587"; SI red team 22, W1 and W2), unless it is `restated`, the wrong value the
    statement gives ("checkout-config holds INVENTORY_PORT=8081"; SI red team 26, H6)."""
    piece = reader.text[start:end]
    if is_remedy(piece, own, reader.is_object, deviation_type):
        return False  # "Re-add SMTP_PORT=587.": the value to restore, not one held (H4)
    if plans_the_fix(piece, own, reader.is_object, deviation_type):
        return False  # "Restart checkout after K is set to 8080.": its target (SI red team 46, F5)
    if healthy_on_fault(piece, own, deviation_type):
        return True  # "Checkout broke when K changed from 8081." (SI red team 46, R5)
    folded = fold_name(piece)
    # the name as a literal first: a pattern is made and looked up only for a name the piece has
    spelt = {fold_name(name) for name in own}
    keys = {fold_name(name) for name in own if "_" in name}
    for name in spelt:
        if name not in folded:
            continue
        given = re.search(re.escape(name) + _VALUE_GIVEN, folded)
        if (
            given is not None
            and given.group(1) != restated
            and not (name not in keys and _ADDRESS.match(folded, given.start() + len(name)))
        ):
            return True
        if name in keys:
            # "INVENTORY_PORT is 8080 in checkout-config": a key given a value by a copula, not
            # under a condition ("Once INVENTORY_PORT is 8080, …"; SI red team 27, W)
            past = re.search(re.escape(name) + _PAST_VALUE, folded)
            if past is not None and past.group(1) == restated:
                return True  # "INVENTORY_PORT used to be 8081": the wrong value no longer held
            for stated in re.finditer(re.escape(name) + _VALUE_STATED, folded):
                opening = _words(folded[: stated.start()])[-1:]
                if stated.group(1) != restated and not (opening and opening[0] in _CONDITIONS):
                    return True
    names_own = any(name in folded for name in spelt)
    if names_own and _TABLE_ROW.match(piece) and _present_cell(piece):
        return True  # "| smtp-config | SMTP_PORT | set |": the row's state column
    # the contrary first: most sentences state none, and it is the cheaper test
    return _contradicts(piece) and (names_own or not reader.names_other(start, end, own))


def deviation_predicate(deviation: set[str]) -> re.Pattern[str] | None:
    """The statement's deviation words as a predicate `identity_denied` reads after a copula's
    negation ("SMTP_PORT is anything but missing")."""
    # "defined", "set": their negation is the deviation ("not defined"); "cause": the frame's
    words = deviation & (_ABSENCE_TYPES | _WRONG_TYPES | _EXTRA_TYPES | _STOPPED_TYPES)
    if not words:
        return None
    return re.compile(rf"\b(?:{'|'.join(sorted(map(re.escape, words)))})\b", re.IGNORECASE)


def _statement_undone(
    reader: _Reader,
    names: _StatementNames,
    deviation: set[str],
    statement: tuple[int, int, int],
    last_sentence: tuple[int, int] | None,
    last: int,
) -> list[Unplain]:
    """What the statement's own sentence says against it (SI red team 31, H2; docs/si-scoring.md
    §11, "Round 31: the statement's own sentence"): a copula's negation that denies the
    identity the clause states ("What smtp-config lacks is not SMTP_PORT"), the contrary of the
    deviation's type said of the key in the same sentence ("smtp-config includes SMTP_PORT, so no
    key is missing": `_contrary.key_said` reads every clause, the statement's too), a postposed
    condition the statement depends on (", assuming the describe output was current") and a
    tail that judges the answer (": a conclusion I do not share"). `statement` is its
    sentence's start, the factor's first name and the sentence's end."""
    text = reader.text
    sentence_start, first, sentence_end = statement
    # (sentence, where the factor is first named in it)
    sentences = [(sentence_start, first, sentence_end)]
    if last_sentence is not None and last_sentence[0] >= sentence_end:
        # a later sentence is read from the factor's name in it: what stands before it is
        # read by the rules of a frame ("I checked: had it been cart-cache, … orders-db")
        sentences.append((last_sentence[0], last, last_sentence[1]))
    predicate = deviation_predicate(deviation)
    found: list[Unplain] = []
    for start, named, end in sentences:
        said = text[start:end].strip()
        rest = reader.without_objects(start, end, names.key, echo=True)
        if identity_denied(rest, predicate):
            found.append(Unplain("factor_negated", start, end, f"{said!r} denies it"))
        elif deviation & _ABSENCE_TYPES and HELD in key_said(rest):
            found.append(
                Unplain("factor_negated", start, end, f"{said!r} holds the key it says absent")
            )
        else:
            condition = postposed_condition(text[named:end])
            if condition is not None:
                said = f"the condition {condition!r}"
                found.append(Unplain("unaccounted_tail", named, end, said))
    if last_sentence is not None:
        tail = judging_tail(text[last : last_sentence[1]])
        if tail is not None:
            found.append(
                Unplain("unaccounted_tail", last, last_sentence[1], f"{tail!r} judges the answer")
            )
    return found


def _bare_answer(words: list[str]) -> bool:
    """A sentence that opens on a bare yes or no ("Yes.", "No, it is not.")."""
    return bool(words) and words[0] in _YES | _NO


def _affirms_other(question: str, answer: list[str]) -> bool:
    """Whether a bare answer to a question of another object affirms it as a cause: yes to
    "Is D the cause?", no to "Is D unrelated?" (SI red team 26, H11). `question` is the
    question's words with the names taken out."""
    dismissing = _DISMISSAL.search(question) is not None or _NEGATION.search(question) is not None
    causing = _CAUSE_WORDS.search(question) is not None
    if answer[0] in _YES:
        return causing and not dismissing
    return dismissing


def accounted_shapes(
    channel: ChannelText,
    first: int,
    last: int,
    factor_texts: set[str],
    identifiers: Sequence[str],
    objects: Sequence[str] = (),
    bodies: Sequence[str] = (),
    deviation_type: RemedyDeviation = None,
    symptom: Sequence[str] = (),
) -> list[Unplain]:
    """The shapes of the module docstring for a statement whose first factor name is at `first`
    and last one at `last`; `factor_texts` are the factor's names as written, `objects` the
    names of the evidence's objects (`scenario_objects`), `bodies` its tool responses (a
    quoted span found in one is the environment's words, not the agent's); a remedy's verb
    follows `deviation_type`, the factor's (SI red team 36, W2)."""
    reader = _Reader(channel, identifiers, objects, bodies)
    text = reader.text
    found: list[Unplain] = []
    pieces = _strict_sentences(channel)
    statement = _piece_at(pieces, first)
    if statement is None:
        return found
    statement_start, statement_end = statement
    reader.know(factor_texts)  # the factor's names are objects wherever they are written
    own = _statement_names(reader, statement_start, statement_end, factor_texts)
    last_sentence = _piece_at(pieces, last)
    factor_clause = own
    if last_sentence is not None:
        # the names of the factor's own clause; a name after it is another's ("…; D, E, run
        # fine") or the affected workload's ("…, so notification-service cannot run")
        last_start, last_end = last_sentence
        clause = _CLAUSE_END.search(text, last, last_end)
        clause_end = clause.start() if clause is not None else last_end
        factor_clause = _statement_names(reader, last_start, clause_end, factor_texts)
    names = _StatementNames(text, statement, own, factor_clause, factor_texts)
    deviation = set(_words(text[statement_start:statement_end])) & _DEVIATION
    restated = (
        _wrong_value(text, statement_start, statement_end, factor_texts, bodies)
        if deviation & _WRONG_TYPES
        else None
    )
    asked: str | None = None
    for start, end in pieces:
        if end > statement_start:
            break
        piece = text[start:end]
        if asked is not None and _bare_answer(_words(piece)):
            # "Is D the problem? No. X": the bare answer to a question before, unless it
            # affirms another cause ("Is D the cause? Yes."; SI red team 26, H11)
            if _affirms_other(asked, _words(piece)):
                said = f"{asked.strip()} {piece.strip()}"
                found.append(Unplain("ungoverned_frame", start, end, f"the answer {said!r}"))
            asked = None
            continue
        asked = reader.without_objects(start, end) if _QUESTION.search(piece) else None
        if not _earlier_accounted(reader, start, end, names, deviation):
            said = text[start:end].strip()
            found.append(Unplain("ungoverned_frame", start, end, f"the sentence {said!r}"))
    frame = _ungoverned_frame(reader, statement_start, first)
    if frame is not None:
        found.append(frame)
    found += _statement_undone(
        reader, names, deviation, (statement_start, first, statement_end), last_sentence, last
    )
    statement_nouns = names.nouns
    # a later sentence naming the factor again is read as every later one: it may say the
    # contrary ("The configmap smtp-config has the SMTP_PORT key after all.")
    after = statement_end
    if last_sentence is not None:
        tail = _tail(
            reader, last_sentence[1], last, factor_clause, last_sentence[0], deviation_type
        )
        if tail is not None:
            found.append(tail)
    if _QUESTION.search(text, statement_start, statement_end):
        return found  # a question states nothing; the rule `question` reads it
    # a sentence that names nothing is read with the nearest one before it that names
    # something: after a question of something else, its bare answer and one sentence that
    # opens on a pronoun ("Is D the cause? No. It is a red herring."); after a sentence naming
    # another identifier, one sentence that does not hedge ("D is unrelated. It is just busy.",
    # "… I disagree.": of D). After the statement or a sentence of its own names, none.
    answering, question, any_sentence = 0, "", False
    for start, end in pieces:
        if start < after:
            continue
        sentence = text[start:end]  # with its label, read by the normative remedy reader
        label = remedy_label(text[start:end])
        if label and text[start + label : end].strip():
            # "Fix: nothing is missing.", "To fix: restart the node.": a label, no remedy; what
            # follows is read as any sentence is (SI red team 35, W2)
            start += label
        plain_remedy = remedy_end(text[start:end], own, reader.is_object, deviation_type)
        if plain_remedy is not None and text[start : start + plain_remedy].strip():
            # "Re-add SMTP_PORT=587 so the pods can start.", "Restore it from git or a backup.":
            # a plain remedy's honest tail (a positive outcome, a source) is part of it; the
            # rules read the remedy alone (issue 41; `_remedy._tail_start`)
            end = start + plain_remedy
        piece = text[start:end]
        names_own = _holds_name(piece, own)
        words = _words(piece)
        if _asks(piece) or (_QUESTION.search(piece) and not reader.names(start, end)):
            # a question that asks ("Is D the cause?"); one that does not ("Ignore the above,
            # D?", "D is the culprit, isn't it?") is read as what it states (SI red team 26, H12)
            other = reader.names(start, end) and not names_own
            answering, any_sentence = (2 if other else 0), False
            question = reader.without_objects(start, end)
            if not other and words not in (["why"], ["how"]):  # "Why?" asks for what follows
                found.append(Unplain("factor_question", start, end, f"{piece.strip()!r}"))
            continue
        if (opens_as_remedy(piece) and plain_remedy is None) or (
            plain_remedy is None
            and (
                gives_no_fix(piece, own, reader.is_object, deviation_type)
                or gives_no_fix(sentence, own, reader.is_object, deviation_type)
            )
        ):
            # "Set that theory aside.", "Add a grain of salt.", "Fix: add SMTP_HOST back.", "Add
            # it back, if it is missing.": a remedy's shape whose object is not the factor, or
            # that names another key, is conditioned or undercut, is no consequence of the
            # diagnosis (SI red team 35, W1 and W3; fail closed). A sentence that gives the
            # factor a value whatever its verb ("Point INVENTORY_PORT at 8081.", "kubectl set env
            # … INVENTORY_PORT=8081") is a remedy, and its value is read as one's (SI red team
            # 41, A2; `_remedy.gives_no_fix`)
            said = piece.strip()
            found.append(
                Unplain("unaccounted_sentence", start, end, f"{said!r} is no plain remedy of it")
            )
            answering = 0
            continue
        if plain_remedy is None and prescribes_fix(sentence, own, deviation_type):
            # "Fix: INVENTORY_PORT=8080.", "Desired state: …", "INVENTORY_PORT should be
            # 8080.": a remedy prescribed without an imperative, whose values all give the fix
            # (the contrary was read just above), is the diagnosis's consequence, never a state
            # of the factor (SI red team 42, F1, H2; `_remedy.normative_values`)
            answering = 0
            continue
        if plain_remedy is not None:
            # a plain remedy of the factor is read whole by `_remedy`'s closed grammar (its verb
            # of the deviation's type, its object, what may follow it, its honest tail): the
            # diagnosis's consequence, which no other rule needs to read ("Drop K from the
            # configmap." removes an extra key; SI red team 36, W2)
            answering = 0
            continue
        remedy = _REMEDY_VALUE.search(piece)
        if (
            remedy is not None
            and (names_own or words[:1] == ["it"])
            and _ALREADY.search(piece, remedy.end())
        ):
            # "SMTP_PORT should be 587, which it already is.": the remedy's value said to be
            # there now, the contrary of a missing key or a wrong value (SI red team 26, H15)
            said = piece.strip()
            found.append(Unplain("factor_negated", start, end, f"{said!r} says the value is there"))
            answering = 0
            continue
        if _contradicts_own(
            reader, start, end, own, restated, deviation_type
        ) and not _affirms_back(piece):
            found.append(Unplain("factor_negated", start, end, repr(piece)))
            answering = 0
            continue
        if not reader.names_object(start, end):
            if _dismisses_by_noun(reader.without_objects(start, end), statement_nouns):
                # "The key is a symptom, not the cause.", "The SMTP port setting is a red
                # herring.": the factor dismissed by a word for it (SI red team 27, W)
                said = piece.strip()
                found.append(
                    Unplain("unaccounted_sentence", start, end, f"{said!r} dismisses the factor")
                )
                answering = 0
                continue
            if deviation and _noun_says_contrary(reader.without_objects(start, end), deviation):
                # "I checked, and the configmap carries that key.": the factor's key referred
                # to by its noun, read as its name is (SI red team 29, G13)
                said = piece.strip()
                found.append(Unplain("factor_negated", start, end, f"{said!r} of the key"))
                answering = 0
                continue
            if answering and question and _bare_answer(words) and _affirms_other(question, words):
                # "Is D the cause? Yes.": the answer affirms a second cause (SI red team 26, H11)
                said = piece.strip()
                found.append(
                    Unplain("unaccounted_sentence", start, end, f"{said!r} affirms another cause")
                )
                answering = 0
                continue
            if (
                answering
                and any_sentence
                and _RETRACTION.search(reader.without_objects(start, end))
            ):
                # "D is not the cause. Just-kidding.": a retraction is no reading of D (SI red
                # team 26, H1)
                said = piece.strip()
                found.append(Unplain("unaccounted_sentence", start, end, f"{said!r} retracts"))
                answering = 0
                continue
            if (
                answering
                and (any_sentence or _bare_answer(words) or (words and words[0] in _ANSWERING))
                and not _hedges_after_other(reader.without_objects(start, end))
            ):
                # "D is unrelated. It is a red herring.", "… I disagree.": of D, read by the
                # dismissal rules. One that hedges, disclaims or speaks of the answer ("D is
                # unrelated. This is only a hunch.", "… I flipped a coin to pick the port.") is
                # read by the rules of a sentence naming none: D's sentence before it adds D's
                # reading, never removes its own (SI red team 29, G12)
                answering -= 1
                continue
            if answering and _hedges_after_other(reader.without_objects(start, end)):
                said = piece.strip()
                found.append(Unplain("unaccounted_sentence", start, end, f"{said!r} hedges"))
                answering = 0
                continue
            accounted, why = _after_accounted(reader, start, end, deviation, statement_nouns, own)
            if not (
                accounted
                or _table_head(piece)
                or _COURTESY.match(piece.strip())
                or _SCOPE.match(piece)
                or _affirms_back(piece)
                or _VALUE_OF_IT.match(piece)
                or _value_instead(piece, restated)
                or (not deviation and _continues(words, piece))
            ):
                found.append(
                    Unplain(
                        "unaccounted_sentence", start, end, f"the sentence {piece.strip()!r} {why}"
                    )
                )
            answering = 0
            continue
        # after a sentence naming another object, one taking it up may say it spares the
        # workload (SI red team 42, F2)
        spares = bool(answering) and _spares(piece, names.own)
        withholds = _named_withholds(reader, start, end, names, deviation, bool(answering))
        if withholds is not None:
            said = piece.strip()
            found.append(Unplain("unaccounted_sentence", start, end, f"{said!r} {withholds}"))
            answering = 0
            continue
        if (
            deviation
            and _names_stated(reader, piece, text[statement_start:statement_end], names_own)
            and not _upstream_well(reader, piece, factor_texts, deviation_type, symptom)
            and (
                # the names aside: the allow-list reads the words said of them (SI red team
                # 43, H11)
                says_working(
                    reader.without_objects(start, end),
                    text[statement_start:statement_end],
                    # a sentence naming another object is that object's: only its working
                    # words are read ("batch-processor is unrelated to user-service.")
                    allow_list=_bare_state(reader.without_objects(start, end))
                    and not _names_unstated(reader, piece, text[statement_start:statement_end]),
                    key_named=_names_any(piece, names.key),
                )
                or _holds_another_value(piece, text[statement_start:statement_end], names.key)
            )
            and not restates(piece, text[statement_start:statement_end])
        ):
            # "inventory listens on 8081.", "notification-service works.", "orders-db is
            # live.": the statement's own objects said to work or reach, with no negator or
            # condition, and not the statement's words again (SI red team 42, H3; fail closed)
            said = piece.strip()
            found.append(
                Unplain("unaccounted_sentence", start, end, f"{said!r} says its objects work")
            )
            answering = 0
            continue
        if (
            names_own
            and not reader.names_other(start, end, own)
            and not _object_frame_holds(reader, start, end)
            and plain_remedy is None
            and not spares
        ):
            # "Everything I wrote about smtp-config is made up.": the words before the name
            # say what the sentence does with it; a remedy's verb ("Re-add SMTP_PORT=587.")
            # puts the factor back, the diagnosis's consequence (SI red team 34, H4)
            said = text[start : reader.first_name(start, end)].strip()
            found.append(
                Unplain("unaccounted_sentence", start, end, f"the words {said!r} govern the name")
            )
            answering = 0
            continue
        if names_own:
            for negated in _NEGATED.finditer(piece):
                if negated.group(1).casefold() in deviation:
                    found.append(Unplain("factor_negated", start, end, repr(piece)))
                    break
            answering = 0
        elif reader.names_other(start, end, own):
            answering, question, any_sentence = 1, "", True
        else:
            answering = 0
    return found


__all__ = ["accounted_shapes"]
