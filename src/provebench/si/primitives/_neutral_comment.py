"""A comment that names an object commits only where its shape is known-neutral
(docs/si-scoring.md §11, "Round 40: a frame, a whole name and a neutral comment"; SI red team
40, H2).

Under the strict reading (a provebench registry extension beside SI §2.2, never a change to it)
round 39 read a comment naming an object for disowning words (`_comment_disowning`), and
vouched for it once none was found. The list lost the next spelling: "— spurious, per X.", "—
moot per X.", "— unfounded, see X.", "— X objects.", "— X begs to differ.", "— X questions
this.", "— X rules this out.", "— X says no.", "(spurious, per X)", ", which X questions." kept
the top band. The test is turned round at this depth: a name makes a comment a locus, and a
comment naming an object commits only where every word of it, its names, numbers and quotations
aside, is of the known-neutral vocabulary below — an object with a verb of state or of reading
("— SMTP_PORT is read by notification-service at start.", "— X never starts.", "— X waits for
Y.", "— X is healthy."), a bare object ("(configmap/smtp-config)", "(see payments-api)"), a
quantity ("— 3 restarts of X in 5 minutes.") or a quotation. Any other word withholds the band
(fail closed): a verdict spelt in a word the vocabulary does not hold is not read as neutral.

Round 41 (docs/si-scoring.md §11, "Round 41: comments read, …"; SI red team 41, A1, A7, A9,
A10): the vocabulary held words that, put together, deny the finding ("— SMTP_PORT is not
missing."), endorse a decoy ("— report-renderer is the outage.") or give a remedy no remedy
reader read ("— set INVENTORY_PORT to 8081."), and quotations were dropped before the words
were read (`— SMTP_PORT "is a red herring".`). What a comment may say now depends on what it
names: a key only restates its deviation; objects may be said to be in a state or not, judged
only where the statement does not name them, and changed only where it does. A quotation is
what was read only after a verb of reading or an evidence noun; elsewhere its words are read.
"""

from __future__ import annotations

import re

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._scenario_objects import fold_name
from provebench.si.primitives._scene_names import SceneNames, split_shape

