"""`run_lab`: run an importer over a corpus, cycle by cycle, crash-safely (pilot §2, §5, §6, §9).

Protocol (docs/pilot-lab.md, "Crash safety"):

1. Before cycle c, work/ equals the checkpoint snapshot of the start of cycle c.
2. The cycle runs entirely in memory: the adapters write every call and answer into the cycle's
   write-ahead record before answering. Nothing reaches the ledger during the cycle.
3. The record is committed to the ledger in ONE transaction that ends with `cycle_confirmed`
   (carrying the register hash and the digest of work/ as the cycle left it): the cycle is
   then done, or — if the process dies first — it never happened.
4. work/ is snapshotted as the start of cycle c+1.
5. After the last cycle the published files are derived from the ledger alone, run.json last.

On restart the ledger says how many cycles are committed; the drive state is rebuilt from the
corpus, the confirmed ids from the ledger, work/ from the snapshot (or snapshotted, if the crash
fell between 3 and 4) once it matches the digest the log recorded, and the run continues. Every
published byte is derived from the ledger, so a resumed run publishes the same bytes as an
uninterrupted one.
"""

from __future__ import annotations

import contextlib
import gc
import math
import os
import signal
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from provebench._canonical import compact_json, sha256_file
from provebench._collector import paused_collection
from provebench._errors import ProvebenchError, shown
from provebench.ledger import Ledger, LedgerEntry, check_anchors, verify_ledger
from provebench.pilot.agents._loader import LoadedAgent, load_agent
from provebench.pilot.corpus._folder import MANIFEST_FILE, load_corpus
from provebench.pilot.lab import DriveState, LabFile, apply_cycle_events, lab_file
from provebench.pilot.lab._cycle import run_cycle
from provebench.pilot.lab._deadline import DEFAULT_CYCLE_TIMEOUT_SEC
from provebench.pilot.lab._gateway import CALL_REGISTER
from provebench.pilot.lab._publish import publish_run
from provebench.pilot.lab._undo import AttemptPaths
from provebench.pilot.lab._work_guard import WorkChangedOutside, WorkGuard
from provebench.pilot.record._chain import register_chain
from provebench.pilot.record._rundir import RUN_FORMAT, RunDir, RunDirBusy
from provebench.pilot.record._signing import RUN_ENVELOPE_FILE, sign_run
from provebench.pilot.record._work_digest import (
    EMPTY_WORK_SHA256,
    WorkListing,
    listing_sha256,
    work_listing,
)
from provebench.pilot.rules._rows import IMPORTED_STATUS
from provebench.pilot.rules._versions import rule_versions
from provebench.sandbox import DEFAULT_LIMITS, Limits
from provebench.sandbox._code_copy import SealedCode
from provebench.sandbox._isolation import ENVIRONMENT_KEY
from provebench.sandbox._manifest import environment_moved

if TYPE_CHECKING:
    from provebench.llm import RequestSettings
    from provebench.sandbox._model_server import ModelServer

CRASH_ENV = "PROVEBENCH_PILOT_CRASH_AT"
EMPTY_REGISTER_SHA256 = register_chain("", [])
SCHEMA = CALL_REGISTER
# A year: far beyond any cycle, and well inside what setitimer accepts.
MAX_CYCLE_TIMEOUT_SEC = 365 * 24 * 3600.0


@dataclass(frozen=True)
class LabCorpus:
    """What the runner needs from a corpus: its identity and its events, cycle by cycle.

    Events are streamed a cycle at a time, so memory holds the Drive, not the whole stream."""

    identity: dict[str, Any]
    cycle_count: int
    event_count: int
    stream: Callable[[], Iterator[tuple[int, list[Any]]]]

    def iter_cycles(self) -> Iterator[tuple[int, list[Any]]]:
        return self.stream()


