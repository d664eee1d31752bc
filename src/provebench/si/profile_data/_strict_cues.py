"""The strict reading's cue lists (`strict-5.yaml`, versioned `provebench-strict/5`).

Like the SI §3.3 synonym lists they are profile data, maintained centrally and never declared by
a scenario; a verdict names the version it applied (docs/si-scoring.md, "The strict reading").
"""

from __future__ import annotations

import dataclasses
import functools

from pydantic import BaseModel, ConfigDict, Field, field_validator

from provebench.si.primitives._assertion import AssertionCues, WordGameCues
from provebench.si.primitives._non_answer import NonAnswerCues, compile_non_answer
from provebench.si.profile_data._registry import load_profile_asset

_Phrases = tuple[str, ...]


class StrictCues(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    reading: str = Field(pattern=r"^provebench-strict/\d+$")
    clause_punctuation: _Phrases = Field(min_length=1)
    clause_words: _Phrases = Field(min_length=1)
    negation: _Phrases = Field(min_length=1)
    hedge: _Phrases = Field(min_length=1)
    conditional: _Phrases = Field(min_length=1)
    interrogative_openers: _Phrases = Field(min_length=1)
    cause: _Phrases = Field(min_length=1)
    disjunction_openers: _Phrases = Field(min_length=1)
    dismissal: _Phrases = Field(min_length=1)
    clause_conditional: _Phrases = Field(min_length=1)
    reported: _Phrases = Field(min_length=1)
    tag_questions: _Phrases = Field(min_length=1)
    retraction: _Phrases = Field(min_length=1)
    negation_prefixes: _Phrases = Field(min_length=1)
    negated_objects: _Phrases = Field(min_length=1)
    identifier_joiners: _Phrases = Field(min_length=1)
    governing_before: _Phrases = Field(min_length=1)
    governing_after: _Phrases = Field(min_length=1)
    governing_around: _Phrases = Field(min_length=1)
    governing_sentence: _Phrases = Field(min_length=1)
    anaphora: _Phrases = Field(min_length=1)
    remedy_phrases: _Phrases = Field(min_length=1)
    elided_predicate: _Phrases = Field(min_length=1)
    elided_filler: _Phrases = Field(min_length=1)
    cause_endorsement: _Phrases = Field(min_length=1)
    retraction_fillers: _Phrases = Field(min_length=1)
    bare_denials: _Phrases = Field(min_length=1)
    denial_reports: _Phrases = Field(min_length=1)
    truth_denials: _Phrases = Field(min_length=1)
    truth_subjects: _Phrases = Field(min_length=1)
    # version 4
    truth_adverbs: _Phrases = Field(min_length=1)
    retraction_commands: _Phrases = Field(min_length=1)
    retraction_objects: _Phrases = Field(min_length=1)
    hedge_prefaces: _Phrases = Field(min_length=1)
    hedge_preface_filler: _Phrases = Field(min_length=1)
    contrastive_cause: _Phrases = Field(min_length=1)
    cause_reference: _Phrases = Field(min_length=1)
    # version 5
    belief: _Phrases = Field(min_length=1)
    scope: _Phrases = Field(min_length=1)
    scope_anchors: _Phrases = Field(min_length=1)
    scope_filler: _Phrases = Field(min_length=1)
    framing_prefaces: _Phrases = Field(min_length=1)
    framing_filler: _Phrases = Field(min_length=1)
    retraction_subjects: _Phrases = Field(min_length=1)
    self_corrections: _Phrases = Field(min_length=1)
    verdict_verbs: _Phrases = Field(min_length=1)
    verdict_nouns: _Phrases = Field(min_length=1)
    antonyms: dict[str, _Phrases] = Field(min_length=1)
    contradiction_subjects: _Phrases = Field(min_length=1)
    contradiction_modals: _Phrases = Field(min_length=1)
    # non-answers (docs/si-scoring.md §11, "Non-answers")
    non_answer_verbs: _Phrases = Field(min_length=1)
    non_answer_fillers: _Phrases = Field(min_length=1)
    non_answer_objects: _Phrases = Field(min_length=1)
    non_answer_incidents: _Phrases = Field(min_length=1)
    non_answer_statements: _Phrases = Field(min_length=1)
    non_answer_subjects: _Phrases = Field(min_length=1)
    # a verb of rejection aimed back at what was said ("…, dismissing that as the reason")
    rejection_verbs: _Phrases = Field(min_length=1)
    rejection_objects: _Phrases = Field(min_length=1)
    rejection_subjects: _Phrases = Field(min_length=1)

    @field_validator("*")
    @classmethod
    def _no_blank_cue(cls, value: object) -> object:
        # A blank cue would match everywhere and withhold every phrase.
        lists = value.values() if isinstance(value, dict) else [value]
        for cues in lists:
            if isinstance(cues, tuple) and (not cues or any(not str(cue).strip() for cue in cues)):
                raise ValueError("a cue list holds a blank cue or is empty")
        return value

    @functools.cached_property
    def compiled(self) -> AssertionCues:
        return dataclasses.replace(self._compiled_reading(), non_answer=self._non_answer())

    def _non_answer(self) -> NonAnswerCues:
        return compile_non_answer(
            verbs=self.non_answer_verbs,
            fillers=self.non_answer_fillers,
            objects=self.non_answer_objects,
            incidents=self.non_answer_incidents,
            statements=self.non_answer_statements,
            subjects=self.non_answer_subjects,
        )

    def _compiled_reading(self) -> AssertionCues:
        return AssertionCues.compile(
            clause_punctuation=self.clause_punctuation,
            clause_words=self.clause_words,
            negation=self.negation,
            hedge=self.hedge,
            conditional=self.conditional,
            # endorsing another cause is naming it as the cause (`several_causes`)
            cause=(*self.cause, *self.cause_endorsement, *self.contrastive_cause),
            interrogative_openers=self.interrogative_openers,
            disjunction_openers=self.disjunction_openers,
            dismissal=self.dismissal,
            clause_conditional=self.clause_conditional,
            reported=self.reported,
            tag_questions=self.tag_questions,
            retraction=self.retraction,
            negation_prefixes=self.negation_prefixes,
            negated_objects=self.negated_objects,
            identifier_joiners=self.identifier_joiners,
            games=WordGameCues.compile(
                governing_before=self.governing_before,
                governing_after=self.governing_after,
                governing_around=self.governing_around,
                governing_sentence=self.governing_sentence,
                anaphora=self.anaphora,
                remedy_phrases=self.remedy_phrases,
                elided_predicate=self.elided_predicate,
                elided_filler=self.elided_filler,
                antonyms=self.antonyms,
                contradiction_subjects=self.contradiction_subjects,
                contradiction_modals=self.contradiction_modals,
            ),
            retraction_fillers=self.retraction_fillers,
            bare_denials=self.bare_denials,
            denial_reports=self.denial_reports,
            truth_denials=self.truth_denials,
            truth_subjects=self.truth_subjects,
            truth_adverbs=self.truth_adverbs,
            retraction_commands=self.retraction_commands,
            retraction_objects=self.retraction_objects,
            hedge_prefaces=self.hedge_prefaces,
            hedge_preface_filler=self.hedge_preface_filler,
            contrastive_cause=self.contrastive_cause,
            cause_reference=self.cause_reference,
            belief=self.belief,
            scope=self.scope,
            scope_anchors=self.scope_anchors,
            scope_filler=self.scope_filler,
            framing_prefaces=self.framing_prefaces,
            framing_filler=self.framing_filler,
            retraction_subjects=self.retraction_subjects,
            self_corrections=self.self_corrections,
            verdict_verbs=self.verdict_verbs,
            verdict_nouns=self.verdict_nouns,
            rejection_verbs=self.rejection_verbs,
            rejection_objects=self.rejection_objects,
            rejection_subjects=self.rejection_subjects,
        )


@functools.cache
def strict_cues() -> StrictCues:
    """The cue lists, loaded and validated once."""
    return load_profile_asset("strict-5.yaml", StrictCues)


__all__ = ["StrictCues", "strict_cues"]
