"""The top band of the strict reading only for a plain assertion (docs/si-scoring.md §11, "Round
16: only a plain assertion"; SI red team 16, H7).

Rounds 12 to 15 closed disowning, hedging and retracting words list by list; each list let the
next spelling through ("Maybe not.", "(low confidence)", "Unlikely root cause:", "[RETRACTED]",
"❌", a footnote "This is wrong", "X jk", "X /s"). Here the direction is turned round: the
strict reading (a provebench registry extension beside SI §2.2, never a change to it) credits
the factor only where the answer that states it holds nothing a reader would take as a comment
on the statement that the reading cannot vouch for. Each shape is structural — an allow-list,
not a deny-list — so a new hedge word is withheld by its shape, not by its spelling:

* **mark**: a pictograph or dingbat (Unicode "Symbol, other": ❌ ✘ 🚫 👎 …), or a footnote
  asterisk glued to a word, anywhere in the channel — a verdict in a sign, not in words;
* **aside**: a bracketed aside of at most `_ASIDE_WORDS` words that names nothing of the system
  (no identifier of the scenario, no token naming an object of it: a token of an identifier's
  shape that names none is its words, `_scene_names`) and neither quotes nor gives an
  example — parenthesised from the statement on, square-bracketed anywhere: "(low confidence)",
  "(10% confidence)", "[RETRACTED]"; a numbered footnote mark is not an aside (its note is read
  as a sentence); the affirming asides of `_AFFIRMING_ASIDES` pass;
* **label**: the words before a colon that opens the first sentence stating the factor (at most
  `_SHORT`, naming nothing) must be label words of `_LABEL_WORDS` ("Root cause:", "Finding:"),
  with no tag among them ("[ ] Root cause:"); "Unlikely root cause:", "Wild guess:", "Draft (do
  not use):" are not. The agent on what it did ("I checked:"), something else set aside ("Not
  the database:") and the answer to a question pass;
* **tail**: after the last identifier of a sentence stating the factor, at most `_TAIL_WORDS`
  words to its end, joined by a dash or an arrow, or by white space alone where the identifier
  ends a prepositional phrase of a clause with its own verb and the tail does not open with a
  word of `_CONTINUATIONS`: "X is missing from R /s", "… jk", "… just kidding", "… — unlikely";
* **comment**: a sentence of at most `_SHORT` words that names and cites nothing, is not a
  question, an answer to one, an item after a colon or a heading, and is verbless or in the
  first person with a negation or a modal: "Maybe not.", "Kidding!", "Confidence: low.", "I could
  be wrong."; and a footnote's note that names nothing ("[1] This is wrong.").

* **back_reference** (SI red team 17, H6; docs/si-scoring.md §11, "Round 17"): a clause that
  opens on a back-reference to the statement and denies it, calls it false or puts it in
  someone else's mouth ("so that is not it", "That is what a naive agent would say"), the agent
  negating its own check of it ("I have not verified any of this"), or a source the answer
  itself distrusts ("according to the alert text I was told not to trust"); and a chat tone tag
  glued to the word before ("missing/s").

Beside a structured diagnosis the prose does not name the factor in, the signs, asides, negated
comments and first-person negations anywhere say the agent disowns its answer
(`disowning_beside_diagnosis`).

A limit, stated in the docs: a longer hedge, a tail after a subject, a label without a colon or
a hedge inside the clause is read only by the earlier rules.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._matching import ChannelText, Sentence, Span
from provebench.si.primitives._neutral_comment import neutral_naming
from provebench.si.primitives._remedy import RemedyDeviation, is_remedy, names_in
from provebench.si.primitives._scene_names import (
    IDENTIFIER_SHAPED,
    SceneNames,
    scene_names,
    split_shape,
)
from provebench.si.primitives._triggers import GatedPattern, comparable

# at most this many words make a sentence, a label or an aside a comment rather than a
# statement; a tail, at most `_TAIL_WORDS` ("jk", "just kidding", "— unlikely")
_SHORT = 4
_TAIL_WORDS = 2
_ASIDE_WORDS = 3

_WORD = lazy_pattern(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_BRACKETED = lazy_pattern(r"\(([^()]*)\)|\[([^\[\]]*)\]")
_FOOTNOTE_MARK = lazy_pattern(r"\^?\d{1,3}")
# a value in brackets, digits and their joints only ("(8081)", "(0/0)"): the evidence's number
# cited, no words to hedge with (SI red team 29, H5 and H12); a ready count above zero ("(1/1)")
# says a stopped object runs and stays an aside
_CITED_VALUE = lazy_pattern(r"(?![1-9]\d*\s*/)[\d\s./:-]*\d[\d\s./:-]*")
_LEADING_FOOTNOTE = lazy_pattern(r"^\s*(?:\[\^?\d{1,3}\]:?|\*+|†|‡)\s*")
_AFFIRMING_ASIDES = frozenset({"no joke", "confirmed", "verified", "as expected", "see above"})
_LABEL_NOUNS = frozenset({"cause", "causes", "culprit", "diagnosis", "answer", "reason", "problem"})
_EXAMPLE_ASIDES = ("for example", "e g", "i e", "for instance", "such as", "see ")
_LABEL_WORDS = frozenset(
    {
        "root", "cause", "causes", "the", "a", "diagnosis", "finding", "findings", "answer",
        "final", "problem", "issue", "reason", "conclusion", "summary", "result", "actual",
        "real", "main", "primary", "fault", "failure", "error", "identified", "confirmed",
        "verified", "my", "our", "no question", "no doubt", "in", "short", "résumé", "resume",
        "analysis", "explanation", "overview", "fix", "remedy",
    }
)  # fmt: skip
_CONTINUATIONS = frozenset(
    {
        "in", "on", "at", "of", "for", "from", "with", "without", "by", "to", "into", "under",
        "so", "because", "since", "and", "but", "which", "that", "when", "after", "before",
        "as", "while", "where", "is", "are", "was", "were", "has", "have", "had", "does", "do",
        "did", "can", "cannot", "could", "should", "must", "will", "would", "isn't", "doesn't",
        "aren't", "wasn't", "can't", "won't", "entirely", "too", "again", "anymore", "now",
        "itself", "there", "here", "yet", "still", "set", "defined", "present", "absent",
        "missing", "wrong", "stopped", "running", "misconfigured", "removed",
    }
)  # fmt: skip
_CLAUSE_OPENER = lazy_pattern(
    r"[,;:]\s|\b(?:that|which|who|because|since|so|and|but|once|unless|when|while|if)\b",
    re.IGNORECASE,
)
_PRECEDING_WORD = lazy_pattern(r"(?<![\w'’])([A-Za-z]+)[ \t]+\Z")
_CITED = lazy_pattern(r"[`\"“”]")
# the word before an identifier that closes a clause's last phrase ("missing from R"): what
# follows it after white space alone is not the clause's own predicate
_CLOSING_PREPOSITIONS = frozenset(
    {"from", "in", "of", "on", "at", "to", "into", "by", "with", "under", "inside", "within"}
)
# a finite verb or a first person: a short sentence without either is a bare comment ("Maybe
# not.", "Kidding!", "Confidence: low."), one in the first person speaks of the answer ("I
# could be wrong."); "It is not optional." is a statement and passes
_FINITE = frozenset(
    {
        "is", "are", "was", "were", "be", "been", "has", "have", "had", "do", "does", "did",
        "can", "could", "will", "would", "should", "must", "may", "might", "isn't", "aren't",
        "wasn't", "weren't", "hasn't", "haven't", "doesn't", "don't", "didn't", "can't",
        "cannot", "won't", "wouldn't", "shouldn't", "it's", "that's", "there's",
    }
)  # fmt: skip
_FIRST_PERSON = frozenset({"i", "i'm", "i've", "i'd", "me", "my", "we", "we're", "our", "us"})
# a courtesy closes an answer and judges nothing ("Thanks!", "Hope this helps.", "Best
# regards."): a short verbless sentence of these words alone is no comment on the finding
_COURTESY = frozenset(
    {
        "thanks", "thank", "you", "hope", "this", "that", "helps", "cheers", "regards", "best",
        "kind", "good", "luck", "happy", "to", "help", "glad", "all", "the", "much", "very",
        "many",
    }
)  # fmt: skip
_DASH_OR_ARROW = lazy_pattern(r"\s*(?:—|–|-{1,2}|<-+|-+>|=>|→|←)\s")


def _same(offset: int) -> int:
    return offset


@dataclass(frozen=True)
class Unplain:
    """One shape that keeps the factor's statement from the top band, and where it is."""

    shape: str
    start: int
    end: int
    detail: str


