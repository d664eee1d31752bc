"""Red team round 11, A19, A13 and A9 (docs/pilot-redteam.md): the evaluator checked one file and
judged another. It parsed run.json on one read and hashed it on a second; it verified the log on
one open and parsed it on another; it hashed register.csv and then scored it by path. Whoever
renamed a file into place between the two reads had the other file judged. The round's scripts
won that race with inotify; here the swap is made deterministically at the point between the
check and the old second read, so each test fails on an evaluator that reads twice."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench._read_once import read_once
from provebench.pilot.evaluate import _core, _inputs, evaluate_run
from provebench.pilot.lab import _runner
from provebench.pilot.record import _signing
from tests.helpers.pilot_evaluation import make_small_corpus, resign, run_agent


def _stopped_then_resumed(corpus: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    original = _runner.run_cycle

    def stopped(**arguments: object) -> object:
        if arguments["cycle"] == 2:
            raise KeyboardInterrupt  # stopped after a commit: the folder is kept, to resume
        return original(**arguments)  # type: ignore[arg-type]

    with monkeypatch.context() as patched:
        patched.setattr(_runner, "run_cycle", stopped)
        with pytest.raises(KeyboardInterrupt):
            run_agent(corpus, "reference", out)
    return run_agent(corpus, "reference", out)


def _rename_over(source: bytes, target: Path) -> None:
    staged = target.with_name(f".{target.name}.swap")
    staged.write_bytes(source)
    staged.replace(target)


def test_a19_run_json_is_hashed_from_the_bytes_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A resumed run's run.json with `resumed: false` parsed, the genuine one put back before
    the old second read hashed it for the signature check: judged uninterrupted (gate pass,
    escrow). Read once, the forged bytes are the ones checked against the signed digest."""
    corpus = make_small_corpus(tmp_path, seed=1)
    run = _stopped_then_resumed(corpus, tmp_path / "resumed", monkeypatch)
    genuine = (run / "run.json").read_bytes()
    assert genuine.count(b'"resumed": true') == 1
    _rename_over(genuine.replace(b'"resumed": true', b'"resumed": false'), run / "run.json")
    original = _inputs._check_run_files

    def put_back_then_check(inputs: Any, record: Any) -> None:
        _rename_over(genuine, run / "run.json")  # right after the parse
        original(inputs, record)

    monkeypatch.setattr(_inputs, "_check_run_files", put_back_then_check)
    verdict = evaluate_run(run, corpus)
    assert verdict.laboratory_pass is False
    assert verdict.escrow is None or verdict.escrow.released_total == 0.0
    codes = {(error.code, error.field) for error in verdict.configuration_errors}
    assert ("run_envelope_mismatch", "subject.run.json") in codes


def test_a13_the_log_parsed_is_the_log_hashed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another genuine log renamed over ledger.sqlite and ledger.jsonl after they were checked
    and before the old second open: the verdict was of the other log. Verified and parsed from
    the bytes read once and hashed, the swap changes nothing."""
    corpus = make_small_corpus(tmp_path, seed=1)
    run = run_agent(corpus, "reference", tmp_path / "run")
    other = run_agent(corpus, "noop", tmp_path / "other")
    honest = evaluate_run(run, corpus)
    assert honest.laboratory_pass is True
    original = _inputs.verify_ledger

    def swap_after_verifying(path: Path, **expected: Any) -> Any:
        report = original(path, **expected)  # the bytes read once (`data=`), not the path
        for name in ("ledger.sqlite", "ledger.jsonl"):
            _rename_over((other / name).read_bytes(), run / name)
        return report

    monkeypatch.setattr(_inputs, "verify_ledger", swap_after_verifying)
    swapped = evaluate_run(run, corpus)
    assert swapped.result_evidence == honest.result_evidence
    assert swapped.laboratory_pass is True and swapped.metrics == honest.metrics


def test_a13_parsed_entries_must_end_at_run_json_head(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the verifier reported, the entries parsed must end at run.json's head and
    length: a parser handed another log is a configuration error, never a judged run."""
    corpus = make_small_corpus(tmp_path, seed=1)
    run = run_agent(corpus, "reference", tmp_path / "run")
    other = run_agent(corpus, "noop", tmp_path / "other")
    real_open = _inputs.Ledger.from_bytes

    def open_the_other(data: bytes, path: Path) -> Any:
        return real_open((other / "ledger.sqlite").read_bytes(), path)

    monkeypatch.setattr(_inputs.Ledger, "from_bytes", staticmethod(open_the_other))
    verdict = evaluate_run(run, corpus)
    assert verdict.laboratory_pass is False
    assert any(
        error.code == "ledger_chain" and error.field == "ledger.head_hash"
        for error in verdict.configuration_errors
    )