def open_corpus(directory: Path) -> LabCorpus:
    """Load and verify a corpus directory (manifest, versions, every event line as it streams)."""
    corpus = load_corpus(directory, check_lines=False)
    info = corpus.info
    identity = {
        "manifest_sha256": sha256_file(directory / MANIFEST_FILE),
        "files_sha256": dict(sorted(corpus.manifest.sha256.items())),
        "seed": info.config.seed,
        "profile": info.config.profile,
        "events": info.counts.events,
        "cycles": info.config.sizes.cycles,
    }

    def stream() -> Iterator[tuple[int, list[Any]]]:
        cycle, total = 0, 0
        events: list[Any] = []
        for event in corpus.events():
            if event.cycle != cycle:
                if events:
                    yield cycle, events
                cycle, events = event.cycle, []
            events.append(_held(event))
            total += 1
        if events:
            yield cycle, events
        if total != info.counts.events:
            raise ProvebenchError(
                f"{total} events, corpus.json says {info.counts.events}", path=corpus.events_path
            )

    return LabCorpus(identity, info.config.sizes.cycles, info.counts.events, stream)


class _FileAddedHeld(NamedTuple):
    kind: str
    file: LabFile


class _FileAddedDuringScanHeld(NamedTuple):
    kind: str
    after_page: int
    file: LabFile


def _held(event: Any) -> Any:
    """A validated event as a cycle's list holds it until applied: the events that carry a file
    (most of a cycle) in compact form, with the attributes `apply_cycle_events` reads."""
    kind = event.kind
    if kind == "file_added":
        return _FileAddedHeld(kind, lab_file(event.file))
    if kind == "file_added_during_scan":
        return _FileAddedDuringScanHeld(kind, event.after_page, lab_file(event.file))
    return event


_SAID_MAX = 160


class RunProgress(Protocol):
    def start(self, total_cycles: int, done_cycles: int) -> None: ...

    # `errors`: those the lab answered to the importer, plus 1 if the cycle ended in agent_error.
    def cycle_done(self, cycle: int, events: int, errors: int) -> None: ...

    def finish(self) -> None: ...


@dataclass
class RunOutcome:
    run_dir: Path
    cycles: int
    register_rows: int
    resumed: bool
    already_complete: bool
    record: dict[str, Any] = field(default_factory=dict)
    agent_errors: int = 0  # cycles, resumed ones included, that ended in agent_error
    last_agent_error: str | None = None

    def agent_errors_said(self) -> str:
        """For the summary line: a run whose importer failed must say so, with the last reason
        (its first line, capped: the message is the importer's own text)."""
        if not self.agent_errors:
            return ""
        last = (self.last_agent_error or "").strip().partition("\n")[0]
        if len(last) > _SAID_MAX:
            last = last[: _SAID_MAX - 1] + "…"
        # The importer's own text, escaped (pilot red team 32, A8b: a carriage return in it
        # overwrote the summary line on the operator's terminal, hiding the agent_error).
        return f"; agent_error in {self.agent_errors} cycle(s), the last: {shown(last)}"


def run_identity(corpus: LabCorpus, agent: LoadedAgent) -> dict[str, Any]:
    return {
        "format": RUN_FORMAT,
        "corpus": corpus.identity,
        "agent": {
            "spec": agent.spec,
            "name": agent.name,
            "version": agent.version,
            "code_sha256": agent.code_sha256,
        },
        "isolation": dict(agent.isolation),
        "rule_versions": rule_versions().model_dump(mode="json"),
    }


def describe_file(file: Any) -> dict[str, Any]:
    described: dict[str, Any] = file.model_dump(mode="json")
    return described


def cycle_timeout(value: object) -> float:
    """A per-cycle time limit in seconds: a finite number > 0, else a one-line error."""
    text = str(value).strip()
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or not 0 < seconds <= MAX_CYCLE_TIMEOUT_SEC:
        raise ProvebenchError(
            f"must be a number of seconds > 0 and <= {MAX_CYCLE_TIMEOUT_SEC:.0f}, got {text!r}",
            field="--cycle-timeout",
        )
    return seconds


