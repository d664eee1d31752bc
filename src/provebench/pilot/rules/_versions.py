"""Every version string of the pilot version, in one place (pilot §4 "fixed in the pilot version").

Pilot §9 makes the parsing-rule version and the time-zone version part of the verified actual
value, so each rule the importer and the evaluator share carries its own string here, and every
corpus (`corpus.json`) and every run records all of them via `rule_versions()`. Changing a rule
means a new string; an old corpus then says exactly which rules it was generated under.

| constant | rule | where |
|---|---|---|
| `GRAMMAR_VERSION` | call-recording file-name grammar | `_grammar.py` |
| `MAPPING_VERSION` | manager code → manager name table | `_mapping.py`, `data/` |
| `TIME_RULE_VERSION` | call time from the name, shown in the run version's zone | `_timerule.py` |
| `TZDATA_VERSION` | the IANA zone database in use (`tzdata`) | `_timerule.py` |
| `PRECEDENCE_VERSION` | name vs optional metadata | `_decide.py` |
| `ADMISSIBILITY_VERSION` | which files are imported, refusal reason codes | `_decide.py` |
| `ROW_FORMAT_VERSION` | register columns and value formats, CSV dialect | `_rows.py` |
| `ORDERING_VERSION` | order of the final register | `_rows.py` |
| `EVENT_MODEL_VERSION` | the drive event stream (`drive_events.jsonl`) | `_model.py` |
| `CORPUS_FORMAT_VERSION` | the corpus directory layout and manifest | `_corpus.py` |
| `GENERATOR_VERSION` | seeded generator: same input → same bytes | `_generate.py` |
"""

from __future__ import annotations

from importlib.metadata import version

from pydantic import BaseModel, ConfigDict

PILOT_ID = "pilot-03-call-import"

GRAMMAR_VERSION = "call-name-grammar/1"
MAPPING_VERSION = "manager-mapping/1"
TIME_RULE_VERSION = "call-time-rule/1"
TZDATA_VERSION = f"tzdata/{version('tzdata')}"
PRECEDENCE_VERSION = "name-over-metadata/1"
ADMISSIBILITY_VERSION = "admissibility/1"
ROW_FORMAT_VERSION = "register-row/1"
ORDERING_VERSION = "register-order/1"
EVENT_MODEL_VERSION = "drive-events/2"
CORPUS_FORMAT_VERSION = "call-import-corpus/2"
GENERATOR_VERSION = "call-import-generator/2"


class RuleVersions(BaseModel):
    """The version of every rule in force; written into `corpus.json` and every run record."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pilot: str
    grammar: str
    mapping: str
    time_rule: str
    tzdata: str
    precedence: str
    admissibility: str
    row_format: str
    ordering: str
    event_model: str
    corpus_format: str
    generator: str


def rule_versions() -> RuleVersions:
    """The versions compiled into this build of provebench."""
    return RuleVersions(
        pilot=PILOT_ID,
        grammar=GRAMMAR_VERSION,
        mapping=MAPPING_VERSION,
        time_rule=TIME_RULE_VERSION,
        tzdata=TZDATA_VERSION,
        precedence=PRECEDENCE_VERSION,
        admissibility=ADMISSIBILITY_VERSION,
        row_format=ROW_FORMAT_VERSION,
        ordering=ORDERING_VERSION,
        event_model=EVENT_MODEL_VERSION,
        corpus_format=CORPUS_FORMAT_VERSION,
        generator=GENERATOR_VERSION,
    )


__all__ = [
    "ADMISSIBILITY_VERSION",
    "CORPUS_FORMAT_VERSION",
    "EVENT_MODEL_VERSION",
    "GENERATOR_VERSION",
    "GRAMMAR_VERSION",
    "MAPPING_VERSION",
    "ORDERING_VERSION",
    "PILOT_ID",
    "PRECEDENCE_VERSION",
    "ROW_FORMAT_VERSION",
    "TIME_RULE_VERSION",
    "TZDATA_VERSION",
    "RuleVersions",
    "rule_versions",
]
