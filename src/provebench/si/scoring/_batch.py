"""`si score SCENARIO EVIDENCE...`: many recorded transcripts against one scenario.

The scenario is loaded, checked and prepared once per worker process (bindings resolved,
predicates rendered), then each evidence file is read, scored and written as one JSON line, in
the order the files were given — so the output is the same bytes for any number of workers.
Files stream through the workers in chunks: memory stays flat in the number of transcripts.

A line is the verdict's decision, compact::

    {"evidence": PATH, "evidence_sha256": …, "band": …, "score": …, "matched_row": …}   Form B
    {"evidence": PATH, "evidence_sha256": …, "status": …, "score": …, "failures": […]}  Form A

or, with ``--full``, ``{"evidence": PATH, "verdict": {…}}`` with the whole verdict as `si score
EVIDENCE` prints it (compact). A file that cannot be scored is a line ``{"evidence": PATH,
"error": "…"}`` and the command exits 2 after the batch: never a silent skip.
"""

from __future__ import annotations

import gc
import json
import os
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, Final

from provebench._canonical import sha256_bytes
from provebench._errors import ProvebenchError
from provebench._jsonfile import read_input_bytes
from provebench.evidence._readers import evidence_from_bytes
from provebench.si.profile_data._readings import ReadingBook, load_readings
from provebench.si.scenario._scenario import Scenario
from provebench.si.scenario._validate import load_scenarios
from provebench.si.scoring._audit_accounting import accounted
from provebench.si.scoring._strict import Reading
from provebench.si.scoring._verdict import InputHashes

CHUNK: Final = 256
IN_FLIGHT_PER_WORKER: Final = 4
MAX_JOBS: Final = 64
# A worker's young-generation threshold: its allocations are one transcript's, freed by
# reference counting (the default, 700, runs the collector every few transcripts).
_WORKER_GC_THRESHOLDS: Final = (50_000, 10, 10)


@dataclass(frozen=True)
class BatchSpec:
    """What every worker needs to score: picklable, loaded again in each process."""

    scenario_file: str
    scenario_id: str | None
    window: str | None
    readings_file: str | None
    full: bool
    # which reading of a Form B table gives a line's band (docs/si-scoring.md)
    reading: Reading = "ratified"
    # under the strict reading, only a structured diagnosis identifies a factor (`_diagnosis`)
    require_diagnosis: bool = False


def evidence_paths(paths: Sequence[Path]) -> Iterator[str]:
    """Files as given; folders walked for ``*.json`` in sorted order (lazily)."""
    for path in paths:
        if path.is_dir():
            for root, folders, files in os.walk(path):
                folders.sort()
                files.sort()
                # strings, not `Path`s: a path is made for each of a batch's files
                yield from (
                    os.path.join(root, name)  # noqa: PTH118
                    for name in files
                    if name.endswith(".json")
                )
        else:
            yield str(path)