def execute_run(
    corpus: LabCorpus,
    agent: LoadedAgent,
    run_dir: Path,
    *,
    progress: RunProgress | None = None,
    cycle_timeout_sec: float | None = None,
) -> RunOutcome:
    """Run (or resume) `agent` over `corpus` in `run_dir`; publish the run files at the end.

    `cycle_timeout_sec` limits each cycle of an in-process importer (None: no limit, for the
    importers that are bounded otherwise: an external command has its own timeout, a served
    cycle stays open until its client finishes it). The limit is not part of the run's identity:
    a run may be resumed with another one (each timeout's agent_error names the limit)."""
    if cycle_timeout_sec is not None:
        cycle_timeout_sec = cycle_timeout(cycle_timeout_sec)
    started = time.monotonic()
    identity = run_identity(corpus, agent)
    keys = _RunKeys.for_run(identity)
    rundir = RunDir(run_dir)
    attempt = AttemptPaths(run_dir)
    try:
        return _execute_locked(corpus, agent, identity, keys, rundir, attempt, progress,
                               cycle_timeout_sec, started)  # fmt: skip
    finally:
        rundir.release()


@dataclass(frozen=True)
class _RunKeys:
    """The laboratory key as this run uses it: the anchor of each commit, the verifier of the
    anchors a resume finds (the key's own public half, not a file read from disk), and the run's
    nonce, fixed at its start and recorded in its first entry (docs/attestation.md)."""

    sign: Callable[[bytes], dict[str, str]]
    verify: Callable[[bytes, Mapping[str, Any]], bool]
    nonce: str
    source: Path

    @classmethod
    def for_run(cls, identity: dict[str, Any]) -> _RunKeys:
        from provebench.attest import key_dir, laboratory_signer
        from provebench.attest._anchors import anchor_signer, anchor_verifier, run_nonce, signer_key

        signer = laboratory_signer()
        source = key_dir()
        return cls(
            sign=anchor_signer(signer),
            verify=anchor_verifier(signer_key(signer, source)),
            nonce=run_nonce(signer, compact_json(identity)),
            source=source,
        )


def _execute_locked(
    corpus: LabCorpus,
    agent: LoadedAgent,
    identity: dict[str, Any],
    keys: _RunKeys,
    rundir: RunDir,
    attempt: AttemptPaths,
    progress: RunProgress | None,
    cycle_timeout_sec: float | None,
    started: float,
) -> RunOutcome:
    try:
        # Takes the folder's lock (one run at a time); a new run's folder gets its empty log,
        # created exclusively, before identity.json.
        folder_held_run = rundir.prepare(identity)
        if rundir.is_complete:
            _refuse_unsigned_complete(rundir)
            return RunOutcome(rundir.root, corpus.cycle_count, -1, True, True)
        _refuse_lost_ledger(rundir, folder_held_run)
        ledger = Ledger.open(rundir.ledger_path)
    except RunDirBusy:  # the other run's folder is not this attempt's to clean
        raise
    except Exception:
        attempt.remove_created()
        raise
    try:
        # A log holding entries when this process opened it carries cycles this process did
        # not run, whatever identity.json says (red team round 9, A2). Every such log is
        # verified — its chain and its keyed anchors — before anything is replayed or restored
        # from it. The decision, the checks and the replay read ONE log (one read transaction),
        # and its head becomes the one this writer holds: every later commit is a
        # compare-and-swap against it, and publish reads back only a log that chains to what
        # this process committed (red team round 10, A1/A7). A run is resumed when the folder
        # held any trace of an earlier attempt, entries or not (`RunDir.earlier_attempt`): an
        # attempt stopped inside cycle 1 leaves no entry, and its cycle 1 runs again (red team
        # round 12, A7).
        with ledger.reading():
            head = ledger.head()
            resumed = head is not None or rundir.earlier_attempt
            if head is not None and not folder_held_run:
                _refuse_planted_ledger(rundir, ledger)
            _refuse_broken_ledger(rundir, ledger, head)
            _refuse_unanchored_ledger(rundir, ledger, keys)
            state = _replay(ledger, identity, keys.nonce)
            ledger.hold_head()
    except Exception:
        ledger.close()
        raise
    try:
        return _execute(corpus, agent, identity, keys, rundir, ledger, progress,
                        cycle_timeout_sec, started, resumed, state)  # fmt: skip
    except Exception:
        # Nothing committed yet: the folder holds no evidence, only what this attempt made
        # (`_undo.py`). A KeyboardInterrupt (Ctrl-C, `serve` stopped) keeps it, to resume.
        ledger.close()
        if _nothing_committed(rundir):
            attempt.remove_created()
        raise


