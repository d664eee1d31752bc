"""The run loop: one diagnosis agent investigates one simulated estate; evidence and verdict.

The runner hands the agent its task (prompt, tools, mode, scope — Execution §1) and a `call`
function that forwards to the simulator, which records every invocation. The runner enforces a
hard cap on tool calls so that a runaway in-process agent ends: the call past the cap is not
made, the agent is stopped, and the run is recorded with no final answer (SI §2.3: an agent that
never concluded is outside every step budget). The cap is a safety limit, not the scenario's
step budget; the budget is judged from the recorded actions by `within_step_budget`.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

from pydantic import JsonValue

from provebench._canonical import canonical_json, sha256_bytes, sha256_file
from provebench._errors import ProvebenchError
from provebench._file_set import FileSet
from provebench._jsonfile import recordable_text, text_problem
from provebench._paths import check_output_dir, check_output_file
from provebench.evidence import Evidence, RunEnding, blank_answer, oasis_artifact_json
from provebench.sandbox._channel import failure_type
from provebench.si.agents._protocol import (
    Answer,
    DiagnosisAgent,
    Task,
    ToolInfo,
    ToolReply,
    TransportFault,
)
from provebench.si.agents._signing import RUN_ENVELOPE_FILE, run_predicate, sign_si_run
from provebench.si.profile_data._readings import ReadingBook
from provebench.si.scenario._scenario import Scenario
from provebench.si.scenario._validate import load_scenarios, naming_scenario_lines
from provebench.si.scoring._safety import ScenarioVerdict
from provebench.si.scoring._score import score_scenario, select_scenario
from provebench.si.scoring._strict import Reading
from provebench.si.scoring._verdict import InputHashes, Verdict

DEFAULT_MAX_TOOL_CALLS: Final = 200
# The exit status of `si run` and `si suite` when a run was a provider failure: the harness's
# fault (Core §3.7), neither a pass nor the agent's fail (1) nor bad input (2).
EXIT_PROVIDER_FAILURE: Final = 3
EVIDENCE_FILE: Final = "evidence.json"
OASIS_EVIDENCE_FILE: Final = "evidence.oasis.json"
VERDICT_FILE: Final = "verdict.json"
# What the laboratory signs in a run folder (`_signing.py`), the verdict last.
RUN_FILES: Final = (EVIDENCE_FILE, OASIS_EVIDENCE_FILE, VERDICT_FILE)

Ending = RunEnding
# The endings whose agent gave no answer that counts (SI §2.3): whatever it said is discarded.
_NO_ANSWER: Final = frozenset({"tool_call_cap", "agent_error", "provider_failure", "interrupted"})


class SimulatedSession(Protocol):
    """What the runner needs of a simulator session (provebench.si.sim.Session)."""

    @property
    def prompt(self) -> str: ...
    @property
    def mode(self) -> str: ...
    @property
    def scope(self) -> Mapping[str, JsonValue]: ...
    @property
    def tools(self) -> tuple[ToolInfo, ...]: ...
    @property
    def steps(self) -> int: ...
    def call(self, tool: str, arguments: Mapping[str, JsonValue]) -> ToolReply: ...
    def evidence(
        self,
        *,
        final_answer: str,
        reasoning_trace: str = "",
        agent_name: str | None = None,
        agent_version: str | None = None,
        agent_isolation: dict[str, str] | None = None,
        provider_failure: str | None = None,
    ) -> Evidence: ...


class _ToolCallCapReached(BaseException):
    # A BaseException, so that an agent's `except Exception` cannot swallow the stop.
    pass


class RunInterrupted(BaseException):
    """SIGINT or SIGTERM while an agent ran: the run ends with the evidence gathered so far."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = signum


@dataclass(frozen=True)
class RunOutcome:
    """The recorded evidence, and how the agent's run ended (recorded in the evidence's
    non-scoring metadata, never scored)."""

    evidence: Evidence
    ending: Ending
    detail: str = ""
    # The signal that stopped the run (its command exits 128 + this once the run is written).
    signum: int | None = None


def task_of(session: SimulatedSession) -> Task:
    """The task an agent receives: only what an OASIS agent sees (Execution §1)."""
    return Task(
        prompt=session.prompt, tools=tuple(session.tools), mode=session.mode, scope=session.scope
    )


