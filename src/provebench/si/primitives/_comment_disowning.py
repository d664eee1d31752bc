"""Words that disown the statement inside a comment on it, whatever the comment names
(docs/si-scoring.md §11, "Round 39: a name does not vouch for a disowning comment"; SI red team
39, W1-W3).

Under the strict reading (a provebench registry extension beside SI §2.2, never a change to it)
`_attached_comment._vouched` let a comment through as soon as it named an object of the scenario,
before it read a word of it: "— not the cause, per payments-api.", "— I made this up about
inventory.", "— checkout-config disagrees.", "— DB_USER says nope." kept the top band. Naming an
object makes a comment a locus; it does not make its words neutral. Three kinds of words disown
the statement wherever they stand in a comment, read over the comment's words (an identifier's
shape split at its joints and humps, so "NotTheCause_DB_PASSWORD" and "recommendations-is-false"
are read as words too):

* **truth**: a word that calls something untrue ("false", "untrue", "nope", "bogus", "made up",
  "not true", "a red herring"; "wrong" where it judges, not where it names a wrong value);
* **disagreement**: a verb that puts doubt in someone's mouth ("disagrees", "denies",
  "disputes", "contradicts", "doubts"; not "no doubt");
* **disowning**: the statement's cause denied with no other subject ("not the cause, per X";
  "X is not the cause" of another object X is a decoy ruled out and stays), the first person
  inventing or taking back ("I made this up", "I take it back", "scratch that", "just
  kidding", "retracted").

Quoted text (a log line: "`healthy == false`") is what was read, not the agent's word, and a key
given a value ("SMTP_TLS=false") is a value: neither is read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from provebench._lazy_pattern import lazy_pattern

# a truth word; "wrong" only where no noun follows it ("wrong, says X"; not "a wrong value")
_TRUTH = (
    r"false|falsely|untrue|nope|nah|incorrect|bogus|fake|phony|fabricated|fabrication|made\s+up|"
    r"fictional|fictitious|imaginary|imagined|hoax|myth|lie|lies|lying|nonsense|not\s+(?:true|so|the\s+case|correct|right|accurate|real(?:ly)?|it)|"
    r"wrong(?!\s+(?!(?:about|per|says?|said|according|as|for|of|and|but|or|to|again|here|"
    r"there|all|too|anyway)\b)[a-z])"
)
# a verb of disagreement (an object's doubt is doubt all the same); "no doubt" affirms
_DISAGREEMENT = (
    r"disagree(?:s|d|ing)?|den(?:y|ies)|denying|disput(?:e|es|ed|ing)|refut(?:e|es|ed|ing)|"
    r"contradict(?:s|ed|ing)?|(?<!no\s)(?<!without\s)(?<!beyond\s)(?<!little\s)"
    r"doubt(?:s|ed|ful|ing)?|disprov(?:e|es|ed|en)|debunk(?:s|ed)?"
)
# the first person inventing or taking the statement back, or a retraction in any person
_DISOWNING = (
    r"(?:i|we)\s+(?:just\s+)?(?:made|make)\s+(?:\w+\s+){0,2}up|"
    r"(?:i|we)\s+(?:just\s+)?(?:invented|imagined|guessed|fabricated|retract|withdraw)|"
    r"take\s+(?:it|that|this|everything)\s+back|took\s+(?:it|that|this)\s+back|"
    r"scratch\s+that|(?:just\s+)?kidding|joking|a\s+joke|retract(?:s|ed|ion)?|withdrawn|"
    r"never\s*mind|disregard|ignore\s+(?:this|that|me|it|the\s+above|all)"
)
_VERDICT = lazy_pattern(rf"\b(?:{_TRUTH}|{_DISAGREEMENT}|{_DISOWNING})\b")
# the cause denied or set aside as a decoy: what stands before it in its clause is its subject
_CAUSE_DENIED = lazy_pattern(
    r"(?:\bnot|n['’]t|\bnever|\bno\s+longer)\s+(?:(?:the|a|an|its|their)\s+)?"
    r"(?:real\s+|root\s+|actual\s+)?(?:cause|culprit|reason|problem|issue|source|trigger)\b|"
    r"\b(?:red\s+herrings?|decoys?|distractions?)\b"
)
# the words between a decoy's subject and the denial ("ledger-exporter is just a red herring")
_COPULA = frozenset(
    {
        "is", "are", "was", "were", "s", "seems", "looks", "just", "only", "merely", "a", "an",
        "the", "also", "itself", "clearly", "simply", "another",
    }
)  # fmt: skip
# words that put the denial in another's mouth rather than make the name its subject
_SAYING = frozenset({"says", "say", "said", "per", "see", "like", "according", "claims"})
# what refers to the statement itself, not to another object
_STATEMENT_SUBJECT = frozenset({"this", "that", "it", "which", "all", "everything", "above"})
# quoted text and a key given a value: what was read, not the agent's word
_QUOTED = lazy_pattern(r"`[^`]*`|\"[^\"]*\"|“[^”]*”")
_KEY_VALUE = lazy_pattern(r"\b[A-Za-z][\w.-]*\s*[=:]=?\s*(?:false|no|none)\b", re.IGNORECASE)


def unquoted(comment: str) -> str:
    """`comment` without its quotations and its `key=value` pairs."""
    return _KEY_VALUE.sub(" ", _QUOTED.sub(" ", comment))


def holds_a_verdict(words: str) -> bool:
    """Whether `words` (lower case, one space between words) hold a truth word, a verb of
    disagreement or a retraction."""
    return _VERDICT.search(words) is not None


def disowns(words: Sequence[str], names_another: Callable[[Sequence[str]], bool]) -> bool:
    """Whether a comment's `words` (lower case, `_plain_assertion._words` of `unquoted`) disown
    the statement: a verdict word (above), or the cause denied of no subject but the statement
    ("not the cause, per X", "this is not the cause"); a subject that `names_another` (an object
    of the scenario other than the factor) rules a decoy out instead ("ledger-exporter is not
    the cause")."""
    said = " ".join(words)
    if holds_a_verdict(said):
        return True
    for denied in _CAUSE_DENIED.finditer(said):
        subject = said[: denied.start()].split()
        while subject and subject[-1] in _COPULA:
            subject.pop()
        if (
            not subject
            or _STATEMENT_SUBJECT.intersection(subject[-3:])
            or _SAYING.intersection(subject)
            or not names_another(subject)
        ):
            return True
    return False


__all__ = ["disowns", "holds_a_verdict", "unquoted"]