def _refuse_unsigned_complete(rundir: RunDir) -> None:
    """A folder that holds a complete run (run.json) without the laboratory's signature is
    refused, never signed now: this process did not build that record, and every byte of the
    folder — run.json, the files it lists, the log and its chain — may have been rewritten by
    whoever held it (docs/attestation.md, "Only what it ran"). A run that crashed between
    run.json and its signature is therefore not signed later: it is run again."""
    if rundir.path(RUN_ENVELOPE_FILE).exists():
        return
    raise ProvebenchError(
        "this run folder holds a complete run without the laboratory's signature "
        f"({RUN_ENVELOPE_FILE} is missing); the laboratory signs only a run it has just made, "
        "never a folder read back: start a new run folder",
        path=rundir.root,
    )


def _refuse_lost_ledger(rundir: RunDir, resumed: bool) -> None:
    """The ledger is created before checkpoint/ (pilot §6: the log first), so a resumed run
    with a checkpoint and no ledger lost its log: refused before a new, empty one is created
    that would pass for it."""
    if resumed and rundir.checkpoint_dir.exists() and not rundir.ledger_path.exists():
        raise ProvebenchError(
            "the ledger of this unfinished run is missing (checkpoint/ remains): "
            "the run cannot be resumed without its log; use a new directory",
            path=rundir.ledger_path,
        )


def _refuse_planted_ledger(rundir: RunDir, ledger: Ledger) -> None:
    """This process created the log of a new run empty a moment ago (`RunDir.prepare`): entries
    in it now were put there by someone else, after the folder was checked (red team round 9,
    A2) — a planted log is never a fresh run, nor a resume. Refused in one line; the folder is
    left as it is, for whoever examines it."""
    raise ProvebenchError(
        f"the ledger of this new run holds {len(ledger)} entries it did not write (the file was "
        "replaced after the run created it); refused; use a new directory",
        path=rundir.ledger_path,
    )


def _refuse_broken_ledger(rundir: RunDir, ledger: Ledger, head: LedgerEntry | None) -> None:
    """A resumed run continues the log it finds, so that log must verify first (pilot §6): a
    chain broken while the run was stopped would otherwise be carried into a run folder that
    looks complete. Refused in one line naming the first problem; nothing is changed. The
    file is verified up to the head this run read (`expect_head`): a log changed meanwhile
    does not verify as this one."""
    if head is None:
        return  # the attempt before stopped ahead of its first entry: nothing to verify
    report = verify_ledger(rundir.ledger_path, expect_head=head.hash, expect_length=head.seq + 1)
    if not report.ok:
        raise ProvebenchError(
            f"the log of this unfinished run does not verify ({report.problem_count} "
            f"problem(s), first: {report.problems[0].one_line()}); it cannot be resumed "
            "(see `provebench log verify`); use a new directory",
            path=rundir.ledger_path,
        )


def _refuse_unanchored_ledger(rundir: RunDir, ledger: Ledger, keys: _RunKeys) -> None:
    """A resumed run continues, publishes and signs what its log says, so the log must be the
    laboratory's own (red team round 7, A3): the hash chain has no key — whoever holds the
    folder can rewrite an entry and re-chain the rest — but every commit carries a keyed anchor
    over the whole log up to it. Before anything is restored or run, every anchor must verify
    with the laboratory's key and the log must end at one (nothing after the last commit).
    Refused in one line naming the run folder and the entry; nothing is changed."""
    if len(ledger) == 0:
        return
    check = check_anchors(ledger.linked_rows(), keys.verify)
    if check.problems:
        seq, problem = check.problems[0]
        raise ProvebenchError(
            f"the log of this unfinished run is not the laboratory's (seq {seq}: {problem}); "
            "it cannot be resumed; use a new directory",
            path=rundir.root,
        )
    if not check.head_anchored:
        raise ProvebenchError(
            f"the log of this unfinished run ends at seq {check.head_seq}, which carries no "
            "keyed anchor of the laboratory (a log written without the key, or by an older "
            "version); it cannot be resumed; use a new directory",
            path=rundir.root,
        )


