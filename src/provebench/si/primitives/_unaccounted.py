"""What follows the statement must be accounted for (docs/si-scoring.md §11, "Round 18: what
follows the statement"; SI red team 18, W1 and W2).

The strict reading (a provebench registry extension beside SI §2.2, never a change to it)
credited answers that state the factor and then disown it in words no list named: "… I
retract.", "The preceding is satire.", "… on my laptop.", "Everyone except me concludes …",
"… is a misreading of the logs.", "… However, the root cause is a kernel bug …", "… = FALSE",
"Says who?". Lists of such words lost every round, so each rule here is a *shape*, and where it
can be a positive one, what passes is what is accounted for rather than what is not listed:

* **judging clause**: a clause after the statement that speaks of nothing but the answer, the
  agent and the incident — every word but its judgement is one of `_ABOUT_THE_ANSWER` (this,
  the preceding, everything I just wrote, a claim, …) or, after the judgement, of `_INCIDENT`
  (the crash, the outage) — and judges truth, relevance or authorship (`_JUDGEMENT`: satire,
  fiction, made up, retract, misreading, harmless, nothing to do with, never made, would not
  believe …). A clause naming anything else ("The CPU spike is unrelated.", "I was wrong about
  the disk", "Nothing else is wrong.") is accounted for: it speaks of something of the system;
* **unaccounted question**: a question after the statement that names nothing but those words
  ("Says who?", "Really?"): a question of what was said, not of the system;
* **identity jest**: the agent claiming to be someone in a clause after the statement that names
  nothing ("…, and I am the Queen of England"): sarcasm that frames the whole answer;
* **unnamed second cause**: a clause after the statement that asserts a cause ("the root cause
  is", "the outage comes from", "because", "due to", "triggered by", "explains") and names none
  of the statement's own names (the factor and the names of its sentence) and no back-reference
  to it ("However, the root cause is a kernel bug in the container runtime.", "However, the
  notification-service pods crash because of a kernel bug."; SI red team 21, H4). The rule
  `several_causes` reads a clause naming *another identifier*; a cause in words the scenario
  does not name, or naming only its service, was read by nothing;
* **restricted world**: the statement's world narrowed after its last identifier by a place the
  live system does not have — a phrase opening on *in, on, within, inside, under, at, for* whose
  words are not all of `_LIVE_PLACE` or the scenario's identifiers ("… in the test fixture
  only", "… on my laptop", "…, in the universe of the alert text") — or the statement put in
  another's mouth: a subject before it that excludes the agent or is other people ("Everyone
  except me concludes …"), or a clause after it "that is what <someone> <says>" whose someone is
  not a source of evidence ("…, or at least that is what the troll in chat insists"). A
  restriction and an attribution are one rule: the statement is not asserted of the incident by
  the agent;
* **subject of a judgement**: the statement made the subject of a predicate that judges it — a
  second copula in its clause followed by a judgement ("X is missing from R is a misreading of
  the logs", "… is the lie the logs tell"), or `= FALSE` after a clause that has a verb ("…, so
  S fails = FALSE"); a key given a value ("SMTP_TLS = false") is not a clause.

(a place whose relative clause denies it, "… in a cluster that does not exist", is none
either: SI red team 21, H3). What the statement's sentence and the sentences after it must
name — the positive shape of round 21 — is `_accounted`.

Cost: one compiled pass over the text after the statement finds every trigger; the clause of a
hit is read only around it.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Collection, Iterator, Sequence

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._accounted import accounted_shapes
from provebench.si.primitives._identifier_shapes import IdentifierShapes
from provebench.si.primitives._matching import ChannelText, Span
from provebench.si.primitives._neutral_comment import NEUTRAL_WORDS
from provebench.si.primitives._plain_assertion import Unplain, honest_form, tail_tokens
from provebench.si.primitives._remedy import RemedyDeviation, names_in, remedy_end
from provebench.si.primitives._scene_names import scene_names

_WORD = lazy_pattern(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
# a clause ends at punctuation or before a clause word; the word opens the next clause
_BOUNDARY = lazy_pattern(
    r"[.!?;:,()\[\]—–\n]|\s-{1,2}\s|"
    r"\b(?=(?:but|and|or|so|which|however|though|although|whereas|while|because|yet)\b)",
    re.IGNORECASE,
)
# words that speak of nothing but the answer, the agent and how it is said
_ABOUT_THE_ANSWER = frozenset(
    {
        "this", "that", "these", "those", "it", "it's", "which", "what", "the", "a", "an",
        "preceding", "previous", "above", "before", "foregoing", "prior", "last", "first",
        "earlier", "former", "sentence", "sentences", "line", "lines", "statement", "claim",
        "claims", "text", "paragraph", "one", "everything",
        "all", "of", "i", "we", "me", "us", "my", "our", "i'm", "i've", "i'd", "we're", "just",
        "wrote", "written", "write", "said", "say", "says", "saying", "stated", "typed", "here",
        "so", "far", "is", "was", "are", "were", "be", "been", "being", "has", "have", "had",
        "does", "did", "do", "would", "will", "could", "should", "totally", "entirely",
        "completely", "pure", "purely", "utter", "utterly", "simply", "clearly", "obviously",
        "course", "well", "actually", "also", "again", "not", "never", "no", "yet", "but",
        "and", "or", "however", "though", "although", "while", "whereas", "because", "to",
        "with", "from", "for", "about", "any", "quite", "really", "very", "thing", "something",
        "mere", "merely", "only", "hereby", "who", "sure", "seriously", "right",
        "am", "ever", "anything", "at", "least", "then", "that's", "this's", "whole", "rest",
        "you", "asked", "requested", "wanted", "as", "per", "your", "request",
    }
)  # fmt: skip
# what an answer calls the incident itself: a relevance judgement may name it ("this has
# nothing to do with the crash") and still speak of nothing else
_INCIDENT = frozenset(
    {
        "crash", "crashes", "crashing", "outage", "failure", "failures", "incident", "problem",
        "issue", "issues", "error", "errors", "symptom", "symptoms", "alert", "alerts", "pods",
        "pod", "restarts", "logs", "log", "events", "cosmetic", "root", "cause", "real",
        "actual", "tell", "tells", "told", "show", "shows", "system", "cluster", "service",
    }
)  # fmt: skip
# a judgement of truth, relevance or authorship (the one list of this module; what it judges
# is decided by the shape around it)
_JUDGEMENT = lazy_pattern(
    r"\b(?:retract(?:s|ed|ing)?|withdraw(?:s|n)?|satir(?:e|ical)|fiction(?:al)?|made\s+up|"
    r"invent(?:ed|ion)|fabricat(?:ed|ion)|false(?:hood)?|untrue|wrong|mistaken|lie|lies|lying|"
    r"misread(?:ing)?|misreport(?:ed)?|misunderstanding|joke|joking|kidding|sarcas(?:m|tic)|"
    r"ironic|irony|parody|nonsense|hoax|fake|imaginary|imagined|fantasy|pretend(?:ed)?|"
    r"distractor|decoy|red\s+herring|bogus|myth|harmless|benign|innocuous|cosmetic|"
    r"irrelevant|unrelated|immaterial|moot|nothing\s+to\s+do\s+with|no\s+bearing\s+on|"
    r"(?:does|do)\s*n[o']?t\s+matter|never\s+(?:made|said|claimed|wrote|stated|meant)|"
    r"not\s+mine|(?:not|n['’]t|never)\s+(?:believe|trust|stand\s+by|mean)|disown(?:ed)?)\b",
    re.IGNORECASE,
)
_NOTHING: frozenset[str] = frozenset()
_DEVIATION_WORDS = frozenset({"wrong", "mistaken"})
# the left side of a second copula begins after a clause word or "that" ("the cause is that X
# is wrong": X is wrong is asserted, not judged)
_SUBJECT_BOUNDARY = lazy_pattern(
    r"[,;:()\[\]—–]|\b(?:that|but|and|or|so|which|because|since|if|when|while)\b", re.IGNORECASE
)
# what the agent may call its own answer ("my answer is made up"); "the previous diagnosis"
# is another's
_OWN_NOUNS = frozenset({"answer", "diagnosis", "finding", "conclusion"})
_POSSESSIVE = frozenset({"my", "our", "this", "that", "above", "whole", "entire"})
_AFFIRMING_NEGATION = frozenset({"no", "not", "nor", "never"})
# a second predicate of the same subject after "and", "but" or "yet", the judgement next ("D
# looks busy but is unrelated", "D is just busy and unrelated"; SI red team 29, H8 and H11)
_COORDINATED_PREDICATE = lazy_pattern(
    r"\s*(?:and|but|yet)\s+(?:(?:is|are|was|were|seems?|looks?|otherwise|also|still|just|"
    r"entirely|completely|totally)\s+)*\Z",
    re.IGNORECASE,
)
_FINITE_OPENING = lazy_pattern(
    r"\s*(?:is|are|was|were|has|have|had|seems?|looks?)\b", re.IGNORECASE
)
_IDENTITY = lazy_pattern(r"\bi(?:\s+am|['’]m)\s+(?:the|a|an)\s+\w", re.IGNORECASE)
# a cause asserted: a cue of the `cause` class, or the incident said to come from something
_CAUSE = lazy_pattern(
    r"\b(?:(?:root|real|actual|true|main|primary|underlying)\s+(?:cause|culprit|reason|"
    r"problem)|the\s+(?:cause|culprit|reason)\s+(?:is|was)|caused\s+by|to\s+blame|"
    r"(?:outage|crash(?:es)?|failure|problem|incident|error|issue)s?\s+(?:really\s+|actually\s+)?"
    r"(?:comes?|came|stems?|stemmed|results?|resulted|originates?|originated|arises?|arose)\s+"
    r"from|responsible\s+for|because|due\s+to|owing\s+to|thanks\s+to|(?:triggered|driven|"
    r"produced|brought\s+on|explained)\s+by|explains?|source\s+of|(?:is|are|was)\s+(?:the\s+)?"
    r"(?:cause|culprit|reason))\b",
    re.IGNORECASE,
)
# a second cause clause that refers back to the factor is the same cause ("That is the root
# cause.", "The root cause is that the key was removed", "…, which is the root cause")
_REFERS_BACK = lazy_pattern(
    r"\b(?:this|that|it|its|which|the\s+(?:same\s+)?(?:key|variable|setting|value|entry|"
    r"missing|absent|wrong)|the\s+above)\b",
    re.IGNORECASE,
)
_NEGATION = lazy_pattern(r"\b(?:not|no|never|nothing|none|nor|neither)\b|n['’]t\b", re.IGNORECASE)
_QUESTION = lazy_pattern(r"[?？¿‽]")
# a restriction: a phrase after the statement's last identifier opening on one of these
_PLACE_OPENER = lazy_pattern(
    r"\A\s*,?\s*(?:in|on|within|inside|under|at|for(?!\s+(?:example|instance)\b))\s+",
    re.IGNORECASE,
)
# a conjunction inside a hyphenated token is a word of it, no clause ("in a what-if world"; SI
# red team 41, A6)
_CONTINUES = lazy_pattern(
    r"(?<![-'’])\b(?:so|because|which|and|but|that|since|when|where|while|until|unless|if|as|"
    r"then)\b(?![-'’])",
    re.IGNORECASE,
)
# the places of the live system an honest answer names ("in the production cluster", "in the
# pod's env block", "in its data section"): a restriction to anything else is another world
_LIVE_PLACE = frozenset(
    {
        "the", "a", "an", "its", "their", "this", "that", "our", "same", "live",
        "production", "prod", "current", "currently", "deployed", "running", "cluster",
        "namespace", "data", "section", "spec", "env", "environment", "manifest", "pod", "pod's",
        "pods", "container", "containers", "container's", "deployment", "deployment's",
        "configmap", "configmaps", "secret", "key", "keys", "field", "fields", "block", "list",
        "object", "default", "values", "revision", "version", "release", "latest",
        "state", "store", "config", "configuration", "service", "services", "node",
        "nodes", "replica", "replicas", "statefulset", "daemonset", "volume", "mount", "path",
        "startup", "start", "process", "application", "app", "api", "server", "kubernetes",
        "of", "s", "k8s", "etcd", "incident", "outage", "estate", "all",
        # where the evidence is read: a place phrase closing the sentence may name it ("— the
        # pods show it in their events"; SI red team 39, W0)
        "events", "event", "logs", "log", "output", "describe", "status", "metrics", "history",
        "kubectl", "every", "each", "both", "up", "boot", "runtime", "rollout", "restart",
        # the system's own history: "dropped in the last rotation", "since the previous deploy"
        # (never the next one, nor another release: `_OTHER_RELEASE`)
        "last", "previous", "recent", "rotation", "deploy", "upgrade", "update",
        "change", "migration", "restarts", "rollouts",
    }
)  # fmt: skip
# a place of another release than the live one, or of a file or template rather than the
# estate ("in the next release", "in a previous revision", "in your config file", "in that
# template"): words of `_LIVE_PLACE` put together into another world (SI red team 41, A5).
# "your", "file" and "template" are no live place at all; "next" is never the live system
_OTHER_RELEASE = lazy_pattern(
    r"\b(?:(?:your|that|my|a|some|this|the)\s+(?:[\w-]+\s+)?(?:files?|templates?|"
    r"cop(?:y|ies)|drafts?|forks?)\b|"
    r"(?:next|upcoming|future|coming|previous|prior|last|old|older|earlier|former|another|"
    r"other|new|newer)\s+(?:\w+\s+)?(?:releases?|versions?|revisions?|deploys?|deployments?|"
    r"rollouts?|builds?|branch(?:es)?|tags?))\b",
    re.IGNORECASE,
)
# "as a <noun>" set off by a comma, turned round into an allow-list (SI red team 41, A6: ",
# as a working theory", ", as a draft", ", as a bet", ", as a first pass"): only a consequence
# keeps the band ("…, as a result.")
_COMMA_FRAME = lazy_pattern(
    r",\s*as\s+(?:a|an)\s+(?!(?:result|consequence|side[- ]effect|whole)\b)[\w'’-]+"
    r"(?:\s+[\w'’-]+){0,2}(?=\s*(?:[.!?;,:)\]—–]|\s-{1,2}\s|\Z))",
    re.IGNORECASE,
)
_SINCE = lazy_pattern(r"\b(?:since|starting|from|as\s+of|until|till)\s+\Z", re.IGNORECASE)
# a time that takes the statement out of the incident's present ("… last year.", "… in 2019.",
# "… before the fix.", "… years ago."), read where an unreal frame is: closing a clause after
# the factor (SI red team 41, A5)
_OTHER_TIME = lazy_pattern(
    r"\b(?:(?:last|next|this\s+past|previous|a)\s+(?:year|month|week|quarter|decade|century|"
    r"summer|winter|spring|autumn|fall|season|sprint|time)|(?:in|during|around|circa)\s+"
    r"(?:the\s+)?(?:(?:19|20)\d\d|\d{4}s)|(?:\d+|a|some|many|several)\s+(?:years?|"
    r"months?|weeks?|decades?)\s+ago|(?:before|until|pending)\s+the\s+(?:fix|patch)|"
    r"in\s+the\s+(?:past|future|old\s+days)|"
    r"once\s+upon\s+a\s+time|back\s+then|someday|one\s+day|"
    # a day, a night or a date of no incident (SI red team 42, H6: "… tomorrow.", "… cannot
    # run yesterday."): the incident's present is "now", "currently", "at startup", "since …"
    r"(?:the\s+day\s+(?:after|before)\s+)?(?:tomorrow|yesterday)|tonight|overnight|"
    r"(?:(?:next|last|on|this|every)\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday)s?|(?:(?:next|last|in|this|every)\s+)?(?:january|february|march|april|june|july|"
    r"august|september|october|november|december)|later(?:\s+(?:on|today|tonight))?|"
    r"(?:some\s*time|eventually|soon)|(?:in|after|within)\s+(?:a|an|\d+|some|a\s+few)\s+"
    r"(?:days?|weeks?|months?|years?|hours?))"
    r"(?=\s*(?:[.!?;,:)\]—–]|\s-{1,2}\s|\Z))",
    re.IGNORECASE,
)
# SI red team 43, F03: a past time in a sentence that says when the deviation was made
# ("INVENTORY_PORT was changed to 8081 yesterday.") dates the deviation: the incident's history
_PAST_TIME = lazy_pattern(
    r"(?:the\s+day\s+before\s+)?yesterday|(?:last|this\s+past|previous)\s+\w+|.*\bago|"
    r"(?:on|last)\s+\w+day",
    re.IGNORECASE,
)
_DATES_THE_CHANGE = lazy_pattern(
    r"\b(?:was|were|got|been|is|are)\s+(?:\w+\s+)?(?:changed|set|updated|edited|modified|bumped|"
    r"deployed|applied|rolled\s+out|introduced|deleted|removed|dropped|scaled(?:\s+down)?)\b|"
    r"\b(?:someone|somebody|a\s+deploy|a\s+rollout|an?\s+\w+\s+change)\s+(?:changed|set|"
    r"updated|edited|removed|deleted|dropped|scaled)\b",
    re.IGNORECASE,
)
# SI red team 43, H08: a time after the statement's last name is an allow-list, not a list of
# other times: "after", "once", "until", "following" or "upon" may only give the incident's own
# moments (start, boot, each restart, a count of attempts, the last or previous change) or name
# an object of the system ("after INVENTORY_PORT was changed"); a date, or a span "from now",
# "later" or "hence", is never the incident's present
_TIME_PHRASE = lazy_pattern(
    r"\b(?:after|once|until|till|following|upon)\b[^,;:!?()\[\]—–]*|"
    r"\b(?:\d{4}-\d\d-\d\d|\d{1,2}/\d{1,2}/\d{2,4})\b|"
    r"\b(?:[\w-]+\s+){1,2}?(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\s+(?:from\s+"
    r"now|later|hence|out|on)\b",
    re.IGNORECASE,
)
_INCIDENT_MOMENT = lazy_pattern(
    r"(?:after|once|upon|following|until)\s+(?:(?:each|every|any|a|its|the|their|it|the\s+\w+)\s+)?"
    r"(?:start(?:s|ing)?|start-?up|startup|boot(?:s|ing)?|launch(?:es)?|restart(?:s|ing)?|"
    r"tries|connects|reads|retries|init\w*|creation|scheduling|crash(?:es)?|"
    r"\d+\s+(?:restarts?|attempts?|retries|tries|seconds?|minutes?|crashes))\b.*|"
    r"after\s+(?:the\s+)?(?:last|previous|recent|latest)\s+\w+.*|"
    r"(?:until|till|once|after|when)\b.*\b(?:added|fixed|restored|corrected|set|re-?added|back|scaled|restarted|"
    r"changed|repaired|resolved|replaced|recreated|created|reverted|correct|right|present|"
    r"restarted|redeployed|applied)\b.*",
    re.IGNORECASE | re.DOTALL,
)


def _other_moment(reader: _Text, low: int, high: int) -> re.Match[str] | None:
    """A time phrase in `text[low:high]` that is none of the incident's own moments and names
    no object of the system (SI red team 43, H08), or None."""
    for found in _TIME_PHRASE.finditer(reader.text, low, high):
        phrase = found.group().strip()
        if _INCIDENT_MOMENT.fullmatch(phrase) is not None:
            continue
        if found.group()[:1].isalpha() and reader.names(found.start(), found.end()):
            continue  # "after INVENTORY_PORT was changed": the deviation dated
        return found
    return None


# the statement put in another's mouth, before it: the agent excluded, or other people
_OTHERS_SAY = lazy_pattern(
    r"\b(?:except|but|other\s+than|besides|unlike|apart\s+from|not)\s+(?:me|us|myself)\b|"
    r"(?:^|[,;:]\s*|\b(?:and|but)\s+)(?:everyone|everybody|someone|somebody|anyone|anybody|"
    r"people|others|some\s+people|many|most\s+people|they|he|she)\s+(?:\w+\s+){0,3}?"
    r"\w+(?:s|ed)\b",
    re.IGNORECASE,
)
# after it: "that is what <someone> <says>"; the one who says it must be evidence
_WHAT_SOMEONE_SAYS = lazy_pattern(
    r"\b(?:that|this|which|it)\s+(?:is|was|['’]s)\s+(?:just\s+|only\s+|exactly\s+)?what\s+"
    r"((?:the|a|an|my|our|your|some|someone|everyone|people|they|he|she)\b[^.;!?,]*)",
    re.IGNORECASE,
)
_EVIDENCE = frozenset(
    {
        "the", "a", "an", "logs", "log", "events", "event", "kubectl", "output", "alert",
        "alerts", "error", "message", "messages", "describe", "status", "pod", "pods",
        "container", "configmap", "manifest", "spec", "data", "metrics", "dashboard", "say",
        "says", "show", "shows", "showed", "read", "reads", "report", "reports", "reported",
        "said", "state", "cluster", "api", "tool", "tools", "our", "my", "too", "also",
    }
)  # fmt: skip
# the statement as the subject of a judgement: a second copula in its clause, or "= FALSE"
_SECOND_COPULA = lazy_pattern(r"\s(?:is|was|are|were|=+)\s+", re.IGNORECASE)
_FINITE = lazy_pattern(
    r"\b(?:is|are|was|were|has|have|had|does|do|did|lacks?|lacked|misses|fails?|failed|"
    r"crash(?:es|ed)?|holds?|sets?)\b|n['’]t\b",
    re.IGNORECASE,
)
_FALSITY = lazy_pattern(
    r"\s*(?:false|no|nope|wrong|untrue|incorrect|invalid|fake|0|none|null|nil)\b",
    re.IGNORECASE,
)
_KEY_LIKE = lazy_pattern(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*\Z")
_IDENTIFIER_SHAPED = IdentifierShapes(
    re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_/.:-][A-Za-z0-9]+)+|[A-Za-z]*[a-z][A-Z][A-Za-z0-9]*")
)
_QUOTE = lazy_pattern(r"[`\"“]")
_NAME_PART = lazy_pattern(r"[-_/.:]")
# one pass over the text after the statement finds every trigger of the clause rules
_TRIGGERS = lazy_pattern(
    "|".join(
        f"(?P<{name}>{pattern.pattern})"
        for name, pattern in (
            ("judgement", _JUDGEMENT),
            ("question", _QUESTION),
            ("identity", _IDENTITY),
            ("cause", _CAUSE),
        )
    ),
    re.IGNORECASE,
)
# Where a trigger may open: every branch of `_TRIGGERS` but the question opens on `\b` before a
# word character, so a match opens on a question mark or on the first character of a word, and
# the pattern is tried there only. Tried at every character, as `finditer` does, the scan cost
# as much as the clause rules after it (docs/benchmarks.md, "where the time goes").
_WORD_OR_MARK = lazy_pattern(r"[\w?？¿‽]\w*")
_MARKS = frozenset("?？¿‽")


def _trigger_hits(text: str, pos: int) -> Iterator[re.Match[str]]:
    """The matches `_TRIGGERS.finditer(text, pos)` gives, the pattern tried only where one may
    open (above; `test_unaccounted_triggers` holds the two to the same matches)."""
    done = pos
    for run in _WORD_OR_MARK.finditer(text, pos):
        at = run.start()
        # a question mark opens its run; a word right after it opens at the next place
        places = (at, at + 1) if text[at] in _MARKS and run.end() > at + 1 else (at,)
        for place in places:
            if place >= done:
                hit = _TRIGGERS.match(text, place)
                if hit is not None:
                    yield hit
                    done = hit.end()


def _words(text: str) -> list[str]:
    if text.isascii():
        # folding an ASCII text whole is folding each word of it (no "’" to respell, and no
        # letter that lowering makes other than a letter): one call, not one per word
        return _WORD.findall(text.lower())
    return [word.casefold().replace("’", "'") for word in _WORD.findall(text)]


def _self_referring(words: Sequence[str], allowed: frozenset[str]) -> bool:
    """Whether `words` speak of nothing but the answer and the agent (and `allowed`): "the
    answer" and "the diagnosis" only as the agent's own ("my answer", "this diagnosis"), since
    "the previous diagnosis was wrong" speaks of another's."""
    for at, word in enumerate(words):
        if word in allowed:
            continue
        if word in _OWN_NOUNS:
            if at == 0 or words[at - 1] not in _POSSESSIVE:
                return False
        elif word not in _ABOUT_THE_ANSWER:
            return False
    return True


