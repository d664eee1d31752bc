"""A comment attached to the statement commits only where it is recognisably neutral or
supportive (docs/si-scoring.md §11, "Round 33: an attached comment"; SI red team 33, A8).

`_plain_assertion` reads a dash tail of at most two words and a bracketed aside of at most three;
a longer comment was left to the word lists of `_withdrawals`, `_disowning` and `_unaccounted`,
and each list let the next spelling through: "— a hypothesis I could not confirm", "— speculation
on my part", "— a claim I cannot back up", "— evidence for this is nil", "— not something I can
confirm", "— a placeholder until someone checks", "(per a Slack rumour)", "— the opposite of what
I found", "— this needs confirmation from someone with access", "— low confidence, could easily
be wrong" kept the strict top band. Under the strict reading (a provebench registry extension
beside SI §2.2, never a change to it) the test is turned round, as round 16 turned it for the
short shapes: an attached comment commits only where `_vouched` recognises it — a locus (it
names something of the system, or opens on a part of it), what was read (a quotation, the
evidence said to show it), a quantity, an example or an affirmation. Any other comment is
withheld by where it stands, whatever its words (fail closed):

* **a dash tail**: after the last identifier of a sentence stating the factor, joined by a dash
  or an arrow, longer than `_plain_assertion`'s tail;
* **a parenthesis**: from the statement on, longer than `_plain_assertion`'s aside;
* **a trailing clause**: after the last identifier, set off by a comma, a semicolon or a colon,
  an appositive (", a hypothesis I could not confirm", "; speculation on my part", ": not
  something I can confirm") or a clause of its own that speaks of the statement and of no part
  of the system (", evidence for this is nil"). A clause that carries the statement on (", so S
  cannot start", ", ruling out the disk", "; once it is set again, S recovers") or has a subject
  of its own ("; the previous diagnosis was wrong") is the clause rules'.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._comment_disowning import disowns, unquoted
from provebench.si.primitives._matching import ChannelText, Sentence, Span
from provebench.si.primitives._neutral_comment import neutral_naming
from provebench.si.primitives._plain_assertion import (
    _AFFIRMING_ASIDES,
    _ASIDE_WORDS,
    _BRACKETED,
    _CITED,
    _CONTINUATIONS,
    _DASH_OR_ARROW,
    _EXAMPLE_ASIDES,
    _FINITE,
    _FIRST_PERSON,
    _MODAL,
    _TAIL_WORDS,
    Unplain,
    _last_identifier,
    _names_something,
    _negates,
    _tail,
    _without_asides,
    _words,
)
from provebench.si.primitives._remedy import RemedyDeviation, is_remedy, names_in
from provebench.si.primitives._scene_names import (
    IDENTIFIER_SHAPED,
    TOO_SHORT_FOR_AN_IDENTIFIER,
    SceneNames,
    scene_names,
    split_shape,
)

# a number that is no odds or confidence ("3 restarts", "exit code 1"; not "5%", "2/10", "1 in 3",
# "0.5 confidence")
_QUANTITY = lazy_pattern(
    r"(?<![\w./])(?<!\bin )\d+(?:[.,]\d+)?(?![\d.,]*\s*(?:%|percent|/\s*10\b|in\s+\d))"
)
_ODDS = frozenset(
    {
        "confidence", "confident", "likely", "likelihood", "probability", "probable", "chance",
        "chances", "odds", "sure", "certain", "certainty", "percent",
    }
)  # fmt: skip
# the evidence said to show the statement ("(the describe output shows it)")
_EVIDENCE_SOURCES = frozenset(
    {
        "logs", "log", "events", "event", "kubectl", "output", "describe", "status", "manifest",
        "spec", "env", "environment", "yaml", "json", "reply", "response", "message", "error",
    }
)  # fmt: skip
_SHOWS = lazy_pattern(
    r"\b(?:confirm(?:s|ed)?|show(?:s|n|ed)?|list(?:s|ed)?|report(?:s|ed)?|print(?:s|ed)?|"
    r"read(?:s)?|say(?:s)?|said|record(?:s|ed)?)\b",
    re.IGNORECASE,
)


# the parts of the system a comment may open on ("— the pods never start", "— no other key
# is"): a comment about them is about the system, not about the answer, and the earlier rules
# read it
_SYSTEM_NOUNS = frozenset(
    {
        "pod", "pods", "container", "containers", "key", "keys", "value", "values", "entry",
        "entries", "variable", "variables", "setting", "settings", "field", "port", "config",
        "configuration", "deployment", "deployments", "replicas", "service", "services",
        "spec", "env", "node", "nodes", "namespace", "endpoint", "endpoints", "image", "app",
        "application", "process", "workload", "secret", "configmap", "cpu", "memory", "disk",
        "network", "database", "alert", "spike", "signal",
    }
)  # fmt: skip
# what opens a clause of consequence or cause before its subject ("— so the container cannot
# start", "— this is why the pods crash"): the subject after it is what the comment is about
_CONSEQUENCE = lazy_pattern(
    r"\s*(?:(?:so|and|hence|thus|therefore|because|since|which\s+is\s+why|(?:this|that|it)"
    r"\s+is\s+(?:why|how))\b[,\s]*)+",
    re.IGNORECASE,
)
_SUBJECT_WORDS = 3
# what refers back to the statement itself, not to the factor ("it" is the key: "; it should be
# present")
_STATEMENT_BACK = frozenset({"this", "that", "above", "claim", "claims", "statement", "answer"})
# a denial that the statement is a guess, then the agent's check: "— not a guess, I checked.",
# "— not a guess: I read the cluster." (what it checked must not be negated: "I checked nothing")
_AFFIRMED_CHECK = lazy_pattern(
    r"\s*not\s+(?:just\s+)?an?\s+(?:guess|hunch|hypothesis|theory|assumption)\s*[,;:]\s*"
    r"(?:i|we)\s+(?:checked|verified|confirmed|inspected|looked(?:\s+at)?|read)"
    r"(?P<what>(?:\s+[\w/.-]+){0,4})\s*",
    re.IGNORECASE,
)
_NOTHING = frozenset({"nothing", "none", "nowhere", "little"})


def _about_the_system(comment: str) -> bool:
    """Whether a comment opens on a part of the system (within `_SUBJECT_WORDS` words, after a
    connective of consequence) and refers back to the statement nowhere else: "— the pods
    never start", "— no other key is"; not "— speculation about the config" (it opens on
    something else) nor "— evidence for this in the pods is nil"."""
    opener = _CONSEQUENCE.match(comment)
    rest = _words(comment[opener.end() :] if opener is not None else comment)
    opens_on_system = bool(_SYSTEM_NOUNS.intersection(rest[:_SUBJECT_WORDS]))
    return opens_on_system and not _STATEMENT_BACK.intersection(rest)


# a consequence named as the symptom alone (", hence the CrashLoopBackOff."; SI red team 42,
# F5): a connective of consequence, then only these words, a closed grammar
_SYMPTOM_WORDS = frozenset(
    {
        "the", "a", "its", "their", "repeated", "constant", "crashloopbackoff", "crashloop",
        "crash", "crashes", "crashing", "restart", "restarts", "backoff", "outage", "failure",
        "failures", "errors", "error", "createcontainerconfigerror", "downtime", "pods",
        "pod", "loop", "back", "off", "timeouts", "connection", "refused", "create",
        "container", "config",
    }
)  # fmt: skip
_ARTICLES = frozenset({"the", "a", "its", "their"})
_THEREFORE = lazy_pattern(r"[\s,;:—–-]*(?:hence|thus|therefore)\b[,\s]*", re.IGNORECASE)


def _consequence_of_symptom(comment: str) -> bool:
    """Whether `comment` is "hence / thus / therefore" and the symptom's name alone."""
    opener = _THEREFORE.match(comment)
    if opener is None:
        return False
    rest = _words(comment[opener.end() :])
    return bool(rest) and set(rest) <= _SYMPTOM_WORDS and bool(set(rest) - _ARTICLES)