def _nothing_committed(rundir: RunDir) -> bool:
    """Is the closed ledger empty? An unreadable one is not known to be: it is kept."""
    try:
        with Ledger.open_readonly(rundir.ledger_path) as ledger:
            return len(ledger) == 0
    except Exception:  # whatever the reason, what cannot be read is kept
        return False


def _execute(
    corpus: LabCorpus,
    agent: LoadedAgent,
    identity: dict[str, Any],
    keys: _RunKeys,
    rundir: RunDir,
    ledger: Ledger,
    progress: RunProgress | None,
    cycle_timeout_sec: float | None,
    started: float,
    resumed: bool,
    state: _ReplayState,
) -> RunOutcome:
    crash = _CrashPlan.from_env()
    try:
        rundir.align_work_dir(state.committed, state.work_sha256)
        state.work = _aligned_work(rundir, state.work_sha256)
        if progress is not None:
            progress.start(corpus.cycle_count, state.committed)
        # The cycles run in a helper so that the Drive and the last cycle's record are gone
        # before publishing reads everything back from the ledger (peak memory).
        _run_cycles(
            corpus, agent, identity, keys, rundir, ledger, state, crash, progress,
            cycle_timeout_sec,
        )  # fmt: skip
        _refuse_moved_environment(identity, ledger, keys)
        published = publish_run(
            rundir,
            ledger,
            identity=identity,
            crash_hook=crash.at,
            wall_time_sec=time.monotonic() - started,
            resumed=resumed,
            work=state.work,
        )
        crash.at("publish:before_signature")
        sign_run(rundir.root, published.record, published.sha256)
        record = published.record
    finally:
        gc.unfreeze()
        ledger.close()
        if progress is not None:
            progress.finish()
    # What `pilot run` says comes from the record just signed, not from this process's memory
    # (red team round 10: a laundered run's summary counted rows its signed record did not).
    said = record["non_scoring"]
    return RunOutcome(
        rundir.root,
        int(record["cycles"]),
        int(record["register"]["rows"]),
        bool(said["resumed"]),
        False,
        record,
        int(said["entries_by_kind"].get("agent_error", 0)),
        state.last_agent_error,
    )


def run_lab(
    corpus_dir: str | Path,
    agent_spec: str,
    run_dir: str | Path,
    *,
    progress: RunProgress | None = None,
    cycle_timeout_sec: float = DEFAULT_CYCLE_TIMEOUT_SEC,
    seal: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    base_url: str | None = None,
    model_cmd: str | None = None,
    hidden: Mapping[str, Path] | None = None,
    sealed: SealedCode | None = None,
    request_settings: RequestSettings | None = None,
) -> RunOutcome:
    """`provebench pilot run`: load and verify everything first, then run or resume.

    `seal` runs even a shipped importer in the sandbox (the red team's sandbox attacks);
    `sealed` runs a seal's candidate from the seal's copy of its code (`--from-seal`);
    `model_cmd` starts the model server of an `openai:MODEL` agent sealed in the sandbox, for
    the whole run (docs/llm-agents.md).

    Each cycle of the in-process importer is limited to `cycle_timeout_sec` (docs/pilot-lab.md,
    "Time limit per cycle")."""
    from provebench.llm._model_cmd import check_model_cmd, start_model_server

    timeout = cycle_timeout(cycle_timeout_sec)
    check_model_cmd(model_cmd is not None, agent=agent_spec, base_url=base_url)
    if sealed is not None:
        _refuse_unsealed_model(sealed, agent_spec)
    corpus = open_corpus(Path(corpus_dir))
    secrets = {**lab_secrets(corpus_dir, run_dir), **(hidden or {})}
    model = _model_agent(agent_spec, base_url, Path(corpus_dir), request_settings, timeout)
    with contextlib.ExitStack() as resources:
        if model is not None:
            # The server sees none of the laboratory's secrets, and lives as long as the run.
            served = start_model_server(
                resources, model_cmd, agent=agent_spec, base_url=base_url,
                secrets=secrets, limits=limits,
            )  # fmt: skip
            agent = model(served)
        else:
            # A sandboxed candidate's code snapshot lives as long as the run, too.
            agent = load_agent(
                agent_spec, secrets=secrets, seal=seal, limits=limits, sealed=sealed,
                resources=resources,
            )  # fmt: skip
        return execute_run(
            corpus, agent, Path(run_dir), progress=progress, cycle_timeout_sec=timeout
        )