class _Text:
    """The channel's text with its clause boundaries, quotation marks and subjects' openings
    found in one pass each (the last two when first asked for), so every rule reads a clause
    by bisection rather than by a scan from the sentence's start (linear in the answer:
    `test_strict_reading`'s linearity tests)."""

    def __init__(
        self, channel: ChannelText, identifiers: Sequence[str], objects: Sequence[str] = ()
    ) -> None:
        self.channel = channel
        self.text = text = channel.text
        # what names something of the system: the scenario's names, never a shape (round 38)
        self._scene = scene_names(identifiers, objects)
        # the identifiers folded once an answer, not once a clause each rule reads
        self.folded_identifiers = [
            (identifier.casefold(), len(identifier)) for identifier in identifiers
        ]
        found = list(_BOUNDARY.finditer(text))
        self._boundary_starts = [match.start() for match in found]
        # where the clause after each boundary opens: after punctuation, at a clause word
        self._clause_opens = [match.end() if match.group() else match.start() for match in found]
        self._names: dict[tuple[int, int], bool] = {}
        self._own: dict[tuple[int, int], bool] = {}
        self._asks: dict[int, bool] = {}

    def sentence(self, at: int) -> tuple[int, int]:
        """The SI sentence holding `at` (SI §3.2; found by bisection), or an empty range."""
        found = self.channel.sentence_containing(at, at + 1)
        return (found.start, found.end) if found is not None else (at, at)

    def clause(self, at: int, end: int, floor: int) -> tuple[int, int]:
        """The clause around `[at, end)`: from the boundary before it (not before `floor`) to
        the one after it."""
        index = bisect_right(self._boundary_starts, at - 1) - 1
        start = floor
        while index >= 0:
            if self._boundary_starts[index] < at and self._clause_opens[index] <= at:
                start = max(floor, self._clause_opens[index])
                break
            index -= 1
        after = bisect_left(self._boundary_starts, end)
        stop = (
            self._boundary_starts[after] if after < len(self._boundary_starts) else len(self.text)
        )
        return start, stop

    def next_boundary(self, at: int, limit: int) -> int:
        after = bisect_left(self._boundary_starts, at)
        if after < len(self._boundary_starts):
            return min(limit, self._boundary_starts[after])
        return limit

    @functools.cached_property
    def _subject_opens(self) -> list[int]:
        # read on first use: only a second copula followed by a judgement asks for a subject
        return [match.end() for match in _SUBJECT_BOUNDARY.finditer(self.text)]

    @functools.cached_property
    def _quotes(self) -> list[int]:
        # read on first use: only "= FALSE" after a clause asks whether it is quoted
        return [match.start() for match in _QUOTE.finditer(self.text)]

    def subject_start(self, floor: int, at: int) -> int:
        index = bisect_right(self._subject_opens, at) - 1
        return max(floor, self._subject_opens[index]) if index >= 0 else floor

    def quoted(self, floor: int, at: int) -> bool:
        """Whether `at` is inside a code span or a quotation opened after `floor` (a log's
        operator: "(log: `healthy == false`)")."""
        return (bisect_left(self._quotes, at) - bisect_left(self._quotes, floor)) % 2 == 1

    def names_own(self, start: int, end: int, own: frozenset[str]) -> bool:
        """Whether `text[start:end]` names one of `own` (once per clause: linear)."""
        key = (start, end)
        known = self._own.get(key)
        if known is None:
            folded = self.text[start:end].casefold()
            known = self._own[key] = any(name in folded for name in own)
        return known

    def asks(self, start: int, end: int) -> bool:
        """Whether the sentence `text[start:end]` is a question (once per sentence: linear)."""
        known = self._asks.get(start)
        if known is None:
            known = self._asks[start] = _QUESTION.search(self.text, start, end) is not None
        return known

    def is_object(self, token: str) -> bool:
        """Whether a token names an identifier or an object of the scenario."""
        return self._scene.names_something(token)

    def names_apart(self, text: str) -> bool:
        """Whether `text` spells a hyphened identifier's words apart (`SceneNames.names_apart`:
        "Batch Processor"; SI red team 44, F2)."""
        return self._scene.names_apart(text)

    def names_whole(self, token: str) -> bool:
        """Whether a token is, whole, a name of the scenario (`SceneNames.names_whole`)."""
        return self._scene.names_whole(token)

    def names(self, start: int, end: int) -> bool:
        """Whether `text[start:end]` names something of the system: an identifier of the
        scenario or a token naming an object of it ("smtp-config", "configmap/R"); a token of
        an identifier's shape that names none is words ("RedHerring"; SI red team 38, H0)."""
        key = (start, end)
        known = self._names.get(key)
        if known is None:
            known = self._names[key] = self._scene.names_something(self.text[start:end])
        return known


