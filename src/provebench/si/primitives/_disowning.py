"""Labels, tails and sentences that negate or disown a statement, read as one class
(docs/si-scoring.md §11, "Round 15: labels, tails and retractions that disown"; SI red team 15,
H4).

The strict reading (a provebench registry extension beside SI §2.2, never a change to it) must
not credit a finding the answer itself calls false, rejected or a decoy. Earlier rounds listed
such labels word by word ("Hoax:", "Myth:"); each list let the next word through ("Debunked:",
"Ruled-out theory:", "— false.", "(not the case)"). Here the class is a small grammar over a
closed vocabulary, so that a new word of the class joins through its shape, not its spelling:

    verdict   = [lead]* head [claim noun]
    head      = a word or phrase that calls a claim untrue or set aside: false, untrue, wrong,
                incorrect, invalid, bogus, mistaken, erroneous, fake, fabricated, made up, a lie,
                a myth, a hoax, a fallacy, a misconception, a decoy, a distraction, a red
                herring, a dead end, unrelated, irrelevant, unfounded, baseless, unsupported, or
                a participle of rejection (rejected, dismissed, discarded, eliminated, excluded,
                ruled out, debunked, disproven, refuted, falsified, retracted, withdrawn,
                abandoned, invalidated, overturned, contradicted), or "not" before a word of
                truth or cause ("not the case", "not true", "not the cause", "not it")
    claim noun= what such a verdict is said of: hypothesis, theory, lead, guess, idea, claim,
                belief, assumption, suspicion, suspect, candidate, diagnosis, answer,
                conclusion, finding, explanation, alarm, positive, rumor, story, premise, notion
    lead      = words that carry no content of their own: articles, "that/this/it/which" and a
                copula, intensifiers ("totally", "clearly", "pure"), and the negation idioms that
                affirm ("No doubt", "Not only is", "Undeniably": they add nothing, so they hide
                nothing)

and the verdict is read in three places:

* as a **label** that opens the phrase's sentence and ends at a colon, dash or comma ("Myth:",
  "Rejected hypothesis:", "Debunked —", "No doubt a wrong guess:", "Not only is that false,");
* as a **tail** after the phrase, from a clause boundary to the end of the sentence ("… —
  false.", "… (not the case)", "…: rejected.", "…, a debunked theory.");
* as a **sentence** after the phrase's, referring back to it: the next sentence may be nothing
  but a verdict ("False.", "Verdict: rejected.", "That was wrong.") or a bare denial of it ("It
  isn't.", "Actually no, it is not."); the one after that only when it names what it judges
  as what was said ("None of the above is true.", "Everything I said is false."). That is the
  window: two sentences, as `retraction` reads (`_Retractions.after`).

A fourth place since round 31 (SI red team 31, H2): a **tail that judges the answer** by its
shape rather than a verdict word (`judging_tail`: a claim noun heading it, or a subject that
refers back and a predicate that rejects, disproves or doubts it: ": a conclusion I do not
share", "(I later disproved this)").

What keeps honest answers: a verdict must be the whole label or tail — "Wrong value: 6380" (a
deviation, not a claim noun), "The disk alert is a red herring: X is missing" (a subject of its
own), "— not a guess" (not a head) are not verdicts; a tail must end the sentence and start
after the phrase; "wrong" of the deviation itself is the phrase, not a tail of it.
"""

from __future__ import annotations

import re

from provebench._lazy_pattern import lazy_pattern

_I = re.IGNORECASE