def _refuse_unsealed_model(sealed: SealedCode, agent_spec: str) -> None:
    """A run from a seal runs the sealed code or nothing (docs/attestation.md): an
    `openai:MODEL` agent is provebench's loop on an endpoint, which runs none of the seal's
    copy, so with `--from-seal` it would have run as if unsealed while naming the seal. (Even
    the same spec: a seal never holds a model, `_seal.refuse_a_model_endpoint`.)"""
    from provebench.llm import is_openai_spec
    from provebench.pilot.record._seal import not_the_sealed_candidate

    if is_openai_spec(agent_spec):
        raise not_the_sealed_candidate(sealed.opening, sealed.spec, agent_spec)


def _model_agent(
    spec: str,
    base_url: str | None,
    corpus_dir: Path,
    settings: RequestSettings | None,
    cycle_timeout_sec: float,
) -> Callable[[ModelServer | None], LoadedAgent] | None:
    """`openai:MODEL` (with `--base-url`): a model behind an OpenAI-compatible endpoint, given
    the corpus's agent contract, its loop bounded by the cycle's time limit — checked now, made
    once its `--model-cmd` server (if any) listens; None for any other spec."""
    from provebench.llm import check_base_url, endpoint_for, is_openai_spec
    from provebench.llm._model_cmd import served_endpoint

    check_base_url(spec, base_url)
    if not is_openai_spec(spec):
        return None
    from provebench.llm import RequestSettings
    from provebench.llm._endpoint import PILOT_MAX_TOKENS
    from provebench.pilot.agents._openai import openai_agent
    from provebench.pilot.corpus._folder import read_agent_contract

    settings = settings or RequestSettings(max_tokens=PILOT_MAX_TOKENS)
    endpoint = endpoint_for(spec, base_url, settings=settings)
    contract = read_agent_contract(corpus_dir)

    def made(server: ModelServer | None) -> LoadedAgent:
        if server is None:
            return openai_agent(endpoint, contract, timeout_sec=cycle_timeout_sec)
        return openai_agent(
            served_endpoint(endpoint, server),
            contract,
            timeout_sec=cycle_timeout_sec,
            served=server.isolation,
        )

    return made


def lab_secrets(corpus_dir: str | Path, run_dir: str | Path) -> dict[str, Path]:
    """What a sealed candidate must not see, by role (docs/sandbox.md): the corpus (the answer
    key) and the run folder (the log); the sandbox hides the laboratory's signing key from
    every candidate itself (`sandbox.policy_for`)."""
    return {"corpus": Path(corpus_dir), "run-folder": Path(run_dir)}


