"""`si suite`: every selected scenario, the safety gate first, then capability; one summary.

The run folder::

    DIR/suite.json                   what this folder is a run of (agent, selection, files)
    DIR/scenarios/<id>/evidence.json        the run's evidence (provebench shape)
    DIR/scenarios/<id>/evidence.oasis.json  the same, in the OASIS runner's shape
    DIR/scenarios/<id>/verdict.json         the scenario's verdict (as `si score` prints it)
    DIR/summary.json                 the gate, every scenario's line, the roll-up

Order (Core §2, Execution §3): every selected safety scenario runs — no fail-fast — and the gate
aggregates them; the capability scenarios run only when it is PASS, else each is listed as
NOT_RUN. A scenario whose agent transport failed is PROVIDER_FAILURE and the suite goes on (an
operator re-runs the folder: see resuming). Against a provider (`--provider`), a PROVIDER_FAILURE
aborts the suite (Core §3.7, 08 §3.8.4): no further scenario runs (each is NOT_RUN, saying
why), the summary's `metadata.aborted` names the scenario and the fault, and the gate is never
PASS. Before any agent runs, every selected scenario's
environment is built and its checks compiled, so a scenario provebench cannot run or evaluate
stops the suite with one line naming it, not halfway through.

Resuming: a scenario whose verdict.json exists, names the sha256 of the current scenario file
and of the evidence.json beside it, and is not a provider failure, is not run again; the folder
must be a run of the same agent and selection (suite.json), or the command refuses it. So an
interrupted suite continues where it stopped, and a re-run of a finished one rewrites
summary.json with the same bytes.

A suite recorded here binds each run to itself (red team round 13, H1): a nonce drawn when the
suite starts in a folder without one, kept in suite.json, goes with the agent and every option
that decides a verdict into each run's signed predicate (`suite_identity`), and a run is kept
only when its signature names this suite's identity — another agent's, another configuration's
or another suite's signed run planted in the folder is run again. suite.json is unsigned and
readable: another suite of the same agent run on a copy of it records runs that name this suite,
so only a resumed suite keeps anything (red team round 13b, H2).

A suite that finds any trace of an earlier attempt in its folder (suite.json, a scenario folder,
a leftover) is `resumed: true` (red team round 13, H2): a same-user process may have deleted a
failed scenario's folder between attempts so that it was drawn again, and nothing left can tell.
Its summary names the scenarios run in this attempt (`rerun`), and its headline is not a sealed
result (`sealed: false`, `RESUMED_NOTE`); each kept run is still this suite's agent's, signed.
A suite started in an empty folder is a new sample: it keeps nothing it finds in its folder,
not even a run planted there while it runs.
"""

from __future__ import annotations

import contextlib
import functools
import json
import secrets
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

from provebench._canonical import canonical_json, sha256_file, write_atomic
from provebench._errors import ProvebenchError, shown
from provebench._file_set import FileSet
from provebench._paths import check_output_dir
from provebench._read_once import read_once
from provebench.evidence import Evidence, load_evidence
from provebench.si.agents._protocol import DiagnosisAgent
from provebench.si.agents._run import (
    EVIDENCE_FILE,
    RUN_FILES,
    VERDICT_FILE,
    run_agent,
    write_run,
)
from provebench.si.agents._signing import RUN_ENVELOPE_FILE, signature_problem
from provebench.si.agents._sources import AgentSource
from provebench.si.profile_data._readings import ReadingBook
from provebench.si.profile_data._registry import profile
from provebench.si.scenario._scenario import Scenario
from provebench.si.scenario._validate import naming_scenario_lines
from provebench.si.scoring._rollup import (
    CapabilitySummary,
    GateStatus,
    SafetySummary,
    ScenarioResult,
    capability_summary,
    coverage,
    safety_summary,
)
from provebench.si.scoring._safety import ScenarioVerdict
from provebench.si.scoring._strict import Reading
from provebench.si.scoring._verdict import Verdict
from provebench.si.suite._attempts import (
    Attempts,
    earlier_fault,
    earlier_outcome,
    load_attempts,
    record_attempts,
)
from provebench.si.suite._select import Selected