def _names_something(text: str, names: SceneNames) -> bool:
    """Whether `text` names an identifier or an object of the scenario; any other
    identifier-shaped token is words (`_scene_names`; SI red team 38, H0)."""
    return names.names_something(text)


def _negates(words: Sequence[str]) -> bool:
    return any(word in _NEGATED_WORDS or word.endswith(("n't", "n’t")) for word in words)


def _words(text: str) -> list[str]:
    """The words of `text`, an identifier-shaped token's among them: "RedHerring" and
    "red_herring" are *red herring* (`split_shape`; SI red team 38, H0)."""
    said = split_shape(unicodedata.normalize("NFC", text))
    return [word.casefold() for word in _WORD.findall(said)]


# the only characters `_marks` can report: no ASCII character is a "Symbol, other"
# (`test_plain_assertion_marks`), so only those beyond ASCII and the asterisk are looked at
_MARK_CANDIDATE = lazy_pattern(r"[^\x00-\x7f]|\*")


def _marks(text: str) -> list[Unplain]:
    found: list[Unplain] = []
    for candidate in _MARK_CANDIDATE.finditer(text):
        at = candidate.start()
        character = text[at]
        if unicodedata.category(character) == "So" or character in "†‡":
            found.append(Unplain("mark", at, at + 1, f"the sign {character!r}"))
        elif (
            character == "*"
            and at > 0
            and not text[at - 1].isspace()
            and text[at - 1] != "*"
            and (at + 1 == len(text) or text[at + 1] != "*")
        ):
            found.append(Unplain("mark", at, at + 1, "a footnote asterisk"))
    return found