def _checked(comment: str) -> bool:
    """Whether the comment denies that the statement is a guess and says what the agent
    checked, with nothing negated in it (`_AFFIRMED_CHECK`)."""
    check = _AFFIRMED_CHECK.fullmatch(comment)
    if check is None:
        return False
    what = _words(check.group("what"))
    return not (_negates(what) or _NOTHING.intersection(what))


# what opens a trailing clause of doubt: a concession or an alternative before a modal ("though it
# might be the node", "or maybe the secret")
_CONCESSIVE = frozenset({"though", "although", "but", "or", "unless", "yet", "equally"})


def _hedge(comment: str) -> bool:
    """Whether a trailing clause is a hedge: it opens on a modal ("could be another service
    entirely", "might equally be some other configmap") or on a concession with a modal in it
    ("though it might be the node"). Such a clause is a comment whatever its subject."""
    words = _words(comment)
    if not words:
        return False
    return words[0] in _MODAL or (words[0] in _CONCESSIVE and bool(_MODAL.intersection(words)))


def _disowning_words(comment: str, names: SceneNames, factor: Collection[str]) -> bool:
    """Whether a comment's own words (its quotations and `key=value` pairs aside) disown the
    statement (`_comment_disowning`): a subject of a denied cause that names an object of the
    scenario other than the factor rules a decoy out instead."""
    return disowns(
        _words(unquoted(comment)), lambda subject: names.names_in_words(subject, but=factor)
    )