# the head of a verdict: a word or phrase that calls a claim untrue or sets it aside
_HEAD = (
    r"(?:false|untrue|wrong|incorrect|invalid|bogus|mistaken|erroneous|fake|phony|phoney"
    r"|fabricated|made[-\s]up|fictional|fictitious|imaginary|spurious|unfounded|baseless"
    r"|groundless|unsupported|unsubstantiated|unrelated|irrelevant|immaterial|beside\s+the\s+point"
    r"|nonsense|rubbish|garbage|(?:a\s+|an\s+)?(?:lie|lies|myth|myths|hoax|hoaxes|fallacy|fable"
    r"|fiction|fantasy|misconception|misunderstanding|falsehood|fabrication|decoy|distraction"
    r"|diversion|red[-\s]herrings?|dead[-\s]ends?|wild[-\s]goose[-\s]chase|non[-\s]?issue"
    r"|non[-\s]?cause|false\s+(?:alarm|positive|lead|trail|start))"
    r"|rejected|dismissed|discarded|eliminated|excluded|ruled[-\s]out|debunked|disproven|disproved"
    r"|refuted|falsified|retracted|withdrawn|abandoned|dropped|invalidated|overturned"
    r"|contradicted|discredited|rebutted|scrapped|cleared|exonerated"
    r"|not\s+(?:the\s+case|true|so|correct|right|accurate|valid|real|confirmed|verified|it"
    r"|relevant|related|(?:the|a)\s+(?:cause|culprit|problem|issue|reason|answer|root\s+cause)))"
)
# what a verdict is said of
_CLAIM_NOUN = (
    r"(?:hypothes[ie]s|theor(?:y|ies)|leads?|guess(?:es)?|ideas?|claims?|beliefs?|assumptions?"
    r"|suspicions?|suspects?|candidates?|diagnos[ie]s|answers?|conclusions?|findings?"
    r"|explanations?|alarms?|positives?|rumou?rs?|stor(?:y|ies)|premises?|notions?|statements?"
    r"|trails?|paths?|avenues?|angles?|options?|possibilit(?:y|ies)|causes?)"
)
# words with no content of their own before the head
_LEAD_WORD = (
    r"(?:no\s+doubt|not\s+only(?:\s+(?:is|was|are))?|without\s+(?:a\s+|any\s+)?(?:doubt|question)"
    r"|beyond\s+(?:a\s+|any\s+)?(?:doubt|question)|no\s+question|undeniably|indeed|honestly"
    r"|frankly|clearly|obviously|certainly|definitely|surely|totally|completely|utterly|entirely"
    r"|absolutely|simply|just|plainly|pure|purely|total|complete|utter|classic|common|popular"
    r"|widespread|old|known|well[-\s]known|yet\s+another|another|one|a|an|the|all|this|that|it"
    r"|which|what|is|was|are|were|'s|’s|has\s+been|had\s+been|been|so|very|quite|most|likely"
    r"|probably|an?\s+(?:other|second|third)|my|our|your|their|his|her)"
)
# at most eight words of no content before the head: each match is bounded, so reading every
# clause boundary of a long sentence stays linear
_VERDICT = (
    rf"(?:{_LEAD_WORD}(?:\s*,?\s+|(?=['’]))){{0,8}}{_HEAD}(?:\s+{_CLAIM_NOUN})?(?![A-Za-z0-9_-])"
)
# the claim noun first ("Hypothesis (rejected):", "Theory — debunked:")
_NOUN_FIRST = (
    rf"(?:(?:a|an|the|this|that|my|our)\s+)?{_CLAIM_NOUN}\s*(?:[(\[—–-]|,)?\s*{_HEAD}\s*[)\]]?"
)