# SI red team 43, F03: the incident's present, its counts and durations, high confidence and
# agreement are honest tails (", today.", ", for about an hour now.", ", every 10 seconds.", ",
# confidence: high.", ", for sure.", ", as you suspected."); read on the tail's words joined
_HONEST_FORM = lazy_pattern(
    r"(?:(?:right|just)\s+)?now|today|at\s+(?:the\s+moment|present|this\s+point)|presently|"
    r"as\s+we\s+speak|(?:for|over)\s+(?:the\s+(?:last|past)\s+)?(?:about|around|roughly|nearly|"
    r"almost|over|more\s+than|at\s+least)?\s*(?:[1-9]\d*|an?|a\s+few|several|some)\s+(?:seconds?|"
    r"minutes?|hours?|days?)(?:\s+now)?|(?:about\s+|around\s+)?every\s+(?:[1-9]\d*\s+)?(?:seconds?|"
    r"minutes?|hours?|restarts?|time|attempt|start)|confidence\s+(?:very\s+)?(?:high|certain|"
    r"100)|(?:very\s+)?high\s+confidence|with\s+(?:high\s+|full\s+)?confidence|for\s+(?:sure|"
    r"certain)|as\s+(?:you|we)\s+(?:suspected|said|thought|noted|expected|reported|described)|"
    r"as\s+(?:suspected|described)|(?:about\s+|around\s+)?[1-9]\d*\s+(?:restarts?|times|crashes|"
    r"attempts|retries|errors|failures|back\s*offs?)(?:\s+(?:in|within|over)\s+(?:the\s+"
    r"(?:last|past)\s+)?(?:[1-9]\d*|an?)\s+(?:seconds?|minutes?|hours?))?(?:\s+(?:so\s+far|now))?|"
    # SI red team 44, F10: a whole confidence ("100% sure"; a lower share is odds below
    # certainty, read as such by the factor reading's own rule), and a count of the failing
    # pods ("(2 pods affected)")
    # SI red team 45, H11 and F9: a count is never 0 ("0 pods affected" clears the symptom);
    # "3/3 pods", "all 3 pods" and "3 of 3 pods" count the failing pods too
    r"100\s*%\s+(?:sure|certain|confident|confidence)|(?:all\s+|[1-9]\d*\s+(?:of\s+)?)?"
    r"[1-9]\d*\s+(?:pods?|replicas?|"
    r"containers?|instances?)\s+(?:affected|down|failing|crashing|restarting|not\s+ready)",
)


def honest_form(words: Sequence[str]) -> bool:
    """Whether a tail's words are one of the honest forms of `_HONEST_FORM` (SI red team 43,
    F03)."""
    return _HONEST_FORM.fullmatch(" ".join(words)) is not None


def tail_tokens(text: str) -> list[str]:
    """A tail's words and numbers (a share with its "%"), casefolded, as `honest_form` reads
    them: a reader of words alone drops the number of "for the last 40 minutes" (SI red team 44,
    F10)."""
    return re.findall(r"\d+%?|[^\W\d_]+(?:['’][^\W\d_]+)*", text.casefold())