class _Scorer:
    """One process's prepared scenario."""

    def __init__(self, spec: BatchSpec) -> None:
        from provebench.si.scoring._score import select_scenario

        self.spec = spec
        scenarios = load_scenarios(spec.scenario_file)
        self.scenario: Scenario = select_scenario(
            scenarios, spec.scenario_id, path=spec.scenario_file
        )
        # the digest of the bytes the scenario was parsed from, not of a second read (a file
        # swapped between the two would be scored as one and named as the other)
        self.scenario_sha256 = self.scenario.source_sha256 or sha256_bytes(
            Path(spec.scenario_file).read_bytes()
        )
        self.readings = ReadingBook(
            [] if spec.readings_file is None else [load_readings(spec.readings_file)]
        )
        self._prepared: Any = None
        if self.scenario.form == "B":
            from provebench.si.scenario._binding import bind_scoring
            from provebench.si.scoring._evaluate import Prepared

            self._prepared = Prepared(bind_scoring(self.scenario, window=spec.window))
        # The deciders answer a table of registry v1 calls; a call of the extension may find
        # its evidence missing, which the full verdict reports (PROVIDER_FAILURE), not a bool.
        self._decides_alone = (
            self._prepared is not None and self._prepared.bound.versions.registry_extension is None
        )
        # Each row's decision as the tail of a line, written once: a batch prints one of a few
        # decisions a hundred thousand times (the bytes are `_compact`'s, checked in tests).
        self._row_tails: dict[int, str] = {}
        self._strict_tails: dict[tuple[int, int], str] = {}
        if self._decides_alone:
            for row in self._prepared.bound.rows:
                decided = {"band": row.band, "score": row.score, "matched_row": row.id}
                self._row_tails[row.id] = "," + _compact(decided)[1:]

    def chunk(self, paths: list[str]) -> ScoredChunk:
        refused = 0
        lines = []
        for path in paths:
            line, failed = self.line(path)
            lines.append(line)
            refused += failed
        lines.append("")
        return ScoredChunk("\n".join(lines), len(paths), refused)

    def line(self, path: str) -> tuple[str, bool]:
        """The JSON line of one file, and whether the file was refused."""
        try:
            data = read_input_bytes(path)
            digest = sha256_bytes(data)
            evidence = evidence_from_bytes(data, source=path)
            if evidence.scenario_id is not None and evidence.scenario_id != self.scenario.id:
                raise ProvebenchError(
                    f"evidence was recorded for scenario {evidence.scenario_id!r}, not "
                    f"{self.scenario.id!r}",
                    path=path,
                    field="scenario_id",
                )
            evidence = accounted(evidence)
            if self._decides_alone and not self.spec.full:
                return self._decided_line(path, digest, evidence), False
            inputs = InputHashes(
                scenario_file_sha256=self.scenario_sha256, evidence_file_sha256=digest
            )
            verdict = self._verdict(evidence, inputs)
        except ProvebenchError as error:
            return _compact({"evidence": path, "error": str(error)}), True
        if self.spec.full:
            return _compact({"evidence": path, "verdict": verdict.model_dump(mode="json")}), False
        line = {"evidence": path, "evidence_sha256": digest, **_decision(verdict)}
        return _compact(line), False

    def _decided_line(self, path: str, digest: str, evidence: Any) -> str:
        """A Form B decision by the deciders: the line `_decision` makes of the full verdict."""
        from provebench.si.scoring._evaluate import decide, decide_both

        head = f'{{"evidence":{_compact(path)},"evidence_sha256":"{digest}"'
        if evidence.provider_failure is not None:
            # a harness fault: not scored, no band or score under either reading (`_decision`)
            return head + "," + _compact({"provider_failure": evidence.provider_failure})[1:]
        if self.spec.reading == "strict":
            ratified, row = decide_both(
                self._prepared,
                self.scenario,
                evidence,
                require_diagnosis=self.spec.require_diagnosis,
            )
            # a batch prints one of a few pairs of rows: each pair's tail is written once (the
            # same bytes, `_strict_tail`)
            tail = self._strict_tails.get((ratified.id, row.id))
            if tail is None:
                tail = self._strict_tails[(ratified.id, row.id)] = _strict_tail(ratified, row)
            return head + tail
        row = decide(self._prepared, evidence)
        return head + self._row_tails[row.id]

    def _verdict(self, evidence: Any, inputs: InputHashes) -> Any:
        if self._prepared is not None and self.spec.full:
            from provebench.si.scoring._evaluate import evaluate

            # the whole verdict, as `si score EVIDENCE` prints it (with the reference band)
            return evaluate(
                self.scenario,
                evidence,
                window=self.spec.window,
                inputs=inputs,
                reading=self.spec.reading,
                require_diagnosis=self.spec.require_diagnosis,
            )
        if self._prepared is not None:
            from provebench.si.scoring._evaluate import evaluate_bound

            return evaluate_bound(
                self._prepared,
                self.scenario,
                evidence,
                inputs,
                reading=self.spec.reading,
                require_diagnosis=self.spec.require_diagnosis,
            )
        from provebench.si.scoring._score import score_scenario

        return score_scenario(self.scenario, evidence, readings=self.readings, inputs=inputs)