# how far back a comment's statement is read for the objects it names (`neutral_naming`): a
# bounded window keeps the reading linear in the answer
_BEFORE = 600


def _vouched(
    comment: str,
    names: SceneNames,
    factor: Collection[str],
    deviation: RemedyDeviation = None,
    before: str = "",
) -> bool:
    """Whether an attached comment is recognisably neutral or supportive: it names something of
    the system (a locus: an identifier or an object of the scenario — a token of an identifier's
    shape that names none is words, SI red team 38, H0 — or, with
    no first person and no modal, a part of the system: "— the pods never start"), quotes
    what was read, says that the evidence shows it ("(the pod events show it)"), gives a
    quantity (a number that is no odds or confidence: "3 restarts", "exit code 1", not "5%" or
    "2/10") or an example, or is an affirming aside ("(confirmed)"). A comment in the first
    person or with a modal is none of these unless it names something or quotes; one with a
    negation, only where it opens on a part of the system; one on the statement itself ("this",
    "the claim"), only as a consequence ("— this is why the pods crash") or the evidence's."""
    words = _words(comment)
    if _disowning_words(comment, names, factor):
        # naming an object makes a comment a locus, not its words neutral: "— not the cause,
        # per payments-api", "— checkout-config disagrees" (SI red team 39, W1 and W3)
        return False
    if _MODAL.intersection(words):
        # a hedge names a part only as a guess ("could be another service entirely"; SI red
        # team 34, H3): whatever it names, it vouches for nothing
        return False
    if is_remedy(comment, factor, names_in(names.identifiers), deviation):
        # "— I'd restore it from git": the diagnosis's consequence (H4); "— I'd restore my
        # earlier answer" acts on the answer, a retraction (SI red team 35, W1)
        return True
    if _checked(comment):
        return True  # "— not a guess: I read X.": the agent's check, whatever it names
    if _consequence_of_symptom(comment):
        return True  # ", hence the CrashLoopBackOff.": the symptom, a consequence (F5)
    if _names_something(comment, names):
        # a name makes a comment a locus, not its words neutral: it commits only in a
        # known-neutral shape ("— X never starts."; not "— spurious, per X.", "— X objects.";
        # SI red team 40, H2)
        return neutral_naming(comment, names, before)
    if _CITED.search(comment):
        return True
    if not words or " ".join(words) in _AFFIRMING_ASIDES or _checked(comment):
        return True
    if _FIRST_PERSON.intersection(words) or _MODAL.intersection(words):
        return False
    if _about_the_system(comment):
        return True
    if _negates(words):
        return False
    if _EVIDENCE_SOURCES.intersection(words) and _SHOWS.search(comment) is not None:
        return True  # the evidence said to show it
    if _STATEMENT_BACK.intersection(words):
        return False  # a word on the statement itself ("— 0 sources for this")
    # a quantity, or an example ("(for example after the last deploy)")
    if _QUANTITY.search(comment) is not None and not _ODDS.intersection(words):
        return True
    return " ".join(words).startswith(_EXAMPLE_ASIDES)