# a token as written (letters and digits joined by _ . / : or -), the unit a name is
_TOKEN = lazy_pattern(r"[^\W_](?:[\w./:'’-]*[^\W_])?")
_WORD = lazy_pattern(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_DENIED_MISTAKE = lazy_pattern(
    r"\b(?:not|never)\b(?P<between>[^.;—–]*?)\bby\s+(?:mistake|accident)\b", re.IGNORECASE
)
_PART = lazy_pattern(r"[^_./:-]+")
_DIGIT = lazy_pattern(r"\d")
# a consequence opener before the comment's subject ("— so X cannot start", "— this is why X
# crashes"): the rest is read as the comment
_CONSEQUENCE = lazy_pattern(
    r"\s*(?:(?:so|and|hence|thus|therefore|because|since|which\s+is\s+why|(?:this|that|it)"
    r"\s+is\s+(?:why|how))\b[,\s]*)+",
    re.IGNORECASE,
)
# the words a neutral comment on an object is made of: function words, verbs of state and of
# reading (never of saying: "X says no" puts a verdict in the object's mouth), the parts of the
# system and the states Kubernetes reports of them. Not among them (SI red team 41, A1, A7, A9,
# A10): a negator, the deviation's own words and their opposites ("missing", "present",
# "unset"), a verdict ("fine", "correct", "irrelevant"), a cause ("cause", "failure",
# "outage", "alert", "explains", "breaks", "why") or a verb of change ("set", "add", "restore",
# "restart", "scale", "should", "must", "need"): put together they deny the finding ("—
# SMTP_PORT is not missing."), endorse a decoy ("— report-renderer is the outage.") or give a
# remedy no remedy reader reads ("— set INVENTORY_PORT to 8081.")
NEUTRAL_WORDS = frozenset(
    {
        # function words
        "the", "a", "an", "its", "their", "it", "of", "in", "on", "at", "to", "from", "by",
        "with", "for", "and", "or", "as", "so", "then", "when", "after", "before", "since",
        "until", "once", "while", "into", "per", "see", "via", "both", "each", "every", "all",
        "only", "also", "too", "still", "again", "now", "there", "here", "same", "other",
        "either", "neither", "nor", "than", "which", "who", "where", "up", "down", "out", "off",
        # verbs of state and of reading
        "is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "does", "do",
        "did", "can", "reads", "read", "reading", "runs", "run", "running",
        "starts", "start", "started", "starting", "restarts", "restarted",
        "restarting", "crashes", "crash", "crashed", "crashing", "fails", "fail", "failed",
        "failing", "waits", "wait", "waiting", "listens", "listen", "listening", "holds", "hold",
        "uses", "use", "used", "expects", "expect", "expected", "mounts", "mount", "mounted",
        "references", "reference", "referenced", "points", "point", "connects", "connect",
        "depends", "depend", "shows", "show", "shown", "showed", "lists", "listed", "logs",
        "logged", "returns", "returned", "serves", "served", "lacks", "lack",
        "misses", "keeps", "stays", "remains", "rejects", "rejected", "refuses", "refused",
        "loads", "loaded", "exits", "exited", "reaches", "reach", "calls", "call", "owns",
        "scaled", "stopped", "ready", "pending", "live", "current", "deployed",
        "reachable", "unreachable", "killed", "evicted", "backoff", "loop", "replica",
        "replicas", "zero", "twice", "times", "seconds", "minutes", "minute", "second",
        "hours", "exit", "code", "connection", "timeout", "timed",
        "endpoint", "endpoints", "recovers", "recover",
        "recovered", "recovering", "works", "work", "working", "comes", "come", "back",
        "unexpected", "extra", "contains", "contain", "defined", "define", "defines", "map",
        "ref", "loops",
        # the parts of the system and where the evidence is read
        "pod", "pods", "container", "containers", "key", "keys", "value", "values", "entry",
        "variable", "variables", "setting", "field", "port", "config", "configuration",
        "deployment", "deployments", "service", "services", "spec", "env", "environment",
        "node", "nodes", "namespace", "image", "app", "process", "workload", "secret",
        "configmap", "data", "section", "volume", "startup", "boot", "events", "event", "log",
        "status", "describe", "output", "manifest", "kubectl", "dependency", "database",
        "statefulset", "daemonset", "job", "probe", "readiness", "liveness", "cluster",
    }
)  # fmt: skip
# a comment on an object of the system that names no key of the scenario may also say the
# object is not in a state ("— payments-api never starts.", "— X cannot reach Y."), what follows
# from the finding ("…, which explains the crashes of X", "; X needs it", "— X will start"); a
# negation of the factor's own key is its polarity turned round ("— SMTP_PORT is not
# missing.", "— notification-service never reads SMTP_PORT."; SI red team 41, A1)
_OBJECT_NEGATORS = frozenset(
    {
        "not", "never", "no", "cannot", "can't", "won't", "doesn't", "isn't", "aren't",
        "wasn't", "didn't", "will", "would", "explains", "explain", "because", "result",
        "consequence", "error", "errors", "needs", "need", "needed", "required", "requires",
        "require",
    }
)  # fmt: skip
# ... and a change made to the statement's own objects ("; add it to smtp-config and restart
# notification-service"), never to another ("— restart report-renderer.", "— scale
# report-renderer to zero."; SI red team 41, A10)
_CHANGE_VERBS = frozenset({"add", "adds", "restart", "restore", "redeploy", "re"})
_BEFORE_OBJECT = frozenset(
    {"the", "deployment", "configmap", "secret", "pod", "pods", "service", "statefulset", "add"}
)
# ... and, where it names no object the statement names ("— smtp-config is fine." denies the
# finding), a verdict on the object's state ("— cart-cache is
# healthy.", "(ledger-exporter is unaffected)", "; report-renderer is irrelevant")
_STATE_VERDICTS = frozenset(
    {
        "healthy", "unhealthy", "unaffected", "affected", "fine", "ok", "okay", "irrelevant",
        "unrelated", "involved",
    }
)  # fmt: skip
# a comment on a key may restate its deviation ("— SMTP_PORT was missing from R.", "; K is
# absent"), never its opposite ("present", "set", "correct", "fine")
_DEVIATION_WORDS = frozenset(
    {"missing", "absent", "wrong", "undefined", "removed", "deleted", "lacking"}
)
# the absence affirmed in a negation ("…, is not defined in smtp-config"): the deviation's
# own phrase, not a denial of it
_ABSENCE_AFFIRMED = lazy_pattern(
    r"\b(?:is|are|was|were)\s+(?:not|never)\s+(?:defined|set|present|found|listed|there)\b",
    re.IGNORECASE,
)
# a contrast with another object, whole: "(not SMTP_HOST)", "— not cart-cache"
_CONTRAST = lazy_pattern(
    r"\A\s*(?:and\s+|but\s+)?not\s+(?:the\s+)?(?P<other>\S+)\s*\Z", re.IGNORECASE
)
# the one verdict of a state kept for an object, as a phrase: "— payments-api runs fine."
_RUNS_FINE = lazy_pattern(r"\b(?:runs|run|running|works|working)\s+fine\b", re.IGNORECASE)
# a decoy ruled out, whole: "— ledger-exporter is not the cause.", "— X is a red herring."
# (its subject names no identifier of the scenario: the factor's key is never ruled out here)
_DECOY_RULED_OUT = lazy_pattern(
    r"\A\s*(?:the\s+)?(?P<subject>[^\W_][\w./:-]*)\s+(?:is|was)\s+(?:just\s+|only\s+)?"
    r"(?:not\s+(?:the\s+|a\s+)?(?:root\s+|real\s+|actual\s+)?cause|an?\s+red\s+herring|"
    r"a\s+decoy|not\s+involved)\s*\Z",
    re.IGNORECASE,
)
# a quotation is what was read only after a verb of reading or an evidence noun ("— X logs
# "SMTP_PORT not set"", "(error: `connection refused`)"); anywhere else it is the agent's own
# words, read as the comment's (SI red team 41, A9: `— SMTP_PORT "is a red herring".`,
# `— report-renderer is "the cause".`)
_QUOTED = lazy_pattern(r"`[^`]*`|\"[^\"]*\"|“[^”]*”")
_READ_BEFORE = lazy_pattern(
    r"\b(?:logs|logged|log|shows|showed|shown|reports|reported|returns|returned|prints|"
    r"printed|outputs|reads|error|errors|message|messages|event|events|reason|status|with|"
    r"output|see|per|via|run|ran|command)\s*:?\s*\Z",
    re.IGNORECASE,
)


# SI red team 42, H3: verbs and states of working and reaching, positive ("— inventory listens
# on 8081.", "— checkout connects to inventory.", "— notification-service works.", "— orders-db
# is live."): said of an object the statement names (the factor's resource, the symptom
# workload, the stopped dependency) with no negator or condition before them they contradict the
# finding, unless the comment restates the statement word for word ("(session-store listens on
# 6379)")
_WORKING = frozenset(
    {
        "listens", "listen", "listening", "reaches", "reach", "reachable",
        "connects", "connect", "serves", "served", "serving", "works", "work", "working",
        "live", "ready", "available", "healthy", "responds", "responding", "accepts",
    }
)  # fmt: skip
# a negator or a condition before such a word ("— checkout cannot reach inventory.", "; once it
# is back, notification-service works")
_UNDER = frozenset(
    {
        "not", "never", "no", "cannot", "can't", "won't", "doesn't", "isn't", "aren't",
        "wasn't", "didn't", "don't", "once", "when", "after", "until", "will", "would",
        "unreachable", "should", "must", "can", "could", "if", "unless", "then",
    }
)  # fmt: skip
# SI red team 43, H11: what a comment or sentence may add about the statement's own objects is an
# allow-list, not a list of working words ("— inventory is up on 8081.", "— inventory runs on
# 8081.", "— checkout is up.", "— checkout pods are Running." kept the band): the neutral
# vocabulary less its words of a working state, the deviation's words and the symptom's failure
# words; any other word, outside a negation or a condition, contradicts the finding (fail closed)
_WORKING_STATE = frozenset(
    {
        "up", "runs", "run", "running", "live", "ready", "works", "work", "working", "starts",
        "started", "starting", "recovers", "recover", "recovered", "recovering", "comes",
        "come", "back", "reachable", "serves", "served", "deployed", "loaded", "loads",
        "current",
    }
)  # fmt: skip
_FAILURE_WORDS = frozenset(
    {
        "error", "errors", "refused", "refuses", "stuck", "unready", "notready", "down",
        "crashloopbackoff", "failure", "failures", "failing", "broken", "breaks", "degraded",
        "unavailable", "erroring", "oomkilled", "terminated", "waiting", "blocked",
    }
)  # fmt: skip
# a sentence that dates the deviation ("INVENTORY_PORT was changed to 8081 yesterday."; SI red
# team 43, F03): a past verb of change, the past time, and the statement's own value after "to"
_DATING = frozenset(
    {
        "changed", "updated", "edited", "modified", "bumped", "introduced", "set", "yesterday",
        "ago", "earlier", "last", "this", "morning", "night", "week", "day", "days", "hour",
        "hours", "today", "recently", "during", "rollout", "deploy", "release",
    }
)  # fmt: skip
_CHANGED = frozenset({"changed", "updated", "edited", "modified", "bumped", "set"})
# verbs of holding said in the passive ("LEGACY_SHARD_COUNT is held by indexer-config.")
_HELD = frozenset({"held", "stored", "given", "configured", "named", "called", "declared"})
_ON_STATED = (
    NEUTRAL_WORDS
    | _DEVIATION_WORDS
    | _OBJECT_NEGATORS
    | _FAILURE_WORDS
    | _DATING
    | _HELD
    | _CHANGE_VERBS
) - _WORKING_STATE
# a count of the incident after a number ("5 restarts", "3 times"), never a value of the finding
_COUNT_AFTER = lazy_pattern(
    r"\s*(?:restarts?|times|crashes|attempts?|retries|errors?|seconds?|minutes?|hours?|"
    r"back\s*offs?|pods?|replicas?)\b",
    re.IGNORECASE,
)
_NUMBER = lazy_pattern(r"\d")
_FOLD_SPACE = lazy_pattern(r"[^\w./:-]+")


def restates(comment: str, before: str) -> bool:
    """Whether the comment's words, folded, stand in the statement `before` it as written."""
    said = _FOLD_SPACE.sub(" ", comment.casefold()).strip(" .-")
    return bool(said) and said in _FOLD_SPACE.sub(" ", before.casefold())


def _contradicts_working(
    said: str, names: SceneNames, stated: frozenset[str], keyed: bool, before: str
) -> bool:
    """Whether a comment says an object the statement names is working or reaches (`_WORKING`,
    no `_UNDER` word before it), or gives a key a number: read as a state of the finding's
    objects, which only the value and deviation readers may read, never as neutral (SI red
    team 42, H3; fail closed)."""
    if keyed and _NUMBER.search(said):
        return True  # "— checkout-config holds INVENTORY_PORT 8080.", "… reads SMTP_PORT 2525"
    named = {
        _fold_tail(token) for token in _TOKEN.findall(said) if _rest_of_token(token, names) != token
    }
    if named and named <= names.symptom and not named & stated:
        # the failing workload alone, which the statement does not name, said to work (SI red team
        # 44, H8: "— checkout is up / works / is Running"): any word of a working state outside
        # a negator or a condition (fail closed)
        words = " ".join(_rest_of_token(token, names) for token in _TOKEN.findall(said))
        if _FAILURE_DENIED.search(words) is not None:
            return True  # SI red team 45, H10: "— checkout has no errors."
        # a zero count is no working state ("— checkout runs 0 ready replicas.")
        words = _ZERO_COUNT.sub(" ", words)
        return _UP.search(words) is not None or says_working(
            words, before, allow_list=False, working=_WORKING | _SYMPTOM_WORKING
        )
    if not named & stated:
        return False
    # the names aside: the allow-list reads the words the comment adds (SI red team 43, H11);
    # a comment that names another object too is that object's ("— batch-processor is
    # unrelated to user-service"): only its working words are read
    others = bool(named - stated)
    return says_working(
        " ".join(_rest_of_token(token, names) for token in _TOKEN.findall(said)),
        before,
        allow_list=not others,
    )


_COUNT_SHORT = lazy_pattern(r"\A(\d+)/(\d+)\Z")
_NUMBER_AFTER = lazy_pattern(r"\s+(?:on\s+|at\s+|to\s+|port\s+)?(\d+)\b", re.IGNORECASE)


# the states a failing workload is said to be well in beyond `_WORKING` (SI red team 44, H8)
_SYMPTOM_WORKING = frozenset(
    {
        "running", "fine", "ok", "okay", "good", "green", "alive",
        "stable", "recovered", "recovers", "normal", "normally",
        "operational", "online", "functional", "functioning", "succeeds", "passing",
    }
)  # fmt: skip


# SI red team 45, H10: the failing workload said to work through a failure word under a
# negator ("— checkout is not failing.", "— checkout has no errors.", "— checkout never
# crashed.", "— checkout is not down.") or a word of being spared ("— checkout is
# unaffected."): a working state read by its polarity, not by a list of working words
_FAILURE_DENIED = lazy_pattern(
    r"(?:\b(?:not|no|never|nor|without|zero|stopped|stops|ceased|ceases)\b|n['’]t\b)\s+"
    r"(?:(?:\w+\s+){0,2}?)(?:fail\w*|crash\w*|down|errors?|erroring|broken|break\w*|affected|"
    r"impacted|degraded|unavailable|unhealthy|problems?|issues?|trouble|outage)\b|"
    r"\b(?:unaffected|unharmed|unimpacted|undamaged|untouched|error[-\s]free|fault[-\s]free)\b",
    re.IGNORECASE,
)
_ZERO_COUNT = lazy_pattern(r"\b(?:0|no|zero)\s+[\w-]+")
# "up" as a state ("is up", "back up", "up and running"), not in "start-up" or "picks up"
_UP = lazy_pattern(
    r"\b(?:is|are|was|were|be|been|stays?|remains?|back)\s+up\b(?!\s*-)|\bup\s+and\s+running\b",
    re.IGNORECASE,
)


def says_working(
    said: str,
    statement: str = "",
    allow_list: bool = True,
    key_named: bool = False,
    working: frozenset[str] = _WORKING,
) -> bool:
    """Whether `said` (its names blanked; its quotations, what was read, aside), said of the
    statement's own objects, contradicts the finding: with `allow_list` (SI red team 43, H11), a
    word off `_ON_STATED`, a word of a working state, or a number that neither counts the
    incident nor stands in the statement after the same word; without it (the words are
    another object's too), a word of working or reaching (`_WORKING`; SI red team 42, H3).
    Either only outside a negator, a condition or a short count ("0/1 ready") before it, and a
    working word is not read where the statement says it with the same number ("listens on
    8080")."""
    said = _QUOTED.sub(" ", said)
    folded = statement.casefold()
    under = False
    changed = False
    previous = ""
    for token in re.finditer(r"\d+/\d+|\d+|[^\W\d_]+(?:['’][^\W\d_]+)?", said):
        word = token.group().casefold().replace("’", "'")
        count = _COUNT_SHORT.match(word)
        before, previous = previous, word
        changed = changed or word in _CHANGED
        if word in _UNDER or (
            count is not None and (count[1] == "0" or int(count[1]) < int(count[2]))
        ):
            under = True
        elif under or count is not None:
            continue
        elif word in working:
            number = _NUMBER_AFTER.match(said, token.end())
            if number is None:
                return True
            again = rf"\b{re.escape(word)}\s+(?:on\s+|at\s+|to\s+|port\s+)?{number[1]}\b"
            if re.search(again, folded) is None:
                return True
        elif not allow_list:
            continue
        elif word.isdigit():
            # a number said of the statement's objects is a value claim unless it counts the
            # incident or stands in the statement after the same word (SI red team 43, H11:
            # "— the inventory port is 8081.", "(inventory on 8081)"; fail closed)
            if _COUNT_AFTER.match(said, token.end()) is not None:
                continue
            if changed and before == "to" and re.search(rf"\b{word}\b", folded) is not None:
                continue  # "… was changed to 8081 yesterday.": the deviation dated
            if not before:
                # a number first restates the statement's own ("(6380; …)") or claims a value
                if re.search(rf"(?<![\d.]){word}(?![\d.])", folded) is None:
                    return True
                continue
            # the statement's quoted value is the key's: restated only where the key is named
            # ("INVENTORY_PORT is 8081 in checkout-config."), never of another object ("— the
            # inventory port is 8081.")
            quote = "['\"‘’]?" if key_named else ""
            again = rf"\b{re.escape(before)}\s+(?:on\s+|at\s+|to\s+|port\s+)?{quote}{word}\b"
            if re.search(again, folded) is None:
                return True
        elif word not in _ON_STATED or word in _WORKING_STATE:
            return True  # off the allow-list: "— checkout is up." (SI red team 43, H11)
    return False


def _read_quotations(comment: str) -> str:
    """`comment` with the quotations of what was read blanked and every other quotation's
    words kept as the agent's."""

    def _blank(match: re.Match[str]) -> str:
        before = comment[max(0, match.start() - 40) : match.start()]
        if _READ_BEFORE.search(before) is not None:
            return " "
        return " " + match.group()[1:-1] + " "

    return _QUOTED.sub(_blank, comment)


def _rest_of_token(token: str, names: SceneNames) -> str:
    """The words of `token` outside its longest run of parts that is, whole, a name ("spurious"
    of "payments-api-spurious"); a part with a digit is a generated suffix ("7f9c4" of
    "payments-api-7f9c4"), no word."""
    if names.names_whole(token):
        return ""
    parts = list(_PART.finditer(token))
    for size in range(len(parts) - 1, 0, -1):
        for start in range(len(parts) - size + 1):
            run = parts[start : start + size]
            if names.names_whole(token[run[0].start() : run[-1].end()]):
                rest = [part.group() for part in parts if part not in run]
                return " ".join(part for part in rest if not _DIGIT.search(part))
    return token


# the fix's outcome, a condition on the factor put back ("; once it is present again, X
# recovers"): read as the consequence it opens
_PUT_BACK = lazy_pattern(
    r"\b(?:once|when|after|as\s+soon\s+as)\s+(?:it|the\s+key|the\s+value|\S+)\s+(?:is|has\s+been)\s+"
    r"(?:present|back|restored|re-?added|added|set|correct|right|fixed)(?:\s+again)?\b",
    re.IGNORECASE,
)


def neutral_naming(comment: str, names: SceneNames, before: str = "") -> bool:
    """Whether a comment that names an object is, its names and numbers aside, made only of
    `NEUTRAL_WORDS` (the module docstring); a comment naming no key of the scenario may negate
    a state or say what follows (`_OBJECT_NEGATORS`), judge the state of an object the text
    `before` it does not name (`_STATE_VERDICTS`) or rule a decoy out whole
    (`_DECOY_RULED_OUT`); one naming a key may restate its deviation (`_DEVIATION_WORDS`)."""
    # a mistake denied is no verdict ("; it was not scaled down by mistake or by X")
    said = _DENIED_MISTAKE.sub(r" not \g<between> ", _read_quotations(comment))
    said = _PUT_BACK.sub(" once ", said)
    opener = _CONSEQUENCE.match(said)
    if opener is not None:
        said = said[opener.end() :]
        if not _WORD.search(_words_of(said, names)):
            # "— and report-renderer.": an object added to the finding, no consequence (SI red
            # team 41, A7)
            return False
    # a key of the scenario (an identifier no object could be called: an object's name is
    # lower case, DNS-1123, with no "_"; a key is "SMTP_PORT", "configMapKeyRef"): the factor's
    # own or another's, whose polarity a negation turns round
    keyed = any(
        identifier.casefold() in said.casefold()
        and ("_" in identifier or identifier != identifier.lower())
        for identifier in names.identifiers
    )
    bare = said.rstrip().rstrip(".!?").rstrip()
    decoy = _DECOY_RULED_OUT.match(bare)
    if decoy is not None and not keyed:
        return names.names_whole(decoy.group("subject").rstrip(".,;:"))
    contrast = _CONTRAST.match(bare)
    if contrast is not None:
        return names.names_whole(contrast.group("other").rstrip(".,;:)"))
    stated = _stated(before, names)
    if _contradicts_working(said, names, stated, keyed, before) and not restates(said, before):
        return False
    if keyed:
        words = NEUTRAL_WORDS | _DEVIATION_WORDS
        said = _ABSENCE_AFFIRMED.sub(" is missing ", said)
    else:
        words = NEUTRAL_WORDS | _OBJECT_NEGATORS | _STATE_VERDICTS | _CHANGE_VERBS
    subject = ""  # the last name read: a verdict on the state is said of it
    changing = False  # a verb of change read: the next name is what it changes
    for token in _TOKEN.findall(_RUNS_FINE.sub(" runs ", said)):
        rest = _rest_of_token(token, names)
        if rest != token:
            subject = token
            if changing and _fold_tail(token) not in stated:
                return False  # a change to another object ("— restart report-renderer.")
            changing = False
        for word in _WORD.findall(split_shape(rest).casefold().replace("’", "'")):
            if word not in words:
                return False
            if word in _STATE_VERDICTS and _fold_tail(subject) in stated:
                return False  # a verdict on the statement's own object ("— smtp-config is fine.")
            # what a verb of change acts on is the name right after it ("restart X"), a kind
            # word or an article aside; "add it back or S will not start" changes "it"
            changing = word in _CHANGE_VERBS or (changing and word in _BEFORE_OBJECT)
    return True


def _fold_tail(token: str) -> str:
    return fold_name(token.rsplit("/", 1)[-1]) if token else ""


def _stated(before: str, names: SceneNames) -> frozenset[str]:
    """The objects the text `before` a comment (the statement) names, folded."""
    return frozenset(
        _fold_tail(token) for token in _TOKEN.findall(before) if names.names_whole(token)
    )


def _words_of(said: str, names: SceneNames) -> str:
    """The words of `said` outside its names, folded."""
    rests = (_rest_of_token(token, names) for token in _TOKEN.findall(said))
    return split_shape(" ".join(rests)).casefold().replace("’", "'")


__all__ = ["NEUTRAL_WORDS", "neutral_naming", "restates", "says_working"]