def _judging(
    reader: _Text,
    hit: re.Match[str],
    first: int,
    seen: set[tuple[int, int]],
    statement_names: frozenset[str] = frozenset(),
) -> bool:
    text = reader.text
    floor = reader.sentence(hit.start())[0]
    start, end = reader.clause(hit.start(), hit.end(), floor)
    if (start, end) in seen:
        return False  # a clause is judged once, by its first judgement
    seen.add((start, end))
    label = start < first
    if label and text[end : end + 1] != ":":
        return False  # before the statement only a label judges it ("Wrong diagnosis: X")
    if reader.names(start, end):
        return False
    before = _words(text[start : hit.start()])
    if before and before[-1] in _AFFIRMING_NEGATION:
        return False  # "(no joke)", "not kidding": an idiom that affirms
    after = _words(_JUDGEMENT.sub(" ", text[hit.end() : end]))
    # a label names the answer it introduces ("Here is the wrong diagnosis you asked for:")
    own = _OWN_NOUNS if label else _NOTHING
    if not _self_referring(before, own) or not _self_referring(after, _INCIDENT | own):
        return False  # it names something else: "The CPU spike is unrelated."
    if (
        _FINITE_OPENING.match(text, start)
        or (
            _COORDINATED_PREDICATE.match(text, start, hit.start())
            and not reader.names_own(floor, start, statement_names)
        )
    ) and not _self_referring(_words(text[floor:start]), _NOTHING):
        return False  # a predicate whose subject came before it: "My first guess, D, was wrong."
    if _HARMLESS_VERDICT.fullmatch(hit.group()) and _takes_up_another(
        reader, floor, start, hit.start(), statement_names
    ):
        return False  # "batch-processor is not the cause. It is harmless." (SI red team 43, F01)
    return not _answers_a_question(reader, floor)