# where an attached comment may open after the statement: a dash or an arrow (as `_tail` reads
# one), or a comma, a semicolon or a colon (", a hypothesis I could not confirm"; "; a
# placeholder until someone checks")
_BOUNDARY = lazy_pattern(rf"{_DASH_OR_ARROW.pattern}|\s*(?P<joint>[,;:])\s+")


# where an appositive's head ends and a clause of its own inside it begins ("a hypothesis | I
# could not confirm", "a placeholder | until someone checks")
_HEAD_ENDS = frozenset(
    {
        "i", "we", "you", "someone", "somebody", "nobody", "anyone", "that", "which", "who",
        "whom", "whose", "until", "unless", "because", "since", "when", "while", "if", "as",
    }
)  # fmt: skip


_INDEFINITE = frozenset({"a", "an", "something", "anything", "one", "what"})
_POSSESSIVE = frozenset({"my", "our"})


def _head(comment: str) -> list[str]:
    head: list[str] = []
    for word in _words(comment):
        if word in _HEAD_ENDS:
            break
        head.append(word)
    return head


def _has_own_verb(head: Sequence[str]) -> bool:
    return any(word in _FINITE or word.endswith(("n't", "n’t")) for word in head)


def _appositive(comment: str, names: SceneNames) -> bool:
    """Whether a trailing clause is a noun phrase in apposition to the statement, a comment on
    it: headed by an indefinite article ("a hypothesis I could not confirm", "a placeholder
    until someone checks"), a negated indefinite ("not something I can confirm"), verbless
    and the agent's ("speculation on my part"), or a token of an identifier's shape that names
    nothing of the scenario with at most `_TAIL_WORDS` words beside it (", aka NotTheCause":
    the agent's own coinage set beside the statement, read by its words; SI red team 38, H0).
    "no doubt", "not kidding", "not because of the database" are not."""
    head = _head(comment)
    if not head or _has_own_verb(head):
        return False
    if head[0] in ("a", "an") or (head[0] == "not" and len(head) > 1 and head[1] in _INDEFINITE):
        return True
    if _coined(comment, names) and len(_words(IDENTIFIER_SHAPED.sub(" ", comment))) <= _TAIL_WORDS:
        return True
    return bool(_POSSESSIVE.intersection(head))


def _coined(comment: str, names: SceneNames) -> list[str]:
    """The tokens of an identifier's shape in `comment` that name no identifier or object of the
    scenario: words the agent wrote as one token (SI red team 38, H0)."""
    return [
        token.group()
        for token in IDENTIFIER_SHAPED.finditer(comment)
        if len(token.group()) >= TOO_SHORT_FOR_AN_IDENTIFIER and not names.is_object(token.group())
    ]


def _coined_only(comment: str, names: SceneNames) -> bool:
    """Whether a trailing clause is such tokens alone ("; isFalse", ": NotTheCause"): a word on
    the statement whatever its words, read by them (`_vouched`), as "; false" is read."""
    return bool(_coined(comment, names)) and not _words(IDENTIFIER_SHAPED.sub(" ", comment))


def _judges_the_statement(comment: str) -> bool:
    """Whether a trailing clause with a verb of its own speaks of the statement ("this",
    "that", "the claim") and of no part of the system: ", evidence for this is nil"; not ";
    the previous diagnosis was wrong" nor ": it should be the dependency's port"."""
    words = _words(comment)
    return (
        _has_own_verb(_head(comment))
        and bool(_STATEMENT_BACK.intersection(words))
        and not _SYSTEM_NOUNS.intersection(words)
    )