def _decision(verdict: Any) -> dict[str, Any]:
    from provebench.si.scoring._verdict import Verdict

    if isinstance(verdict, Verdict):
        decided: dict[str, Any] = (
            {}  # a harness fault: not scored, no band or score to report (Core §3.6-3.7)
            if verdict.matched_row is None
            else {
                "band": verdict.band,
                "score": verdict.score,
                "matched_row": verdict.matched_row.id,
            }
        )
        if verdict.provider_failure is not None:
            decided["provider_failure"] = verdict.provider_failure
        if verdict.ratified is not None:
            # the strict reading gave the band: the ratified one is shown beside it
            decided["reading"] = verdict.reading
            decided["ratified"] = verdict.ratified.model_dump(mode="json")
        return decided
    return {"status": verdict.status, "score": verdict.score, "failures": verdict.failures}


def _strict_tail(ratified: Any, row: Any) -> str:
    """A decided line's tail under the strict reading: its row, and the ratified one beside."""
    decided: dict[str, Any] = {"band": row.band, "score": row.score, "matched_row": row.id}
    decided["reading"] = "strict"
    decided["ratified"] = {
        "band": ratified.band,
        "score": ratified.score,
        "matched_row": ratified.id,
    }
    return "," + _compact(decided)[1:]


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


_WORKER: _Scorer | None = None


def _start_worker() -> None:
    # The scorer was prepared before the fork: the worker has it (`score_batch`). What the
    # parent built is never collected in a worker, so the collector stops scanning it, and a
    # transcript's objects are freed by reference counting: the cyclic collector runs rarely.
    gc.freeze()
    gc.set_threshold(*_WORKER_GC_THRESHOLDS)


@dataclass(frozen=True)
class ScoredChunk:
    """Consecutive files' lines as one text (each ending in a newline): the parent process
    writes a chunk at once, instead of handling every line of the workers' output."""

    text: str
    lines: int
    refused: int


def _score_chunk(paths: list[str]) -> ScoredChunk:
    assert _WORKER is not None
    return _WORKER.chunk(paths)


def _chunks(paths: Iterable[str]) -> Iterator[list[str]]:
    iterator = iter(paths)
    while chunk := list(islice(iterator, CHUNK)):
        yield chunk


def score_batch(spec: BatchSpec, paths: Iterable[str], *, jobs: int) -> Iterator[ScoredChunk]:
    """The JSON lines of the evidence files, in input order, a chunk at a time; ``jobs`` worker
    processes (1: this process). The scenario is checked here first, so a bad one fails before
    any work."""
    global _WORKER
    scorer = _Scorer(spec)
    if jobs <= 1:
        yield from map(scorer.chunk, _chunks(paths))
        return
    import multiprocessing

    # fork: each worker starts with provebench imported and this scorer prepared (also a
    # worker the pool starts again after one died).
    context = multiprocessing.get_context("fork")
    _WORKER = scorer
    try:
        with context.Pool(jobs, initializer=_start_worker) as pool:
            # At most a few chunks per worker in flight (`imap` would queue every file name at
            # once): memory stays flat in the number of transcripts.
            pending: deque[Any] = deque()
            for chunk in _chunks(paths):
                pending.append(pool.apply_async(_score_chunk, (chunk,)))
                if len(pending) >= IN_FLIGHT_PER_WORKER * jobs:
                    yield pending.popleft().get()
            while pending:
                yield pending.popleft().get()
    finally:
        _WORKER = None


__all__ = ["CHUNK", "MAX_JOBS", "BatchSpec", "ScoredChunk", "evidence_paths", "score_batch"]