def run_agent(
    session: SimulatedSession,
    agent: DiagnosisAgent,
    *,
    max_tool_calls: int = DEFAULT_MAX_TOOL_CALLS,
    isolation: dict[str, str] | None = None,
) -> RunOutcome:
    """Run `agent` against `session` until it answers, fails or reaches the tool-call cap.

    `isolation` (how provebench isolated the agent, docs/sandbox.md) is recorded with it."""
    if max_tool_calls < 1:
        raise ProvebenchError("must be at least 1", field="--max-tool-calls")
    capped = False

    def call(tool: str, arguments: Mapping[str, JsonValue]) -> ToolReply:
        nonlocal capped
        if capped or session.steps >= max_tool_calls:
            capped = True
            raise _ToolCallCapReached
        return session.call(tool, arguments)

    ending: Ending = "answered"
    detail = ""
    answer = Answer(final_answer="")
    with _stopped_by_signals() as stop:
        try:
            returned = agent.run(task_of(session), call)
            problem = _answer_problem(returned)
            if problem is None:
                answer = returned
            else:
                ending, detail = "agent_error", problem
        except _ToolCallCapReached:
            pass
        except TransportFault as fault:
            # The way to the agent broke, not the agent: the run is unverifiable (Core §3.7).
            ending, detail = "provider_failure", recordable_text(str(fault))
        except (KeyboardInterrupt, RunInterrupted):
            # The user's Ctrl-C (or a host's SIGTERM) stops the run, not the command: what was
            # gathered is written, and the command exits with the signal's status after.
            stop.signum = stop.signum or signal.SIGINT
        except BaseException as error:
            # The agent's own failure is its result, not the runner's: an Exception, and also a
            # SystemExit (sys.exit() in the agent would otherwise end provebench with nothing
            # written) or any other BaseException it raises.
            ending, detail = "agent_error", _describe(error)
    if stop.signum is not None:
        # Even if the agent caught the stop and answered anyway: the run was stopped.
        ending, detail = "interrupted", f"stopped by {signal.Signals(stop.signum).name}"
    elif capped:
        # Whatever the agent did after the stop (caught it, answered anyway) is discarded.
        ending, detail = "tool_call_cap", f"stopped at the cap of {max_tool_calls} tool calls"
    elif ending == "answered":
        ending = _own_ending(agent) or ("answered" if answer.final_answer else "no_answer")
    if ending in _NO_ANSWER:
        answer = Answer(final_answer="")
    evidence = session.evidence(
        final_answer=answer.final_answer,
        reasoning_trace=answer.reasoning_trace,
        agent_name=agent.name,
        agent_version=agent.version,
        agent_isolation=None if isolation is None else dict(isolation),
        provider_failure=detail if ending == "provider_failure" else None,
    )
    if evidence.provider_failure is not None and ending not in ("provider_failure", "interrupted"):
        # The session's environment failed (an OASIS provider while observing, or a call whose
        # fault the agent caught and went on): the run is unverifiable whatever the agent
        # answered (Core §3.7), and its answer is discarded as for any provider failure.
        ending, detail = "provider_failure", evidence.provider_failure
        evidence = session.evidence(
            final_answer="",
            agent_name=agent.name,
            agent_version=agent.version,
            agent_isolation=None if isolation is None else dict(isolation),
            provider_failure=detail,
        )
    if answer.diagnosis is not None and not blank_answer(evidence.final_answer):
        # recorded beside the answer it came with (docs/evidence.md, `diagnosis`)
        evidence = evidence.model_copy(update={"diagnosis": answer.diagnosis})
    evidence = _with_agent_text(evidence, agent, detail if ending == "agent_error" else None)
    # provebench started this agent and chose `isolation` itself: the one place a verdict may
    # trust the isolation the evidence records (`sealed_of`).
    evidence = _with_reported(evidence, agent, ending).witnessed()
    return RunOutcome(evidence=evidence, ending=ending, detail=detail, signum=stop.signum)


@dataclass
class _Stop:
    signum: int | None = None


@contextmanager
def _stopped_by_signals() -> Iterator[_Stop]:
    """While an agent runs in the main thread, SIGINT and SIGTERM stop the agent's run (not the
    command): the handler notes the signal and raises `RunInterrupted` into the agent."""
    stop = _Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handler(signum: int, frame: object) -> None:
        stop.signum = signum
        raise RunInterrupted(signum)

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def _with_agent_text(evidence: Evidence, agent: DiagnosisAgent, error: str | None) -> Evidence:
    """The evidence with the rest of what the agent wrote: its failure's text and a sealed
    program's standard error. Both reach the operator's terminal, so both are recorded where
    every containment check searches them (SI red team 15, H2: a secret raised in an exception
    or printed to stderr was shown to the operator and passed the disclosure check)."""
    from provebench.si.agents._http import HttpDiagnosisAgent
    from provebench.si.agents._sealed import CapturedStderr

    update: dict[str, object] = {}
    if error is not None:
        update["agent_error"] = error
    # only provebench's own sealed runners are asked: they captured what they relayed
    stderr = agent.stderr_text() if isinstance(agent, CapturedStderr) else None
    if stderr is not None:
        update["agent_stderr"] = stderr
    # what a sealed MCP program sent its server, notifications and `_meta` included (SI red
    # team 17, H8), and the requests an HTTP agent's tool endpoint refused, as sent (SI red
    # team 20)
    recorder = agent if isinstance(agent, (CapturedStderr, HttpDiagnosisAgent)) else None
    messages = recorder.sent_messages() if recorder is not None else []
    if messages:
        update["agent_messages"] = list(messages)
    # each of those channels recorded only up to its bound, and how much it left out: a
    # containment check fails on a cut (SI red team 18, m1 and s1)
    cuts = recorder.channel_cuts() if recorder is not None else []
    if cuts:
        update["agent_cuts"] = list(cuts)
    return evidence.model_copy(update=update) if update else evidence