def test_a9_the_register_scored_is_the_register_hashed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The corpus's expected rows renamed over a noop run's register.csv after the check and
    before scoring: the old scorer read them and gave the noop scorer_pass. Scored from the
    bytes read once and hashed, the noop fails as it does untouched."""
    corpus = make_small_corpus(tmp_path, seed=1)
    run = run_agent(corpus, "noop", tmp_path / "run")
    honest = evaluate_run(run, corpus)
    assert honest.scorer_pass is False
    original = _core.score_final_state

    def swap_then_score(expected: Any, candidate: Any, **options: Any) -> Any:
        _rename_over(expected.data, run / "register.csv")
        return original(expected, candidate, **options)

    monkeypatch.setattr(_core, "score_final_state", swap_then_score)
    swapped = evaluate_run(run, corpus)
    assert swapped.scorer_pass is False
    assert swapped.final_state == honest.final_state


def test_read_once_refuses_links_and_fifos(tmp_path: Path) -> None:
    target = tmp_path / "data.csv"
    target.write_bytes(b"a,b\n")
    held = read_once(target)
    assert held.data == b"a,b\n" and len(held.sha256) == 64
    (tmp_path / "link").symlink_to(target)
    os.mkfifo(tmp_path / "fifo")
    for name in ("link", "fifo"):
        with pytest.raises(ProvebenchError):
            read_once(tmp_path / name)
    with pytest.raises(ProvebenchError, match="larger than"):
        read_once(target, max_bytes=2)


def test_a19_resumed_is_a_signed_fact_and_a_run_signed_without_it_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run's signed predicate states `resumed`; a run signed before it did (the predicate
    without it) does not match its record and is refused, never read as uninterrupted."""
    corpus = make_small_corpus(tmp_path, seed=1)
    run = run_agent(corpus, "reference", tmp_path / "run")
    statement = json.loads((run / "run.dsse.json").read_text())["payload"]
    assert json.loads(base64.b64decode(statement))["predicate"]["resumed"] is False
    full = _signing.run_predicate

    def without_resumed(record: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in full(record).items() if k != "resumed"}

    with monkeypatch.context() as patched:
        patched.setattr(_signing, "run_predicate", without_resumed)
        resign(run)
    verdict = evaluate_run(run, corpus)
    assert verdict.laboratory_pass is False
    assert ("run_envelope_mismatch", "predicate.resumed") in {
        (error.code, error.field) for error in verdict.configuration_errors
    }


def test_a15_the_corpus_judged_by_is_the_corpus_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another corpus's drive_events.jsonl and expected rows renamed in after the manifest check
    and before the snapshot was read: the old evaluator built its snapshot from them. The
    evaluator judges only the bytes it read once and checked."""
    corpus = make_small_corpus(tmp_path, seed=1)
    other = make_small_corpus(tmp_path / "other", seed=2)
    run = run_agent(corpus, "reference", tmp_path / "run")
    honest = evaluate_run(run, corpus)
    assert honest.laboratory_pass is True
    original = _inputs.load_corpus

    def swap_after_checking(directory: Path, **options: Any) -> Any:
        loaded = original(directory, **options)
        for name in ("drive_events.jsonl", "expected_final_rows.csv"):
            _rename_over((other / name).read_bytes(), corpus / name)
        return loaded

    monkeypatch.setattr(_inputs, "load_corpus", swap_after_checking)
    swapped = evaluate_run(run, corpus)
    assert swapped.laboratory_pass is True
    assert swapped.metrics == honest.metrics and swapped.final_state == honest.final_state