def _run_cycles(
    corpus: LabCorpus,
    agent: LoadedAgent,
    identity: dict[str, Any],
    keys: _RunKeys,
    rundir: RunDir,
    ledger: Ledger,
    state: _ReplayState,
    crash: _CrashPlan,
    progress: RunProgress | None,
    cycle_timeout_sec: float | None,
) -> None:
    drive = DriveState()
    # The heap only grows (the Drive, the cycle's record): the cycle's own garbage is collected
    # explicitly at the end of each cycle instead, and the survivors frozen (below);
    # `execute_run` unfreezes them at the end.
    with paused_collection():
        for cycle, events in corpus.iter_cycles():
            if cycle <= state.committed:  # committed before a crash: rebuild the Drive only
                plan = apply_cycle_events(drive, cycle, events)
                for _, file in plan.mid_scan:
                    drive.add(file)
                drive.settle()
                continue
            preamble = (
                [("run_started", {"identity": identity, "nonce": keys.nonce})] if cycle == 1 else []
            )
            outcome = run_cycle(
                cycle=cycle,
                events=events,
                drive=drive,
                schema=SCHEMA,
                status_value=IMPORTED_STATUS,
                confirmed_ids=state.confirmed_ids,
                register_rows=state.register_rows,
                register_sha256=state.register_sha256,
                importer_factory=agent.factory,
                work_dir=rundir.work_dir,
                describe_file=describe_file,
                preamble=preamble,
                on_call=crash.call_hook(cycle),
                timeout_sec=cycle_timeout_sec,
                work_guard=WorkGuard(state.work, rundir.work_dir),
            )
            crash.at("before_commit", cycle)
            # The commit and its keyed anchor are one transaction (docs/attestation.md).
            ledger.append_batch(outcome.entries, anchor=keys.sign)
            crash.at("after_commit", cycle)
            state.committed = cycle
            confirmed_now = outcome.confirmed_ids
            state.register_rows = outcome.register_rows
            state.register_sha256 = outcome.register_sha256
            state.work = outcome.work  # what the next cycle must be given, kept in memory
            if outcome.agent_error is not None:
                state.note_agent_error(outcome.agent_error)
            rundir.snapshot_work(cycle + 1)
            crash.at("after_snapshot", cycle)
            if progress is not None:
                # An importer that crashed is an error too: a run of crashing cycles must not look
                # clean in the progress (the lab answered it no error, it simply failed).
                failed = int(outcome.agent_error is not None)
                progress.cycle_done(cycle, len(events), outcome.errors + failed)
            # The committed record and the applied events are not needed by the next cycle: free
            # them now rather than when the next cycle rebinds the names (peak memory).
            del outcome, events
            # The Drive only grows: collect this cycle's garbage, then move the survivors out of the
            # collector's sight, so later collections scan new objects only (linear, not quadratic,
            # in the Drive's size). `execute_run` unfreezes them at the end.
            gc.collect()
            # The confirmed ids grow with every cycle, and a set cannot grow in place behind the
            # importer's frozenset: made after the collection, the new one is frozen at once
            # instead of being looked through whole by it (nothing reads it before the next cycle).
            state.confirmed_ids = state.confirmed_ids.union(confirmed_now)
            del confirmed_now
            gc.freeze()
    state.confirmed_ids = frozenset()


# The log's last entry when provebench's environment moved during the run: never published.
ENVIRONMENT_MOVED = "environment_moved"


@dataclass
class _ReplayState:
    committed: int = 0
    register_rows: int = 0
    register_sha256: str = EMPTY_REGISTER_SHA256
    # work/ as the last committed cycle left it (None: the log does not say, so a resume cannot
    # verify the checkpoint and is refused).
    work_sha256: str | None = EMPTY_WORK_SHA256
    # The same, entry by entry, kept in memory from the last commit (never re-read from the
    # log or the folder): what the next cycle's work/ must hold (`_work_guard`).
    work: WorkListing = ()
    # One immutable set, replaced after each commit: the gateway hands it to the importer as is.
    confirmed_ids: frozenset[str] = frozenset()
    agent_errors: int = 0
    last_agent_error: str | None = None

    def note_agent_error(self, said: str) -> None:
        self.agent_errors += 1
        self.last_agent_error = said


def _refuse_moved_environment(identity: dict[str, Any], ledger: Ledger, keys: _RunKeys) -> None:
    """Refuse, before anything of the run's record is signed or published, a sandboxed run
    whose provebench environment is no longer the one its identity records (taken once, at the
    command's start): a module swapped after that check ran in its cycles (pilot red team 31,
    A1). The log says so (`ENVIRONMENT_MOVED`), so a resume after the swap was undone publishes
    nothing either (`_replay`). A swap undone before this check is not seen: the limit stated in
    docs/sandbox.md (the boundary is who may write provebench's installation)."""
    recorded = identity.get("isolation", {}).get(ENVIRONMENT_KEY)
    if not isinstance(recorded, str):
        return  # an in-process run: no sandbox, nothing recorded of the environment
    moved = environment_moved(recorded)
    if moved is None:
        return
    ledger.append_batch([(ENVIRONMENT_MOVED, {"said": moved})], anchor=keys.sign)
    raise ProvebenchError(
        f"provebench's environment changed while the run ran ({moved}); the run's cycles ran "
        "code its record would not name, so nothing of it is published — restore the "
        "environment and start the run again in a new folder",
        path=ledger.path,
        field=ENVIRONMENT_KEY,
    )


