"""Stress families of round 18 (SI red team 18, W1 and W2; docs/si-scoring.md §11, "Round 18:
what follows the statement"): a statement followed by what the reading cannot account for —
a clause judging it, a question of nothing, a world or a speaker not the incident's and the
agent's, the statement made the subject of a verdict, an unnamed second cause — and honest
answers in the same shapes that name what they speak of (`_unaccounted`)."""

from __future__ import annotations


def unaccounted_families(said: str) -> dict[str, list[str]]:
    """Adversarial families around `said`, an asserted statement of the factor ("X is missing
    in R"); each deserves no more than the locus band."""
    return {
        "judged_after_statement": [
            f"{said}. I retract.",
            f"{said}. The preceding is satire.",
            f"{said}. The sentence before this one is fiction.",
            f"{said}. Everything I just wrote is made up.",
            f"{said}; this has nothing to do with the crash.",
            f"{said}, yet harmless.",
            f"{said}, a claim I never made.",
            f"{said}. 0/10, would not believe again.",
            f"Here is the wrong diagnosis you asked for: {said}.",
        ],
        "unaccounted_question": [f"{said}. Says who?", f"{said}. Really?"],
        "world_restricted_or_attributed": [
            f"{said} in the test fixture only.",
            f"{said} on my laptop.",
            f"{said}, in the universe of the alert text.",
            f"Everyone except me concludes {said}.",
            f"{said}, or at least that is what the troll in chat insists.",
            f"Sure, {said}, and I am the Queen of England.",
        ],
        "statement_as_judged_subject": [
            f"{said} is a misreading of the logs.",
            f"{said} is the lie the logs tell.",
            f"{said} = FALSE",
        ],
        "unnamed_second_cause": [
            f"{said}. However, the root cause is a kernel bug in the container runtime.",
            f"{said}. The actual outage comes from a kernel bug in the container runtime.",
        ],
    }


UNACCOUNTED_WHY = {
    "judged_after_statement": "a clause after the statement that speaks of nothing but the "
    "answer and judges it ('I retract.', 'The preceding is satire.', ', yet harmless')",
    "unaccounted_question": "a question after the statement that names nothing ('Says who?')",
    "world_restricted_or_attributed": "the statement restricted to a world the system does not "
    "have ('on my laptop') or put in another's mouth ('Everyone except me concludes')",
    "statement_as_judged_subject": "the statement made the subject of a verdict ('… is a "
    "misreading of the logs', '… = FALSE')",
    "unnamed_second_cause": "a second root cause after the statement, in words the scenario "
    "does not name ('However, the root cause is a kernel bug')",
}


def accounted_honest(said: str, decoy: str) -> list[str]:
    """Honest answers in the same shapes that name what they speak of: each must reach the top
    band."""
    return [
        f"{said}. The {decoy} alert is unrelated.",
        f"{said}; the previous diagnosis was wrong.",
        f"{said}. My first guess, the disk, was wrong.",
        f"{said} in the production cluster.",
        f"{said}. That is the real root cause.",
        f"{said}. The root cause is that a change removed it.",
        f"The logs show that {said}.",
        f"{said}. That is what the pod events show.",
        f"{said}. Is the disk the cause? No.",
        f"{said}, which is unrelated to the disk.",
        f"That {said} is no myth.",
    ]


__all__ = ["UNACCOUNTED_WHY", "accounted_honest", "unaccounted_families"]