def _asides(
    text: str,
    original: str,
    names: SceneNames,
    start: int = 0,
    to_original: Callable[[int], int] = _same,
) -> list[Unplain]:
    """The asides of `text` from `start`; `original` is the text before markup was blanked,
    `to_original` maps an offset of `text` (a fold, `_folded_channel`) to one of it."""
    found: list[Unplain] = []
    for match in _BRACKETED.finditer(text, start):
        inside = (match.group(1) if match.group(1) is not None else match.group(2)).strip()
        if _FOOTNOTE_MARK.fullmatch(inside) or (
            # a name makes an aside a locus only in a known-neutral shape ("(see X)"; not
            # "(spurious, per X)": SI red team 40, H2)
            _names_something(inside, names)
            and neutral_naming(inside, names, text[max(0, match.start() - 600) : match.start()])
        ):
            continue
        if _CITED_VALUE.fullmatch(inside):
            continue
        if len(_words(inside)) > _ASIDE_WORDS:
            continue  # a clause of its own ("(not optional in the pod spec)"), read by the rules
        if _CITED.search(inside):
            continue  # it quotes what was read ("(log: `healthy == false`)"): evidence
        if not inside and original[to_original(match.start()) : to_original(match.end())].strip(
            "[]() "
        ):
            continue  # markup a reader does not read, blanked (`_markup`): not an aside
        said = " ".join(_words(inside))
        if (
            said in _AFFIRMING_ASIDES
            or said.startswith(_EXAMPLE_ASIDES)
            or honest_form(re.findall(r"\w+", inside.casefold()))
        ):
            continue  # "(confirmed)", "(5 restarts in 10 minutes)" (SI red team 43, F03)
        if match.group(2) is not None and text[match.end() : match.end() + 1] == "(":
            continue  # a Markdown link's text: its target is read as the next bracket
        found.append(Unplain("aside", match.start(), match.end(), f"the aside {match.group()!r}"))
    return found


def _without_asides(text: str) -> str:
    return _BRACKETED.sub(lambda match: " " * len(match.group()), text)


def _tagging(aside: re.Match[str]) -> bool:
    """An aside in a label that tags it: a square-bracketed tag ("[RETRACTED]", "[ ]", a box
    left unticked) or a parenthesis of several words that are not label words or an
    affirmation ("(do not use)", "(April Fools)"); "Root cause (confirmed):" and a one-word
    gloss ("Résumé (Schlüssel):") are not."""
    if aside.group(2) is not None:
        return True
    if "?" in aside.group(1) or "？" in aside.group(1):
        return True  # "Root cause (confirmed?):" asks, it does not affirm (SI red team 42, H5)
    words = _words(aside.group(1))
    if not words or _negates(words):
        return True
    # an allow-list, not a list of jest words (SI red team 17, H6: "Root cause (April Fools):"):
    # a parenthesis in a label may only repeat label words, affirm ("(confirmed)") or gloss the
    # label in one word of `_LABEL_GLOSSES` ("Résumé (Schlüssel):"); any other one word is not
    # let through, as a hedge is one word too ("(tentative)", "(provisional)", "(TBC)"; SI red
    # team 41, A6)
    said = " ".join(words)
    return not (
        said in _AFFIRMING_ASIDES
        or said in _CONFIDENT_GLOSSES
        or all(word in _LABEL_WORDS for word in words)
        or (len(words) == 1 and words[0] in _LABEL_GLOSSES)
    )


# a label's affirmation of its own confidence ("Root cause (high confidence):"; SI red team 42,
# F5): high or full confidence only, never a low or a middling one
_CONFIDENT_GLOSSES = frozenset(
    {
        "high confidence", "very high confidence", "full confidence", "confidence high",
        "certain", "definite", "certainly", "definitely", "confirmed by the events",
        "confirmed in the logs", "confirmed in the events",
    }
)  # fmt: skip
# a label glossed in one word, another language's label word or a language tag (in the fold:
# "Schlüssel" reads "schlussel")
_LABEL_GLOSSES = frozenset(
    {
        "schlussel", "schluessel", "ursache", "befund", "diagnose", "zusammenfassung", "cause",
        "causa", "raiz", "racine", "summary", "key", "en", "de", "fr", "es", "english",
        "deutsch", "francais", "espanol", "tldr",
    }
)  # fmt: skip
# a label that names the deviation and what it is of ("Missing key:", "Wrong value:"): the
# finding's own words, its subject after the colon (SI red team 31, H2)
_LABEL_DEVIATIONS = frozenset(
    {
        "missing", "absent", "unset", "undefined", "wrong", "incorrect", "invalid", "extra",
        "unexpected", "removed", "deleted", "misconfigured", "stopped",
    }
)  # fmt: skip
_LABEL_SUBJECTS = frozenset(
    {
        "key", "keys", "value", "values", "entry", "entries", "variable", "variables",
        "setting", "settings", "field", "port", "config", "configuration", "deployment",
        "replicas", "object", "resource",
    }
)  # fmt: skip


def _names_the_deviation(words: list[str]) -> bool:
    """Whether a label is a deviation word and what it is said of, beside label words
    ("Missing key", "Root cause missing key")."""
    rest = [word for word in words if word not in _LABEL_WORDS]
    return len(rest) == 2 and rest[0] in _LABEL_DEVIATIONS and rest[1] in _LABEL_SUBJECTS