_LABEL = lazy_pattern(
    rf"[\W_]*(?:{_VERDICT}|{_NOUN_FIRST})\s*(?:[:—–,]|\s-{{1,2}}\s|-{{2}}|\.\.\.|…)", _I
)
_CLOSERS = r"[\s.!?…)\]'\"”’*_~]*"
_TAIL = lazy_pattern(
    rf"\s*(?:[,;:—–(\[]|\s-{{1,2}}>?\s|-{{2}}|->)\s*(?:(?:which|that|this|it)\s+(?:is|was|'s|’s)\s+)?"
    rf"{_VERDICT}{_CLOSERS}$",
    _I,
)
# a whole sentence after the phrase's: fillers, an optional label, then a verdict (with or
# without a subject that refers back), or a bare denial of "it"
_FILLER = (
    r"(?:(?:actually|well|no|nope|nah|so|in\s+fact|honestly|then\s+again|hmm+|wait|oops|ok|okay"
    r"|correction|update|edit|verdict|status|conclusion|result|assessment|outcome|ruling"
    r"|final\s+answer|in\s+short|in\s+truth|truth\s+is|the\s+truth\s+is)\s*[,:;.!—–-]?\s+){0,4}"
)
_BACK = (
    r"(?:(?:none|all|each|any)\s+of\s+(?:that|this|it|these|those|the\s+above|what\s+I\s+"
    r"(?:said|wrote))|everything(?:\s+(?:above|before|I\s+(?:said|wrote)|said|written))?"
    r"|the\s+above|what\s+I\s+(?:just\s+)?(?:said|wrote)|what\s+was\s+said"
    r"|(?:the|my)\s+(?:previous|preceding|first|earlier|last|above|prior)\s+(?:sentence|statement"
    r"|claim|line|part|paragraph|answer|point|finding|diagnosis)|my\s+(?:answer|diagnosis|claim"
    r"|finding|statement))"
)
_NEAR_SUBJECT = rf"(?:{_BACK}|that|this|it|all|so)"
_COPULA = (
    r"(?:is|was|are|were|'s|’s|has\s+been|had\s+been|would\s+be|seems|sounds|proved|proves"
    r"|turned\s+out)(?:\s+to\s+be)?"
)
_TRUE_WORD = r"(?:true|so|the\s+case|right|correct|accurate|valid|real|it|confirmed)"
_DENIED = (
    rf"(?:{_NEAR_SUBJECT}(?:\s+(?:is|was|are|were|does|did)\s*(?:not|n['’]?t)|['’]s\s+not"
    rf"|\s+(?:isn|wasn|aren|weren|doesn|didn)['’]?t)"
    rf"(?:\s+(?:really|at\s+all|so|the\s+case|true|either))?"
    rf"|(?:none|neither|nothing)\s+of\s+(?:that|this|it|these|those|the\s+above|what\s+I\s+"
    rf"(?:said|wrote))\s+(?:(?:is|was|are|were)\s+{_TRUE_WORD}|holds?|stands?|applies)"
    rf"|(?:all\s+)?lies(?:\s*,\s*all\s+of\s+it)?|all\s+(?:false|wrong|made[-\s]up))"
)
_NEXT = lazy_pattern(
    rf"[\W_]*{_FILLER}(?:{_DENIED}|(?:{_NEAR_SUBJECT}(?:\s+|(?=['’])){_COPULA}\s+)?{_VERDICT}){_CLOSERS}$",
    _I,
)
_LATER = lazy_pattern(
    rf"[\W_]*{_FILLER}(?:{_BACK}\s+(?:{_COPULA}\s+{_VERDICT}|(?:is|was|are|were)\s*(?:not"
    rf"|n['’]?t)\s+{_TRUE_WORD}|holds?\s+not|(?:does|do)\s*(?:not|n['’]?t)\s+(?:hold|stand"
    rf"|apply))|(?:none|neither|nothing)\s+of\s+(?:that|this|it|the\s+above|what\s+I\s+"
    rf"(?:said|wrote))\s+(?:(?:is|was|are|were)\s+{_TRUE_WORD}|holds?|stands?|applies)){_CLOSERS}$",
    _I,
)
# a substring one of the patterns needs (most answers have none: the scan is skipped)
_NEEDED = (
    "fals", "untrue", "wrong", "incorrect", "invalid", "bogus", "mistak", "erroneous", "fake",
    "phon", "fabricat", "made", "fict", "imagin", "spurious", "founded", "baseless",
    "groundless", "support", "substantiat", "related", "relevant", "material", "beside",
    "nonsense", "rubbish", "garbage", "lie", "myth", "hoax", "fallac", "fable", "fantas",
    "misconc", "misunder", "decoy", "distract", "diversion", "herring", "dead", "goose", "issue",
    "cause", "reject", "dismiss", "discard", "eliminat", "exclud", "ruled", "debunk", "disprov",
    "refut", "retract", "withdr", "abandon", "dropped", "overturn", "contradict", "discredit",
    "rebut", "scrap", "cleared", "exonerat", "not", "n't", "n’t", "none", "neither", "nothing",
)  # fmt: skip


def may_disown(lowered: str) -> bool:
    """Whether the text (lower case) holds a word any verdict needs."""
    return any(piece in lowered for piece in _NEEDED)


