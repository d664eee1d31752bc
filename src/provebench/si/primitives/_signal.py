"""`signal_dismissed`: did the answer set a misleading signal aside, in an asserted statement?

provebench's C-DA-003 template (Capability Categories §C-DA-003 "identified misleading signal")
asks more than that the signal is named: the answer must *dismiss* it — "batch-processor is a red
herring", "the CPU spike is not the cause" — in a sentence that asserts the dismissal (not a
question, not under a condition, the dismissal phrase neither negated, hedged nor reported, and
not taken back by a retraction in the next two sentences: the factor reading's rules, read by
its `ChannelReader`; nor governed by a cue of doubt or denial, "I doubt X is a red herring",
as a deviation phrase is: its `WordGameIndex`), and must not
endorse it anywhere: a clause that names the signal with an unwithheld cause phrase ("the root
cause is batch-processor") makes the call false whatever else the answer says. The cues are the
strict reading's lists (`strict-5.yaml`: `dismissal`, and `cause` under a negation), read with its
clauses (`_assertion`); tool echo is excluded as SI §2.1 defines it. One pass over the matches,
each sentence read at most once: linear in the answer's size.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Sequence

from provebench._lazy_pattern import lazy_pattern
from provebench.si.primitives._assertion import AssertionCues, SentenceReading
from provebench.si.primitives._commitment_games import signal_games
from provebench.si.primitives._contrary import MARK, identity_denied, postposed_condition
from provebench.si.primitives._disowning import judging_tail
from provebench.si.primitives._folded_channel import FoldedChannel
from provebench.si.primitives._markup import read_markup
from provebench.si.primitives._matching import ChannelText, Sentence, Span, validate_identifier_set
from provebench.si.primitives._paths import PathResult
from provebench.si.primitives._scenario_objects import fold_name, scenario_objects
from provebench.si.primitives._scene_names import IDENTIFIER_SHAPED
from provebench.si.primitives._scope import EvidenceView
from provebench.si.primitives._strict_factor import ChannelReader, WordGameIndex, sentence_range
from provebench.si.primitives._unaccounted import comma_tail, hedging_tail
from provebench.si.primitives._withdrawals import (
    ChannelWithdrawals,
    DismissalWithdrawals,
    SentenceRange,
    answered_no,
    elided_endorsement,
)

_SHOWN = 120


def _dismisses(
    reading: SentenceReading,
    shaped: FoldedChannel,
    cues: AssertionCues,
    games: WordGameIndex | None,
    withdrawals: tuple[ChannelWithdrawals, DismissalWithdrawals] | None = None,
    where: SentenceRange | None = None,
) -> bool:
    """An asserted dismissal phrase, or a cause phrase under a negation, in the sentence; either
    one governed by a cue of doubt or denial (`governing_*`, as a deviation phrase is: "I doubt
    X is a red herring", "I doubt X is not the cause") dismisses nothing, and neither does one
    that `_withdrawals` withholds (negations that cancel, a doubt or report before it, a
    judgement of error after it, a later clause or the next sentence that takes it back).
    Every cue is read in the fold (`shaped`; SI red team 20, W2), its offsets mapped back for
    the reading; `where` is the sentence's range in the fold."""
    text = shaped.channel.text
    low, high = shaped.offset(reading.start), shaped.offset(reading.end)

    def governed(start: int, end: int) -> bool:
        return games is not None and games.governing_range(start, end) is not None

    def withdrawn(start: int, end: int) -> bool:
        if withdrawals is None or where is None:
            return False
        clause_start, clause_end = reading.clause_span(reading.clause_index(start))
        clause = (shaped.offset(clause_start), shaped.offset(clause_end))
        folded = (shaped.offset(start), shaped.offset(end))
        return (
            withdrawals[1].withheld(clause, *folded, where) is not None
            or withdrawals[0].retracted_after(*folded, where) is not None
        )

    def spans(pattern: re.Pattern[str]) -> Iterator[tuple[int, int]]:
        for match in pattern.finditer(text, low, high):
            yield shaped.original(match.start()), shaped.original(match.end())

    def doubled(start: int, end: int) -> bool:
        # SI red team 46, M4: a negator or a degree adverb before the cue's own negation
        # ("hardly / barely / scarcely / not / never not the cause") cancels it (fail closed)
        lead = shaped.offset(start)
        return _DOUBLED.search(text, max(low, lead - 40), shaped.offset(end)) is not None

    if cues.dismissal is not None:
        for start, end in spans(cues.dismissal):
            if doubled(start, end):
                continue
            # the phrase's end too: a denial after it ("…, said nobody", "… would be wrong")
            if (
                reading.blocking_rule(start, end) is None
                and not governed(start, end)
                and not withdrawn(start, end)
            ):
                return True
    return any(
        reading.blocking_rule(start) == "negated"
        and not doubled(start, end)
        and not governed(start, end)
        and not withdrawn(start, end)
        for start, end in spans(cues.cause)
    )


_DOUBLED = lazy_pattern(
    r"\b(?:hardly|barely|scarcely|not|never)\s+(?:not|never)\b|n['’]t\s+(?:not|never)\b",
    re.IGNORECASE,
)


def _dismissal_undone(
    text: str, start: int, end: int, identifiers: Sequence[str], dismissal: re.Pattern[str] | None
) -> str | None:
    """What the dismissal's own sentence `text[start:end]` says against it, read as the factor's
    statement is (`_accounted._statement_undone`; SI red team 31, H2): a copula's negation that
    denies the identity it states ("What is a red herring here is not batch-processor"), a
    postposed condition it depends on ("…, provided its queue is not shared") or a tail that
    judges it (": a conclusion I do not share"); or None."""
    sentence = text[start:end]
    folded = sentence.casefold()
    # the signal's names in any spelling (`_respelt`), as the dismissal itself is found (SI red
    # team 44, F2): "Batch Processor is not the cause" is read for what undoes it too
    respelt = _respelt(identifiers)
    named = [
        *(
            match
            for identifier in identifiers
            for match in re.finditer(re.escape(identifier.casefold()), folded)
        ),
        *respelt.finditer(folded),
    ]
    if not named:
        return None
    rest = respelt.sub(f" {MARK} ", folded)
    for identifier in identifiers:
        rest = rest.replace(identifier.casefold(), f" {MARK} ")
    if identity_denied(rest, dismissal):
        return "a copula's negation denies it"
    first = min(match.start() for match in named)
    last = max(match.end() for match in named)
    condition = postposed_condition(sentence[first:])
    if condition is not None:
        return f"the condition {condition!r}"
    tail = judging_tail(sentence[last:])
    if tail is not None:
        return f"{tail!r} judges it"
    # a hedge closing it (", arguably."; SI red team 41, A6 and A8), read as the factor's
    # statement's is (`_unaccounted.hedging_tail`)
    hedge = comma_tail(sentence[last:])
    if (
        hedge is not None
        and not any(name.casefold() in hedge.casefold() for name in identifiers)
        and hedging_tail(hedge)
    ):
        return f"the tail {hedge.strip()!r} hedges it"
    return None


def _previous(reader: ChannelReader, start: int) -> SentenceRange | None:
    """The sentence before the one starting at `start` (original offsets), if any, at its
    place in the fold (`ChannelReader.shaped`)."""
    text = reader.channel.text
    at = start - 1
    while at >= 0 and text[at].isspace():
        at -= 1
    if at < 0:
        return None
    sentence = reader.channel.sentence_containing(at, at + 1)
    if sentence is None:
        return None
    return reader.shaped.sentences(SentenceRange(sentence.start, sentence.end))


# the signal added to the finding: "— and X", ", plus X", "Contributing: X", "Also X"
_ADDED = lazy_pattern(
    r"(?:(?:^|[.!?]\s+|[—–,;:(]\s*|\s-{1,2}\s+)(?:and|plus|also|as\s+well\s+as|"
    r"together\s+with|along\s+with)\s+(?:so\s+)?(?:the\s+)?|\b(?:contributing|secondary|"
    r"also|additional(?:ly)?|plus|second|other|another)(?:\s+(?:factor|cause|issue|problem|"
    r"culprit|finding)s?)?\s*:\s*(?:the\s+)?)\Z",
    re.IGNORECASE,
)


# the dismissal said again of another name of the signal, elided ("batch-config is too.",
# "…, and batch-config is not either."), or after "nor"/"neither"
_ELIDED = lazy_pattern(
    r"\s*(?:is|are|was|were)\s+(?:not\s+)?(?:either|too|also|as\s+well|neither)\b",
    re.IGNORECASE,
)
_NOR = lazy_pattern(r"\b(?:nor|neither)\s+(?:is\s+|are\s+)?(?:the\s+)?\Z", re.IGNORECASE)
_NEGATED = lazy_pattern(r"\b(?:not|no|never|nor|neither)\b|n['’]t\b", re.IGNORECASE)

# SI red team 42, H4: the signal's names in one spelling, as other names are folded (`fold_name`:
# case, and "-", "_", "." or a space between its words): "Batch processor", "batch_processor".
# SI red team 43, H10: the joint may be empty ("BatchProcessor", "batchprocessor") or any hyphen
# or dash of U+2010-U+2015 ("batch‑processor"); a plural ("batch-processors") and the suffixes of
# the signal's pods and replica sets ("pod/batch-processor-7d9f-abc12") are the signal too
_JOINT = re.compile(r"[-_.\s\u2010-\u2015]+")
_ANY_JOINT = r"[-_.\s\u2010-\u2015]*"
_SIGNAL_TAIL = r"(?:e?s\b|(?:-[a-z0-9]{3,16}){1,2}\b)?"


def _respelt(identifiers: Sequence[str]) -> re.Pattern[str]:
    """One pattern for every spelling of the signal's names, joints interchangeable or left out,
    with a plural or a pod's suffix after it (SI red team 43, H10)."""
    return _respelt_of(tuple(identifiers))


@functools.lru_cache(maxsize=64)
def _respelt_of(identifiers: tuple[str, ...]) -> re.Pattern[str]:
    words = sorted(
        (_ANY_JOINT.join(map(re.escape, _JOINT.split(name.strip()))) for name in identifiers),
        key=len,
        reverse=True,
    )
    return re.compile(
        r"(?<![\w-])(?:" + "|".join(words) + r")" + _SIGNAL_TAIL + r"(?![\w-])", re.IGNORECASE
    )


def _respelt_spans(channel: ChannelText, identifiers: Sequence[str]) -> list[Span]:
    """The signal's mentions in any spelling (`_respelt`), with their lines and columns."""
    text = channel.text
    spans: list[Span] = []
    for match in _respelt(identifiers).finditer(text):
        start = match.start()
        spans.append(
            Span(
                needle=match.group(0),
                start=start,
                end=match.end(),
                line=channel.line_of(start),
                column=start - (text.rfind("\n", 0, start) + 1) + 1,
            )
        )
    return spans


# SI red team 42, H4: after the dismissal, a bare affirmation about "it"/"that" takes it back
# ("Correction: it is.", "Actually it is.", "It is, though."), and so does "it is the cause /
# the outage" — a pronoun the identifier matcher never sees
_OPENER = (
    r"(?:(?:correction|update|edit|actually|wait|well|oh|yes|no|in\s+fact|on\s+second\s+thought|"
    r"then\s+again|ok(?:ay)?|but|and|so|still|however|rather)\s*[:,;—–-]?\s*)*"
)
# SI red team 46, M3: a quantified subject takes the signal in with the rest ("Both are.", "All of
# them are.", "Each is.")
_QUANTIFIED = r"(?:both|all|each|either)(?:\s+of\s+them)?"
_PRONOUN_AFFIRMS = re.compile(
    r"\A\s*"
    + _OPENER
    + r"(?:it|that|this|they|which|"
    + _QUANTIFIED
    + r")\s+(?:is|was|are|were|does|did|do|has|"
    r"had|will|would|could|might|may|must|can)(?:\s*,?\s*(?:too|indeed|really|actually|after\s+"
    r"all|though|as\s+well|so|in\s+fact|the\s+(?:real\s+|actual\s+|true\s+|root\s+|main\s+)?"
    r"(?:cause|culprit|outage|problem|issue|fault|reason)))*\s*[.!]*\s*\Z",
    re.IGNORECASE,
)
# SI red team 43, H09: any elliptical affirmation whose subject is a pronoun, whatever opens
# the sentence ("On reflection, it does.", "Correction: it actually is.", "Well, it kind of
# is.", "Unless it is.", "Ha, it is."): the pronoun, at most two words, an auxiliary, and
# nothing after it but adverbs of affirmation; the sentence holds no negation (checked by the
# caller)
_ELLIPTICAL_AFFIRMS = re.compile(
    r"(?:\A|[\s,:;—–(-])(?:it|that|this|they|which|"
    + _QUANTIFIED
    + r")(?:\s+[\w'’]+){0,2}?\s+(?:is|was|are|were|"
    r"does|did|do|has|had|will|would|could|might|may|must|can|'s|’s)(?:\s*,?\s*(?:too|indeed|"
    r"really|actually|after\s+all|though|as\s+well|so|in\s+fact|surely|certainly|definitely|"
    r"still|again|partly|somewhat|a\s+bit|kind\s+of|sort\s+of|the\s+(?:real\s+|actual\s+|"
    r"true\s+|root\s+|main\s+)?(?:cause|culprit|outage|problem|issue|fault|reason)))*"
    r"\s*[.!)]*\s*\Z",
    re.IGNORECASE,
)
# SI red team 43, H10: a cause relation toward the symptom whose subject names no object ("The
# node CPU is what takes user-service down.", "Something else crashes user-service."): an alias
# of the signal (fail closed); a sentence whose subject is named before the verb is read by the
# name rules
_CAUSES = re.compile(
    r"\b(?:takes?|took|taking|brings?|brought|bringing|knocks?|knocked|puts?)\b[^.;:!?]*?"
    r"\b(?:down|out|offline)\b|\b(?:causes|caused|causing|kills|killed|killing|starves|"
    r"starved|starving|chokes|choked|throttles|throttled|(?:is|are|was|were)\s+(?:behind|"
    r"to\s+blame|responsible))\b",
    re.IGNORECASE,
)
# SI red team 42, H4: after the dismissal, "the real / second / other cause" in a sentence that
# names no object at all (an alias: "the batch job is the real outage", "Second cause: the
# CPU-hungry batch job") — nothing says what it is, so it is read as the signal (fail closed)
_ANOTHER_CAUSE = re.compile(
    r"\b(?:real|true|actual|second|other|another|additional|secondary|further|extra|main|"
    r"primary|bigger|deeper)\s+(?:root\s+)?(?:cause|outage|culprit|problem|issue|fault|trigger|"
    r"reason|factor)s?\b",
    re.IGNORECASE,
)
# SI red team 42, F2 and H4: a later sentence on the signal is exempt only when it is itself a
# dismissal: a dismissal cue, or the signal said to be harmless to the rest — "X only hurts
# itself", "X does not affect user-service", "Fixing X would not help user-service", "S fails
# the same with X stopped". A negation anywhere else ("X is not merely a symptom", "Without X,
# S would not crash", "X cannot be ignored") is no dismissal.
_HARMLESS_VERBS = (
    r"(?:affect|impact|touch|hurt|harm|reach|explain|help|fix|cause|break|matter\s+to|talk\s+to|"
    r"call|use|depend\s+on|relate\s+to|interact\s+with|share\s+anything\s+with)"
)
# SI red team 46, F1: "never" with the verb inflected ("It never touches user-service.")
_HARMLESS_NEVER = (
    r"never\s+(?:(?:affect|impact|touch|hurt|harm|reach|explain|help|fix|cause|break|call|use)"
    r"(?:e?s|e?d)?|(?:matter|talk|depend|relate|interact|share)(?:s|e?d)?\s+(?:to|on|with|"
    r"anything\s+with))"
)
_HARMLESS = re.compile(
    r"\A\s*" + _OPENER + r"(?:(?:fixing|restarting|scaling|changing|touching|stopping|removing|"
    r"deleting|patching)\s+)?(?:the\s+)?SIGNAL(?:['’]s(?:\s+[\w-]+){1,2})?\s+(?:"
    r"only\s+(?:hurts|affects|harms|breaks|slows(?:\s+down)?|impacts|crashes)\s+(?:itself|its\s+"
    r"own\b[^,;:]*)|(?:(?:does|did|would|could|will|can|do)\s*(?:not|n['’]t)\s+"
    + _HARMLESS_VERBS
    + r"|"
    + _HARMLESS_NEVER
    + r")\b[^,;:]*)\s*[.!]?\s*\Z",
    re.IGNORECASE,
)
_STOPPED = re.compile(
    r"\bwith(?:\s+the)?\s+SIGNAL\s+(?:stopped|gone|removed|deleted|disabled|paused|down|off|"
    r"scaled\s+(?:down|to\s+(?:0|zero)))\b",
    re.IGNORECASE,
)
# SI red team 43, F02: the signal called harmless in a verdict of its own ("batch-processor is
# harmless."), or left alone by the remedy ("Leave batch-processor as it is.", "Do not touch
# batch-processor.", "No action on batch-processor."): the dismissal kept, not reopened
_VERDICT_HARMLESS = re.compile(
    r"\A\s*" + _OPENER + r"(?:the\s+)?SIGNAL\s+(?:is|are|was|were|looks?|seems?)\s+(?:(?:just|"
    r"only|merely|entirely|completely|totally|quite|also|itself)\s+)*(?:harmless|benign|"
    r"innocuous|unrelated|irrelevant|immaterial|incidental|coincidental|noise|noisy|busy|"
    r"(?:a\s+)?(?:red\s+herring|decoy|distraction|distractor|coincidence|side\s+issue|"
    r"separate\s+issue|false\s+alarm|false\s+lead|symptom\s+of\s+nothing))(?:\s+(?:here|"
    r"to\s+(?:the\s+)?[\w/-]+|for\s+(?:the\s+)?[\w/-]+))?\s*[.!]?\s*\Z",
    re.IGNORECASE,
)
_LEFT_ALONE = re.compile(
    r"\A\s*" + _OPENER + r"(?:(?:please\s+)?leave\s+(?:the\s+)?SIGNAL\s+(?:as\s+(?:it\s+)?is|"
    r"alone|be|running|untouched|in\s+place)|(?:please\s+)?(?:do\s+not|don['’]t|no\s+need\s+to|"
    r"there\s+is\s+no\s+need\s+to)\s+(?:touch|change|restart|scale|fix|modify|patch|delete|"
    r"act\s+on)\s+(?:the\s+)?SIGNAL|no\s+(?:action|change|fix)\s+(?:is\s+)?(?:needed\s+|"
    r"required\s+)?(?:on|for)\s+(?:the\s+)?SIGNAL|(?:the\s+)?SIGNAL\s+needs\s+no\s+(?:action|"
    r"change|fix))\s*[.!]?\s*\Z",
    re.IGNORECASE,
)
_BUT = re.compile(r"\b(?:but|except|besides|other\s+than|apart\s+from)\b", re.IGNORECASE)


def _harmless(clause: str, respelt: re.Pattern[str]) -> bool:
    """Whether the clause says the signal is harmless to the rest (the `_HARMLESS` and
    `_STOPPED` shapes), with no "but"/"except" that keeps a part of it."""
    signal = respelt.pattern
    if _BUT.search(clause) is not None:
        return False
    if any(
        re.search(shape.pattern.replace("SIGNAL", signal), clause, re.IGNORECASE)
        for shape in (_HARMLESS, _VERDICT_HARMLESS, _LEFT_ALONE)
    ):
        return True
    stopped = re.search(_STOPPED.pattern.replace("SIGNAL", signal), clause, re.IGNORECASE)
    return stopped is not None and _NEGATED.search(clause) is None


# SI red team 44, H5: after the dismissal, a sentence whose subject is a pronoun taking up the
# signal ("Wait, it's guilty.", "That said, it is at fault too.", "On second thought it does
# matter.", "Hmm, I think it does, honestly.") reopens it unless it is itself a verdict of
# harmlessness or leaves the signal alone (`_harmless`, the pronoun for the signal): fail
# closed, where round 43's `_ELLIPTICAL_AFFIRMS` listed the words that may follow the verb.
# The pronoun opens the sentence after at most a lead-in closed by punctuation ("Wait,",
# "That said,"), the openers of `_OPENER` and "I think (that)"
_CONTRACTED = re.compile(r"\b(it|that|this|what)['’]s\b|\b(they|we)['’]re\b", re.IGNORECASE)
_PRONOUN = (
    r"(?:(?:it|that|this|they)(?:\s+one)?|its(?:\s+[\w-]+){1,2}?|" + _QUANTIFIED + r"(?=\s+(?:is|"
    r"are|was|were|do|does|did|has|have|had|will|would|could|can|may|might|must|should|"
    r"contribute|matter|play|cause)))"
)
_PRONOUN_SUBJECT = re.compile(
    r"\A\s*(?:[^,:;—–.!?]{0,30}[,:;—–]\s*)?"
    + _OPENER
    + r"(?:i\s+(?:think|believe|guess|suspect|feel|reckon|admit|would\s+say|must\s+say)"
    r"(?:\s+that)?\s+)?(?:" + _PRONOUN + r")\s+[\w'’]",
    re.IGNORECASE,
)
_PRONOUN_SIGNAL = re.compile(_PRONOUN, re.IGNORECASE)
# a negation that denies the harmlessness itself ("It is not harmless.", "it isn't a red
# herring after all")
_NOT_HARMLESS = re.compile(
    r"(?:\bnot|n['’]t)\s+(?:(?:just|only|merely|simply|really|so|that|at\s+all)\s+)*(?:a\s+|an\s+)?"
    r"(?:harmless|benign|innocuous|unrelated|irrelevant|immaterial|incidental|noise|red\s+"
    r"herring|decoy|distraction|coincidence|side\s+issue|false\s+alarm)\b",
    re.IGNORECASE,
)


_BUT_HARMLESS = re.compile(
    r"\b[\w-]+,?\s+but\s+(?=(?:(?:still|entirely|otherwise)\s+)?(?:harmless|benign|innocuous|"
    r"irrelevant|unrelated|immaterial)\s*[.!]?\s*\Z)",
    re.IGNORECASE,
)


# SI red team 45, F1: what a pronoun sentence after the dismissal may say of the signal and stay
# a description of harmlessness ("It can be ignored.", "It only coincides in time.", "It just
# happens to run at the same time.", "It is a nightly job and is unrelated.", "It is simply a
# busy neighbour.", "It runs every night."): the whole predicate, to the sentence's end, so
# "It happens to run at the same time and is the cause." still reopens (fail closed)
_HARMLESS_PREDICATE = re.compile(
    r"\A\s*(?:[^,:;—–.!?]{0,30}[,:;—–]\s*)?" + _OPENER + r"(?:it|they|this|that)(?:\s+one)?\s+"
    r"(?:(?:just|only|merely|simply|really|probably|likely|also)\s+)*(?:"
    r"(?:can|could|may|should)\s+(?:safely\s+)?be\s+(?:ignored|disregarded|set\s+aside)|"
    r"(?:coincides?|coincided|overlaps?|overlapped)(?:\s+in\s+time|\s+with\s+the\s+"
    r"(?:outage|incident|failure|crash(?:es)?))?|"
    r"(?:happens?|happened)\s+to\s+(?:run|be\s+running|be\s+busy|spike)(?:\s+at\s+the\s+same\s+"
    r"time|\s+then|\s+concurrently|\s+in\s+parallel)?|"
    r"(?:runs?|ran)\s+(?:every|each)\s+(?:night|day|hour)|"
    r"(?:looks?|seems?|looked|seemed)\s+(?:scary|alarming|suspicious|bad|busy|noisy)|"
    r"(?:is|was|are|were)\s+(?:(?:just|only|merely|simply)\s+)?(?:a\s+)?(?:(?:nightly|scheduled|"
    r"batch|cron|periodic)\s+job|busy\s+neighbou?r|noisy\s+neighbou?r|(?:un)?related\s+job)"
    r"(?:\s+and\s+(?:is\s+)?(?:unrelated|harmless|irrelevant|independent|benign))?|"
    r"(?:is|are|was|were)\s+(?:unrelated|independent|harmless|irrelevant)"
    r")\s*[.!]?\s*\Z",
    re.IGNORECASE,
)


# SI red team 45, H12: the claim before withdrawn with "I"/"we" for subject: "Or so I thought.",
# "So I thought, anyway.", "…, or so I hoped", "That was my first guess."
_WITHDRAWN = re.compile(
    r"(?:\A\s*|,\s*)(?:or\s+)?so\s+(?:I|we)\s+(?:(?:had|once|first|originally)\s+)?(?:thought|"
    r"assumed|believed|hoped|figured|guessed|suspected|reckoned|imagined|was\s+told|were\s+told)"
    r"\b|\A\s*(?:that|this)\s+(?:was|is)\s+(?:(?:only|just)\s+)?my\s+(?:first|initial|early|"
    r"original)\s+(?:guess|thought|reading|impression|take)\b",
    re.IGNORECASE,
)


# SI red team 46, M5: the conventional markers of sarcasm after the dismissal, in its own sentence
# ("… is not the cause /s", "…, said no one ever", "…, yeah right", "… Not!") or as the next
# sentence; and M3: a quantified affirmation closing its own sentence ("…; both are.")
_SARCASM = re.compile(
    r"(?:(?<![\d\s])|\s)/s\b|\bsaid\s+no\s*(?:one|body)\b|\byeah,?\s+right\b|"
    r"\bnot\s*!|\bsarcas(?:m|tic(?:ally)?)\b|\bjk\b|\bkidding\b",
    re.IGNORECASE,
)
_OWN_QUANTIFIED = re.compile(
    r"[;:,—–]\s*(?:(?:but|and|actually|in\s+fact|indeed|really)\s+)*"
    + _QUANTIFIED
    + r"\s+(?:is|are|was|were|do|does|did)\b(?!\s*(?:not\b|n['’]t))",
    re.IGNORECASE,
)


def _pronoun_reopens(body: str) -> bool:
    """Whether a sentence after the dismissal opens on a pronoun subject and says anything of
    it but harmlessness (SI red team 44, H5; fail closed): not a verdict of harmlessness, a
    remedy that leaves it alone, or a negated sentence that denies no harmlessness ("It does
    not affect user-service.", "It is a symptom, not the cause.")."""
    said = _CONTRACTED.sub(
        lambda match: f"{match.group(1)} is" if match.group(1) else f"{match.group(2)} are", body
    )
    if _PRONOUN_SUBJECT.match(said) is None:
        return False
    if _HARMLESS_PREDICATE.match(said) is not None:
        return False  # SI red team 45, F1: a harmless description of its own
    # "It is noisy but irrelevant.", "Yes, it is noisy, but it is harmless.": the verdict after
    # the last "but" is the sentence's
    said = _BUT_HARMLESS.sub("", said)
    *_, last = re.split(r",?\s*\bbut\s+", said)
    if last != said and _harmless(last, _PRONOUN_SIGNAL):
        return False
    if _NOT_HARMLESS.search(said) is not None:
        return True
    if _NEGATED.search(said) is not None:
        return False
    lead = re.match(r"\s*[^,:;—–.!?]{0,30}[,:;—–]\s*", said)
    return not any(
        _harmless(piece, _PRONOUN_SIGNAL) for piece in (said, said[lead.end() :] if lead else said)
    )


# SI red team 46, M1: after the dismissal, a subject that is a noun phrase naming no object of the
# scenario ("The job is guilty.", "Said job is nonetheless responsible.", "The CPU spike does
# matter.") is read as a pronoun for the signal (fail closed, `_pronoun_reopens`, whose
# `_HARMLESS_PREDICATE` is the exemption: "That job is unrelated."). It is not when one of its
# words is part of another object's name and of none of the signal's ("The port is wrong." of
# SESSION_STORE_PORT), or its head is the answer's own matter ("The fix is simple.")
_NOUN_SUBJECT = re.compile(
    r"\A(\s*(?:[^,:;—–.!?]{0,30}[,:;—–]\s*)?" + _OPENER + r")(?:the|that|this|these|those|said|"
    r"such(?:\s+an?)?)\s+((?:[\w'’-]+\s+){1,4})",
    re.IGNORECASE,
)
_ENDS_SUBJECT = frozenset(
    {"is", "are", "was", "were", "be", "been", "does", "did", "do", "has", "had", "have", "will",
     "would", "could", "should", "might", "may", "must", "can", "isn't", "aren't", "wasn't",
     "doesn't", "didn't", "only", "just", "merely", "simply", "really", "also", "never", "not",
     "nonetheless", "nevertheless", "partly", "still", "actually", "indeed", "certainly",
     "probably", "definitely", "clearly", "too", "itself", "alone"}
)  # fmt: skip
_OWN_MATTER = frozenset(
    {"fix", "remedy", "solution", "answer", "diagnosis", "evidence", "conclusion", "outage",
     "incident", "symptom", "symptoms", "crash", "crashes", "cause", "culprit", "problem",
     "issue", "fault", "error", "errors", "log", "logs", "result", "step", "rest", "value",
     "change", "restart", "rollout", "deploy", "deployment", "pods", "pod"}
)  # fmt: skip


def _noun_alias(body: str, objects: frozenset[str], signal: frozenset[str]) -> str | None:
    """`body` with a noun-phrase subject that names no object (M1 above) turned into "it", or
    None."""
    match = _NOUN_SUBJECT.match(body)
    if match is None:
        return None
    words = match.group(2).split()
    phrase: list[str] = []
    for at, word in enumerate(words):
        folded = word.casefold()
        if folded in _ENDS_SUBJECT or (at and len(folded) > 3 and folded.endswith(("s", "ed"))):
            break
        phrase.append(folded)
    else:
        return None
    if not phrase or phrase[-1] in _OWN_MATTER:
        return None
    others = objects - signal
    parts = [fold_name(word) for word in phrase if len(fold_name(word)) >= 3]
    if any(part in others for part in parts):
        return None  # it names an object
    # a word of the signal's names only ("the batch job") is the signal's; one of another
    # object's too ("the config", "the port") is that object's
    of_signal = any(
        any(part in name for name in signal) and not any(part in name for name in others)
        for part in parts
    )
    if not of_signal and any(part in name for part in parts for name in others):
        return None  # a word of another object's name ("the port", "the config")
    rest = body[match.end(1) :].split(None, 1 + len(phrase))[-1]
    return f"{match.group(1)}it {rest}"


def _clause_around(text: str, start: int, end: int, low: int, high: int) -> str:
    """The part of `text[low:high]` around `start..end` between ":", ";" or a dash."""
    left = max((text.rfind(mark, low, start) for mark in ":;—–"), default=-1)
    rights = [at for at in (text.find(mark, end, high) for mark in ":;—–") if at != -1]
    return text[(left + 1 if left >= low else low) : (min(rights) if rights else high)]


def _takes_up_signal(
    reader: ChannelReader,
    start: int,
    respelt: re.Pattern[str] | None,
    objects: frozenset[str],
) -> bool:
    """Whether a pronoun opening the sentence at `start` takes up the signal: the sentence
    before it names the signal, or names no other object of the scenario (SI red team 44, H5;
    "Fix SESSION_STORE_PORT. That restarts user-service." takes up the fix)."""
    previous = _previous(reader, start)
    if previous is None:
        return True
    body = reader.shaped.channel.text[previous.start : previous.end]
    if respelt is not None and respelt.search(body) is not None:
        return True
    return not any(
        fold_name(token.group(0).rsplit("/", 1)[-1]) in objects
        for token in IDENTIFIER_SHAPED.finditer(body)
    )


def _after_dismissal(
    reader: ChannelReader,
    spans: Sequence[Span],
    dismissed: Span | None,
    in_scope: Callable[[int], bool],
    objects: frozenset[str],
    respelt: re.Pattern[str] | None = None,
    signal: frozenset[str] = frozenset(),
) -> str | None:
    """A later sentence that takes the dismissal back without naming the signal (SI red team
    42, H4): a bare affirmation about "it"/"that" (`_PRONOUN_AFFIRMS`), or "the real / second /
    other cause" in a sentence that names no object of the scenario (`_ANOTHER_CAUSE`;
    `objects`, folded: "the batch-processing job" is words); or None."""
    if dismissed is None:
        return None
    channel = reader.channel
    text = channel.text
    # SI red team 46, M2: the sentences read with emphasis blanked, offsets kept: "**X is not the
    # cause.** Actually it is." ends its first sentence at the markers the rules must not see
    read = ChannelText(channel.channel, read_markup(text).text)
    first = read.sentence_containing(dismissed.start, dismissed.end)
    if first is None:
        return None
    named = [span.start for span in spans]
    own = _WITHDRAWN.search(text, dismissed.end, first.end)
    shown = " ".join(text[first.start : first.end].split())[:_SHOWN]
    if own is not None and text[own.start() : own.start() + 1] == ",":
        # "batch-processor is not the cause, or so I thought." (SI red team 45, H12)
        return f"the dismissal is taken back: {shown!r}"
    if (
        _SARCASM.search(text, dismissed.end, first.end) is not None
        or _OWN_QUANTIFIED.search(text, dismissed.end, first.end) is not None
    ):
        return f"the dismissal is taken back: {shown!r}"  # SI red team 46, M3 and M5
    for sentence in read.sentences:
        if sentence.start <= first.start or not in_scope(sentence.start):
            continue
        body = read.text[sentence.start : sentence.end]
        shown = " ".join(text[sentence.start : sentence.end].split())[:_SHOWN]
        if (
            _PRONOUN_AFFIRMS.match(body) is not None
            or _WITHDRAWN.match(body) is not None
            or _SARCASM.match(body.lstrip()) is not None
        ):
            return f"the dismissal is taken back: {shown!r}"  # SI red team 45, H12; 46, M5
        if respelt is not None and _harmless(body, respelt):
            continue  # itself a dismissal: "Leave batch-processor as it is." (SI red team 43)
        if _harmless(body, _PRONOUN_SIGNAL) and _takes_up_signal(
            reader, sentence.start, respelt, objects
        ):
            continue  # the same of the pronoun: "Leave it as it is." (SI red team 44, H5)
        negated = _NEGATED.search(body) is not None
        if not negated and _ELLIPTICAL_AFFIRMS.search(body) is not None:
            return f"the dismissal is taken back: {shown!r}"  # SI red team 43, H09
        alias = None if respelt is None else _noun_alias(body, objects, signal)
        if alias is not None and _pronoun_reopens(alias):
            return f"the dismissal is taken back: {shown!r}"  # SI red team 46, M1
        if alias is not None and (
            _HARMLESS_PREDICATE.match(alias) is not None or _harmless(alias, _PRONOUN_SIGNAL)
        ):
            continue  # harmless of the signal's alias: "That job is unrelated." (M1)
        if _pronoun_reopens(body) and _takes_up_signal(reader, sentence.start, respelt, objects):
            return f"the dismissal is taken back: {shown!r}"  # SI red team 44, H5
        cause = None if negated else _CAUSES.search(body)
        if cause is not None and not any(
            len(token.group(0)) >= 4 or fold_name(token.group(0)) in objects
            for token in IDENTIFIER_SHAPED.finditer(body[: cause.start()])
        ):
            # no object named before the causal verb: its subject is unnamed (SI red team 43,
            # H10: "The node CPU is what takes user-service down.")
            return f"a cause with no named subject follows the dismissal: {shown!r}"
        if (
            _ANOTHER_CAUSE.search(body) is not None
            and _NEGATED.search(body) is None
            and not any(sentence.start <= at < sentence.end for at in named)
            and not any(
                fold_name(token.group(0).rsplit("/", 1)[-1]) in objects
                for token in IDENTIFIER_SHAPED.finditer(body)
            )
        ):
            return f"another cause is named after the dismissal, and no object: {shown!r}"
    return None


def _reopened(
    reader: ChannelReader,
    spans: Sequence[Span],
    dismissed: Span | None,
    cues: AssertionCues,
    in_scope: Callable[[int], bool],
    identifiers: Sequence[str],
    objects: frozenset[str] = frozenset(),
) -> str | None:
    """Why the signal is not set aside after all, or None: a mention of it added to the finding
    (`_ADDED`) anywhere, or, after the dismissal at `dismissed`, a mention that is not itself
    in a dismissal — past the dismissal's last cue in its own sentence ("… it is not the cause
    — batch-processor is the outage."), or in a later sentence that does not dismiss it
    ("Contributing: batch-processor.", "Then set QUEUE_HOST to 6380."). Fail closed: a later
    mention is read only as a dismissal or as reopening it (SI red team 41, A8). Round 42 (SI
    red team 42, H4): the mentions are the signal's names in any spelling (`_respelt`); a later
    sentence is exempt only when it dismisses the signal or says it is harmless (`_harmless`),
    not whenever a negation stands in it; and a later sentence that takes the dismissal back
    without a name ("Correction: it is.", "the batch job is the real outage") reopens it
    (`_after_dismissal`)."""
    channel = reader.channel
    text = channel.text
    shaped = reader.shaped
    folded = shaped.channel.text
    respelt = _respelt(identifiers)
    after_dismissal = _after_dismissal(
        reader,
        spans,
        dismissed,
        in_scope,
        objects,
        respelt,
        frozenset(fold_name(name) for name in identifiers),
    )
    if after_dismissal is not None:
        return after_dismissal
    for span in spans:
        if not in_scope(span.start):
            continue
        sentence = reader.sentence_of(span)
        floor = sentence.start if sentence is not None else 0
        after = text[span.end : sentence.end] if sentence is not None else ""
        if _ELIDED.match(after) is not None or _NOR.search(text[floor : span.start]):
            continue  # the dismissal said again of it ("… batch-config is too.", "nor X")
        if _ADDED.search(text[max(floor, span.start - 60) : span.start]) is not None:
            return f"{span.needle!r} is added to the finding: {text[floor : span.end]!r}"
        if dismissed is None or span.start <= dismissed.start or sentence is None:
            continue
        shown = " ".join(text[sentence.start : sentence.end].split())[:_SHOWN]
        first = reader.sentence_of(dismissed)
        low, high = shaped.offset(sentence.start), shaped.offset(sentence.end)
        cue_ends = [
            match.end()
            for pattern in (cues.dismissal, cues.cause)
            if pattern is not None
            for match in pattern.finditer(folded, low, high)
        ]
        if first is not None and first.start == sentence.start:
            # the dismissal's own sentence: a mention past its last cue is a comment on it,
            # unless what follows it denies ("its QUEUE_HOST problem … does not affect S")
            past = not cue_ends or shaped.offset(span.start) > max(cue_ends)
            if past and _NEGATED.search(after) is None:
                return f"{span.needle!r} is named again after its dismissal: {shown!r}"
            continue
        if _harmless(
            _clause_around(text, span.start, span.end, sentence.start, sentence.end), respelt
        ):
            continue  # a later dismissal: "X only hurts itself", "S fails with X stopped"
        located = reader.at(span)
        where = shaped.sentences(sentence_range(reader, sentence))
        if (
            located is None
            or not cue_ends
            or not _dismisses(located[1], shaped, cues, None, None, where)
            or _dismissal_undone(text, sentence.start, sentence.end, identifiers, cues.dismissal)
            is not None
        ):
            return f"{span.needle!r} is named again after its dismissal: {shown!r}"
    return None


def _in_scope(
    view: EvidenceView, channel: ChannelText, exclude_tool_echo: bool
) -> Callable[[int], bool]:
    """Whether an offset of the channel is in scope (not on an echoed line, SI §2.1)."""

    def test(offset: int) -> bool:
        return not exclude_tool_echo or not view.line_is_echo(channel, channel.line_of(offset))

    return test


def _shown(reading: SentenceReading) -> str:
    text = " ".join(reading.text().split())
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


# SI red team 46, F1: what the factor's readers never judge. A sentence about the dismissed signal
# says nothing of the factor, so none may lower `factor_asserted`: the signal's own dismissal
# ("batch-processor (high CPU) is not the cause.", "- batch-processor: not the cause (red
# herring)", a table row, the clause after "Fix K;"), its harmlessness ("batch-processor never
# touches user-service.", "Leave batch-processor alone.") and, right after one of these, the
# same of a pronoun ("It does not talk to session-store.", "Leave it alone."). Fail closed: only
# these shapes, whole, nothing before the signal's name but marks, nothing after the cue but
# marks and asides that claim nothing ("(high CPU)"), no conjunction that could carry another
# claim, no other object of the scenario named in a dismissal; the caller keeps every unit that
# names the factor.
_QUIET_ASIDE = re.compile(r"\(([^()]{0,60})\)")
# the words an aside on the signal may hold (fail closed: "(port fine)" is no such aside)
_ASIDE_WORDS = frozenset(
    {"high", "cpu", "memory", "load", "usage", "spike", "spikes", "spiking", "busy", "noisy",
     "loud", "pegged", "red", "herring", "decoy", "distraction", "noise", "nightly", "hourly",
     "daily", "batch", "cron", "job", "jobs", "the", "a", "an", "its", "unrelated", "harmless",
     "benign", "irrelevant", "at", "percent", "queue", "logs", "errors", "connection", "cores",
     "only", "just", "symptom", "neighbour", "neighbor", "of", "in", "on", "pod", "pods"}
)  # fmt: skip
_ASIDE_WORD = re.compile(r"[\w'’%.-]+")
_NUMBER = re.compile(r"[\d.,]+%?|~?\d[\w.%]*")
_JOINED_CLAIM = re.compile(
    r"\b(?:and|but|or|so|yet|though|although|while|whereas|because|since|if|unless|except|"
    r"however|until|once|when|whether)\b",
    re.IGNORECASE,
)
_MARKS_ONLY = re.compile(r"[\W_]*")
_AFTER_CUE = re.compile(r"(?:[\W_]*(?:here|either|at\s+all|too|itself|whatsoever)\b)*[\W_]*")


def _quiet(text: str) -> str | None:
    """`text` with each aside that claims nothing blanked ("(high CPU)", "(red herring)",
    "(95% CPU)"), or None where an aside has more than four words or one off `_ASIDE_WORDS`
    that is no number."""
    for aside in _QUIET_ASIDE.finditer(text):
        words = _ASIDE_WORD.findall(aside.group(1))
        if len(aside.group(1).split()) > 4 or any(
            word.casefold() not in _ASIDE_WORDS and _NUMBER.fullmatch(word) is None
            for word in words
        ):
            return None
        if re.search(r"[?!/]", aside.group(1)):
            return None
    return _QUIET_ASIDE.sub(lambda aside: " " * len(aside.group(0)), text)


def signal_sentences(
    reader: ChannelReader,
    identifier_set: Sequence[str],
    cues: AssertionCues,
    objects: frozenset[str] = frozenset(),
) -> list[tuple[int, int]]:
    """The ranges of `reader`'s channel (its offsets) that only dismiss the signal or call it
    harmless (SI red team 46, F1; the comment above): what the factor's readers leave out."""
    identifiers = validate_identifier_set(identifier_set, field="misleading_signal")
    channel = reader.channel
    text = channel.text
    shaped = reader.shaped
    folded = shaped.channel.text
    respelt = _respelt(identifiers)
    if respelt.search(text) is None:
        return []
    games = None if cues.games is None else WordGameIndex(reader, cues.games)
    withdrawals = (ChannelWithdrawals(folded, folded), DismissalWithdrawals(folded))
    signal_names = frozenset(fold_name(name) for name in identifiers)
    spans = sorted(
        {
            span.start: span
            for span in [
                *_respelt_spans(channel, identifiers),
                *channel.identifier_matches(identifiers),
            ]
        }.values(),
        key=lambda span: span.start,
    )

    def other_object(piece: str) -> bool:
        rest = respelt.sub(" ", piece)
        return any(
            (name := fold_name(token.group(0).rsplit("/", 1)[-1])) in objects
            and name not in signal_names
            for token in IDENTIFIER_SHAPED.finditer(rest)
        )

    def dismissal(span: Span, sentence: Sentence) -> tuple[int, int] | None:
        left = text.rfind(";", sentence.start, span.start) + 1 or sentence.start
        right = text.find(";", span.end, sentence.end)
        right = sentence.end if right == -1 else right
        clause = _quiet(respelt.sub(lambda name: " " * len(name.group(0)), text[left:right]))
        if clause is None or _JOINED_CLAIM.search(clause) or other_object(clause):
            return None
        if _MARKS_ONLY.fullmatch(text[left : span.start]) is None:
            return None
        low, high = shaped.offset(left), shaped.offset(right)
        cue_ends = [
            shaped.original(match.end())
            for pattern in (cues.dismissal, cues.cause)
            if pattern is not None
            for match in pattern.finditer(folded, low, high)
        ]
        if not cue_ends or _AFTER_CUE.fullmatch(clause[max(cue_ends) - left :]) is None:
            return None
        located = reader.at(span)
        where = shaped.sentences(sentence_range(reader, sentence))
        if (
            located is None
            or not _dismisses(located[1], shaped, cues, games, withdrawals, where)
            or _dismissal_undone(text, sentence.start, sentence.end, identifiers, cues.dismissal)
        ):
            return None
        return left, right

    ranges: list[tuple[int, int]] = []
    unit_end = -1  # where the last unit ended a sentence: a pronoun right after takes it up
    for sentence in channel.sentences:
        body = text[sentence.start : sentence.end]
        found: tuple[int, int] | None = None
        if _JOINED_CLAIM.search(body) is None and (
            _harmless(body, respelt)
            or (
                respelt.search(body) is None
                and text[unit_end : sentence.start].strip() == ""
                and any(
                    _harmless(said, _PRONOUN_SIGNAL) or _HARMLESS_PREDICATE.match(said) is not None
                    for said in (body, _noun_alias(body, objects, signal_names) or body)
                )
            )
        ):
            found = (sentence.start, sentence.end)
        else:
            for span in spans:
                if sentence.start <= span.start < sentence.end:
                    found = dismissal(span, sentence)
                    break
        if found is not None:
            ranges.append(found)
            unit_end = sentence.end if found[1] == sentence.end else -1
    return ranges + _table_heads(channel, ranges)


_TABLE_RULE = re.compile(r"\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?(?:-{3,}:?)?\s*")


def _table_heads(channel: ChannelText, ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The head and rule of each table whose every row is a unit of `ranges` ("| component |
    verdict |" over "| batch-processor | red herring |"): a table only about the signal (SI red
    team 46, F1)."""
    text = channel.text
    lines = [(start, end) for start, end in channel.line_spans if text[start:end].strip()]
    heads: list[tuple[int, int]] = []
    at = 0
    while at < len(lines):
        block = []
        while at < len(lines) and text[lines[at][0] : lines[at][1]].lstrip().startswith("|"):
            block.append(lines[at])
            at += 1
        if not block:
            at += 1
            continue
        if len(block) >= 3 and _TABLE_RULE.fullmatch(text[block[1][0] : block[1][1]]):
            covered = all(
                any(
                    low <= start + len(text[start:end]) - len(text[start:end].lstrip())
                    and text[high:end].strip() == ""
                    for low, high in ranges
                    if low < end and high > start
                )
                for start, end in block[2:]
            )
            if covered:
                heads += block[:2]
    return heads


def signal_dismissed(
    view: EvidenceView,
    identifier_set: Sequence[str],
    channels: Sequence[str],
    cues: AssertionCues,
    exclude_tool_echo: bool = True,
) -> PathResult:
    """True when some in-scope sentence naming an identifier of the signal asserts a dismissal
    of it and no clause of the answer names the signal as the cause (module docstring)."""
    identifiers = validate_identifier_set(identifier_set, field="identifier_set")
    dismissed: str | None = None
    dismissed_at: tuple[str, int] | None = None
    dismissed_span: Span | None = None
    read: list[tuple[str, ChannelReader, list[Span]]] = []
    for name in dict.fromkeys(channels):
        channel: ChannelText = view.channel(name)
        # the factor reading's sentences: a report ("Some say X is unrelated") or a retraction
        # in the next two sentences ("… I disagree.") withholds the dismissal as it withholds
        # a deviation phrase (version 4)
        reader = ChannelReader(channel, cues)
        games = None if cues.games is None else WordGameIndex(reader, cues.games)
        # every rule reads the fold, offsets mapped (SI red team 20, W2)
        shaped = reader.shaped
        folded = shaped.channel.text
        withdrawals = (ChannelWithdrawals(folded, folded), DismissalWithdrawals(folded))
        # each sentence read once, however many times it names the signal
        undone = functools.lru_cache(maxsize=None)(
            functools.partial(
                _dismissal_undone, identifiers=tuple(identifiers), dismissal=cues.dismissal
            )
        )
        # every spelling of the signal's names, the dismissal's too (SI red team 44, F2:
        # "Batch Processor is not the cause.", "batch_processor is not the cause." dismiss it)
        spans: list[Span] = sorted(
            {
                span.start: span
                for span in [
                    *_respelt_spans(channel, identifiers),
                    *channel.identifier_matches(identifiers),
                ]
            }.values(),
            key=lambda span: span.start,
        )
        read.append((name, reader, spans))
        for span in spans:
            if exclude_tool_echo and view.line_is_echo(channel, span.line):
                continue
            located = reader.at(span)
            if located is None:
                continue
            reading = located[1]
            if reading.has_cause_cue(reading.clause_index(span.start)):
                return PathResult(
                    primitive="signal_dismissed",
                    value=False,
                    note=f"{span.needle!r} is named as the cause: {_shown(reading)!r}",
                )
            sentence = reader.sentence_of(span)
            where = None if sentence is None else shaped.sentences(sentence_range(reader, sentence))
            if where is not None and sentence is not None:
                # round 13: "X is not the cause. Y is." (Y naming the same deviation), "Y is
                # also making user-service crash" (`_withdrawals.elided_endorsement`)
                endorsed = elided_endorsement(
                    folded,
                    shaped.offset(span.start),
                    shaped.offset(span.end),
                    where,
                    functools.partial(_previous, reader, sentence.start),
                )
                if endorsed is not None:
                    return PathResult(
                        primitive="signal_dismissed",
                        value=False,
                        note=f"{span.needle!r} is named as the cause: {endorsed}",
                    )
            if (
                dismissed is None
                and where is not None
                and reading.question
                and answered_no(folded, where, cues.cause, cues.dismissal)
            ):
                # "Is batch-processor the problem? No." — a cause asked of the signal and
                # answered no (round 13, W3)
                dismissed = f"{span.needle!r} dismissed: {_shown(reading)!r} answered no"
                dismissed_at = (name, where.start)
                dismissed_span = span
            if (
                dismissed is None
                and sentence is not None
                and _dismisses(reading, shaped, cues, games, withdrawals, where)
                and undone(channel.text, sentence.start, sentence.end) is None
            ):
                dismissed = f"{span.needle!r} dismissed: {_shown(reading)!r}"
                sentence = reader.sentence_of(span)
                dismissed_at = (name, sentence.start if sentence is not None else 0)
                dismissed_span = span
    if dismissed_at is not None:
        # a dismissal turned over, kept in part, or reopened later (`_commitment_games`)
        for name, reader, spans in read:
            channel = reader.channel
            shaped = reader.shaped
            fold = shaped.channel
            game = signal_games(
                fold,
                shaped.sentence_of,
                shaped.spans(spans),
                shaped.offset(dismissed_at[1]) if name == dismissed_at[0] else -1,
                shaped.in_fold(_in_scope(view, channel, exclude_tool_echo)),
            )
            if game is not None:
                text = " ".join(fold.text[game.sentence.start : game.sentence.end].split())
                shown = text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"
                return PathResult(
                    primitive="signal_dismissed",
                    value=False,
                    note=f"{game.rule} (sentence {game.sentence.index}): {game.detail}: {shown!r}",
                )
    for name, reader, spans in read:
        # the signal added to the finding ("— and QUEUE_HOST", "Contributing: batch-processor.",
        # "Plus QUEUE_HOST."), wherever it stands; and, after the dismissal, the last word on
        # the signal counts: a later mention that is no dismissal of its own reopens it (SI red
        # team 41, A8)
        # every spelling of the signal's names (SI red team 42, H4: "Batch processor",
        # "batch_processor")
        spelt = {
            span.start: span for span in [*spans, *_respelt_spans(reader.channel, identifiers)]
        }
        reopened = _reopened(
            reader,
            sorted(spelt.values(), key=lambda span: span.start),
            dismissed_span if dismissed_at is not None and name == dismissed_at[0] else None,
            cues,
            _in_scope(view, reader.channel, exclude_tool_echo),
            identifiers,
            frozenset(fold_name(name) for name in (*identifiers, *scenario_objects(view)) if name),
        )
        if reopened is not None:
            return PathResult(primitive="signal_dismissed", value=False, note=reopened)
    return PathResult(
        primitive="signal_dismissed",
        value=dismissed is not None,
        note=dismissed or "no asserted dismissal of the signal",
    )


__all__ = ["signal_dismissed", "signal_sentences"]