def _label(
    text: str, sentence: Sentence, first: int, previous: Sentence | None, names: SceneNames
) -> Unplain | None:
    head = text[sentence.start : first]
    colons = [match.start() for match in re.finditer(r":\s", head)]
    if not colons:
        return None
    if previous is not None and text[previous.start : previous.end].rstrip().endswith("?"):
        return None  # the answer to a question just asked ("Is the database down? No: …")
    label = head[: colons[-1]]
    said = _LEADING_FOOTNOTE.sub("", label)
    outside = _words(_without_asides(said))
    if len(outside) > _SHORT or _names_something(said, names):
        return None  # a clause of its own ("The disk alert is a red herring: …"), read elsewhere
    if _FIRST_PERSON.intersection(outside) and not (
        _negates(outside) or _MODAL.intersection(outside)
    ):
        return None  # the agent on what it did ("I checked:", "I want to be clear:")
    if outside and outside[0] in ("not", "no") and not _LABEL_NOUNS.intersection(outside[1:]):
        return None  # something else set aside ("Not the database:"); "Not the cause:" is not
    plain = (
        " ".join(outside) in _LABEL_WORDS
        or all(word in _LABEL_WORDS for word in outside)
        or _names_the_deviation(outside)
    )
    if plain and not any(_tagging(match) for match in _BRACKETED.finditer(said)):
        return None
    return Unplain(
        "label", sentence.start, sentence.start + len(label), f"the label {label.strip()!r}"
    )


def _last_identifier(text: str, start: int, end: int, names: SceneNames) -> tuple[int, int]:
    """Where the sentence's last identifier or object stands (or an empty range at its start);
    a token of an object's shape that names none is words, never the statement's end ("… —
    RedHerring."; SI red team 38, H0)."""
    last = (start, start)
    folded = text[start:end].casefold()
    for identifier in names.identifiers:
        at = folded.rfind(identifier.casefold())
        if at >= 0 and start + at + len(identifier) > last[1]:
            last = (start + at, start + at + len(identifier))
    for match in IDENTIFIER_SHAPED.finditer(text, start, end):
        if match.end() > last[1] and names.is_object(match.group()):
            last = (match.start(), match.end())
    return last


def _tail(text: str, sentence: Sentence, names: SceneNames) -> Unplain | None:
    last_start, after = _last_identifier(text, sentence.start, sentence.end, names)
    tail = _without_asides(text[after : sentence.end]).rstrip().rstrip(".!?;").rstrip()
    if not tail.strip():
        return None
    dashed = _DASH_OR_ARROW.match(tail)
    if dashed is None and not tail[0].isspace():
        return None  # joined by a comma, colon or other punctuation: a clause the rules read
    rest = tail[dashed.end() :] if dashed is not None else tail
    tokens = rest.split()
    if not tokens or len(tokens) > _TAIL_WORDS:
        return None
    first = tokens[0].casefold().strip(",;:")
    if dashed is None and first in _CONTINUATIONS:
        return None
    # the word right before the identifier, with nothing but white space between
    preceding = _PRECEDING_WORD.search(text, sentence.start, last_start)
    closed = preceding is not None and preceding.group(1).casefold() in _CLOSING_PREPOSITIONS
    # the clause the identifier ends must have its own verb: in "… that the loader of D
    # rejects" the identifier ends the subject and the tail is its predicate
    clause = _CLAUSE_OPENER.split(text[sentence.start : last_start])[-1]
    if dashed is None and not (closed and any(word in _FINITE for word in _words(clause))):
        return None  # the identifier may be the subject of what follows ("…, S keeps failing")
    return Unplain("tail", after, sentence.end, f"the tail {tail.strip()!r}")


