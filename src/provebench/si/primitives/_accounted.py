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

Cost: one pass over the sentences from the statement's on, each read once by a compiled pattern.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from provebench.si.primitives._matching import ChannelText
from provebench.si.primitives._plain_assertion import Unplain

# an object, place, remediation or evidence verb of a system under diagnosis: a sentence naming
# one speaks of the system (it may still be read by the other rules)
_SYSTEM_WORDS = (
    r"configmaps?|config|configuration|keys?|pods?|deployments?|containers?|secrets?|services?|"
    r"namespaces?|clusters?|nodes?|disks?|cpu|memory|alerts?|logs?|events?|replicas?|ports?|"
    r"env|environment|variables?|images?|volumes?|kubectl|dependenc(?:y|ies)|settings?|"
    r"endpoints?|manifests?|spec|probes?|startup|start-up|crashloopbackoff|oomkilled|"
    r"statefulsets?|daemonsets?|jobs?|scheduler|network|dns|tls|smtp|database|queue|"
    r"storage|quota|limits?|requests?|entry|entries|field|fields|data|metadata|yaml|json|"
    r"add|adding|added|set|setting|restore|restoring|patch|patching|apply|applying|restart|"
    r"restored|restarting|roll(?:ed|ing)?|rollout|redeploy(?:ing)?|scale|scaling|scaled|remove|removing|"
    r"revert(?:ing)?|recreate|edit|fix(?:ed|es|ing)?|removed|deleted|chang(?:e|ed|es)|deploy(?:ed)?|"
    r"checked|verified|confirmed|observed|inspected|read|shows?|showed|describe|output"
)
_SYSTEM = re.compile(rf"\b(?:{_SYSTEM_WORDS})\b|\d", re.IGNORECASE)
_IDENTIFIER_SHAPED = re.compile(
    r"[A-Za-z][A-Za-z0-9]*(?:[_/.:-][A-Za-z0-9]+)+|[A-Za-z]*[a-z][A-Z][A-Za-z0-9]*"
)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
# a courtesy closes an answer and says nothing of it
_COURTESY = re.compile(
    r"\A\W*(?:thanks?(?:\s+you)?|cheers|hope\s+(?:this|that|it)\s+helps|happy\s+to\s+help|"
    r"let\s+me\s+know\b[^?]*|done|(?:best|kind|warm)\s+regards|regards|sincerely)\W*\Z",
    re.IGNORECASE,
)
# a sentence that refers back to the statement and says it is the cause, or that it is needed
# ("That is the real root cause.", "That is why S cannot start.", "It is not optional."): it
# speaks of the statement and affirms it
_AFFIRMS_BACK = re.compile(
    r"\A\W*(?:that|this|it|which)(?:['’]s|\s+is|\s+was)?\s+(?:exactly\s+|precisely\s+|also\s+)?"
    r"(?:(?:the\s+)?(?:(?:real|actual|root|main|only|underlying|true|sole)\s+)*"
    r"(?:cause|culprit|reason|problem|fault)\b|why\b|(?:explains|causes|caused)\b|"
    r"(?:required|needed|mandatory|necessary|not\s+optional)\b)|"
    r"\A\W*(?:that|this|the)\s+(?:statement|claim|finding|diagnosis)(?:\s+above)?\s+(?:is|was)\s+"
    r"(?:correct|right|accurate|true|confirmed)\W*\Z",
    re.IGNORECASE,
)
_NEGATION = re.compile(r"\b(?:not|no|never|nothing|none|nor|neither)\b|n['’]t\b", re.IGNORECASE)
_QUESTION = re.compile(r"[?？¿‽]")
_NEGATED = re.compile(r"(?:\bnot|\bno\s+longer|\bnever|n['’]t)\s+(?:\w+\s+){0,2}?(\w+)", re.I)
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
_VERB_LIKE = re.compile(
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
        "due", "owing",
    }
)  # fmt: skip
_AFFIRMING_FRAME = re.compile(
    r"\A(?:there\s+is\s+no\s+doubt\s+that|there\s+is\s+no\s+denying(?:\s+that)?|"
    r"it\s+cannot\s+be\s+denied(?:\s+that)?|nobody\s+can\s+deny\s+that|"
    r"beyond\s+(?:any|all|a)\s+doubt|without\s+(?:a\s+)?doubt|no\s+question|no\s+doubt|"
    r"not\s+only\s+is|for\s+sure|certainly|definitely|undoubtedly|unquestionably|no|yes)"
    r"(?:\Z|\s)"
)
# where a frame stops governing: a clause that opens on a name after one of these
_FRAME_END = re.compile(r"[;:—–]|\bbut\b", re.IGNORECASE)
_ANSWERING = frozenset(
    {"no", "yes", "it", "it's", "that", "that's", "this", "they", "neither", "both"}
)
_CLAUSE_END = re.compile(r"[,;:—–]")
_TAG = re.compile(r"<[^<>]*>")
# a sentence of the scope of the finding ("Nothing else is wrong."): it speaks of the system
_SCOPE = re.compile(
    r"\A\W*(?:nothing\s+else|no\s+other\s+\w+)\s+(?:is|was|seems|looks)\s+(?:wrong|missing|"
    r"broken|misconfigured|affected|changed)\W*\Z",
    re.IGNORECASE,
)
_CAUSAL = re.compile(r"\b(?:because|since|so|as|due|owing)\b", re.IGNORECASE)
_STATE_SUBJECT = re.compile(
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
_CARRIED = frozenset({"they", "it", "this", "that", "which", "these", "those", "and", "so"})


class _Reader:
    def __init__(self, channel: ChannelText, identifiers: Sequence[str]) -> None:
        self.text = channel.text
        self.channel = channel
        self._names = [name.casefold() for name in identifiers if name]

    def names(self, start: int, end: int) -> bool:
        """Whether `text[start:end]` names something of the system."""
        piece = self.text[start:end]
        folded = piece.casefold()
        return (
            any(name in folded for name in self._names)
            or _SYSTEM.search(piece) is not None
            or any(len(m.group()) >= 4 for m in _IDENTIFIER_SHAPED.finditer(piece))
        )

    def names_other(self, start: int, end: int, own: set[str]) -> bool:
        """Whether `text[start:end]` names an identifier that is not one of `own`."""
        piece = self.text[start:end]
        folded = piece.casefold()
        return any(name in folded and name not in own for name in self._names) or any(
            len(m.group()) >= 4 and m.group().casefold() not in own
            for m in _IDENTIFIER_SHAPED.finditer(piece)
        )

    def first_name(self, start: int, end: int) -> int:
        """Where the first name of the system in `text[start:end]` begins (`end` if none)."""
        piece = self.text[start:end]
        folded = piece.casefold()
        found = [folded.find(name) for name in self._names]
        # the factor's own name is folded out of the shaped text: `end` stands for it
        at = min([where for where in found if where >= 0], default=len(piece))
        system = _SYSTEM.search(piece)
        if system is not None:
            at = min(at, system.start())
        for match in _IDENTIFIER_SHAPED.finditer(piece):
            if len(match.group()) >= 4:
                at = min(at, match.start())
                break
        return start + at


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
    return [word.casefold().replace("’", "'") for word in _WORD.findall(text)]


def _statement_names(text: str, start: int, end: int, factor_texts: set[str]) -> set[str]:
    piece = text[start:end]
    return factor_texts | {
        m.group().casefold() for m in _IDENTIFIER_SHAPED.finditer(piece) if len(m.group()) >= 4
    }


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


def _frame_holds(reader: _Reader, start: int, first: int) -> bool:
    """Whether the words from `start` to the first name of the system before `first` are a
    frame known to affirm or to be neutral."""
    text = reader.text
    name_at = reader.first_name(start, first)
    name_at = start + _subject_at(text[start:name_at], text[start:first])
    frame = _TAG.sub(" ", text[start:name_at])  # an HTML tag is markup, not words
    words = _words(re.sub(r"['’]s\b", " is", frame))
    if all(word in _FRAME_WORDS for word in words):
        return True
    # an idiom that affirms, then neutral words ("There is no doubt that the …")
    joined = " ".join(words)
    idiom = _AFFIRMING_FRAME.match(joined)
    return idiom is not None and all(word in _FRAME_WORDS for word in joined[idiom.end() :].split())


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
    if _frame_holds(reader, frame_start, first):
        return None
    said = text[start:first].strip()
    return Unplain("ungoverned_frame", start, first, f"the frame {said!r}")


def _tail(reader: _Reader, end: int, last: int, own: set[str]) -> Unplain | None:
    text = reader.text
    # the last comma or dash after the factor's last name (found from the right: linear)
    separator = max(text.rfind(mark, last, end) for mark in ",—–")
    if separator < 0:
        return None
    tail_start = separator + 1
    tail = text[tail_start:end].rstrip().rstrip(".!").rstrip()
    words = _words(tail)
    if not words or words[0] in _CLAUSE_WORD or "(" in tail or ")" in tail:
        return None
    if reader.names(tail_start, end) or reader.names_other(last, separator, own):
        return None  # it speaks of a name, or of the names listed before it ("…, D or E, run fine")
    if _AFFIRMING_FRAME.match(" ".join(words)):
        return None  # ", no doubt": an idiom that affirms
    if _VERB_LIKE.search(tail):
        return None  # a clause with a verb goes on with the statement ("…, checkout recovers")
    return Unplain(
        "unaccounted_tail", tail_start, tail_start + len(tail), f"the clause {tail.strip()!r}"
    )


def accounted_shapes(
    channel: ChannelText, first: int, last: int, factor_texts: set[str], identifiers: Sequence[str]
) -> list[Unplain]:
    """The shapes of the module docstring for a statement whose first factor name is at `first`
    and last one at `last`; `factor_texts` are the factor's names as written."""
    reader = _Reader(channel, identifiers)
    text = reader.text
    found: list[Unplain] = []
    statement = channel.sentence_containing(first, first + 1)
    if statement is None:
        return found
    frame = _ungoverned_frame(reader, statement.start, first)
    if frame is not None:
        found.append(frame)
    own = _statement_names(text, statement.start, statement.end, factor_texts)
    deviation = set(_words(text[statement.start : statement.end])) & _DEVIATION
    last_sentence = channel.sentence_containing(last, last + 1)
    if last_sentence is not None:
        # the names of the factor's own clause; a name after it is another's ("…; D, E, run fine")
        clause = _CLAUSE_END.search(text, last, last_sentence.end)
        clause_end = clause.start() if clause is not None else last_sentence.end
        tail = _tail(
            reader,
            last_sentence.end,
            last,
            _statement_names(text, last_sentence.start, clause_end, factor_texts),
        )
        if tail is not None:
            found.append(tail)
    if _QUESTION.search(text, statement.start, statement.end):
        return found  # a question states nothing; the rule `question` reads it
    after = statement.end
    # a sentence that names nothing is read with the nearest one before it that names
    # something: after a question of something else, its bare answer and one sentence that
    # opens on a pronoun ("Is D the cause? No. It is a red herring."); after a sentence naming
    # another identifier, one sentence ("D is unrelated. I disagree.": of D, which the
    # dismissal rules read). After the statement or a sentence of its own names, none.
    answering, any_sentence = 0, False
    for sentence in channel.sentences:
        if sentence.start < after:
            continue
        piece = text[sentence.start : sentence.end]
        folded = piece.casefold()
        names_own = any(name in folded for name in own)
        words = _words(piece)
        if _QUESTION.search(piece):
            other = reader.names(sentence.start, sentence.end) and not names_own
            answering, any_sentence = (2 if other else 0), False
            if not other and words not in (["why"], ["how"]):  # "Why?" asks for what follows
                found.append(
                    Unplain("factor_question", sentence.start, sentence.end, f"{piece.strip()!r}")
                )
            continue
        if not reader.names(sentence.start, sentence.end):
            if answering and (
                any_sentence
                or words in (["no"], ["yes"], ["nope"])
                or (words and words[0] in _ANSWERING)
            ):
                answering -= 1
                continue
            if not (
                _COURTESY.match(piece.strip())
                or _SCOPE.match(piece)
                or _affirms_back(piece)
                or (not deviation and _continues(words, piece))
            ):
                found.append(
                    Unplain(
                        "unaccounted_sentence",
                        sentence.start,
                        sentence.end,
                        f"the sentence {piece.strip()!r} names nothing of the system",
                    )
                )
            answering = 0
            continue
        if names_own:
            for negated in _NEGATED.finditer(piece):
                if negated.group(1).casefold() in deviation:
                    found.append(
                        Unplain("factor_negated", sentence.start, sentence.end, repr(piece))
                    )
                    break
            answering = 0
        elif reader.names_other(sentence.start, sentence.end, own):
            answering, any_sentence = 1, True
        else:
            answering = 0
    return found


__all__ = ["accounted_shapes"]
