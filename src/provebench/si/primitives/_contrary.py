"""The contrary of a statement's deviation, read by its type in the clause that governs the
factor's name (SI red team 27, W; docs/si-scoring.md §11, "Round 27: the contrary is read in
its clause").

A sentence after the statement naming the factor's key may say the key is there ("smtp-config
carries SMTP_PORT"), gone ("indexer-config has no LEGACY_SHARD_COUNT"), given a value
("INVENTORY_PORT is 8080") or that a stopped object runs ("orders-db is at 1/1"). Round 26 read
a verb of holding followed within 60 characters by the key, across clause boundaries: "has
SMTP_HOST but lacks SMTP_PORT" read as holding SMTP_PORT, and a long aside between the verb and
the key hid it. Here each coordinate clause (cut at ";", ":", a dash, "but", "yet", "whereas",
"while", "although", "though", "however") is read on its own:

* **object**: a verb of holding governs the key only where the words between them are
  determiners, list joints or modifiers of a key (`_OBJECT_WORDS`), an aside between commas
  left out ("contains, as anyone can see, SMTP_PORT"); "has an env entry referencing
  SMTP_PORT" holds an entry, not the key;
* **place**: the key said to be in or at a place by a verb of being or staying ("SMTP_PORT
  sits right there in smtp-config");
* **voice**: the key as the subject of a passive, a relative or a topic taken up by "it" ("is
  held by smtp-config", "is a key that smtp-config has", "SMTP_PORT, smtp-config has it"), and
  a colon after a verb of holding introducing its object (SI red team 29, G1 and G2; the rest of
  a clause's structure is a limit, docs/si-scoring.md §11, "Round 28");
* **polarity**: a negation before the verb or between it and the key, a verb of lacking, or a
  word of absence or failure after the key up to the next comma ("shows SMTP_PORT as an
  unresolved reference", "an entry … SMTP_PORT that cannot resolve") says the key is absent;
* a clause that opens on a condition, or whose verb follows a modal or "to" ("should have
  SMTP_PORT"), says what to do, not what is.

Round 31 (SI red team 31, H2; docs/si-scoring.md §11, "Round 31: the statement's own
sentence") adds two readers of the statement's own sentence: `identity_denied` (a copula's
negation denying the identity the clause states: "What smtp-config lacks is not SMTP_PORT") and
`postposed_condition` (a clause after the statement headed by a subordinator of condition:
", assuming the describe output was current"); and `key_said` is asked of that sentence too.

The verbs of holding and of being somewhere are a lexicon, and the reading says so: they are the
predicates of presence a key can take, and a word outside them is read as saying nothing of the
key's presence (a limit, docs/si-scoring.md §11).

Cost: one pass per clause naming the factor's key; most sentences name none and are not read.
"""

from __future__ import annotations

import re

from provebench._lazy_pattern import lazy_pattern

# what `_accounted._Reader.without_objects` writes for a name of the factor
MARK = "factorname"