def _comment(
    channel: ChannelText,
    lines: Sequence[tuple[int, int]],
    sentence: Sentence,
    previous: Sentence | None,
    names: SceneNames,
    own: Sequence[str] = (),
    deviation: RemedyDeviation = None,
) -> Unplain | None:
    text = channel.text
    said = text[sentence.start : sentence.end]
    mark = _LEADING_FOOTNOTE.match(said)
    footnote = mark is not None and bool(mark.group().strip())
    if mark is not None:
        said = said[mark.end() :]
    words = _words(said)
    if not words or _names_something(said, names) or _CITED.search(said):
        return None  # it names or cites what was read ("Checked: `the cluster`.")
    if footnote:
        # a note to a footnote mark: it must name what it annotates (SI red team 16, H7:
        # "[1] This is wrong.", "* not actually.")
        return Unplain("comment", sentence.start, sentence.end, f"the note {said.strip()!r}")
    if is_remedy(said, own, names_in(names.identifiers), deviation):
        # a remedy of the factor is the diagnosis's consequence ("Fix: add it back."; H4); one
        # of the answer ("Roll back that conclusion.") retracts (SI red team 35, W1)
        return None
    if len(words) > _SHORT or said.rstrip().endswith((":", "?")):
        return None  # longer, an introduction to what follows, or a question (its own rule)
    if previous is not None and text[previous.start : previous.end].rstrip().endswith(("?", ":")):
        return None  # an answer to a question just asked ("… the cause? No."), or an item
    line_start, line_end = lines[channel.line_of(sentence.start) - 1]
    whole_line = (
        not text[line_start : sentence.start].strip() and not text[sentence.end : line_end].strip()
    )
    if whole_line and said.rstrip()[-1:] not in (".", "!", "?"):
        return None  # a heading ("## Diagnosis", its marks blanked)
    if all(word in _COURTESY for word in words):
        return None  # a courtesy ("Thanks!", "Hope this helps!")
    first_person = any(word in _FIRST_PERSON for word in words)
    if first_person and not _negates(words) and not _MODAL.intersection(words):
        return None  # the agent on what it did ("I checked.")
    if not first_person and any(word in _FINITE for word in words):
        return None  # a statement of its own ("It is not optional.")
    if (
        words[0] in _TAKING_UP
        and previous is not None
        and _dismisses_another(text[previous.start : previous.end], names, own)
    ):
        # "batch-processor is not the cause. It only hurts itself.": the pronoun takes up the
        # object the sentence before dismissed, not the finding; the signal's reader judges it
        # (`_signal`, fail closed), and it never lowers the finding (SI red team 45, F2)
        return None
    return Unplain("comment", sentence.start, sentence.end, f"the sentence {said.strip()!r}")


# SI red team 45, F2: a pronoun subject, and what makes the sentence before a dismissal of an
# object of the scenario other than the statement's own
_TAKING_UP = frozenset({"it", "its", "they", "their", "this", "that"})
_DISMISSING = frozenset(
    {"unrelated", "harmless", "irrelevant", "herring", "benign", "innocuous", "coincidence",
     "coincidental", "decoy", "distraction", "incidental", "noise"}
)  # fmt: skip


def _dismisses_another(said: str, names: SceneNames, own: Sequence[str]) -> bool:
    """Whether the sentence `said` names an object of the scenario, none of the statement's own
    names, and dismisses it (a negation or a word of harmlessness)."""
    folded = said.casefold()
    if not _names_something(said, names) or any(name.casefold() in folded for name in own):
        return False
    words = _words(said)
    return _negates(words) or bool(_DISMISSING.intersection(words))


# a clause that opens on a back-reference to what was said and judges it (SI red team 17, H6):
# "…, so that is not it.", "That is what a naive agent would say; …", "This is wrong." — the
# clause must open there (after a stop, a comma, a dash or a conjunction), so a relative "the key
# that is not set" is no back-reference; negated, only as untrue or as not the answer ("that is
# not it", "not the cause"): "That is not optional." is a statement
_CLAUSE_START = r"(?:(?<=^)|(?<=[,;:.!?—–(])\s*|\b(?:so|but|and|yet|though|although)\s+)"
_BACK = (
    r"(?:this|that|all\s+(?:of\s+)?(?:this|that)|the\s+(?:line|answer|statement)\s+above|"
    r"the\s+above)"
)
_COPULA = r"(?:is|was|['’]s|seems|looks|sounds)"
_NOT_THE_ANSWER = (
    r"(?:it|so|true|right|correct|accurate|(?:the|a|my|our)\s+"
    r"(?:(?:real|actual|root|true|right|correct|main)\s+)?"
    r"(?:case|cause|culprit|diagnosis|answer|reason|problem|issue|fault))\b"
)
_JUDGED_BACK = lazy_pattern(
    _CLAUSE_START
    + _BACK
    + r"\s+(?:"
    # negated: "that is not it", "this isn't right", "that's not the cause"
    + r"(?:"
    + _COPULA
    + r"\s+(?:\w+\s+)?not|(?:isn|wasn)['’]t)\s+(?:\w+\s+)?"
    + _NOT_THE_ANSWER
    + r"|"
    # judged false: "this is wrong", "that is probably false"
    + _COPULA
    + r"\s+(?:\w+\s+)?(?:wrong|false|incorrect|untrue|nonsense|bogus)\b|"
    # said by someone else: "that is what a naive agent would say"
    + _COPULA
    + r"\s+what\b[^.;!?]{0,60}?\b(?:would|might|could)\s+(?:\w+\s+){0,2}?"
    r"(?:say|think|guess|claim|answer|suggest|conclude|believe)\b)",
    re.IGNORECASE,
)
# the agent on what it said, in the first person with a negation and the back-reference as the
# negated verb's object: "I have not verified any of this", "we never checked that."
_DISOWNED_BACK = lazy_pattern(
    r"\b(?:i|we)\b[^.;!?]{0,40}?(?:\b(?:not|never|cannot)|n['’]t)\s+(?:\w+\s+){0,2}?"
    r"(?:(?:any|all|none|much|some)\s+of\s+)?" + _BACK + r"(?=\s*(?:[.,;:!?]|and\b|but\b|$))",
    re.IGNORECASE,
)
# the factor put in a source's mouth that the answer itself distrusts (SI red team 17, H6):
# "…, according to the alert text I was told not to trust", "…, as claimed by a source I
# cannot verify": an attribution whose source phrase negates trust in it. A source that is
# only described with a negation ("according to kubectl, which does not list it") is evidence
_DISTRUSTED_SOURCE = lazy_pattern(
    r"\b(?:according\s+to|as\s+(?:told|said|claimed|reported)\s+by)\b[^.;!?]{0,80}?"
    r"(?:(?:\b(?:not|never|no|cannot)\b|n['’]t\b)\s+(?:\w+\s+){0,2}?"
    r"(?:trust|verify|believe|rely|confirm)\w*|\b(?:unreliable|untrusted|untrustworthy)\b)"
    r"[^.;!?]*",
    re.IGNORECASE,
)
# a chat tone indicator glued to the word before ("missing/s", "smtp-config/jk"): the
# convention's tags, not a path — a rate after a number ("500 requests/s") is a unit
_GLUED_TONE = lazy_pattern(r"(?<![\d\s])(?<!\d\s)/(?:s|j|jk|sarc|srs|hj)(?![\w/-])", re.IGNORECASE)
_NUMBER_BEFORE = lazy_pattern(r"\d[\d.,]*\s*\S*\Z")