if TYPE_CHECKING:
    from provebench.attest._keys import TrustedKey
    from provebench.si.agents._run import SimulatedSession
    from provebench.si.provider._runner import ProviderRun

SUMMARY_FILE: Final = "summary.json"
SUMMARY_ENVELOPE_FILE: Final = "summary.dsse.json"
SUITE_PREDICATE: Final = "urn:provebench:si-suite:1"
MANIFEST_FILE: Final = "suite.json"
SCENARIOS_DIR: Final = "scenarios"
SUMMARY_FORMAT: Final = "provebench.si.suite-summary/1"
# Bytes of the suite's nonce (`suite_identity`), from the OS's secure random source.
NONCE_BYTES: Final = 16
# How long a re-scored scenario's files may wait, staged, before they are published together
# (`provebench._file_set`): one flush per second of re-scoring, not one per scenario. A run the
# suite recorded itself is signed, and so published as soon as it is written (`write_run`).
PUBLISH_INTERVAL_SEC: Final = 1.0


class SuiteProgress(Protocol):
    def start(self, total: int) -> None: ...
    def scenario_done(self, scenario_id: str, outcome: str, reused: bool) -> None: ...
    def finish(self) -> None: ...


@dataclass(frozen=True)
class SuiteRequest:
    """What to run: the selection (already checked), the agent, and how."""

    selected: Sequence[Selected]
    agent: AgentSource
    selection: Mapping[str, Any]
    configuration: Mapping[str, Any] = field(default_factory=dict)
    tier: int = 1
    safety_only: bool = False
    max_tool_calls: int = 200
    readings: ReadingBook = field(default_factory=ReadingBook)
    # which reading of a Form B table gives a capability score (docs/si-scoring.md)
    reading: Reading = "ratified"
    # under the strict reading, only a structured diagnosis identifies a factor
    require_diagnosis: bool = False
    recorded: Path | None = None  # re-score RUN_DIR/scenarios/<id>/evidence.json, no agent
    # an OASIS provider's environments instead of the simulator's (accepted at preflight)
    provider: ProviderRun | None = None
    # every agent also has the kubectl tool (the scenario's Kubernetes face, or the provider's)
    kubectl: bool = False
    # the options that bound a sealed agent's run and so decide its verdicts: `--agent-timeout`
    # and the sandbox's limits (red team round 13b); empty for a re-scoring
    run_bounds: Mapping[str, Any] = field(default_factory=dict)

    @property
    def recorded_here(self) -> bool:
        """Whether this suite's simulator records the evidence (and the laboratory signs it):
        not when it re-scores evidence recorded before."""
        return not isinstance(self.agent, RecordedEvidence)


@dataclass(frozen=True)
class RecordedEvidence:
    """The "agent" of a re-scored run: the evidence an earlier run recorded."""

    folder: Path

    @property
    def spec(self) -> str:
        return f"recorded:{self.folder}"

    @property
    def name(self) -> str:
        return "recorded evidence"

    @property
    def version(self) -> str:
        return ""

    @property
    def isolation(self) -> Mapping[str, str]:
        return {}

    def factory(self) -> DiagnosisAgent:
        raise ProvebenchError("a re-scored run has no agent to start", field="--from-evidence")

    def evidence_file(self, scenario_id: str) -> Path:
        return self.folder / SCENARIOS_DIR / scenario_id / EVIDENCE_FILE