_KEY_CLAUSES = lazy_pattern(
    r"[;:—–]|\b(?:but|yet|whereas|while|although|though|however)\b", re.IGNORECASE
)
# verbs whose object is what an object holds: the predicates of a key's presence (a lexicon)
_HOLDING = lazy_pattern(
    r"\b(?:holds?|holding|contains?|containing|includes?|including|shows?|showing|sets|has|"
    r"have|having|lists?|listing|carr(?:y|ies|ying)|defines?|defining|provides?|providing|"
    r"keeps?|keeping|stores?|storing|exposes?|declares?|retains?|boasts?|features?|gets?|got|"
    # a verb of finding: "I found SMTP_PORT in smtp-config" holds it, "couldn't find key
    # SMTP_PORT" does not (SI red team 29, H6)
    r"finds?|found|locate[sd]?)\b",
    re.IGNORECASE,
)
_OBJECT_COLON = lazy_pattern(
    r"\b((?:holds?|contains?|includes?|lists?|has|have|carr(?:y|ies)|defines?|provides?|keeps?|"
    r"stores?|exposes?|declares?|lacks?|misses))\s*[:：]",
    re.IGNORECASE,
)
_LACKING = lazy_pattern(
    r"\b(?:lacks?|lacking|lacked|misses|omits?|omitting|drops?|(?:free|rid|clear|cleared)\s+of)\b",
    re.IGNORECASE,
)
# the key said gone after it ("LEGACY_SHARD_COUNT was removed from indexer-config")
_GONE = lazy_pattern(
    r"\A\W*(?:is|are|was|were|has\s+been|have\s+been|got)\s+(?:\w+\s+)?(?:removed|deleted|"
    r"dropped|gone|absent|missing|unset|taken\s+out|pulled)\b",
    re.IGNORECASE,
)
# the words that may stand between a verb of holding and its object
_OBJECT_WORDS = frozenset(
    {
        "the", "a", "an", "its", "their", "key", "keys", "entry", "entries", "value", "values",
        "variable", "setting", "field", "also", "still", "indeed", "actually", "really", "and",
        "or", "both", "all", "every", "plainly", "clearly", "just", "only", "now", "already",
        "well", "env", "one", "single", "named", "called", "certainly",
        "definitely", "obviously", "truly", "data",
    }
)  # fmt: skip
# a verb of being or staying somewhere, then the place (a lexicon, as `_HOLDING`)
_LOCATED = lazy_pattern(
    r"\A\W*(?:(?:key|entry|value|variable|setting)\s+)?(?:is|are|was|were|sits?|sat|lives?|"
    r"resides?|stays?|remains?|lies|appears?|exists?|shows\s+up)\b"
    r"(?:\s+(?:right|just|still|already|actually|really|plainly|clearly|indeed|safely|now|"
    r"all|along|listed|defined|stored|kept|included|contained|present|set|declared|sitting|"
    r"there|here))*\s+(?:there|here|in|inside|within|under|at)\b"
    # "in fact", "in short": an adverb of the sentence, no place ("SMTP_PORT is in fact missing")
    r"(?!\s+(?:fact|short|truth|reality|effect|practice|general|particular|turn|sum)\b)",
    re.IGNORECASE,
)
# a word that says the key is absent or fails, said of it in its clause
_RESTATING = lazy_pattern(
    r"\b(?:not|no|never|none|nor|neither|without|cannot|lacks?|lacking|missing|absent|unset|"
    r"undefined|unresolv\w*|removed|deleted|empty|gone|fails?|failed|failing|error\w*)\b|"
    r"n['’]t\b",
    re.IGNORECASE,
)
_NEGATION = lazy_pattern(r"\b(?:not|no|never|none|nor|neither|without)\b|n['’]t\b", re.I)
_MODAL = frozenset(
    {"should", "must", "need", "needs", "ought", "would", "could", "will", "to", "shall", "may"}
)
_CONDITIONS = frozenset({"once", "when", "if", "after", "until", "unless", "whenever"})
_WORD = lazy_pattern(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
# an aside between commas, or from a comma to the object ("contains, as anyone can see, X")
_ASIDE = lazy_pattern(r",.*,|\A\s*,[^,]*\Z", re.DOTALL)

HELD, ABSENT = "held", "absent"


def _words(text: str) -> list[str]:
    return [word.casefold() for word in _WORD.findall(text)]


_ADVERBS = frozenset({"also", "still", "already", "really", "actually", "just", "definitely"})
# a remedy's state said to hold ("should have SMTP_PORT, and it does")
_AFFIRMED = lazy_pattern(
    r"[^.;]*?,?\s*(?:and|which)\s+(?:it|they|that)\s+(?:does|do|did|is|are|has|have)\b"
    r"(?!\s*(?:not|n['’]t)\b)",
    re.IGNORECASE,
)


_JOINED_CLAUSE = lazy_pattern(r"\b(?:and|so|therefore|thus|hence|which\s+is\s+why)\b", re.I)


def _said_by_verb(clause: str, at: int) -> str | None:
    """What the verb of holding or lacking that governs the key at `at` says of it, or None
    where no such verb has the key as its object."""
    before = clause[:at]
    verbs = [*_HOLDING.finditer(before), *_LACKING.finditer(before)]
    if not verbs:
        return None
    verb = max(verbs, key=lambda found: found.start())
    between = _ASIDE.sub(" ", before[verb.end() :])
    words = _words(between)
    negated = any(word in ("no", "not", "never", "none", "without") for word in words)
    if not all(word in _OBJECT_WORDS or word in ("no", "not", "none") for word in words):
        return None  # "has an env entry referencing SMTP_PORT": the entry is the object
    leading = [word for word in _words(before[: verb.start()]) if word not in _ADVERBS][-1:]
    if leading and leading[0] in _MODAL:
        # "should have SMTP_PORT": a remedy; the modal governs the verb only next to it ("You
        # will find that smtp-config has SMTP_PORT" states; SI red team 29, G4), and "…, and
        # it does" says the remedy's state is there
        affirmed = _AFFIRMED.match(clause, at + len(MARK))
        return HELD if affirmed is not None and _LACKING.fullmatch(verb.group()) is None else None
    lacking = _LACKING.fullmatch(verb.group()) is not None
    negated = negated or _NEGATION.search(before[: verb.start()]) is not None
    # the key's own clause: a clause joined after it ("…, so no key is missing", "… and no
    # key is missing") says its own thing (SI red team 31, H2)
    after = _JOINED_CLAUSE.split(clause[at + len(MARK) :].split(",", 1)[0], 1)[0]
    restated = _RESTATING.search(after) is not None
    return ABSENT if lacking or negated or restated else HELD


# the key as the subject or the topic of a verb of holding (SI red team 29, G1): the passive
# ("is held by smtp-config", "is provided by", "is among the keys of"), a relative clause ("is a
# key that smtp-config has") and a topic taken up by "it" ("SMTP_PORT, smtp-config has it")
_PARTICIPLE = (
    r"held|provided|contained|included|listed|defined|stored|kept|carried|declared|exposed|"
    r"set|found|present"
)
_BY_VOICE = lazy_pattern(
    r"\A\W*(?:is|are|was|were|has\s+been|have\s+been|gets?|got)\s+(?:\w+\s+){0,2}?"
    rf"(?:(?:{_PARTICIPLE})\s+(?:by|in|inside|within|under)\b|among\b|"
    r"(?:an?|one)\s+(?:\w+\s+)?(?:key|entry|value|variable|setting)\s+(?:that|which)\s+"
    r"(?:\w+\s+){0,3}?(?:holds|has|contains|includes|lists|carries|defines|provides|keeps|"
    r"stores|exposes|declares))|"
    r"\A\s*,\s*(?:\w+\s+){0,3}?(?:holds|has|contains|includes|lists|carries|defines|provides|"
    r"keeps|stores|exposes|declares|had|held|contained)\s+(?:\w+\s+)?it\b",
    re.IGNORECASE,
)


def _said_by_voice(clause: str, at: int) -> str | None:
    """What a verb of holding whose subject or topic is the key says of it (`_BY_VOICE`), its
    polarity read in the words up to the verb as `_said_by_place` reads it."""
    after = clause[at + len(MARK) :]
    found = _BY_VOICE.match(after)
    if found is None:
        return None
    if _RESTATING.search(after, 0, found.end()) or _NEGATION.search(clause, 0, at):
        return ABSENT
    return HELD


def _said_by_place(clause: str, at: int) -> str | None:
    """What a verb of being somewhere or gone after the key says of it ("… sits right there
    in …", "… was removed from …")."""
    after = clause[at + len(MARK) :]
    if _GONE.match(after) is not None:
        return ABSENT
    located = _LOCATED.match(after)
    if located is None:
        return None
    if _RESTATING.search(after, 0, located.end()) or _NEGATION.search(clause, 0, at):
        return ABSENT
    return HELD


_REACH = 400


def key_said(rest: str) -> set[str]:
    """What the clauses of `rest` (a sentence with the factor's key written `MARK`) say of the
    key's presence: `HELD`, `ABSENT`, both or neither."""
    said: set[str] = set()
    if MARK not in rest:
        return said
    # a colon after a verb of holding introduces its object ("smtp-config contains: SMTP_HOST,
    # SMTP_PORT"), full-width or not; an ideographic comma joins a list (SI red team 29, G2)
    rest = _OBJECT_COLON.sub(r"\1 ", rest.replace("、", ", "))
    for clause in _KEY_CLAUSES.split(rest):
        if MARK not in clause:
            continue
        words = _words(clause)
        if words and words[0] in _CONDITIONS:
            continue  # "Once SMTP_PORT is set, …": a condition asserts nothing
        at = clause.find(MARK)
        while at >= 0:
            # the words around the key, `_REACH` each side: a key's verb, place or negation
            # stands near it, and a clause naming the key many times is read in linear time
            # (the statement's own sentence is read too since round 31)
            low = max(0, at - _REACH)
            near = clause[low : at + len(MARK) + _REACH]
            reading = (
                _said_by_verb(near, at - low)
                or _said_by_place(near, at - low)
                or _said_by_voice(near, at - low)
            )
            if reading is not None:
                said.add(reading)
            at = clause.find(MARK, at + len(MARK))
    return said


# A copula's negation (SI red team 31, H2): "is not", "isn't", "was never", and the phrases
# that negate a predicate as "not" does ("is anything but", "is far from", "is by no means").
# They are the negators of English a copula takes (a closed class, as the copulas are).
_COPULA_NEGATED = (
    r"\b(?:is|are|was|were|be|been|remains?|stays?)\s*(?:n['’]t\b|\s(?:not|never|no\s+longer|"
    r"anything\s+but|far\s+from|hardly|scarcely|by\s+no\s+means|in\s+no\s+way|nowhere\s+near|"
    r"other\s+than|something\s+other\s+than)\b)"
)
_COPULA_NEGATING_PHRASE = lazy_pattern(
    r"\b(?:is|are|was|were|be|been|remains?|stays?)\s+(?:anything\s+but|far\s+from|hardly|"
    r"scarcely|by\s+no\s+means|in\s+no\s+way|nowhere\s+near|other\s+than|"
    r"something\s+other\s+than)\b",
    re.IGNORECASE,
)
# the copula's negation, then the name as its complement ("What smtp-config lacks is not
# SMTP_PORT", "The key missing from smtp-config is not SMTP_PORT"): the identity the clause
# states is denied, whatever its subject says
_IDENTITY_DENIED = lazy_pattern(
    rf"{_COPULA_NEGATED}\s*(?:(?:{'|'.join(sorted(_OBJECT_WORDS))}|actually|in\s+fact|really)"
    rf"\s+)*{MARK}\b",
    re.IGNORECASE,
)
_IDENTITY_CLAUSES = lazy_pattern(
    r"[;:—–]|(?<!anything\s)\b(?:but|yet|whereas|while|although|though|however|rather)\b",
    re.IGNORECASE,
)


def identity_denied(rest: str, predicate: re.Pattern[str] | None = None) -> bool:
    """Whether a clause of `rest` (the name written `MARK`) denies, by a copula's negation, the
    identity or the predicate it states of the name (SI red team 31, H2): the name as the
    complement of a negated copula ("What smtp-config lacks is not SMTP_PORT", "What is a red
    herring here is not batch-processor"), or the name as the subject of a negated copula whose
    predicate is the statement's own (`predicate`: "SMTP_PORT is anything but missing"). A
    name after "but" or "rather" is the identity asserted ("… is not SMTP_HOST but SMTP_PORT");
    an aside between commas is left out."""
    for clause in _IDENTITY_CLAUSES.split(rest):
        if MARK not in clause:
            continue
        clause = _ASIDE.sub(" ", clause) if clause.count(",") >= 2 else clause
        if _IDENTITY_DENIED.search(clause):
            return True
        if predicate is None:
            continue
        at = clause.find(MARK)
        # the plain "not" of a predicate is read by the rule `negated`; here the phrases
        negated = _COPULA_NEGATING_PHRASE.search(clause, at)
        if negated is None:
            continue
        # only adverbs and determiners between the negation and the predicate
        after = clause[negated.end() : negated.end() + _REACH]
        found = predicate.search(after)
        if found is not None and len(_words(after[: found.start()])) <= 2:
            return True
    return False


# A postposed condition (SI red team 31, H2): a clause after the statement, set off by a comma,
# a dash or a bracket, headed by a subordinator of condition — the closed class of English
# conjunctions that make the clause before them depend on theirs ("if", "unless", "as long as",
# "on condition that", "in the event that", "insofar as") and the participles that head a
# clause as those conjunctions do ("assuming", "provided", "given", "granted": only before
# "that" or a clause with a finite verb: "given the describe output" cites the evidence, "given
# that the fixtures are right" conditions on it). A clause of cause or consequence ("so", "because",
# "which is why", "since", "meaning") is no condition: the statement does not depend on it.
_CONDITION_HEAD = lazy_pattern(
    r"\A(?:(?:and|but|or|only|just|that\s+is|i\s*\.?\s*e\s*\.?)\s+){0,2}"
    r"(?:(?:only\s+)?if(?!\s+(?:not|so)\b)|iff|unless|lest|except\s+if|as\s+long\s+as|so\s+long\s+as|"
    r"(?:up)?on\s+(?:the\s+)?(?:condition|assumption|premise|understanding|proviso)|"
    r"in\s+the\s+event|in\s+so\s+far\s+as|insofar\s+as|so\s+far\s+as|to\s+the\s+extent|"
    r"subject\s+to|contingent\s+(?:on|upon)|conditional\s+(?:on|upon)|depending\s+on|"
    r"barring|pending|should\s+(?:the|it|they|this|that|you|we|i|nobody|no\s+one)\b|"
    r"were\s+(?:the|it|they|this|that|you|we|i)\b|had\s+(?:the|it|they|this|that|you|we|i)\b)\b",
    re.IGNORECASE,
)
_CONDITION_PARTICIPLE = lazy_pattern(
    r"\A(?:(?:and|but|only|just)\s+){0,2}(?:assuming|presuming|supposing|provided|providing|"
    r"given|granted|granting|allowing|accepting|trusting|taking\s+it)\b(.*)",
    re.IGNORECASE | re.DOTALL,
)
_FINITE = lazy_pattern(
    r"\bthat\b|\b(?:is|are|was|were|be|been|has|have|had|do|does|did|can|could|will|would|"
    r"should|may|might|must|shall|holds?|stays?|remains?|says?|shows?)\b|n['’]t\b",
    re.IGNORECASE,
)
# a condition that carries its own main clause, its comma left out ("…, assuming nothing else
# changed the pods are blocked on that key alone"): a past verb, then a subject and its verb
_OWN_MAIN_CLAUSE = lazy_pattern(
    r"\b\w+ed\s+(?:the|a|an|its|their|this|that|these|those)\s+(?:\w+\s+){0,2}?"
    r"(?:is|are|was|were|has|have|can|cannot|will|would)\b",
    re.IGNORECASE,
)
# the words that open a clause of consequence or coordination after a condition: the
# condition then stands between the statement and its consequence, and governs the statement
_CONSEQUENCE = frozenset(
    {"so", "and", "which", "because", "since", "then", "therefore", "thus", "hence", "but", "or"}
)
_CONDITION_CUTS = lazy_pattern(r"[,;:—–(\[\]()]|\s-{1,2}\s")


def postposed_condition(after: str) -> str | None:
    """The first clause of `after` (the statement's sentence from its name on) that is a
    postposed condition (`_CONDITION_HEAD`, `_CONDITION_PARTICIPLE`), or None. The clause
    before the first cut is the statement's own and is not read."""
    clauses = [" ".join(_words(clause)) for clause in _CONDITION_CUTS.split(after)[1:]]
    for index, words in enumerate(clauses):
        if not words:
            continue
        following = next((clause for clause in clauses[index + 1 :] if clause), "")
        if following and following.split()[0] not in _CONSEQUENCE:
            continue  # "…, if you add it, the pods start": the condition of the clause after it
        if _CONDITION_HEAD.match(words):
            return words
        participle = _CONDITION_PARTICIPLE.match(words)
        if (
            participle is not None
            and _FINITE.search(participle.group(1))
            and not _OWN_MAIN_CLAUSE.search(participle.group(1))
        ):
            return words
    return None


# the contrary of a stopped object: a count above zero, a ready count, a live state (a lexicon of
# running states, as the deviation words are one)
_NUMBER_WORDS = r"one|two|three|four|five|a\s+single"
_RUNNING = lazy_pattern(
    rf"\b(?:running|runs?\s+(?:\w+\s+)?(?:[1-9]\d*|{_NUMBER_WORDS})|"
    rf"(?:[1-9]\d*|{_NUMBER_WORDS})\s+(?:\w+\s+)?(?:replicas?|pods?|instances?)|"
    r"replicas?\s*(?:is\s+|are\s+|of\s+|at\s+|[:=]\s*)?[1-9]\d*|[1-9]\d*\s*/\s*\d+|"
    rf"at\s+(?:[1-9]\d*|{_NUMBER_WORDS})|scaled\s+(?:back\s+)?(?:up|to\s+(?:[1-9]\d*|{_NUMBER_WORDS}))|"
    r"has\s+(?:\w+\s+)?endpoints|back\s+up|serving|ready|"
    r"available|(?:live|alive|running|ready|healthy|active|up)\s+(?:pods?|replicas?|"
    r"instances?|endpoints?|containers?))\b",
    re.IGNORECASE,
)
_CLAUSES = lazy_pattern(r"[,;—–]|:(?!\s*\d)|\b(?:but|and|so|because|while)\b", re.IGNORECASE)
# a clause that says what to do ("Scaling orders-db back to 1 replica fixes it.", "Fix: …")
_REMEDY = lazy_pattern(
    r"\A\W*(?:scal(?:e|ing)|set(?:ting)?|restor(?:e|ing)|add(?:ing)?|patch(?:ing)?|bring(?:ing)?|"
    # "Fix:" is a label, no remedy: what follows it states (SI red team 35, W2)
    r"fix(?:ing)?(?!\s*[:—–])|apply(?:ing)?|restart(?:ing)?|"
    # a kubectl command that changes the estate; "kubectl will confirm …" reports it
    r"kubectl\s+(?:-\S+\s+(?:\S+\s+)?)*(?:scale|patch|apply|set|edit|rollout|create))\b|"
    r"\b(?:fix(?:es|ed)?(?!\s*[:—–])|resolves?|needs?\s+to|has\s+to|ought\s+to)\b",
    re.IGNORECASE,
)
# a modal governs the running state only next to its verb ("orders-db should run 1 replica";
# "You will see that orders-db runs 1 replica" states: SI red team 29, G4)
_RUN_MODALS = frozenset({"should", "must", "will", "would", "could", "can", "may", "might"})
_RUN_ADVERBS = frozenset({"then", "again", "also", "still", "soon", "just", "be", "back"})


_NOT_RUNNING = lazy_pattern(r"\b(?:not|no|never|none|nor|neither|without|zero|0)\b|n['’]t\b", re.I)


def runs(rest: str) -> bool:
    """Whether a clause of `rest` says the object runs: a count above zero or a running state,
    with no negation or zero count before it, in a clause that is no remedy."""
    for clause in _CLAUSES.split(rest):
        found = _RUNNING.search(clause)
        if found is None or _NOT_RUNNING.search(clause, 0, found.start()) is not None:
            continue  # "is not ready", "shows 0/0 ready"
        if _REMEDY.search(clause) is not None:
            continue
        leading = [word for word in _words(clause[: found.start()]) if word not in _RUN_ADVERBS]
        modal = bool(leading) and leading[-1] in _RUN_MODALS
        if modal and _AFFIRMED.match(rest, rest.find(clause) + len(clause)) is None:
            continue  # a remedy; "…, and it does" says it runs
        words = _words(clause)
        if words and words[0] in _CONDITIONS:
            continue
        return True
    return False


__all__ = ["ABSENT", "HELD", "MARK", "identity_denied", "key_said", "postposed_condition", "runs"]