def disowning_label(text: str, sentence_start: int, sentence_end: int) -> tuple[int, str] | None:
    """The verdict that opens the sentence as a label ("Debunked: X is …"): how far it governs
    (to the first clause boundary of its own after it, or the sentence's end) and its words;
    or None. A phrase up to that offset is labelled, one inside the label too ("Invalid: X is
    6380": the deviation word is the verdict, not a finding)."""
    found = _LABEL.match(text, sentence_start, sentence_end)
    if found is None:
        return None
    stop = _LABEL_STOP.search(text, found.end(), sentence_end)
    return (sentence_end if stop is None else stop.start()), found.group()


_LABEL_STOP = lazy_pattern(r"[;.!?]")
_BOUNDARY = lazy_pattern(r"[,;:—–(\[]|\s-{1,2}>?\s|-{2}|->")


def disowning_tails(text: str, sentence_start: int, sentence_end: int) -> list[tuple[int, str]]:
    """Every clause boundary of the sentence from which a verdict runs to its end ("… —
    false.", "… (not the case)"), in order, with the verdict's words (one anchored, bounded
    match per boundary: linear in the sentence)."""
    tails: list[tuple[int, str]] = []
    for boundary in _BOUNDARY.finditer(text, sentence_start, sentence_end):
        found = _TAIL.match(text, boundary.start(), sentence_end)
        if found is not None:
            tails.append((boundary.start(), found.group()))
    return tails


def tail_over(
    text: str,
    sentence_start: int,
    tails: list[tuple[int, str]],
    phrase_start: int,
    phrase_end: int,
) -> str | None:
    """The verdict of `tails` (`disowning_tails`) on the phrase: one after it, or one holding it
    after the same word was said before it ("X is wrong (wrong)": the second is the verdict on
    the first); or None."""
    if tails and tails[-1][0] >= phrase_end:
        return tails[-1][1]
    before = [tail for tail in tails if tail[0] < phrase_start]
    if before:
        at, words = before[-1]
        if text[phrase_start:phrase_end].casefold() in text[sentence_start:at].casefold():
            return words
    return None


def disowning_sentence(text: str, start: int, end: int, *, next_one: bool) -> str | None:
    """The sentence `[start, end)` as a verdict on what came before: the next sentence may be a
    verdict or a denial of "it"; a later one must name what it judges as what was said."""
    found = (_NEXT if next_one else _LATER).match(text, start, end)
    return None if found is None else found.group()


# A tail that judges the answer (SI red team 31, H2): a clause set off after the statement whose
# head is the answer as a claim ("…: a conclusion I do not share", "… (a hypothesis I later
# rejected)", "…: the answer a lazy agent would give"), or whose subject refers back to it
# ("this", "that", "which", the speaker) and whose predicate rejects, disproves, doubts,
# denies trust in or supposes it false ("(I later disproved this)", "— this would be my answer
# if I were wrong"). By the tail's shape, not its words: a tail headed by a claim noun judges
# the statement unless the evidence is said to confirm it; one whose subject is a part of the
# system or the evidence ("(the describe output confirms it)", ": the container config cannot
# be created") speaks of the system and is read by the other rules.
# the nouns of a claim an answer makes (`_CLAIM_NOUN` less the causes, leads and options a tail
# may name of the system: "(root cause)", "— the only lead")
_ANSWER_NOUN = (
    r"(?:hypothes[ie]s|theor(?:y|ies)|guess(?:es)?|ideas?|claims?|beliefs?|assumptions?"
    r"|suspicions?|diagnos[ie]s|answers?|conclusions?|findings?|explanations?|rumou?rs?"
    r"|stor(?:y|ies)|premises?|notions?|statements?|opinions?|verdicts?|readings?|takes?)"
)
_JUDGED_CUTS = lazy_pattern(r"[,;:—–(\[]|\s-{1,2}>?\s|-{2}|->")
_CLAIM_HEAD = lazy_pattern(
    rf"\A\W*(?:(?:this|that|it|which)\s+(?:is|was|'s|’s|would\s+be|could\s+be|might\s+be)\s+)?"
    rf"(?:(?:a|an|the|my|our|your|their|one|just|only|merely|some|such|another|what)\s+)*"
    rf"(?:(?!(?:not|no|never)\b)[a-z]+\s+){{0,2}}?{_ANSWER_NOUN}\b(.*)",
    _I | re.DOTALL,
)
# the evidence said to confirm the claim ("a conclusion the describe output confirms")
_CONFIRMED = lazy_pattern(
    r"\b(?:confirm(?:s|ed)?|show(?:s|n|ed)?|support(?:s|ed)?|verif(?:y|ies|ied)|backs?\s+up|"
    r"backed\s+up|match(?:es|ed)?|prove[sn]?|proved|based\s+on)\b",
    _I,
)
# "which" or "that" refers back as the subject ("which is wrong") or the object of the speaker
# ("which I later rejected"); "which search-indexer rejects" is the system's
_REFERRING = lazy_pattern(
    r"\A\W*(?:(?:and|but|though|although|yet)\s+)?(?:this|it|i|we|"
    r"(?:which|that)(?=\s+(?:i|we|you|nobody|no\s+one|everyone|anyone|is|was|'s|’s|would|"
    r"could|might|has|had)\b))\b",
    _I,
)
# a predicate that rejects, disproves, doubts or supposes the claim false: a verb of rejection
# in any tense, a truth word said of what the tail refers to at its end, a counterfactual, or
# trust, belief or agreement denied
_JUDGING = lazy_pattern(
    r"\b(?:reject|dismiss|discard|disprov|refut|retract|withdr[ae]w|abandon|overturn|overrul|"
    r"discredit|rebut|scrap|debunk|falsif|invalidat|contradict|doubt|question|recant|"
    r"gave\s+up|give\s+up|took\s+(?:\w+\s+)?back|take\s+(?:\w+\s+)?back)\w*|"
    r"\b(?:wrong|false|untrue|incorrect|mistaken|bogus|a\s+lie|not\s+true|not\s+the\s+case)"
    r"(?=\s*(?:$|[.!?)\]]|\s(?:later|after|since|by|myself|ourselves|too|anyway)\b))|"
    r"\bif\s+(?:i|we)\s+were\b|"
    r"(?:\b(?:not|never|nobody|no\s+one|none)\b|n['’]t\b)\s+(?:\w+\s+){0,2}?"
    r"(?:share|believe|trust|agree|stand|accept|endorse|buy|hold|vouch|support|back|sign)\w*",
    _I | re.DOTALL,
)


