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
"""

from __future__ import annotations

import re

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._comment_disowning import unquoted
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
# system and the states Kubernetes reports of them
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
        "did", "can", "cannot", "can't", "won't", "doesn't", "isn't", "aren't", "wasn't",
        "didn't", "not", "never", "no", "reads", "read", "reading", "runs", "run", "running",
        "starts", "start", "started", "starting", "restarts", "restart", "restarted",
        "restarting", "crashes", "crash", "crashed", "crashing", "fails", "fail", "failed",
        "failing", "waits", "wait", "waiting", "listens", "listen", "listening", "holds", "hold",
        "uses", "use", "used", "expects", "expect", "expected", "mounts", "mount", "mounted",
        "references", "reference", "referenced", "points", "point", "connects", "connect",
        "depends", "depend", "shows", "show", "shown", "showed", "lists", "listed", "logs",
        "logged", "returns", "returned", "serves", "served", "sets", "set", "lacks", "lack",
        "misses", "keeps", "stays", "remains", "rejects", "rejected", "refuses", "refused",
        "loads", "loaded", "exits", "exited", "reaches", "reach", "calls", "call", "owns",
        "scaled", "scale", "stopped", "ready", "healthy", "unhealthy", "unaffected", "fine",
        "ok", "okay", "affected", "available", "unavailable", "pending", "missing", "absent",
        "present", "unset", "empty", "wrong", "correct", "live", "current", "deployed",
        "reachable", "unreachable", "killed", "evicted", "backoff", "loop", "replica",
        "replicas", "zero", "twice", "times", "seconds", "minutes", "minute", "second",
        "hours", "exit", "code", "connection", "timeout", "timed",
        "endpoint", "endpoints", "cause", "red", "herring", "decoy", "recovers", "recover",
        "recovered", "recovering", "works", "work", "working", "comes", "come", "back",
        "unexpected", "extra", "means", "why", "how",
        "explains", "explain", "contains", "contain", "defined", "define", "defines",
        "required", "requires", "require", "needs", "need", "needed", "such", "should", "must",
        "add", "adds", "restore", "restores", "map", "ref", "irrelevant", "unrelated",
        "involved", "fault", "failure", "error", "errors", "outage", "symptom", "alert", "alerts",
        "affects", "breaks", "broken", "because", "result", "consequence", "loops", "will",
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


def neutral_naming(comment: str, names: SceneNames) -> bool:
    """Whether a comment that names an object is, its names, numbers and quotations aside,
    made only of `NEUTRAL_WORDS` (the module docstring)."""
    # a mistake denied is no verdict ("; it was not scaled down by mistake or by X")
    said = _DENIED_MISTAKE.sub(r" not \g<between> ", unquoted(comment))
    opener = _CONSEQUENCE.match(said)
    if opener is not None:
        said = said[opener.end() :]
    for token in _TOKEN.findall(said):
        rest = _rest_of_token(token, names)
        for word in _WORD.findall(split_shape(rest).casefold().replace("’", "'")):
            if word not in NEUTRAL_WORDS:
                return False
    return True


__all__ = ["NEUTRAL_WORDS", "neutral_naming"]
