"""A remedy after the diagnosis is a consequence of it, neither a contradiction nor a comment
(docs/si-scoring.md §11, "Round 34"; SI red team 34, H4).

"Re-add SMTP_PORT=587.", "I recommend re-adding SMTP_PORT=587.", "Fix: add it back.", "— I'd
restore it from git.", "— happy to apply the fix if you want." follow a correct statement of the
factor. The value a remedy gives a key is the value to be restored, not one the system holds, so
the contradiction rules (`_accounted._contradicts_own`) do not read it as "the key is present",
and the comment rules (`_plain_assertion._comment`, `_attached_comment._vouched`) do not withhold
it. Only a plain remedy counts: one that negates, doubts or says the key is already (or still)
there is read by the rules as before (fail closed).
"""

from __future__ import annotations

import re
import unicodedata

from provebench._lazy_pattern import lazy_pattern

# a label before the remedy ("Fix: …", "Next step: …")
_LABEL = r"(?:(?:fix|remedy|solution|resolution|mitigation|next\s+steps?|action)\s*[:—–-]\s*)?"
# who proposes it ("I recommend …", "I'd …", "we should …", "please …")
_PROPOSER = (
    r"(?:(?:i|we)\s+(?:would\s+|['’]d\s+)?(?:recommend|suggest|propose|advise)\s+|"
    r"(?:i|we)\s*(?:['’]d|['’]ll|\s+would|\s+will|\s+can|\s+should)\s+|"
    r"(?:you\s+should|(?:the\s+)?fix\s+is\s+to|please)\s+)?"
)
# the remedy's verb: put the factor back as it should be
_REMEDY_VERB = (
    r"(?:re-?add|add|restor|reinstat|re-?creat|re-?apply|re-?set|set|put|defin|bring|"
    r"roll\s+back|revert|start|scale\s+(?:it\s+|\S+\s+)?back)\w*\b"
)
# an offer to apply it ("happy to apply the fix if you want")
_OFFER = r"(?:(?:i\s+am\s+|i['’]m\s+)?(?:happy|glad|ready)\s+to\s+(?:apply|make|push|roll\s+out)\b)"
_REMEDY = lazy_pattern(rf"\s*{_LABEL}(?:{_PROPOSER}{_REMEDY_VERB}|{_OFFER})", re.IGNORECASE)
# a remedy that negates, doubts or says the factor is already right is no plain remedy
_NOT_PLAIN = frozenset(
    {
        "not", "no", "never", "nothing", "don't", "dont", "don’t", "needn't", "already",
        "still", "unnecessary", "could", "might", "may", "maybe", "perhaps", "probably",
        "but", "though", "although", "wrong", "lol", "jk", "nor", "neither", "nope", "fine",
        "unless", "kidding", "joking",
    }
)  # fmt: skip
_WORD = lazy_pattern(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def is_remedy(text: str) -> bool:
    """Whether `text` (a sentence or an attached comment) is a plain remedy: it opens on the
    remedy's verb, after an optional label and proposer ("Fix: add it back.", "I recommend
    re-adding SMTP_PORT=587."), or on an offer to apply it, and none of its words negates,
    doubts or says the factor is already right (`_NOT_PLAIN`)."""
    folded = unicodedata.normalize("NFC", text)
    if _REMEDY.match(folded) is None:
        return False
    words = {word.casefold() for word in _WORD.findall(folded)}
    contracted = any(word.endswith(("n't", "n’t")) for word in words)  # "isn't", "doesn't"
    return not (contracted or _NOT_PLAIN.intersection(words))


__all__ = ["is_remedy"]