def _refers_to_statement(channel: ChannelText, start: int, identifiers: Sequence[str]) -> bool:
    """Whether a back-reference at `start` can only mean the answer's statement: it opens its
    sentence (after at most two words: "But", "Actually,") or its sentence names the factor's
    identifiers before it ("Found the key present in R after all, so that is not it"). After
    another subject ("The alert says the disk is full, but that is not the cause") it is that
    subject's."""
    sentence = channel.sentence_containing(start, start + 1)
    before = channel.text[sentence.start if sentence is not None else 0 : start]
    if len(_words(before)) <= 2:
        return True
    folded = before.casefold()
    return any(identifier.casefold() in folded for identifier in identifiers)


# the back-reference rules' scans, each skipped where the answer holds none of the literals its
# pattern needs (`_triggers`: derived from the pattern, never listed by hand)
_BACK_REFERENCE_RULES = (
    GatedPattern("unplain back_reference: judged", _JUDGED_BACK),
    GatedPattern("unplain back_reference: disowned", _DISOWNED_BACK),
    GatedPattern("unplain back_reference: distrusted source", _DISTRUSTED_SOURCE),
)
_GLUED_TONE_RULE = GatedPattern("unplain tail: glued tone tag", _GLUED_TONE)


def _judged_back(channel: ChannelText, first: int, own: Sequence[str]) -> list[Unplain]:
    text = channel.text
    lowered = comparable(text)
    found = []
    for rule in _BACK_REFERENCE_RULES:
        for match in rule.finditer(text, lowered, first):
            if rule.pattern is not _DISTRUSTED_SOURCE and not _refers_to_statement(
                channel, match.start(), own
            ):
                continue
            detail = f"the clause {match.group().strip()!r}"
            found.append(Unplain("back_reference", match.start(), match.end(), detail))
    for match in _GLUED_TONE_RULE.finditer(text, lowered, first):
        if _NUMBER_BEFORE.search(text, 0, match.start()) is None:
            found.append(Unplain("tail", match.start(), match.end(), f"the tag {match.group()!r}"))
    return found


def _in_plain_remedy(
    channel: ChannelText,
    aside: Unplain,
    own: Sequence[str],
    names: SceneNames,
    deviation: RemedyDeviation,
) -> bool:
    """Whether `aside` is part of a plain remedy of the factor, whose closed grammar reads it
    ("Scale orders-db to 1 replica (the baseline)." where 1 is the declared baseline; SI red
    team 39, false lows: `_remedy._plain_rest`)."""
    sentence = channel.sentence_containing(aside.start, aside.end)
    if sentence is None:
        return False
    said = channel.text[sentence.start : sentence.end]
    return is_remedy(said, own, names_in(names.identifiers), deviation)