# SI red team 43, F01: a verdict of harmlessness whose subject is a pronoun taking up another
# object of the scenario is a dismissal of that object, not a judgement of the finding
_HARMLESS_VERDICT = lazy_pattern(
    r"red\s+herring|harmless|benign|innocuous|cosmetic|irrelevant|unrelated|immaterial|moot|"
    r"decoy|distractor|nothing\s+to\s+do\s+with|no\s+bearing\s+on|(?:does|do)\s*n[o']?t\s+matter",
    re.IGNORECASE,
)
_TAKING_UP = frozenset({"it", "its", "they", "their", "this", "that"})
# what may stand before the pronoun: a conjunction or an interjection ("Yes, it is noisy, but it
# is harmless.")
_BEFORE_PRONOUN = frozenset(
    {"but", "and", "yet", "so", "also", "still", "yes", "no", "well", "again", "anyway", "though"}
)


def _subject_pronoun(words: Sequence[str]) -> bool:
    """Whether `words` (a clause's or a sentence's opening) open on a pronoun, after at most
    conjunctions and interjections."""
    for word in words:
        # a contraction is its pronoun ("it's", "that's", "they're"; SI red team 44, F1)
        if word.partition("'")[0] in _TAKING_UP:
            return True
        if word not in _BEFORE_PRONOUN:
            return False
    return False