def _relative(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def _manifest(request: SuiteRequest) -> dict[str, Any]:
    return {
        "format": "provebench.si.suite-run/1",
        "agent": request.agent.spec,
        "selection": dict(request.selection),
        "configuration": dict(request.configuration),
        "scenarios": {
            item.scenario.id: item.scenario.source_sha256 or sha256_file(item.file)
            for item in request.selected
        },
    }


def _check_manifest(out: Path, manifest: Mapping[str, Any]) -> str | None:
    """Refuse a folder that holds a suite run of another agent, selection or configuration;
    the nonce that folder's suite drew, if it names one."""
    path = out / MANIFEST_FILE
    nonce = None
    if path.exists():
        try:
            recorded = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise ProvebenchError(f"unreadable: {error}", path=str(path)) from error
        for key in ("agent", "selection", "configuration"):
            if recorded.get(key) != manifest[key]:
                raise ProvebenchError(
                    f"this folder holds a suite run with another {key}; use a new --out folder "
                    "(or the same agent and selection to resume it)",
                    path=str(path),
                    field=key,
                )
        found = recorded.get("nonce")
        if isinstance(found, str) and len(found) == 2 * NONCE_BYTES and found.isalnum():
            nonce = found
    return nonce


def suite_identity(request: SuiteRequest, nonce: str) -> dict[str, Any]:
    """What a run of this suite names in its signed predicate (red team round 13, H1): the
    suite's nonce, the agent as identified, and every option that decides its verdicts. A run
    is kept on resuming only when its signature names exactly this."""
    agent = request.agent
    return {
        "nonce": nonce,
        "agent": {"spec": agent.spec, "name": agent.name, "version": agent.version},
        "selection": dict(request.selection),
        "configuration": dict(request.configuration),
        "tier": request.tier,
        "max_tool_calls": request.max_tool_calls,
        "readings": request.readings.versions,
        "reading": request.reading,
        "require_diagnosis": request.require_diagnosis,
        "kubectl": request.kubectl,
        # `--provider` is in the selection; `--agent-timeout` and the sandbox's limits here
        "run_bounds": dict(request.run_bounds),
    }


def _has_traces(out: Path) -> bool:
    """Whether `out` holds anything at all: any trace of an earlier attempt makes a resume."""
    try:
        return out.is_dir() and any(out.iterdir())
    except OSError as error:
        raise ProvebenchError(f"unreadable: {error}", path=str(out)) from error


@dataclass(frozen=True)
class _Kept:
    """A finished earlier run of a scenario kept by this suite, and the sha256 of each of its
    files as read and checked (what the suite's signature covers, never a later re-read)."""

    verdict: Verdict | ScenarioVerdict
    digests: dict[str, str]  # name inside the scenario's folder -> sha256


def _reusable(
    folder: Path,
    item: Selected,
    trusted: TrustedKey | None,
    suite: Mapping[str, Any] | None = None,
) -> _Kept | None:
    """The verdict of a finished earlier run of this scenario in this folder, or None. With a
    `trusted` key, only a run the laboratory signed and nobody changed since is kept: a verdict
    and evidence edited together, their hashes recomputed, are run again, never signed; and
    only one whose signed predicate names `suite` (`suite_identity`).

    Each file is read once; the signature check, the verdict and the evidence digest all judge
    those bytes (red team round 12, A9: a forged verdict renamed in after the check was kept)."""
    names = (
        (*RUN_FILES, RUN_ENVELOPE_FILE) if trusted is not None else (VERDICT_FILE, EVIDENCE_FILE)
    )
    try:
        held = {name: read_once(folder / name) for name in names}
    except ProvebenchError:
        return None
    if trusted is not None and signature_problem(
        folder, RUN_FILES, trusted, held=held, suite=suite
    ):
        return None
    try:
        data = json.loads(held[VERDICT_FILE].data)
        verdict: Verdict | ScenarioVerdict = (
            ScenarioVerdict.model_validate(data)
            if "format" in data
            else Verdict.model_validate(data)
        )
    except (ValueError, TypeError):
        return None
    inputs = verdict.inputs
    # kept only for the very bytes this suite parsed the scenario from (red team round 12b, S2)
    if inputs.scenario_file_sha256 != (item.scenario.source_sha256 or sha256_file(item.file)):
        return None
    if inputs.evidence_file_sha256 != held[EVIDENCE_FILE].sha256:
        return None
    if _provider_failure(verdict) is not None:
        return None  # a harness fault is re-run, never kept
    if verdict.non_scoring.run_ending == "interrupted" and not _holds_fail(item, verdict):
        # A run stopped from outside before it had a verdict is drawn again (and that draw is
        # counted, `_attempts`); one that already holds a safety FAIL keeps it: the forbidden
        # act was performed and recorded, and a FAIL stands (Core §3.3; SI red team 31, H3).
        return None
    return _Kept(verdict, {name: found.sha256 for name, found in held.items()})


def _holds_fail(item: Selected, verdict: Verdict | ScenarioVerdict) -> bool:
    """Whether a verdict already holds a FAIL that no later step of its run could undo: a safety
    scenario's FAIL (a forbidden act observed). A capability run stopped part way has only the
    score of what it did so far, no verdict: it is drawn again (and counted)."""
    return (
        item.scenario.classification == "safety"
        and isinstance(verdict, ScenarioVerdict)
        and verdict.status == "FAIL"
    )


def _provider_failure(verdict: Verdict | ScenarioVerdict) -> str | None:
    if isinstance(verdict, Verdict):
        return verdict.provider_failure
    if verdict.status == "PROVIDER_FAILURE":
        return (
            verdict.provider_failure or ", ".join(verdict.provider_failures) or "provider failure"
        )
    return None


def result_of(
    scenario: Scenario, verdict: Verdict | ScenarioVerdict, folder: str
) -> ScenarioResult:
    """The summary line of one scored scenario."""
    common: dict[str, Any] = {
        "id": scenario.id,
        "classification": scenario.classification,
        "category": scenario.category,
        "subcategory": scenario.subcategory,
        "archetype": scenario.archetype,
        "evidence": f"{folder}/{EVIDENCE_FILE}",
        "verdict": f"{folder}/{VERDICT_FILE}",
        "sealed": verdict.sealed,
    }
    fault = _provider_failure(verdict)
    if isinstance(verdict, Verdict):
        if fault is not None:
            return ScenarioResult(**common, status="PROVIDER_FAILURE", reason=fault)
        return ScenarioResult(**common, status="SCORED", score=verdict.score)
    if scenario.classification == "safety":
        scoring = verdict.scoring
        return ScenarioResult(
            **common,
            status=verdict.status,
            safety_tolerance=getattr(scoring, "safety_tolerance", None),
            measured_deviation=getattr(scoring, "measured_deviation", None),
            human_review=bool(getattr(scoring, "human_review", False)),
            failures=list(verdict.failures),
            reason=fault,
        )
    if fault is not None:
        return ScenarioResult(**common, status="PROVIDER_FAILURE", reason=fault)
    return ScenarioResult(
        **common, status="SCORED", score=verdict.score, failures=list(verdict.failures)
    )


def _excluded(item: Selected, status: str, reason: str) -> ScenarioResult:
    scenario = item.scenario
    return ScenarioResult(
        id=scenario.id,
        classification=scenario.classification,
        category=scenario.category,
        subcategory=scenario.subcategory,
        archetype=scenario.archetype,
        status=status,
        reason=reason,
    )


class _Suite:
    def __init__(
        self, request: SuiteRequest, out: Path, progress: SuiteProgress, files: FileSet
    ) -> None:
        self.request = request
        self.out = out
        self.progress = progress
        self.files = files
        self.published_at = time.monotonic()
        # The runtime provider fault that aborted the suite: (scenario id, fault), or None.
        self.aborted: tuple[str, str] | None = None
        self._fault: str | None = None
        # Files of scenarios kept from an earlier run -> sha256 of the bytes checked (signed so)
        self.kept: dict[str, str] = {}
        # What each run of this suite names in its signature (`suite_identity`), set once the
        # folder's nonce is known; and the scenarios run (not kept) in this attempt.
        self.identity: dict[str, Any] | None = None
        self.ran: list[str] = []
        self.resumed = False  # set before the first run: the folder held a trace of another
        # Every draw of this folder's scenarios, the provider failures and the other verdicts
        # of earlier attempts drawn again (`_attempts`; SI red team 28, L3; 31, H3).
        self.attempts = Attempts()

    @property
    def redrawn(self) -> list[dict[str, str]]:
        return self.attempts.provider_failures

    def publish_when_due(self) -> None:
        """Publish the staged scenarios' files when the last publication is old enough: when
        the suite stops, at most the last second of work is lost (and re-run on resuming)."""
        now = time.monotonic()
        if now - self.published_at >= PUBLISH_INTERVAL_SEC:
            self.files.commit()
            self.published_at = now

    @functools.cached_property
    def trusted(self) -> TrustedKey:
        """The laboratory's own key, which signs every run of this suite (made on first use)."""
        # Imported here: a suite that re-scores recorded evidence signs nothing.
        from provebench.attest._keys import laboratory_signer, load_trusted_key

        laboratory_signer()
        return load_trusted_key()

    def preflight(self) -> None:
        """Build every runnable scenario's environment before any agent runs (fail closed)."""
        for item in self.request.selected:
            if item.not_applicable is not None:
                continue
            source = self.request.agent
            if isinstance(source, RecordedEvidence):
                recorded = source.evidence_file(item.scenario.id)
                if not recorded.is_file():
                    raise ProvebenchError(
                        f"no recorded evidence for scenario {item.scenario.id}",
                        path=str(recorded),
                    )
                continue
            if self.request.provider is not None:
                continue  # the provider builds it; its preflight accepted every scenario
            # Imported here: re-scoring recorded evidence builds no environment.
            from provebench.si.sim._route import check_runnable

            with naming_scenario_lines(item.file, item.scenario.id):
                check_runnable(item.scenario, item.file, self.request.readings)

    def run_one(self, item: Selected) -> ScenarioResult:
        scenario = item.scenario
        folder_name = f"{SCENARIOS_DIR}/{scenario.id}"
        folder = self.out / folder_name
        recorded_here = self.request.recorded_here
        # An attempt that began with no trace of an earlier one keeps nothing (red team round
        # 13b, H2): a run planted while it runs names its nonce only because suite.json, which
        # holds it, is readable as soon as it is written. A re-scoring re-reads its own input.
        reused = (
            _reusable(folder, item, self.trusted if recorded_here else None, self.identity)
            if self.resumed or not recorded_here
            else None
        )
        if reused is not None:
            self.kept.update({f"{folder_name}/{n}": d for n, d in reused.digests.items()})
            result = result_of(scenario, reused.verdict, folder_name)
            self.progress.scenario_done(scenario.id, result.status, True)
            return result
        if recorded_here:
            self._count_draw(scenario.id, folder / VERDICT_FILE)
        source = self.request.agent
        stopped_by: int | None = None
        if isinstance(source, RecordedEvidence):
            evidence = load_evidence(source.evidence_file(scenario.id))
        elif self.request.provider is not None:
            evidence, stopped_by = self._on_provider(item, source)
        else:
            from provebench.si.sim._route import open_session

            with naming_scenario_lines(item.file, scenario.id):
                opened = open_session(scenario, self.request.readings)
            with contextlib.ExitStack() as served:
                session: SimulatedSession = opened
                if self.request.kubectl:
                    from provebench.si.provider._kubectl_session import with_kubectl

                    session = served.enter_context(with_kubectl(opened))
                outcome = run_agent(
                    session,
                    source.factory(),
                    max_tool_calls=self.request.max_tool_calls,
                    isolation=dict(source.isolation),
                )
            evidence, stopped_by = outcome.evidence, outcome.signum
        verdict = write_run(
            folder,
            scenario,
            item.file,
            evidence,
            self.request.readings,
            recorded_here=recorded_here,
            reading=self.request.reading,
            files=self.files,
            require_diagnosis=self.request.require_diagnosis,
            suite=self.identity if recorded_here else None,
            code_sha256=str(getattr(source, "code_sha256", "")),
        )
        self.ran.append(scenario.id)
        if stopped_by is not None:
            # SIGINT or SIGTERM: this run's evidence is written (and run again on resume); the
            # suite stops here, as the command was asked to. Staged files are published first:
            # leaving the file set with an error would discard them.
            self.files.commit()
            raise SystemExit(128 + stopped_by)
        self.publish_when_due()
        result = result_of(scenario, verdict, folder_name)
        self.progress.scenario_done(scenario.id, result.status, False)
        return result

    def _count_draw(self, scenario_id: str, verdict_file: Path) -> None:
        """Record this draw of a scenario, and what the earlier attempt it replaces left, before
        its agent starts: durable if this attempt stops, and never hidden by a later draw (SI
        red team 31, H3: an interrupted FAIL was drawn again until it passed, counted nowhere).
        A suite started in an empty folder has no earlier attempt to read."""
        attempts = self.attempts
        if self.resumed:
            fault = earlier_fault(verdict_file)
            outcome = None if fault is not None else earlier_outcome(verdict_file)
            if fault is not None:
                attempts.provider_failures.append({"scenario": scenario_id, "fault": fault})
            elif outcome is not None:
                attempts.discarded.append({"scenario": scenario_id, **outcome})
        # A scenario drawn before `draws` was recorded (a format-1 record, or an earlier
        # attempt that left a verdict) counts that draw.
        unrecorded = 1 if self.resumed and verdict_file.exists() else 0
        earlier = attempts.draws.get(scenario_id, unrecorded)
        attempts.draws[scenario_id] = earlier + 1
        record_attempts(self.out, attempts)

    def _on_provider(self, item: Selected, source: AgentSource) -> tuple[Evidence, int | None]:
        """One scenario in an environment of the suite's provider (torn down always)."""
        from provebench.si.provider._runner import run_on_provider

        assert self.request.provider is not None
        ran = run_on_provider(
            self.request.provider,
            item.scenario,
            self.request.tier,
            source.factory,
            max_tool_calls=self.request.max_tool_calls,
            isolation=dict(source.isolation),
            kubectl=self.request.kubectl,
        )
        if ran.teardown_problem is not None:
            # Reported, not scored: the evidence was complete before the teardown was asked.
            print(
                shown(f"warning: {item.scenario.id}: teardown failed: {ran.teardown_problem}"),
                file=sys.stderr,
            )
        self._fault = ran.outcome.evidence.provider_failure
        return ran.outcome.evidence, ran.outcome.signum

    def run(self) -> dict[str, Any]:
        request = self.request
        safety = [i for i in request.selected if i.scenario.classification == "safety"]
        capability = [i for i in request.selected if i.scenario.classification == "capability"]
        self.progress.start(len(request.selected))
        results: dict[str, ScenarioResult] = {}
        for item in safety:
            results[item.scenario.id] = self._result(item)
        gate, safety_section = safety_summary(list(results.values()))
        gate = self._counting_redrawn(gate)
        capability_section: CapabilitySummary | None = None
        for item in capability:
            if request.safety_only:
                continue
            if self.aborted is not None:
                results[item.scenario.id] = self._not_run_after_abort(item)
                continue
            if gate != "PASS":
                results[item.scenario.id] = _excluded(
                    item, "NOT_RUN", f"the safety gate is {gate}: no capability score (Core §2)"
                )
                self.progress.scenario_done(item.scenario.id, "NOT_RUN", False)
                continue
            results[item.scenario.id] = self._result(item)
        ordered = [results[i.scenario.id] for i in request.selected if i.scenario.id in results]
        if self.aborted is not None:
            # Nothing of an aborted suite reads as a PASS (Core §3.7): a gate the safety
            # scenarios passed before a capability scenario's fault is PROVIDER_FAILURE, and
            # there is no capability score.
            gate = "FAIL" if gate == "FAIL" else "PROVIDER_FAILURE"
        gate = self._counting_redrawn(gate)
        if self.aborted is None and gate == "PASS" and not request.safety_only:
            capability_section = capability_summary(ordered, profile(), request.tier)
        self.progress.finish()
        summary = _summary(
            request, gate, safety_section, capability_section, ordered, self.resumed, self.ran
        )
        if self.redrawn:
            summary["provider_failure_attempts"] = list(self.redrawn)
        if self.attempts.discarded:
            summary["discarded_attempts"] = list(self.attempts.discarded)
        if request.recorded_here:
            # how many times each scenario was drawn in this folder (one for a new sample's)
            summary["attempts"] = {
                r.id: self.attempts.draws.get(r.id, 1)
                for r in ordered
                if r.status not in ("NOT_RUN", "NOT_APPLICABLE")
            }
        if self.aborted is not None:
            scenario_id, fault = self.aborted
            summary["metadata"] = {
                "aborted": True,
                "aborted_at": scenario_id,
                "fault": fault,
                "not_run": [r.id for r in ordered if r.reason == self._abort_reason()],
            }
        return summary

    def _counting_redrawn(self, gate: GateStatus) -> GateStatus:
        """The gate with earlier attempts counted (Core §3.3): a safety FAIL an earlier attempt
        recorded and a resume did not keep makes it FAIL; a runtime provider fault makes a gate
        no FAIL gave PROVIDER_FAILURE, never PASS."""
        selected = self.request.selected
        safety = {i.scenario.id for i in selected if i.scenario.classification == "safety"}
        if self.attempts.discarded_fail(safety):
            return "FAIL"  # a FAIL an earlier attempt recorded stands (Core §3.3: FAIL wins)
        return "PROVIDER_FAILURE" if self.redrawn and gate == "PASS" else gate

    def _abort_reason(self) -> str:
        assert self.aborted is not None
        return (
            f"not run: the suite aborted at {self.aborted[0]} on a runtime PROVIDER_FAILURE "
            "(Core §3.7)"
        )

    def _not_run_after_abort(self, item: Selected) -> ScenarioResult:
        self.progress.scenario_done(item.scenario.id, "NOT_RUN", False)
        return _excluded(item, "NOT_RUN", self._abort_reason())

    def _result(self, item: Selected) -> ScenarioResult:
        if self.aborted is not None:
            return self._not_run_after_abort(item)
        if item.not_applicable is not None:
            self.progress.scenario_done(item.scenario.id, "NOT_APPLICABLE", False)
            return _excluded(item, "NOT_APPLICABLE", item.not_applicable)
        self._fault = None
        result = self.run_one(item)
        if self.request.provider is not None and result.status == "PROVIDER_FAILURE":
            # A runtime fault of the provider: the run aborts here (Core §3.7). The fault is
            # the provider's when the session recorded one, else why the verdict could not be
            # verified independently.
            self.aborted = (item.scenario.id, self._fault or result.reason or "PROVIDER_FAILURE")
        return result


def _summary(
    request: SuiteRequest,
    gate: GateStatus,
    safety: SafetySummary,
    capability: CapabilitySummary | None,
    results: list[ScenarioResult],
    resumed: bool = False,
    ran: Sequence[str] = (),
) -> dict[str, Any]:
    agent = request.agent
    # A resumed suite's headline is not a sealed result (red team round 13, H2): its failed
    # scenarios may have been drawn again.
    sealed = suite_sealed(request, results) and not resumed
    return {
        "format": SUMMARY_FORMAT,
        "sealed": sealed,
        "resumed": resumed,
        # the scenarios this attempt ran (the others were kept from an earlier one)
        **({"rerun": list(ran)} if resumed else {}),
        "safety_gate": gate,
        "agent": {
            "spec": agent.spec,
            "name": agent.name,
            "version": agent.version,
            "configuration": dict(request.configuration),
        },
        "selection": dict(request.selection),
        "scenarios": [r.model_dump(mode="json") for r in results],
        "safety": safety.model_dump(mode="json"),
        "safety_coverage": coverage(results, profile(), request.tier, "safety").model_dump(
            mode="json"
        ),
        "capability": None if capability is None else capability.model_dump(mode="json"),
        "versions": {
            "profile": profile().version,
            "readings": request.readings.versions,
            "reading": request.reading,
            **({"require_diagnosis": True} if request.require_diagnosis else {}),
        },
        "note": (
            "NOT_APPLICABLE scenarios are excluded from pass/fail counts. They indicate the "
            "scenario is not relevant to the agent's reported configuration, not that the agent "
            "passed (Reporting §2.3). Capability scores are comparable only at the same tier."
            + ("" if sealed or resumed else " " + UNSEALED_NOTE)
            + (" " + RESUMED_NOTE if resumed else "")
        ),
    }


UNSEALED_NOTE = (
    "UNSEALED: the agent ran outside provebench's seal (an agent provebench did not start, a "
    "model server on this machine or its network, or re-scored evidence), so it may have read "
    "the scenarios' answer keys; the gate and the scores are not a sealed result."
)


RESUMED_NOTE = (
    "RESUMED: this folder held an earlier attempt of this suite, whose scenarios listed under "
    "`rerun` ran again; a failed scenario deleted between attempts is drawn again, so the gate "
    "and the scores are not a sealed result. Each kept run is still this suite's agent's, "
    "signed; a suite started in an empty folder is a new, sealed sample."
)


def suite_sealed(request: SuiteRequest, results: Sequence[ScenarioResult]) -> bool:
    """Whether the suite's headline is a sealed result: the agent's isolation seals it, this
    suite recorded every run it reports (re-scored evidence was not witnessed), and every
    scenario verdict says sealed."""
    from provebench.sandbox._isolation import is_sealed

    return (
        request.recorded_here
        and is_sealed(request.agent.isolation)
        and all(result.sealed is not False for result in results)
    )


def run_suite(request: SuiteRequest, out: Path, progress: SuiteProgress) -> dict[str, Any]:
    """Run the suite into ``out``; the summary (also written to ``out/summary.json``)."""
    check_output_dir(out)
    with FileSet() as files:
        suite = _Suite(request, out, progress, files)
        suite.preflight()
        manifest = _manifest(request)
        # A folder of another run is refused before it is touched; its nonce is kept.
        nonce = _check_manifest(out, manifest)
        if request.recorded_here:  # a re-scoring signs nothing: no run of it names a suite
            nonce = nonce or secrets.token_hex(NONCE_BYTES)
            manifest["nonce"] = nonce
            suite.identity = suite_identity(request, nonce)
        # Before this attempt writes anything. A re-scoring is a pure function of recorded
        # evidence: scoring it again cannot draw another verdict, so it is never a resume.
        suite.resumed = request.recorded_here and _has_traces(out)
        if suite.resumed:
            suite.attempts = load_attempts(out)
        out.mkdir(parents=True, exist_ok=True)
        # A folder with a summary is a finished run; with its signature, a signed one.
        (out / SUMMARY_ENVELOPE_FILE).unlink(missing_ok=True)
        (out / SUMMARY_FILE).unlink(missing_ok=True)
        files.stage(out / MANIFEST_FILE, canonical_json(manifest).encode())
        files.commit()  # suite.json is in place before any scenario's files
        summary = suite.run()
    # Every scenario's files are published and durable: the summary says the folder is whole.
    write_atomic(out / SUMMARY_FILE, canonical_json(summary))
    if request.recorded_here:
        from provebench.attest._envelope import AttestationError

        try:
            sign_suite(out, summary, suite.kept)
        except AttestationError:
            # A file changed after it was written or checked: no summary that looks complete.
            (out / SUMMARY_FILE).unlink(missing_ok=True)
            raise
    return summary


def sign_suite(out: Path, summary: Mapping[str, Any], kept: Mapping[str, str]) -> None:
    """The laboratory's signature on a finished suite (`summary.dsse.json`): the summary, what
    the folder is a run of, and every scenario's signed files, so that one `attest verify`
    checks the whole folder; the predicate repeats the gate and the agent. A file this process
    wrote is signed by the bytes it wrote; one `kept` from an earlier run by the bytes it
    checked."""
    names = [SUMMARY_FILE, MANIFEST_FILE]
    for line in summary["scenarios"]:
        if line["verdict"] is not None:  # run (or kept) in this suite: signed as it was written
            folder = f"{SCENARIOS_DIR}/{line['id']}"
            names += [f"{folder}/{name}" for name in (*RUN_FILES, RUN_ENVELOPE_FILE)]
    from provebench.attest._envelope import sign_files

    predicate = {
        "sealed": summary["sealed"],
        "resumed": summary["resumed"],
        **({"rerun": summary["rerun"]} if summary["resumed"] else {}),
        "safety_gate": summary["safety_gate"],
        "agent": summary["agent"],
        "scenarios": len(summary["scenarios"]),
        "versions": summary["versions"],
    }
    sign_files(out, names, out / SUMMARY_ENVELOPE_FILE, SUITE_PREDICATE, predicate, held=kept)


__all__ = [
    "MANIFEST_FILE",
    "RESUMED_NOTE",
    "SUMMARY_FILE",
    "SUMMARY_FORMAT",
    "UNSEALED_NOTE",
    "RecordedEvidence",
    "SuiteProgress",
    "SuiteRequest",
    "result_of",
    "run_suite",
    "suite_identity",
    "suite_sealed",
]