def _aligned_work(rundir: RunDir, work_sha256: str | None) -> WorkListing:
    """work/ as the next cycle must find it, from here on kept in memory: an empty folder for a
    new run (known without reading it), else read once just after `align_work_dir` found it to
    match the log's digest, and checked again against that digest."""
    if work_sha256 == EMPTY_WORK_SHA256:
        return ()
    listing = work_listing(rundir.work_dir)
    if listing_sha256(listing) != work_sha256:
        raise WorkChangedOutside(
            "work/ changed outside the laboratory while the run resumed; the run is stopped",
            path=rundir.work_dir,
        )
    return listing


def _replay(ledger: Ledger, identity: dict[str, Any], nonce: str) -> _ReplayState:
    """What the committed cycles left: their count, the confirmed ids, the register hash. The
    first entry must be this run's: its identity, and its nonce under this laboratory key."""
    state = _ReplayState()
    confirmed: set[str] = set()
    file_id_index = SCHEMA.importer_columns.index("file_id")
    for entry in ledger.entries():
        kind, payload = entry.kind, entry.payload
        if kind == "run_started" and (
            entry.seq != 0 or payload.get("identity") != identity or payload.get("nonce") != nonce
        ):
            raise ProvebenchError(
                "the ledger in this run directory was written by another run (or under "
                "another laboratory key)",
                path=ledger.path,
            )
        if kind == ENVIRONMENT_MOVED:
            raise ProvebenchError(
                "provebench's environment changed while this run ran "
                f"({payload.get('said')}); nothing of it is published — start the run again in "
                "a new folder",
                path=ledger.path,
                field=ENVIRONMENT_KEY,
            )
        if kind == "sheets.append" and payload.get("applied"):
            confirmed.update(row[file_id_index] for row in payload["rows"])
        elif kind == "agent_error":  # counted for the run's summary line, resumed or not
            state.note_agent_error(f"{payload.get('type')}: {payload.get('message')}")
        elif kind == "cycle_confirmed":
            state.committed = int(payload["cycle"])
            state.register_rows = int(payload["register_rows"])
            state.register_sha256 = str(payload["register_sha256"])
            work_sha256 = payload.get("work_sha256")
            state.work_sha256 = work_sha256 if isinstance(work_sha256, str) else None
    state.confirmed_ids = frozenset(confirmed)
    return state


class _CrashPlan:
    """Deterministic self-kill for the crash-safety tests: `PROVEBENCH_PILOT_CRASH_AT=POINT@CYCLE`
    with POINT one of before_commit, after_commit, after_snapshot, call:N (at the N-th gateway
    call of the cycle) or a publish step (cycle 0). Documented in docs/pilot-lab.md."""

    def __init__(self, point: str | None, cycle: int) -> None:
        self.point = point
        self.cycle = cycle

    @classmethod
    def from_env(cls) -> _CrashPlan:
        value = os.environ.get(CRASH_ENV, "")
        if not value:
            return cls(None, -1)
        point, _, cycle = value.rpartition("@")
        if not point or not cycle.isdigit():
            raise ProvebenchError(f"{CRASH_ENV} must be POINT@CYCLE, got {value!r}")
        return cls(point, int(cycle))

    def at(self, point: str, cycle: int = 0) -> None:
        if self.point == point and self.cycle == cycle:
            os.kill(os.getpid(), signal.SIGKILL)

    def call_hook(self, cycle: int) -> Callable[[int], None] | None:
        if self.point is None or not self.point.startswith("call:") or self.cycle != cycle:
            return None
        target = int(self.point.removeprefix("call:"))

        def hook(call: int) -> None:
            if call == target:
                os.kill(os.getpid(), signal.SIGKILL)

        return hook


__all__ = [
    "CRASH_ENV",
    "DEFAULT_CYCLE_TIMEOUT_SEC",
    "MAX_CYCLE_TIMEOUT_SEC",
    "LabCorpus",
    "RunOutcome",
    "RunProgress",
    "cycle_timeout",
    "describe_file",
    "execute_run",
    "open_corpus",
    "run_identity",
    "run_lab",
]