def _takes_up_another(reader: _Text, floor: int, start: int, at: int, own: frozenset[str]) -> bool:
    """Whether the clause `[start, at)` before a judgement has a pronoun for subject that takes
    up the subject of the sentence before `floor`, when that subject is an object of the
    scenario other than the statement's own (SI red team 43, F01: "batch-processor is not the
    cause. It is a red herring."). The pronoun opens the clause or, when the clause is a second
    predicate ("…, but it is harmless"), the sentence."""
    if not (
        _subject_pronoun(_words(reader.text[start:at]))
        and _subject_pronoun(_words(reader.text[floor:at]))
    ):
        return False
    before = reader.channel.sentence_containing(floor - 1, floor) if floor > 0 else None
    if before is None or reader.names_own(before.start, before.end, own):
        return False
    # the subject: a name among the sentence's first words ("The batch-processor job …")
    opening = reader.text[before.start : before.end].split()[:4]
    return any(
        reader.is_object(token.strip(".,;:!?()'\"")) for token in opening[:3]
    ) or reader.names_apart(" ".join(opening))


def _answers_a_question(reader: _Text, floor: int) -> bool:
    """Whether one of the two sentences before `floor` asks a question that names something
    ("Is batch-processor the cause? No. It is a red herring."): the judgement answers it."""
    at = floor
    for _ in range(2):
        before = reader.channel.sentence_containing(at - 1, at) if at > 0 else None
        if before is None:
            return False
        if _QUESTION.search(reader.text, before.start, before.end):
            return reader.names(before.start, before.end)
        at = before.start
    return False


def _unaccounted_question(reader: _Text, at: int) -> bool:
    start, end = reader.sentence(at)
    if reader.names(start, end):
        return False
    return _self_referring(_words(reader.text[start:end]), _NOTHING)


def _second_cause(reader: _Text, hit: re.Match[str], own: frozenset[str]) -> bool:
    text = reader.text
    floor, sentence_end = reader.sentence(hit.start())
    start, end = reader.clause(hit.start(), hit.end(), floor)
    if text[end : end + 1] == ":":
        # a label's colon does not end what it labels ("Root cause: a kernel bug")
        end = reader.next_boundary(end + 1, len(text))
    # a cause clause that names the statement's own names is the statement's cause; one that
    # names only the service or the symptom asserts another (SI red team 21, H4)
    if reader.names_own(start, end, own) or reader.asks(floor, sentence_end):
        return False
    clause = text[start:end]
    return not (_REFERS_BACK.search(clause) or _NEGATION.search(clause))


def _clause_shapes(reader: _Text, first: int, own: frozenset[str]) -> list[Unplain]:
    found: list[Unplain] = []
    judged: set[tuple[int, int]] = set()
    # from the statement's sentence on: a label before it may judge it ("Here is the wrong
    # diagnosis you asked for: X …"); a clause naming the factor is never a judging one
    for hit in _trigger_hits(reader.text, reader.sentence(first)[0]):
        kind = hit.lastgroup
        detail = f"the clause {hit.group().strip()!r}"
        if kind == "judgement":
            if _judging(reader, hit, first, judged, own):
                found.append(Unplain("judging_clause", hit.start(), hit.end(), detail))
        elif hit.start() < first:
            continue  # a question, jest or cause before the statement is read by other rules
        elif kind == "question":
            if _unaccounted_question(reader, hit.start()):
                found.append(Unplain("unaccounted_question", hit.start(), hit.end(), "a question"))
        elif kind == "identity":
            floor = reader.sentence(hit.start())[0]
            if not reader.names(*reader.clause(hit.start(), hit.end(), floor)):
                found.append(Unplain("identity_jest", hit.start(), hit.end(), detail))
        elif kind == "cause" and _second_cause(reader, hit, own):
            found.append(Unplain("unnamed_second_cause", hit.start(), hit.end(), detail))
    return found


# a verbless sentence after the statement may name another object only to cite it, to set it
# aside or as the agent's check ("See report-renderer's logs.", "report-renderer: unrelated.")
_CITING = frozenset(
    {
        "see", "per", "cf", "evidence", "source", "sources", "checked", "read", "ref", "logs",
        "events", "note", "also see", "e", "i", "for", "kubectl",
    }
)  # fmt: skip
_SET_ASIDE = lazy_pattern(
    r"\b(?:unrelated|irrelevant|red\s+herrings?|decoys?|noise|distractions?|ruled\s+out|"
    r"(?:not|no)\s+(?:the\s+|a\s+)?(?:root\s+|real\s+)?(?:cause|culprit|problem|issue|factor)|"
    # said to harm only itself: a dismissal (SI red team 42, F2: "batch-processor only hurts
    # itself.")
    r"only\s+(?:hurts|harms|affects|impacts|breaks|slows(?:\s+down)?|crashes)\s+(?:itself|"
    r"themselves))\b",
    re.IGNORECASE,
)


def _added_objects(
    reader: _Text, first: int, own: frozenset[str], factor: Collection[str]
) -> list[Unplain]:
    """A verbless sentence after the statement's that names an object the statement does not:
    the object added to the finding ("Contributing: report-renderer.", "Plus report-renderer.",
    "The real outage: report-renderer.", "Then again, report-renderer."; SI red team 41, A7),
    unless it names the factor (a remedy: "Re-add SMTP_PORT and restart X."), cites the object,
    sets it aside or asks (`_CITING`, `_SET_ASIDE`). Fail closed: a label no list holds
    withholds the band."""
    text = reader.text
    statement_end = reader.sentence(first)[1]
    ours = own | {name.rsplit("/", 1)[-1] for name in own}
    found: list[Unplain] = []
    for sentence in reader.channel.sentences:
        if sentence.start < statement_end:
            continue
        said = text[sentence.start : sentence.end]
        if "?" in said or _FINITE.search(said) is not None or _SET_ASIDE.search(said):
            continue
        words = _words(said)
        if _VERBS.intersection(words) or any(word.endswith("n't") for word in words):
            continue  # a clause with a verb ("Restore it and X starts."), read by the rules
        if not words or words[0] in _CITING:
            continue
        if any(name in said.casefold() for name in factor):
            continue
        others = [
            match.group()
            for match in _IDENTIFIER_SHAPED.finditer(said)
            # an object, never a key ("SMTP_HOST: smtp.internal" lists what was read)
            if "_" not in match.group()
            and match.group() == match.group().lower()
            and match.group().casefold() not in ours
            and match.group().casefold().rsplit("/", 1)[-1] not in ours
            and reader.names_whole(match.group())
        ]
        if others:
            detail = f"the sentence {said.strip()!r} adds {others[0]!r}"
            found.append(Unplain("added_object", sentence.start, sentence.end, detail))
    return found


def _last_identifier_end(reader: _Text, start: int, end: int) -> int:
    text = reader.text
    folded = text[start:end].casefold()
    last = -1
    for identifier, length in reader.folded_identifiers:
        at = folded.rfind(identifier)
        if at >= 0:
            last = max(last, start + at + length)
    # the factor's resource is no identifier of `identifiers` (docs/si-scoring.md §11): a token
    # naming an object ("smtp-config", "configmap/R") is a name of the system too; a token of
    # that shape naming nothing is words ("in my_dreams"; SI red team 39, W0), and so is one
    # naming an object by a run of its parts only ("shop-staging"; SI red team 40, H4)
    for match in _IDENTIFIER_SHAPED.finditer(text, start, end):
        if len(match.group()) >= 4 and reader.names_whole(match.group()):
            last = max(last, match.end())
    return last


def _name_parts(names: Sequence[str]) -> set[str]:
    return {part for name in names for part in _NAME_PART.split(name.casefold())}


# a relative clause that denies the place ("… in a cluster that does not exist")
_DENIED_PLACE = lazy_pattern(
    r"\b(?:that|which|where|who)\b[^,.;]*?(?:\bnot|\bnever|\bno\b|n['’]t)", re.IGNORECASE
)
_LAST_CLAUSE = lazy_pattern(r"[,—–(]\s*([^,—–()]*)$")
# the reasons Kubernetes gives a container's waiting or terminated state (kubelet's
# `ContainerStateWaiting.reason` / `ContainerStateTerminated.reason`): states of the live system
_CONTAINER_STATES = frozenset(
    {
        "crashloopbackoff", "createcontainerconfigerror", "createcontainererror",
        "imagepullbackoff", "errimagepull", "invalidimagename", "runcontainererror",
        "containercreating", "oomkilled", "podinitializing", "errimageneverpull",
    }
)  # fmt: skip
# "only" before a place: the statement held only there ("but only in my imagination")
_ONLY_PLACE = lazy_pattern(
    r"\bonly\s+(?P<place>(?:in|on|within|inside|under|at|for)\s)", re.IGNORECASE
)
_PLACE_WORD = lazy_pattern(r"\b(?:in|on|within|inside|under|at|for)\s", re.IGNORECASE)