def _comment_at(tail: str, boundary: re.Match[str], dashed: bool, names: SceneNames) -> str | None:
    """The comment a boundary of the tail opens, where it is one this module reads."""
    comment = tail[boundary.end() :]
    if not comment.strip():
        return None
    if dashed:
        # a tail of at most two words right after the statement is `_tail`'s
        return None if boundary.start() == 0 and len(comment.split()) <= _TAIL_WORDS else comment
    if _hedge(comment) or _coined_only(comment, names):
        # before the continuations: "could" and "but" carry nothing on here, nor "is" inside
        # one token ("; isFalse")
        return comment
    # the first word, a token's first word among them ("RedHerring" opens on "red", no
    # participle; SI red team 38, H0)
    opening = split_shape(comment).split(maxsplit=1)[0].casefold().strip(",;:")
    if opening in _CONTINUATIONS or opening.endswith("ing"):
        return None  # a clause that carries the statement on, read by the clause rules
    if not (_appositive(comment, names) or _judges_the_statement(comment)):
        return None  # a clause of its own ("; the previous diagnosis was wrong")
    return comment


# a comment joined to the statement by an ellipsis ("…cannot run…not!", "... lol")
_ELLIPSIS = lazy_pattern(r"(?:…|\.{3,})\s*(?P<comment>\S.*)$", re.DOTALL)
# a retraction joined by a space ("…cannot run not!"): the exclamation makes it one
_RETRACTION = lazy_pattern(r"\bnot\s*!+\s*$", re.IGNORECASE)
# laughter and joke markers joined by a space ("… lol", "… Kappa")
_LAUGHTER = frozenset(
    {
        "lol", "lmao", "lmfao", "rofl", "haha", "hahaha", "hah", "heh", "hehe", "kappa", "jk",
        "kek", "lul", "xd", "wink", "winks", "sarcasm", "s",
    }
)  # fmt: skip
# an ASCII emoticon (";)", ";-)", ":P", "xD", "<3", "^^") or an action between asterisks
# ("*wink*"): a token with no word in it but a face's letter
_EMOTICON = lazy_pattern(
    r"(?:[:;=8][-'^o]?[()\[\]{}DPpOo03/\\|*@$]+|[()\[\]{}][-'^]?[:;=]|[xX][dDpP]+|<3+|"
    r"\^_*\^|\*[^\s*]+\*|/s)"
)


def _marker(
    raw: str, names: SceneNames, factor: Collection[str], deviation: RemedyDeviation
) -> str | None:
    """A comment joined to the statement without a dash, a comma or a bracket (SI red team 34,
    H3): after an ellipsis, a comment `_vouched` does not recognise; after a space, a trailing
    retraction ("not!"), a laughter word or an emoticon. The text after the statement is
    returned, for the finding."""
    body = raw.strip()
    ellipsis = _ELLIPSIS.search(body)
    comment = None if ellipsis is None else ellipsis.group("comment")
    if comment is not None and not _vouched(comment, names, factor, deviation, raw):
        return body
    if _RETRACTION.search(body) is not None:
        return body
    tokens = body.rstrip(".!?").split()
    if not tokens:
        return None
    last = tokens[-1]
    if last.casefold().strip("*") in _LAUGHTER or _EMOTICON.fullmatch(last) is not None:
        return body
    return None


def _attached_tail(
    text: str,
    sentence: Sentence,
    stated: int,
    names: SceneNames,
    factor: Collection[str],
    deviation: RemedyDeviation = None,
) -> Unplain | None:
    """A comment attached after the statement (`stated`: where its last identifier or
    deviation phrase in the sentence ends) that `_vouched` does not recognise: from a dash or an
    arrow on (longer than `_tail` reads right after the statement), or, from a comma, a
    semicolon or a colon on, an appositive (`_appositive`) or a clause that speaks of the
    statement (`_judges_the_statement`) — never one that carries the statement on (opening on
    one of `_CONTINUATIONS` or a participle: ", so S cannot start", ", ruling out the disk").
    Each boundary is read, so a neutral clause before a comment does not cover it."""
    raw = _without_asides(text[stated : sentence.end])
    # a short tail `_tail` already withholds ("… orders-db jk") is its finding, not a second one
    marked = None if _tail(text, sentence, names) else _marker(raw, names, factor, deviation)
    if marked is not None:
        detail = f"the attached comment {marked!r}"
        return Unplain("attached", stated, sentence.end, detail)
    tail = raw.rstrip().rstrip(".!?;").rstrip()
    for boundary in _BOUNDARY.finditer(tail):
        comment = _comment_at(tail, boundary, boundary.group("joint") is None, names)
        before = text[max(0, stated + boundary.start() - _BEFORE) : stated + boundary.start()]
        if (comment is not None and not _vouched(comment, names, factor, deviation, before)) or (
            # a comment naming an object is read whatever it opens on ("; misleading per X",
            # ", which X questions"; SI red team 40, H2)
            comment is None and _unvouched_naming(tail[boundary.end() :], boundary, names, before)
        ):
            detail = f"the attached comment {tail[boundary.start() :].strip()!r}"
            return Unplain("attached", stated + boundary.start(), sentence.end, detail)
    return None