def _own_ending(agent: DiagnosisAgent) -> Ending | None:
    """A built-in model agent's own ending (step budget, time limit, a cut answer)."""
    from provebench.si.agents._openai import OpenAIDiagnoser

    return agent.ending() if isinstance(agent, OpenAIDiagnoser) else None


def _with_reported(evidence: Evidence, agent: DiagnosisAgent, ending: Ending) -> Evidence:
    """The evidence with how the run ended, and what a built-in model agent reports about its
    run (`non_scoring()`: the model, its token counts, its cut turns), never scored (SI §4).
    Only provebench's own agents are asked: a candidate's account of itself is not recorded as
    fact."""
    from provebench.si.agents._openai import OpenAIDiagnoser

    update: dict[str, object] = {"run_ending": ending}
    if isinstance(agent, OpenAIDiagnoser):
        update.update(agent.non_scoring())
    metadata = evidence.metadata.model_copy(update=update)
    return evidence.model_copy(update={"metadata": metadata})


def _answer_problem(returned: object) -> str | None:
    """Why what `run()` returned is not a recordable answer, or None.

    The answer is written as evidence and scored again from the file (SI §2.5): text that
    cannot be written (a lone surrogate) is the agent's misbehaviour, recorded as agent_error.
    """
    if not isinstance(returned, Answer):
        return f"run() returned {type(returned).__name__}, not Answer"
    for name in ("final_answer", "reasoning_trace"):
        problem = text_problem(getattr(returned, name))
        if problem is not None:
            return f"run() returned an Answer whose {name} cannot be recorded: {problem}"
    if returned.diagnosis is not None:
        from provebench.si.scoring._diagnosis import vocabulary_problem

        vocabulary = vocabulary_problem(returned.diagnosis)
        if vocabulary is not None:
            return f"run() returned an Answer whose {vocabulary[0]}: {vocabulary[1]}"
    return None


def _describe(error: BaseException) -> str:
    # The exception's text is the agent's: whatever it holds must be recordable and printable,
    # and an exception whose __str__ fails in turn is still described.
    try:
        message = str(error)
    except Exception:
        message = "(its message cannot be shown)"
    kind = failure_type(error)
    text = f"{kind}: {message}" if message else kind
    return recordable_text(text)


def check_out_dir(out_dir: Path, scenario_file: Path | None = None) -> None:
    """Before any work: the output folder can be made or filled, and writing each of its files
    replaces neither a folder, FIFO, device or link nor the scenario file being run."""
    check_output_dir(out_dir)
    inputs = [] if scenario_file is None else [scenario_file]
    for name in (*RUN_FILES, RUN_ENVELOPE_FILE):
        if (out_dir / name).parent.is_dir():
            check_output_file(out_dir / name, inputs=inputs)


def start_session(
    scenario_file: Path, scenario_id: str | None, readings: ReadingBook | None = None
) -> tuple[Scenario, SimulatedSession]:
    """Load the scenario file, choose the scenario, start a simulator session for it.

    A Form B diagnosis scenario runs in the physical estate, after its answer key is proven as
    `si check` proves it (refused like an invalid scenario when it does not hold); a Form A
    scenario runs there where the physical estate holds it whole, and every other scenario in
    the declared estate (`provebench.si.sim._route`, the one place that decides)."""
    from provebench.si.sim._check import require_proven_answer_key
    from provebench.si.sim._route import has_answer_key, open_session

    scenario = select_scenario(load_scenarios(scenario_file), scenario_id, path=str(scenario_file))
    if has_answer_key(scenario):
        require_proven_answer_key(scenario, scenario_file)
    with naming_scenario_lines(scenario_file, scenario.id):  # as `si check` names them
        return scenario, open_session(scenario, readings)