# an unreal frame closing a clause after the factor: the statement held in a hypothesis, in
# theory or somewhere else, with no place phrase ("… hypothetically.", "…, theoretically.",
# "… as a thought experiment.", "… elsewhere."; SI red team 40, H3). A frame adverb or phrase
# scopes its clause whole as a place phrase does, so it is read where a place is: closing a
# clause after the factor.
_UNREAL_FRAME = lazy_pattern(
    r"\b(?:hypothetical(?:ly)?|theoretical(?:ly)?|notional(?:ly)?|counterfactual(?:ly)?|"
    r"speculative(?:ly)?|conjectural(?:ly)?|supposed(?:ly)?|allegedly|purportedly|"
    r"ostensibly|imaginar(?:il)?y|fictional(?:ly)?|academically|abstractly|elsewhere|"
    r"somewhere(?:\s+else)?|anywhere\s+else|in\s+(?:theory|principle|the\s+abstract)|"
    r"on\s+paper|in\s+some\s+other\s+\w+|"
    r"for\s+(?:argument['’]?s|the\s+sake\s+of(?:\s+an?)?)\s*(?:sake|argument|discussion|"
    r"example)?|as\s+(?:a|an)\s+(?:thought\s+experiment|hypothe(?:sis|tical)|what[- ]if|"
    r"exercise|assumption|conjecture|premise|supposition|speculation|guess|joke|aside|"
    r"illustration|example|scenario|possibility)|if\s+(?:anything|at\s+all|so|true))"
    r"(?=\s*(?:[.!?;,:)\]—–]|\s-{1,2}\s|\Z))",
    re.IGNORECASE,
)


# a time or a count after a place word ("in 5 minutes", "at 3 replicas")
_QUANTITY_FIRST = lazy_pattern(r"\s*\d")
# a clause that compares, not scopes ("…, as it was in staging last week")
_COMPARING = frozenset({"as", "like", "than", "unlike", "just"})
_ANOTHER_TIME = frozenset(
    {"last", "yesterday", "before", "earlier", "previous", "ago", "week", "month", "release"}
)


def _compared(text: str, floor: int, at: int) -> bool:
    """Whether the clause holding the place at `at` compares the statement with another time
    or place rather than scoping it ("…, as it was in staging last week")."""
    opens = [match.end() for match in _BOUNDARY.finditer(text, floor, at)]
    clause = text[opens[-1] if opens else floor : at]
    words = _words(clause)
    # a clause of its own, with a verb, comparing with another time: "as in my imagination"
    # and "as it is in my imagination" compare nothing
    return (
        bool(words)
        and words[0] in _COMPARING
        and _FINITE.search(clause) is not None
        and bool(_ANOTHER_TIME.intersection(_words(text[at : at + 80])))
    )


def _frames_the_statement(reader: _Text, floor: int, frame: re.Match[str]) -> bool:
    """Whether the frame at `frame` scopes the statement: it stands alone in its clause
    (", theoretically."), in a clause naming something of the system (the statement's own or
    its consequence: "…, so S fails hypothetically."), or in one that speaks of nothing but the
    answer or has no subject of its own ("…, as all this is hypothetical.", "… and is not ready
    hypothetically."). A clause of its own about something else ("…, as the load is
    elsewhere.") frames only itself."""
    start, end = reader.clause(frame.start(), frame.end(), floor)
    clause = reader.text[start : frame.start()]
    verb = _FINITE.search(clause)
    if verb is None or reader.names(start, end):
        return True
    # a predicate with no subject of its own ("… and is not ready hypothetically") is the
    # statement's; a subject of other words ("the load is elsewhere") is another's
    return _self_referring(_words(clause[: verb.start()]), _NOTHING)


# the last clause of a sentence stating the factor, set off by a comma, that names nothing and
# has no verb of its own may only be one of these (SI red team 41, A6): ", arguably.", ", sort
# of.", ", more or less.", ", confidence: low.", ", as far as I can tell." hedge the statement
# in words no list of hedges held, so the list is turned round
_HONEST_TAILS = (
    "as a result", "as a consequence", "as expected", "as shown", "as seen", "as observed",
    "as reported", "as logged", "as listed", "according to", "per ", "see ", "e g", "i e",
    "for example", "for instance", "evidently", "clearly", "certainly", "definitely",
    "indeed", "consequently", "therefore", "thus", "hence", "accordingly", "again", "too",
    "also", "now", "currently", "still", "repeatedly", "immediately", "confirmed", "verified",
    "in turn", "every time", "each time", "at startup", "at start", "on start", "at boot",
    "then", "exactly", "precisely", "entirely", "reproducibly", "consistently", "always",
    "at every restart", "on every restart",
    # summaries, regrets and the incident's present (SI red team 42, F5)
    "in short", "in summary", "in sum", "in brief", "in a nutshell", "in other words",
    "unfortunately", "sadly", "regrettably", "as of today", "as of now", "as of writing",
    "as of this writing", "given the ", "given these ", "given this ", "given that ",
    "given what ", "no doubt", "without a doubt", "without doubt", "beyond doubt",
    "beyond any doubt", "undoubtedly",
)  # fmt: skip
# SI red team 43, H07: a participle closing the statement may give only its consequence
# (", causing the crash loop.", ", leaving checkout unready."); any other (", eyeballing it.")
# speaks of how the statement was reached, a hedge
_CONSEQUENCE_PARTICIPLES = frozenset(
    {
        "causing", "leaving", "making", "breaking", "preventing", "resulting", "producing",
        "blocking", "crashing", "killing", "stopping", "keeping", "ruling", "triggering",
        "failing", "explaining", "meaning", "giving", "taking", "bringing", "sending",
    }
)  # fmt: skip
# prepositions whose tail no place or time rule reads: such a tail that names nothing is a hedge
# unless it is an honest form or speaks of the evidence (", from the events.", ", by the logs."
# keep the band; ", from memory." does not; SI red team 43, H07)
_SOURCE_PREPOSITIONS = frozenset({"from", "by", "with", "without", "to", "of", "into"})
_SUMMARIES = (
    "in short", "in summary", "in sum", "in brief", "in a nutshell", "in other words",
)  # fmt: skip
# a word that doubts the statement, wherever it stands in a tail that names nothing, whatever
# the tail opens on (SI red team 42, H5: ", 1 in 10 odds.", ", assuming I read it right.", ",
# in a dream I had."): the openers' exemption handed such a tail to rules that never read it
_DOUBT_WORDS = frozenset(
    {
        "odds", "chance", "chances", "likely", "unlikely", "likelihood", "probability",
        "probably", "possibly", "maybe", "perhaps", "guess", "guessing", "guessed", "hunch",
        "dream", "dreams", "dreamt", "dreamed", "dreaming", "imagine", "imagined",
        "imagining", "imagination", "assuming", "assume", "assumed", "assumption", "suppose",
        "supposing", "supposed", "presumably", "presuming", "reckon", "bet", "gamble",
        "speculation", "speculating", "unchecked", "unverified", "unconfirmed", "untested",
        "hypothetically", "theoretically", "allegedly", "doubt", "doubtful", "unsure",
        "uncertain", "if",
    }
)  # fmt: skip
# a word of evidence that doubts the statement under a negation (", given no evidence.", ",
# without having checked.", ", not verified.")
_UNDER_NEGATION = frozenset(
    {
        "evidence", "proof", "checked", "checking", "check", "verified", "verifying",
        "verify", "confirmed", "confirming", "confirm", "tested", "testing", "looked",
        "looking", "reading", "read", "sure", "certain", "certainty", "data", "basis",
    }
)  # fmt: skip
_TAIL_NEGATORS = frozenset(
    {
        "no",
        "not",
        "without",
        "never",
        "none",
        "nothing",
        "lacking",
        "lack",
        "absent",
        # a relative clause whose subject denies the checking (SI red team 43, H07: ", which
        # nobody checked.")
        "nobody",
        "noone",
        "neither",
        "nor",
    }
)
# the first person in a tail opening on a preposition speaks of the agent's own world ("…, in a
# dream I had."; SI red team 42, H5)
_PREPOSITIONS = frozenset(
    {"in", "on", "at", "within", "inside", "under", "for", "from", "to", "of", "by", "into",
     "with", "without", "given"}
)  # fmt: skip
# what a last clause may open on and be read by the other rules: a conjunction or relative, a
# preposition of place (the restriction rule), a number
_TAIL_OPENERS = frozenset(
    {
        "so", "because", "which", "and", "but", "that", "since", "when", "where", "while",
        "until", "unless", "if", "who", "whose", "once", "after", "before", "with", "without",
        "in", "on", "at", "within", "inside", "under", "for", "from", "to", "of", "by", "into",
        "or", "nor", "yet", "though", "although", "whereas", "however", "hence", "thus",
        # a negation: the negation rules read it ("…, not a contributing cause")
        "not", "no", "never",
    }
)  # fmt: skip
# a hedge after a comma is short ("arguably", "sort of", "more or less", "confidence: low") or
# in the first person ("as far as I can tell"); a longer clause, or one with a verb of the
# system's state, is a clause of its own that the clause rules read
_HEDGE_WORDS = 3
_VERBS = frozenset(
    {
        "run", "runs", "start", "starts", "fail", "fails", "crash", "crashes", "work", "works",
        "recover", "recovers", "stop", "stops", "restart", "restarts", "wait", "waits", "will",
        "would", "can", "cannot", "could", "must", "should", "may", "might", "contains",
        "holds", "lists", "shows", "reads", "uses", "lacks", "needs", "expects", "returns",
        "logs", "reports", "keeps", "stays", "remains", "rejects", "loads", "exits", "reaches",
        "calls", "serves", "points", "connects", "depends", "listens", "mounts", "references",
        "misses", "has", "have", "had", "is", "are", "was", "were", "does", "do", "did",
    }
)  # fmt: skip
_COMMA_TAIL = lazy_pattern(r",\s*([^,;—–()\[\]]*)\Z")
_FIRST_PERSON = frozenset({"i", "me", "my", "we", "us", "our", "i'm", "i'd", "i've", "imo", "imho"})