_MODAL = lazy_pattern(r"\b(?:would|could|might)\b", _I)
_SUPPOSING = lazy_pattern(r"\b(?:if|were|unless)\b", _I)
# a claim noun modified so that it names a claim other than the statement's
_ANOTHER_CLAIM = lazy_pattern(
    r"\b(?:previous|earlier|first|initial|original|other|old|prior|former|alert['’]?s?|"
    r"their|his|her|its)\b",
    _I,
)


def judging_tail(after: str) -> str | None:
    """The first tail of `after` (the statement's sentence from its last name on) that judges
    the statement (`_CLAIM_HEAD`, `_REFERRING` with `_JUDGING`), or None."""
    tails = [tail.strip().rstrip(".!)]").strip() for tail in _JUDGED_CUTS.split(after)[1:]]
    # whether a tail at or after each one says the evidence confirms (one pass from the end)
    confirmed_from = [False] * (len(tails) + 1)
    for index in range(len(tails) - 1, -1, -1):
        confirmed_from[index] = confirmed_from[index + 1] or bool(_CONFIRMED.search(tails[index]))
    for index, words in enumerate(tails):
        if not words:
            continue
        claim = _CLAIM_HEAD.match(words)
        if claim is not None and _ANOTHER_CLAIM.search(words, 0, claim.start(1)):
            continue  # "; the previous diagnosis was wrong": another claim than this one
        if claim is not None:
            # the confirmation may follow in a later clause ("— my diagnosis, confirmed by …")
            confirmed = _CONFIRMED.search(claim.group(1)) or confirmed_from[index + 1]
            if _judges(words) or not confirmed:
                return words
            continue
        if _REFERRING.match(words) and _judges(words):
            return words
    return None


def _judges(words: str) -> bool:
    """`_JUDGING`, or a counterfactual: a modal and "if" or "were" after it (two linear
    searches, not a pattern that rescans from every modal)."""
    if _JUDGING.search(words):
        return True
    modal = _MODAL.search(words)
    return modal is not None and _SUPPOSING.search(words, modal.end()) is not None


__all__ = [
    "disowning_label",
    "disowning_sentence",
    "disowning_tails",
    "judging_tail",
    "may_disown",
    "tail_over",
]
