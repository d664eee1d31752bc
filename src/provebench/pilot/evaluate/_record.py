"""`run.json` checked strictly before anything in it is used (pilot §9, §15; fail closed).

The record is written by the laboratory once, after the last cycle (`_publish.py`); whoever has
the run folder can edit it. It is the index the evaluator reads the run by (which files, which
ledger head and length, which corpus), so a record of another format, with a wrong type, a value
out of range or a claim that the run is not complete is never evaluated: one configuration error,
naming run.json and the field, and no metric. That the record agrees with the log, the register
and the corpus is checked afterwards, against those.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from provebench.pilot.record._rundir import (
    DIAGNOSTICS_FILE,
    IDENTITY_FILE,
    LEDGER_EXPORT_FILE,
    LEDGER_FILE,
    REGISTER_FILE,
    RUN_FORMAT,
)

_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True)
Sha256 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
Count = Annotated[int, Field(ge=0)]
# The runner loads an importer only with non-empty `name` and `version` (`identity_of`), and its
# spec is what `--agent` named: an empty one is not a record the lab wrote.
NonEmpty = Annotated[str, Field(min_length=1)]
# Every complete run publishes these (docs/pilot-lab.md, "Run directory"); a record that does not
# list them does not describe a complete run.
PUBLISHED_FILES = (IDENTITY_FILE, LEDGER_FILE, LEDGER_EXPORT_FILE, REGISTER_FILE, DIAGNOSTICS_FILE)


class _Agent(BaseModel):
    model_config = _STRICT

    spec: NonEmpty
    name: NonEmpty
    version: NonEmpty
    # The candidate's code (docs/attestation.md); "" for a `pilot serve` client.
    code_sha256: Sha256 | Literal[""]


class _Corpus(BaseModel):
    model_config = _STRICT

    manifest_sha256: Sha256
    files_sha256: dict[str, Sha256]
    seed: int
    profile: str
    events: Count
    cycles: Annotated[int, Field(ge=1)]


class _Register(BaseModel):
    model_config = _STRICT

    rows: Count
    chain_sha256: Sha256


class _LedgerRecord(BaseModel):
    """A complete run has logged at least its first cycle: never an empty log (pilot §6)."""

    model_config = _STRICT

    length: Annotated[int, Field(ge=1)]
    head_hash: Sha256


class _NonScoring(BaseModel):
    """Costs and timings as `_publish.py` writes them. Never scored (pilot §13), but copied to
    the verdict's `non_scoring`: a negative count or a count that is not one is not what the
    lab wrote, so the record is refused like any other wrong type or range."""

    model_config = _STRICT

    api_calls: Count
    entries_by_kind: dict[str, Count]
    faults_injected: Count
    retries: Count
    refused_attempts: Count
    resumed: bool
    wall_time_sec: Annotated[float, Field(ge=0, allow_inf_nan=False)]


class RunRecord(BaseModel):
    """The content of `run.json` (format `provebench.pilot.run/3`)."""

    model_config = _STRICT

    format: str
    complete: bool
    agent: _Agent
    isolation: dict[str, str]
    rule_versions: dict[str, str]
    corpus: _Corpus
    cycles: Count
    register_: _Register = Field(alias="register")  # `register` is a BaseModel attribute
    ledger: _LedgerRecord
    files_sha256: dict[str, Sha256]
    non_scoring: _NonScoring

    @field_validator("files_sha256")
    @classmethod
    def _inside_the_run(cls, files: dict[str, str]) -> dict[str, str]:
        """Names are relative paths inside the run folder: the evaluator hashes `RUNDIR/name`,
        and a name like `../x` or `/x` would have it read (and vouch for) a file outside."""
        for name in files:
            path = PurePosixPath(name)
            if not name or path.is_absolute() or ".." in path.parts or path.as_posix() != name:
                raise ValueError(f"{name!r} is not a path inside the run folder")
        missing = [name for name in PUBLISHED_FILES if name not in files]
        if missing:
            raise ValueError("published files not recorded: " + ", ".join(missing))
        return files


RecordProblem = tuple[Literal["run_record_invalid", "incomplete_run"], str, str]


def check_run_record(data: object) -> RecordProblem | None:
    """The first problem of a parsed run.json as (code, field, message), or None if usable."""
    if not isinstance(data, dict):
        return "run_record_invalid", "", "not a JSON object"
    if "format" not in data:
        return "run_record_invalid", "format", f"missing: this evaluator reads {RUN_FORMAT!r}"
    if data["format"] != RUN_FORMAT:
        return (
            "run_record_invalid",
            "format",
            f"run record format {data['format']!r}, this evaluator reads {RUN_FORMAT!r}",
        )
    try:
        record = RunRecord.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return "run_record_invalid", where, str(first["msg"]).removeprefix("Value error, ")
    return _completeness(record)


def _completeness(record: RunRecord) -> RecordProblem | None:
    """Pilot §8 and §13 credit only a run that ran every cycle: an incomplete one cannot pass."""
    if not record.complete:
        return "incomplete_run", "complete", "run.json says the run is not complete"
    if record.cycles != record.corpus.cycles:
        return (
            "incomplete_run",
            "cycles",
            f"the run records {record.cycles} cycles, its corpus has {record.corpus.cycles}",
        )
    return None


__all__ = ["PUBLISHED_FILES", "RunRecord", "check_run_record"]