def hedging_tail(tail: str) -> bool:
    """Whether `tail`, a sentence's last clause after a comma that names nothing, hedges it:
    it opens on nothing the other rules read, is verbless or in the first person, and is none
    of `_HONEST_TAILS` (SI red team 41, A6)."""
    words = _words(tail)
    if not words:
        # a bare number or share (", ~10%.", ", 1:10."): a hedge of odds (SI red team 43, H07)
        return any(character.isdigit() for character in tail)
    if _doubts(words):
        return True  # whatever it opens on (SI red team 42, H5)
    if honest_form(words) or honest_form(tail_tokens(tail)):
        # the incident's present, a count, high confidence (SI red team 43, F03), its numbers
        # read (SI red team 44, F10: ", for the last 40 minutes.", ", 100% sure.")
        return False
    if not _FIRST_PERSON.intersection(words) and " ".join(words).startswith(_HONEST_TAILS):
        return False  # ", according to the pod events.", ", without a doubt."
    if _QUANTITY_FIRST.match(tail) or tail.lstrip().startswith(("~", "≈")) or "%" in tail:
        # a number closing the statement is a count of the incident or a hedge (", 30%
        # confidence.", ", ~10%."; SI red team 43, H07): the counts are honest forms
        return True
    if (
        words[0] in _SOURCE_PREPOSITIONS
        and not _FINITE.search(tail)
        and not " ".join(words).startswith(_HONEST_TAILS)
    ):
        return not all(
            word in _EVIDENCE or word in _LIVE_PLACE or word in NEUTRAL_WORDS for word in words[1:]
        )
    if words[0] in _TAIL_OPENERS:
        return False
    if len(words) > 1 and words[0].endswith("ing"):
        # a clause of its own ("ruling out the CPU spike") only when it gives a consequence
        return words[0] not in _CONSEQUENCE_PARTICIPLES
    if words[0] in ("i", "we"):
        return False  # a clause of its own ("I checked")
    first_person = bool(_FIRST_PERSON.intersection(words))
    if not first_person and (len(words) > _HEDGE_WORDS or _VERBS.intersection(words)):
        return False  # a clause of its own ("scaled down to zero replicas", "… run fine")
    if _FINITE.search(tail) is not None and not first_person:
        return False  # a clause of its own, read by the clause rules
    return first_person or not " ".join(words).startswith(_HONEST_TAILS)


def _doubts(words: list[str]) -> bool:
    """Whether a tail's words doubt the statement: a doubting word, a word of evidence under a
    negation, or the first person after a preposition (SI red team 42, H5)."""
    said = set(words)
    if said & _DOUBT_WORDS and not " ".join(words).startswith(_HONEST_TAILS):
        return True
    if said & _TAIL_NEGATORS and said & _UNDER_NEGATION:
        return True
    return words[0] in _PREPOSITIONS and bool(said & _FIRST_PERSON)


def _hedging_tail(reader: _Text, factor_at: int, said_end: int) -> Unplain | None:
    """The sentence's last clause after a comma, past the factor, that names nothing and
    `hedging_tail` reads as a hedge."""
    text = reader.text
    comma = text.rfind(",", factor_at, said_end)
    if comma < 0:
        return None
    tail = _COMMA_TAIL.match(text, comma, said_end)
    if tail is None or reader.names(tail.start(1), tail.end(1)):
        return None
    if not hedging_tail(tail.group(1)):
        return None
    return Unplain(
        "restricted_world", tail.start(1), tail.end(1), f"the tail {tail.group(1).strip()!r}"
    )


def comma_tail(sentence: str) -> str | None:
    """The last clause of `sentence` after a comma (its end's stop aside), if any."""
    said = sentence.rstrip().rstrip(".!?;)").rstrip()
    tail = _COMMA_TAIL.match(said, max(0, said.rfind(",")))
    return None if tail is None else tail.group(1)