def _attached_asides(
    text: str,
    names: SceneNames,
    factor: Collection[str],
    start: int,
    deviation: RemedyDeviation = None,
) -> list[Unplain]:
    """A parenthesis of more words than `_asides` reads, from the statement on, that `_vouched`
    does not recognise."""
    found: list[Unplain] = []
    for match in _BRACKETED.finditer(text, start):
        if match.group(1) is None:
            continue  # square brackets: a tag or a link, `_asides`'s
        inside = match.group(1).strip()
        before = text[max(0, match.start() - _BEFORE) : match.start()]
        if len(_words(inside)) <= _ASIDE_WORDS or _vouched(
            inside, names, factor, deviation, before
        ):
            continue
        found.append(
            Unplain(
                "attached", match.start(), match.end(), f"the attached comment {match.group()!r}"
            )
        )
    return found


def _statement_end(
    text: str, sentence: Sentence, phrase_spans: Sequence[Span], names: SceneNames
) -> int:
    """Where the statement ends in its sentence: its last name, or, where the deviation's phrase
    comes after every name, that phrase ("orders-db is stopped| in the cluster — …",
    "orders-db — the database — is stopped|"); a phrase inside the comment ("… — could easily
    be wrong") is not the statement's."""
    _, stated = _last_identifier(text, sentence.start, sentence.end, names)
    inside = [span for span in phrase_spans if sentence.start <= span.start <= sentence.end]
    phrases = sorted(inside, key=lambda span: span.start)
    if any(span.end <= stated for span in phrases):
        return stated
    later = [span for span in phrases if span.start >= stated]
    return later[0].end if later else stated


def attached_comments(
    channel: ChannelText,
    factor_spans: Sequence[Span],
    phrase_spans: Sequence[Span],
    identifiers: Sequence[str],
    deviation: RemedyDeviation = None,
    objects: Sequence[str] = (),
    symptom: Sequence[str] = (),
) -> list[Unplain]:
    """Every attached comment of the module docstring that `_vouched` does not recognise, in a
    channel that states the factor (`factor_spans`; `phrase_spans`, the deviation's phrases:
    offsets of `channel`, the fold); `deviation` is the factor's deviation type, which a remedy's
    verb follows (SI red team 36, W2); `identifiers` (the scenario's) and `objects` (the
    evidence's first snapshot's, `scenario_objects`) are the only names (`_scene_names`)."""
    if not factor_spans:
        return []
    text = channel.text
    names = scene_names(identifiers, objects, symptom)
    # each stating sentence -> where the factor's first mention in it ends
    stating: dict[int, int] = {}
    for span in factor_spans:
        sentence = channel.sentence_containing(span.start, span.end)
        if sentence is not None:
            stating[sentence.index] = min(stating.get(sentence.index, span.end), span.end)
    # the factor's names as written: a remedy's object must be one of them (SI red team 35)
    factor = {text[span.start : span.end] for span in factor_spans}
    first = min(span.start for span in factor_spans)
    found = _attached_asides(text, names, factor, first, deviation)
    for sentence in channel.sentences:
        if sentence.index not in stating:
            continue
        # the statement ends with its last name or deviation phrase in the sentence ("orders-db
        # is stopped in the cluster — …"; "orders-db — the database — is stopped")
        stated = _statement_end(text, sentence, phrase_spans, names)
        tail = _attached_tail(text, sentence, stated, names, factor, deviation)
        if tail is None:
            tail = _hedge_before(
                text, sentence, (stating[sentence.index], stated), names, factor, deviation
            )
        if tail is not None:
            found.append(tail)
    return found