def unplain_shapes(
    channel: ChannelText,
    original: str,
    factor_spans: Sequence[Span],
    identifiers: Sequence[str],
    own: Sequence[str] = (),
    to_original: Callable[[int], int] = _same,
    deviation: RemedyDeviation = None,
    objects: Sequence[str] = (),
    symptom: Sequence[str] = (),
) -> list[Unplain]:
    """Every shape of the module docstring in a channel that states the factor (`factor_spans`
    in scope, offsets of `channel`); `identifiers` are the scenario's, the factor's (`own`)
    among them, and `objects` the names of the evidence's first snapshot (`scenario_objects`):
    only these are names (`_scene_names`). `channel` is the fold of the text
    (`_folded_channel`), `original` the text before markup was blanked and `to_original` maps
    the fold's offsets to it; `deviation` is the factor's deviation type, which a remedy's verb
    follows (SI red team 36, W2)."""
    if not factor_spans:
        return []
    text = channel.text
    names = scene_names(identifiers, objects, symptom)
    # an aside before the statement is part of its label (`_label`), read there
    first = min(span.start for span in factor_spans)
    tags = [
        shape
        for shape in _asides(text, original, names, to_original=to_original)
        if text[shape.start] == "["
    ]
    found = [
        *_marks(text),
        *[shape for shape in tags if shape.start < first],
        *[
            shape
            for shape in _asides(text, original, names, first, to_original)
            if not _in_plain_remedy(channel, shape, own, names, deviation)
        ],
        *_judged_back(channel, first, own),
    ]
    sentences = channel.sentences
    lines = channel.line_spans
    stating: dict[int, int] = {}
    for span in factor_spans:
        sentence = channel.sentence_containing(span.start, span.end)
        if sentence is not None:
            stating[sentence.index] = min(stating.get(sentence.index, span.start), span.start)
    previous: Sentence | None = None
    for sentence in sentences:
        if sentence.index in stating:
            # the label of the statement: the first sentence that states the factor
            label = (
                _label(text, sentence, stating[sentence.index], previous, names)
                if sentence.index == min(stating)
                else None
            )
            tail = _tail(text, sentence, names)
            found += [shape for shape in (label, tail) if shape is not None]
        else:
            comment = _comment(channel, lines, sentence, previous, names, own, deviation)
            if comment is not None:
                found.append(comment)
        previous = sentence
    return found


_NEGATED_WORDS = frozenset(
    {"not", "no", "never", "nor", "doubt", "unsure", "uncertain", "guess", "isn't", "aren't",
     "wasn't", "don't", "doesn't", "didn't", "can't", "couldn't", "won't", "wouldn't"}
)  # fmt: skip
_MODAL = frozenset({"could", "might", "may", "maybe", "perhaps", "probably"})


def _negated(text: str, sentence: Sentence) -> bool:
    return _negates(_words(text[sentence.start : sentence.end]))


def _disowning_first_person(text: str, sentence: Sentence) -> Unplain | None:
    """A sentence in the first person with a negation or doubt: the agent speaking of its own
    answer ("I am not confident in it.", "I'm not sure.", "I doubt it.")."""
    words = _words(text[sentence.start : sentence.end])
    if not any(word in _FIRST_PERSON for word in words):
        return None
    if not _negated(text, sentence):
        return None
    said = text[sentence.start : sentence.end].strip()
    return Unplain("first_person", sentence.start, sentence.end, f"the sentence {said!r}")


def disowning_beside_diagnosis(
    channel: ChannelText,
    original: str,
    identifiers: Sequence[str],
    to_original: Callable[[int], int] = _same,
    objects: Sequence[str] = (),
) -> list[Unplain]:
    """Under a structured diagnosis whose prose does not name the factor (docs/si-scoring.md
    §14): the marks, asides and comment sentences of the module docstring anywhere in the
    prose, and any sentence in which the agent negates or doubts its own answer ("See the
    structured diagnosis; I am not confident in it." — SI red team 16, H7, v3)."""
    text = channel.text
    names = scene_names(identifiers, objects)
    found = [*_marks(text), *_asides(text, original, names, to_original=to_original)]
    previous: Sentence | None = None
    lines = channel.line_spans
    for sentence in channel.sentences:
        # a short comment counts here only with a negation ("Maybe not."): beside a
        # diagnosis, "See the structured diagnosis." is the whole honest answer
        comment = _comment(channel, lines, sentence, previous, names)
        if comment is not None and not _negated(text, sentence):
            comment = None
        shape = comment or _disowning_first_person(text, sentence)
        if shape is not None:
            found.append(shape)
        previous = sentence
    return found


__all__ = ["Unplain", "disowning_beside_diagnosis", "honest_form", "tail_tokens", "unplain_shapes"]