def _restricted(
    reader: _Text,
    bounds: tuple[int, int],
    factor_at: int,
    places: frozenset[str],
    bodies: Sequence[str] = (),
) -> Unplain | None:
    """A place the live system does not have: the last phrase of the factor's clause after its
    last name ("X is stopped in the cluster on my laptop"), or the sentence's last clause
    ("…, on my laptop.")."""
    text = reader.text
    start, end = bounds
    said_end = start + len(text[start:end].rstrip().rstrip(".!?;)").rstrip())
    candidates: list[tuple[int, str]] = []
    clause_end = reader.next_boundary(factor_at, said_end)
    last = _last_identifier_end(reader, factor_at, clause_end)
    if last >= 0:
        openers = list(_PLACE_WORD.finditer(text, last, clause_end))
        if openers:
            candidates.append((openers[-1].start(), text[openers[-1].start() : clause_end]))
    clause = _LAST_CLAUSE.search(text, start, said_end)
    if clause is not None:
        candidates.append((clause.start(1), clause.group(1)))
    # a place that scopes the whole statement, in whatever clause it stands: the sentence's
    # final place phrase ("…, so S cannot run in my imagination") and any "only in …"
    # ("…, but only in my imagination") (SI red team 39, W0)
    sentence_last = _last_identifier_end(reader, factor_at, said_end)
    final = list(_PLACE_WORD.finditer(text, max(sentence_last, factor_at), said_end))
    if final and not _compared(text, start, final[-1].start()):
        candidates.append((final[-1].start(), text[final[-1].start() : said_end]))
    for only in _ONLY_PLACE.finditer(text, factor_at, said_end):
        phrase_end = reader.next_boundary(only.end(), said_end)
        candidates.append((only.start("place"), text[only.start("place") : phrase_end]))
    for pattern in (_UNREAL_FRAME, _COMMA_FRAME, _OTHER_TIME):
        for frame in pattern.finditer(text, factor_at, said_end + 1):
            if pattern is _OTHER_TIME and (
                _compared(text, start, frame.start())
                or _SINCE.search(text, max(start, frame.start() - 16), frame.start()) is not None
            ):
                # "…, as it was in staging last week": a comparison; "… since last week": the
                # fault's history, to now
                continue
            if (
                pattern is _OTHER_TIME
                and _PAST_TIME.fullmatch(frame.group()) is not None
                and _DATES_THE_CHANGE.search(text, start, frame.start()) is not None
            ):
                continue  # "… was changed to 8081 yesterday.": the deviation dated (43, F03)
            if frame.start() < said_end and _frames_the_statement(reader, start, frame):
                return Unplain(
                    "restricted_world", frame.start(), frame.end(), f"the frame {frame.group()!r}"
                )
    hedged = _hedging_tail(reader, factor_at, said_end)
    if hedged is not None:
        return hedged
    moment = _other_moment(reader, max(sentence_last, factor_at), said_end)
    if moment is not None:
        return Unplain(
            "restricted_world", moment.start(), moment.end(), f"the time {moment.group()!r}"
        )
    named: set[str] | None = None  # the sentence's names, read only for a bare place
    identifier_parts = places - _LIVE_PLACE

    def _read(token: str) -> bool:
        # a state a container is seen in (Kubernetes' waiting and terminated reasons: "in
        # CreateContainerConfigError") or a token the evidence's tool responses hold
        return token.casefold() in _CONTAINER_STATES or any(token in body for body in bodies)

    for at, rest in candidates:
        opener = _PLACE_OPENER.match(rest)
        if opener is None:
            continue
        if " ".join(_words(rest)).startswith(_SUMMARIES) or honest_form(tail_tokens(rest)):
            continue  # ", in short.", ", for sure.": no place (SI red team 42, F5; 43, F03)
        # a place that denies its own being ("in a cluster that does not exist") is no place of
        # the live system, whatever clause goes on in it (SI red team 21, H3)
        unreal = _DENIED_PLACE.search(rest, opener.end()) is not None
        unreal = unreal or _OTHER_RELEASE.match(rest, opener.end()) is not None
        if not unreal and (_CONTINUES.search(rest) or _BOUNDARY.search(rest, opener.end())):
            continue
        if not unreal and _FINITE.search(rest):
            continue  # a clause goes on after the place ("… in R is no myth"): no bare place
        if _QUANTITY_FIRST.match(rest, opener.end()):
            continue  # a time or a count ("in 5 minutes"), no place
        words = _words(rest[opener.end() :])
        if named is None:
            # the names of the sentence: tokens that name an object of the scenario, never a
            # token by its shape ("in my_dreams"; SI red team 39, W0) nor by a run of its
            # parts ("in the shop-staging namespace": `shop` is the namespace; SI red team 40,
            # H4) — a place names an object whole
            shaped = _IDENTIFIER_SHAPED.finditer(text, start, end)
            named = _name_parts(
                [m.group() for m in shaped if reader.names_whole(m.group()) or _read(m.group())]
            )
        place = rest[opener.end() :]
        # a token of joined parts is a name whole or none ("in the prod-default namespace" is
        # no place of a scenario whose namespace is `default`, whatever its parts are; SI red
        # team 41, A5), and words of the live system may spell another release or a file
        joined = [
            m.group()
            for m in _IDENTIFIER_SHAPED.finditer(place)
            if not (
                reader.names_whole(m.group())
                or _read(m.group())
                or reader.names_whole(m.group().rsplit("/", 1)[-1])
            )
            and any(
                reader.is_object(part) or part in identifier_parts
                for part in _NAME_PART.split(m.group().casefold())
            )
        ]
        if (
            not joined
            and _OTHER_RELEASE.search(place) is None
            and (
                not words
                or all(word in places or word in named or reader.is_object(word) for word in words)
            )
        ):
            continue
        return Unplain("restricted_world", at, at + len(rest), f"the restriction {rest.strip()!r}")
    return None


def _attributed(text: str, start: int, first: int, end: int) -> Unplain | None:
    before = text[start:first]
    match = _OTHERS_SAY.search(before)
    if match is not None:
        return Unplain(
            "attributed", start + match.start(), start + match.end(), f"the subject {before!r}"
        )
    said = _WHAT_SOMEONE_SAYS.search(text, first, end)
    if said is not None and not all(word in _EVIDENCE for word in _words(said.group(1))):
        return Unplain("attributed", said.start(), said.end(), f"the clause {said.group()!r}")
    return None


def _judged_subject(reader: _Text, copula: re.Match[str]) -> Unplain | None:
    text = reader.text
    start, end = reader.sentence(copula.start())
    if "=" in copula.group():
        if _FALSITY.match(text, copula.end()) is None or reader.quoted(start, copula.start()):
            return None
        # a key given a value ("SMTP_TLS = false") is no clause; the left side of a judged
        # statement is a sentence with a verb ("…, so S fails = FALSE")
        operand = text[max(start, copula.start() - 80) : copula.start()].split()
        if not operand or (_KEY_LIKE.match(operand[-1]) and "_" in operand[-1]):
            return None
        if _FINITE.search(text, start, copula.start()) is None:
            return None
    else:
        predicate_end = reader.next_boundary(copula.end(), end)
        judgement = _JUDGEMENT.search(text, copula.end(), predicate_end)
        if judgement is None or judgement.group().casefold() in _DEVIATION_WORDS:
            return None  # "The port X is set to is wrong": the deviation, not a verdict
        if _NEGATION.search(text, copula.end(), judgement.start()):
            return None  # "… is no myth": it affirms
        clause_start = reader.subject_start(start, copula.start())
        left = text[clause_start : copula.start()]
        if _FINITE.search(left) is None or not reader.names(clause_start, copula.start()):
            return None
    said = text[copula.start() : end].strip()
    return Unplain("judged_subject", copula.start(), end, f"the predicate {said!r}")


def unaccounted_shapes(
    channel: ChannelText,
    factor_spans: Sequence[Span],
    identifiers: Sequence[str],
    objects: Sequence[str] = (),
    bodies: Sequence[str] = (),
    deviation: RemedyDeviation = None,
    symptom: Sequence[str] = (),
) -> list[Unplain]:
    """Every shape of the module docstring in a channel that states the factor: `factor_spans`
    are the factor's identifiers in scope, `identifiers` the scenario's (the factor's among
    them), `objects` the names of the evidence's objects and `bodies` its tool responses
    (`accounted_shapes`; `deviation`, the factor's deviation type)."""
    if not factor_spans:
        return []
    reader = _Text(channel, identifiers, objects)
    text = reader.text
    first = min(span.start for span in factor_spans)
    last = max(span.start for span in factor_spans)
    factor_texts = {text[span.start : span.end].casefold() for span in factor_spans}
    statement = reader.sentence(first)
    own = frozenset(
        factor_texts
        | {
            match.group().casefold()
            for match in _IDENTIFIER_SHAPED.finditer(text, *statement)
            if len(match.group()) >= 4
        }
    )
    found = _clause_shapes(reader, first, own)
    found += _added_objects(reader, first, own, factor_texts)
    # the positive shape: what the statement's sentence and what follows must name (round 21)
    found += accounted_shapes(
        channel, first, last, factor_texts, identifiers, objects, bodies, deviation, symptom
    )
    places = _LIVE_PLACE | _name_parts(identifiers)
    # each sentence stating the factor: where its first and its last factor name stand
    stating: dict[tuple[int, int], tuple[int, int]] = {}
    for span in factor_spans:
        bounds = reader.sentence(span.start)
        known = stating.get(bounds, (span.start, span.start))
        stating[bounds] = (min(known[0], span.start), max(known[1], span.start))
    for (sentence_start, sentence_end), (at, last_at) in sorted(stating.items()):
        # a plain remedy's honest tail (a source: "… in the secret from the vault.") is no
        # place of the statement: the place is read up to it (SI red team 38, false lows)
        remedy = remedy_end(
            text[sentence_start:sentence_end], factor_texts, names_in(identifiers), deviation
        )
        place_end = sentence_end if remedy is None else sentence_start + remedy
        for shape in (
            _restricted(reader, (sentence_start, place_end), last_at, places, bodies),
            _attributed(text, sentence_start, at, sentence_end),
        ):
            if shape is not None:
                found.append(shape)
    # the subject of a judgement may be any statement from the factor's on (the dismissal of a
    # signal too: "batch-processor is not the cause is a misreading of the logs")
    for copula in _SECOND_COPULA.finditer(text, reader.sentence(first)[0]):
        judged = _judged_subject(reader, copula)
        if judged is not None:
            found.append(judged)
    return found


__all__ = ["comma_tail", "hedging_tail", "unaccounted_shapes"]