# a joint that sets a comment off as a dash does: a semicolon, or a comma before "which"
_COMMENT_JOINT = lazy_pattern(r"\s*(?:which|whereupon)\b", re.IGNORECASE)
_CONFIDENT = lazy_pattern(
    r"\s*(?:(?:I\s+am|I['’]m)\s+)?(?:\d+\s*%|very|quite|fairly|totally|completely)?\s*"
    r"(?:sure|certain|confident)\b(?:\s+that)?(?=\s+\S)",
    re.IGNORECASE,
)


def _unvouched_naming(
    rest: str,
    boundary: re.Match[str],
    names: SceneNames,
    before: str = "",
    factor: Collection[str] = (),
    deviation: RemedyDeviation = None,
) -> bool:
    """Whether the comment a dash, a semicolon or ", which" opens (`rest`, to the sentence's
    end) names an object in no known-neutral shape (`_neutral_comment`): a name inside it moves
    the statement's end past it, so it is read here (SI red team 40, H2: "— spurious, per X.",
    "— X objects.", ", which X questions.")."""
    joint = boundary.group("joint")
    if joint == "," and _COMMENT_JOINT.match(rest) is None:
        # SI red team 45, H11: a comma clause after a confidence that names the failing workload
        # ("…, 100% sure checkout works."): the confidence ends no sentence, so the clause after
        # it is a comment read as a dash's is
        confident = _CONFIDENT.match(rest)
        if confident is None:
            return False
        rest = rest[confident.end() :]
    if joint == ":":
        return False
    said = rest.rstrip().rstrip(".!?").rstrip()
    if _checked(said):
        return False  # "— not a guess: I read X.": the agent's check
    if factor and is_remedy(said, factor, names_in(names.identifiers), deviation):
        # a plain remedy of the factor that gives no injected value back ("; add it to R and
        # restart S"): the remedy reader's, read as `_vouched` reads it
        return False
    return _names_something(said, names) and not neutral_naming(said, names, before)


def _hedge_before(
    text: str,
    sentence: Sentence,
    span: tuple[int, int],
    names: SceneNames,
    factor: Collection[str],
    deviation: RemedyDeviation = None,
) -> Unplain | None:
    """A hedge set off after the factor's first mention and before the statement's end: a name
    inside the hedge ("…, could be another service than notification-service.", "— might not be
    smtp-config at all") moves the statement's end past it, and a hedge vouches for nothing
    whatever it names (SI red team 34, H3). So is a comment whose words disown the statement: a
    name inside it ("— not the cause, per payments-api.") moves the statement's end past it,
    and a name does not vouch for a disowning word (SI red team 39, W1 and W3)."""
    first, stated = span
    boundaries = list(_BOUNDARY.finditer(text, first, sentence.end))
    for index, boundary in enumerate(boundaries):
        if boundary.start() >= stated:
            break
        # up to the next boundary: each piece of the sentence is read once (linear)
        ends = boundaries[index + 1].start() if index + 1 < len(boundaries) else sentence.end
        comment = text[boundary.end() : ends]
        dashed = boundary.group("joint") is None
        # a dash tail is a comment wherever its modal stands ("— the pods may restart until
        # SMTP_PORT is back"); a clause set off by a comma, only where it opens on the hedge
        if (
            _hedge(comment)
            or (dashed and _MODAL.intersection(_words(comment)))
            or _disowning_words(comment, names, factor)
            or _unvouched_naming(
                text[boundary.end() : sentence.end],
                boundary,
                names,
                text[max(0, boundary.start() - _BEFORE) : boundary.start()],
                factor,
                deviation,
            )
        ):
            detail = f"the attached comment {text[boundary.start() : sentence.end]!r}"
            return Unplain("attached", boundary.start(), sentence.end, detail)
    return None


__all__ = ["attached_comments"]