def write_run(
    out_dir: Path,
    scenario: Scenario,
    scenario_file: Path,
    evidence: Evidence,
    readings: ReadingBook | None = None,
    *,
    recorded_here: bool = True,
    reading: Reading = "ratified",
    files: FileSet | None = None,
    require_diagnosis: bool = False,
    suite: Mapping[str, Any] | None = None,
    code_sha256: str = "",
    matrix_job: Mapping[str, str] | None = None,
) -> Verdict | ScenarioVerdict:
    """Write evidence (provebench and OASIS shapes) and the verdict, then sign them when the
    simulator recorded the evidence (`recorded_here`; evidence re-scored from elsewhere is
    not signed); return the verdict. A suite's run names the suite (`suite`) in its signed
    predicate (`_signing.run_predicate`), a matrix's job its job and attempt (`matrix_job`).

    Each file is complete or absent under its name, and the signature is written after the
    files it signs are in place (`_signing.py`), so a folder whose signature checks is
    complete. The three files are one `FileSet`: durable with one flush, not two fsyncs each.
    Given `files` (a suite's), they are staged in it and published at its next commit, unless
    they are signed here, which needs them in place first. The verdict is the one
    `provebench si score SCENARIO_FILE OUT/evidence.json` prints, but for `sealed`: re-scored
    evidence is never sealed (`sealed_of`).
    """
    check_out_dir(out_dir, scenario_file)
    evidence_bytes = canonical_json(evidence).encode()
    # The bytes the scenario was parsed from, never a read of the file now (red team round 12b,
    # S1: a scenario swapped during the run was signed under the official file's digest).
    scenario_sha256 = scenario.source_sha256 or sha256_file(scenario_file)
    verdict = score_scenario(
        scenario,
        evidence,
        readings=readings,
        reading=reading,
        require_diagnosis=require_diagnosis,
        inputs=InputHashes(
            scenario_file_sha256=scenario_sha256,
            evidence_file_sha256=sha256_bytes(evidence_bytes),
        ),
    )
    written = {
        EVIDENCE_FILE: evidence_bytes,
        OASIS_EVIDENCE_FILE: oasis_artifact_json(evidence).encode(),
        VERDICT_FILE: verdict.to_json().encode(),
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    # What an earlier run left must not sit beside this run's evidence if we stop midway.
    (out_dir / RUN_ENVELOPE_FILE).unlink(missing_ok=True)
    (out_dir / VERDICT_FILE).unlink(missing_ok=True)
    own_files = files is None
    staged = FileSet() if files is None else files
    try:
        for name, data in written.items():
            staged.stage(out_dir / name, data)
        if own_files:
            staged.close()
        elif recorded_here:
            staged.commit()
    except BaseException:
        if own_files:
            staged.discard()
        raise  # a suite's set is discarded by the suite, which stops
    if recorded_here:
        predicate = run_predicate(
            scenario,
            scenario_sha256,
            evidence,
            verdict,
            suite,
            code_sha256=code_sha256,
            matrix_job=matrix_job,
        )
        sign_si_run(out_dir, written, predicate)
    return verdict


def is_provider_failure(verdict: Verdict | ScenarioVerdict) -> bool:
    """Whether the verdict is PROVIDER_FAILURE (Core §3.6–3.7): the harness's fault, which
    `si run` reports with `EXIT_PROVIDER_FAILURE` whatever made it — the provider's runtime
    fault, or evidence a check could not verify."""
    if isinstance(verdict, Verdict):
        return verdict.provider_failure is not None
    return verdict.status == "PROVIDER_FAILURE"


def verdict_line(verdict: Verdict | ScenarioVerdict) -> str:
    """The verdict in a few words: a band and score, a status, or a status and score; a
    provider failure not scored, with no band (Core §3.6-3.7)."""
    if isinstance(verdict, Verdict):
        if verdict.provider_failure is not None:
            return "PROVIDER_FAILURE (not scored)"
        return f"{verdict.band} {verdict.score}"
    if verdict.score is None:
        return verdict.status
    return f"{verdict.status} {verdict.score}"


__all__ = [
    "DEFAULT_MAX_TOOL_CALLS",
    "EVIDENCE_FILE",
    "EXIT_PROVIDER_FAILURE",
    "OASIS_EVIDENCE_FILE",
    "RUN_ENVELOPE_FILE",
    "RUN_FILES",
    "VERDICT_FILE",
    "RunInterrupted",
    "RunOutcome",
    "SimulatedSession",
    "check_out_dir",
    "is_provider_failure",
    "run_agent",
    "start_session",
    "task_of",
    "verdict_line",
    "write_run",
]
