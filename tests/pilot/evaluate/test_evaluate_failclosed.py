"""Fail closed: every broken input is a configuration error (exit 2), never a vacuous pass."""

from __future__ import annotations

import csv
import json
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from provebench._canonical import canonical_json, sha256_file
from provebench._errors import ProvebenchError
from provebench.pilot.evaluate import Verdict, evaluate_run, exit_code
from tests.helpers.pilot_evaluation import make_small_corpus, rerecord, resign, run_agent
from tests.helpers.pilot_lab import run_cli


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("base")
    corpus = make_small_corpus(root, seed=3)
    return corpus, run_agent(corpus, "reference", root / "run")


@pytest.fixture
def copies(base: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    corpus, run = base
    shutil.copytree(corpus, tmp_path / "corpus")
    shutil.copytree(run, tmp_path / "run")
    return tmp_path / "corpus", tmp_path / "run"


def codes(verdict: Verdict) -> set[str]:
    return {error.code for error in verdict.configuration_errors}


def assert_fails_closed(verdict: Verdict, code: str) -> None:
    assert code in codes(verdict), codes(verdict)
    assert verdict.status == "configuration_error"
    assert verdict.scorer_pass is False and verdict.laboratory_pass is False
    assert verdict.pilot_pass is None
    assert exit_code(verdict) == 2


def rewrite_corpus_file(corpus: Path, name: str, text: str, **counts: int) -> None:
    (corpus / name).write_text(text, encoding="utf-8")
    info = json.loads((corpus / "corpus.json").read_text())
    info["counts"].update(counts)
    (corpus / "corpus.json").write_text(canonical_json(info), encoding="utf-8")
    manifest = json.loads((corpus / "manifest.json").read_text())
    for changed in (name, "corpus.json"):
        manifest["sha256"][changed] = sha256_file(corpus / changed)
    (corpus / "manifest.json").write_text(canonical_json(manifest), encoding="utf-8")


def test_the_intact_copy_passes(copies: tuple[Path, Path]) -> None:
    corpus, run = copies
    assert exit_code(evaluate_run(run, corpus)) == 0  # the baseline the cases below break


def test_empty_expected_set(copies: tuple[Path, Path], tmp_path: Path) -> None:
    corpus, _ = copies
    header = (corpus / "expected_final_rows.csv").read_text().splitlines()[0] + "\n"
    rewrite_corpus_file(corpus, "expected_final_rows.csv", header, expected_rows=0)
    run = run_agent(corpus, "reference", tmp_path / "run-empty")
    verdict = evaluate_run(run, corpus)
    assert_fails_closed(verdict, "expected_set_empty")
    assert verdict.metrics is None and verdict.perf_shadow is None


@pytest.mark.parametrize("kind", ["duplicate", "empty"])
def test_bad_file_ids_in_the_expected_set(
    copies: tuple[Path, Path], tmp_path: Path, kind: str
) -> None:
    corpus, _ = copies
    lines = (corpus / "expected_final_rows.csv").read_text().splitlines(keepends=True)
    if kind == "duplicate":
        lines[2] = lines[1]
    else:
        lines[1] = "," + lines[1].split(",", 1)[1]
    rewrite_corpus_file(corpus, "expected_final_rows.csv", "".join(lines))
    run = run_agent(corpus, "reference", tmp_path / f"run-{kind}")
    verdict = evaluate_run(run, corpus)
    # The corpus loader refuses such an expected set before the evaluator's own check does.
    assert_fails_closed(verdict, "corpus_invalid")
    (error,) = verdict.configuration_errors
    assert "expected_final_rows.csv" in error.message and "file_id" in error.message


def test_ledger_chain_that_does_not_verify(copies: tuple[Path, Path]) -> None:
    corpus, run = copies
    lines = (run / "ledger.jsonl").read_text().splitlines(keepends=True)
    edited = next(i for i, line in enumerate(lines) if '"kind":"fault_injected"' in line)
    lines[edited] = lines[edited].replace('"fault":"', '"fault":"no_', 1)  # an error rewritten
    (run / "ledger.jsonl").write_text("".join(lines))
    rerecord(run, "ledger.jsonl")  # the attacker also fixes run.json
    verdict = evaluate_run(run, corpus)
    assert_fails_closed(verdict, "ledger_chain")
    assert "evaluator_log_modification" in {v.kind for v in verdict.critical_violations}


def test_register_that_does_not_match_the_log(copies: tuple[Path, Path]) -> None:
    corpus, run = copies
    lines = (run / "register.csv").read_text().splitlines(keepends=True)
    (run / "register.csv").write_text("".join(lines[:-1]))  # one confirmed row dropped
    rerecord(run, "register.csv")
    verdict = evaluate_run(run, corpus)
    assert_fails_closed(verdict, "register_log_register_csv")
    stops = {s.name: s.status for s in verdict.stopping_conditions}
    assert stops["snapshot_discrepancy"] == "triggered"


@pytest.mark.parametrize("name", ["register.csv", "diagnostics.jsonl", "ledger.sqlite"])
def test_a_run_file_with_another_sha256(copies: tuple[Path, Path], name: str) -> None:
    corpus, run = copies
    with (run / name).open("ab") as handle:
        handle.write(b"\n")
    assert_fails_closed(evaluate_run(run, corpus), "file_altered")


def test_a_file_the_lab_did_not_record(copies: tuple[Path, Path]) -> None:
    corpus, run = copies
    (run / "extra_rows.csv").write_text("file_id\n")
    assert_fails_closed(evaluate_run(run, corpus), "file_unrecorded")


def _socket(path: Path) -> None:
    os.mknod(path, stat.S_IFSOCK | 0o600)  # no bind: a socket path may exceed AF_UNIX's limit


# Entries that are not regular files, made in a run folder. A FIFO must be reported without
# being opened: opening one blocks until a writer comes, hence the timeout on the test.
NOT_REGULAR: dict[str, tuple[str, Callable[[Path], None]]] = {
    "a FIFO": ("work/pipe", os.mkfifo),
    "a hidden FIFO": (".pipe", os.mkfifo),
    "a FIFO as SQLite's -wal": ("ledger.sqlite-wal", os.mkfifo),
    "a FIFO as SQLite's -shm": ("ledger.sqlite-shm", os.mkfifo),
    "a socket": ("work/socket", _socket),
    "a link to a file": ("work/link", lambda path: path.symlink_to("/etc/hostname")),
    "a link to a folder": ("work/link", lambda path: path.symlink_to("/tmp")),
    "a dangling link": ("work/link", lambda path: path.symlink_to("/nonexistent")),
}


@pytest.mark.timeout(30)
@pytest.mark.parametrize("case", sorted(NOT_REGULAR))
def test_an_entry_that_is_not_a_regular_file_is_unrecorded(
    copies: tuple[Path, Path], case: str
) -> None:
    """The lab publishes regular files only: anything else in the run folder is reported by
    what it is (lstat), whatever its name, and never opened (pilot §15)."""
    corpus, run = copies
    name, make = NOT_REGULAR[case]
    make(run / name)
    verdict = evaluate_run(run, corpus)
    assert_fails_closed(verdict, "file_unrecorded")
    [error] = [e for e in verdict.configuration_errors if e.code == "file_unrecorded"]
    assert error.path == name and "in the run folder" in error.message


@pytest.mark.timeout(30)
@pytest.mark.parametrize("name", ["diagnostics.jsonl", "ledger.jsonl", "register.csv"])
def test_a_recorded_file_replaced_by_a_fifo_is_altered_and_not_opened(
    copies: tuple[Path, Path], name: str
) -> None:
    corpus, run = copies
    (run / name).unlink()
    os.mkfifo(run / name)
    verdict = evaluate_run(run, corpus)
    assert_fails_closed(verdict, "file_altered")
    [error] = verdict.configuration_errors
    assert error.path == name and error.message.startswith("a FIFO, not the regular file")


@pytest.mark.timeout(30)
@pytest.mark.parametrize("kind", ["a FIFO", "a symbolic link"])
def test_a_run_record_that_is_not_a_regular_file_is_invalid_not_missing(
    copies: tuple[Path, Path], kind: str
) -> None:
    corpus, run = copies
    record = run / "run.json"
    kept = record.read_bytes()
    record.unlink()
    if kind == "a FIFO":
        os.mkfifo(record)  # never opened: reading it would wait for a writer
    else:
        (run / "elsewhere.json").write_bytes(kept)
        record.symlink_to(run / "elsewhere.json")  # never followed
    verdict = evaluate_run(run, corpus)
    assert_fails_closed(verdict, "run_record_invalid")
    [error] = [e for e in verdict.configuration_errors if e.code == "run_record_invalid"]
    assert error.message == f"run.json is {kind}, not a regular file"


def test_the_report_beside_the_verdict_is_no_fault(copies: tuple[Path, Path]) -> None:
    # `provebench report RUNDIR/verdict.json` writes RUNDIR/report.html by default; the run
    # must evaluate the same afterwards. The same name anywhere else in the run is still refused.
    from provebench.pilot.evaluate._rules import REPORT_FILE
    from provebench.report import REPORT_NAME

    assert REPORT_FILE == REPORT_NAME
    corpus, run = copies
    before = evaluate_run(run, corpus)
    (run / REPORT_FILE).write_text("<!doctype html>\n")
    after = evaluate_run(run, corpus)
    assert after.status == before.status != "configuration_error"
    assert after.scorer_pass == before.scorer_pass
    (run / "work" / REPORT_FILE).write_text("<!doctype html>\n")
    assert_fails_closed(evaluate_run(run, corpus), "file_unrecorded")


def test_incomplete_run_without_run_json(copies: tuple[Path, Path]) -> None:
    corpus, run = copies
    (run / "run.json").unlink()
    verdict = evaluate_run(run, corpus)
    assert_fails_closed(verdict, "incomplete_run")
    assert verdict.metrics is None


def _set(*keys: str, to: object) -> Callable[[dict[str, Any]], None]:
    """An edit of run.json at a path of keys (`to=DELETE` removes the last one)."""

    def edit(record: dict[str, Any]) -> None:
        *parents, last = keys
        for key in parents:
            record = record[key]
        if to is DELETE:
            del record[last]
        else:
            record[last] = to

    return edit


DELETE = object()
RECORD_EDITS = {
    "unknown format": (
        _set("format", to="provebench.pilot.run/99"),
        "run_record_invalid",
        "format",
    ),
    "no format": (_set("format", to=DELETE), "run_record_invalid", "format"),
    "not complete": (_set("complete", to=False), "incomplete_run", "complete"),
    "negative cycles": (_set("cycles", to=-5), "run_record_invalid", "cycles"),
    "fewer cycles than the corpus": (_set("cycles", to=1), "incomplete_run", "cycles"),
    "length as text": (_set("ledger", "length", to="5"), "run_record_invalid", "ledger.length"),
    "no head hash": (
        _set("ledger", "head_hash", to=None),
        "run_record_invalid",
        "ledger.head_hash",
    ),
    "a bool for a count": (
        _set("register", "rows", to=True),
        "run_record_invalid",
        "register.rows",
    ),
    "an unknown key": (_set("verified", to=True), "run_record_invalid", "verified"),
    "a file outside the run": (
        _set("files_sha256", "../x", to="0" * 64),
        "run_record_invalid",
        "files_sha256",
    ),
    "the register unrecorded": (
        _set("files_sha256", "register.csv", to=DELETE),
        "run_record_invalid",
        "files_sha256",
    ),
    # The agent's identity: the runner loads no importer without a name and a version.
    "an empty agent name": (_set("agent", "name", to=""), "run_record_invalid", "agent.name"),
    "an empty agent version": (
        _set("agent", "version", to=""),
        "run_record_invalid",
        "agent.version",
    ),
    "an empty agent spec": (_set("agent", "spec", to=""), "run_record_invalid", "agent.spec"),
    # Non-scoring, but copied into the verdict: counts are counts, the wall time a number >= 0.
    "a negative api_calls": (
        _set("non_scoring", "api_calls", to=-5),
        "run_record_invalid",
        "non_scoring.api_calls",
    ),
    "api_calls as text": (
        _set("non_scoring", "api_calls", to="lots"),
        "run_record_invalid",
        "non_scoring.api_calls",
    ),
    "a bool for retries": (
        _set("non_scoring", "retries", to=True),
        "run_record_invalid",
        "non_scoring.retries",
    ),
    "a negative count by kind": (
        _set("non_scoring", "entries_by_kind", "refused", to=-1),
        "run_record_invalid",
        "non_scoring.entries_by_kind.refused",
    ),
    "a negative wall time": (
        _set("non_scoring", "wall_time_sec", to=-0.5),
        "run_record_invalid",
        "non_scoring.wall_time_sec",
    ),
    "the wall time as text": (
        _set("non_scoring", "wall_time_sec", to="1s"),
        "run_record_invalid",
        "non_scoring.wall_time_sec",
    ),
    "resumed as a count": (
        _set("non_scoring", "resumed", to=0),
        "run_record_invalid",
        "non_scoring.resumed",
    ),
    "an unknown non-scoring key": (
        _set("non_scoring", "score", to=1.0),
        "run_record_invalid",
        "non_scoring.score",
    ),
    "no api_calls": (
        _set("non_scoring", "api_calls", to=DELETE),
        "run_record_invalid",
        "non_scoring.api_calls",
    ),
}


@pytest.mark.parametrize("case", sorted(RECORD_EDITS))
def test_a_run_record_that_is_not_strictly_valid_is_not_evaluated(
    copies: tuple[Path, Path], case: str
) -> None:
    """run.json is checked strictly before it is used: format, types, ranges, completeness."""
    corpus, run = copies
    edit, code, field = RECORD_EDITS[case]
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    edit(record)
    (run / "run.json").write_text(canonical_json(record), encoding="utf-8")
    verdict = evaluate_run(run, corpus)
    assert_fails_closed(verdict, code)
    assert verdict.metrics is None and verdict.result_evidence is None
    [error] = verdict.configuration_errors
    assert (error.path, error.field) == ("run.json", field), error


# run.json edits that keep it strictly valid but name another run than the log's run_started
# entry does (pilot §9): (the edit, the field reported).
IDENTITY_EDITS = {
    "another agent": (
        _set(
            "agent",
            to={"spec": "x.py:Mine", "name": "mine", "version": "9", "code_sha256": "1" * 64},
        ),
        "agent.code_sha256",
    ),
    "another agent version": (_set("agent", "version", to="9"), "agent.version"),
    "another seed": (_set("corpus", "seed", to=99), "corpus.seed"),
    "another profile": (_set("corpus", "profile", to="control"), "corpus.profile"),
    "another corpus file": (
        _set("corpus", "files_sha256", "drive_events.jsonl", to="0" * 64),
        "corpus.files_sha256.drive_events.jsonl",
    ),
    "another grammar": (
        _set("rule_versions", "grammar", to="call-name-grammar/9"),
        "rule_versions.grammar",
    ),
    "a rule version left out": (_set("rule_versions", "tzdata", to=DELETE), "rule_versions.tzdata"),
}


@pytest.mark.parametrize("case", sorted(IDENTITY_EDITS))
def test_a_run_record_naming_another_run_than_the_log_is_refused(
    copies: tuple[Path, Path], case: str
) -> None:
    """The log's run_started entry (seq 0, hash-chained) says who was run on what; run.json is
    not chained. The verdict's evidence comes from the log, and a record that differs is a
    configuration error naming the first differing field."""
    corpus, run = copies
    edit, field = IDENTITY_EDITS[case]
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    logged = json.loads(json.dumps({key: record[key] for key in ("agent", "corpus")}))
    edit(record)
    (run / "run.json").write_text(canonical_json(record), encoding="utf-8")
    unsigned = evaluate_run(run, corpus)
    assert {e.code for e in unsigned.configuration_errors} == {
        "run_identity_mismatch",
        "run_envelope_mismatch",
    }
    resign(run)  # even signed by the laboratory, run.json must name the log's run
    verdict = evaluate_run(run, corpus)
    assert_fails_closed(verdict, "run_identity_mismatch")
    [error] = verdict.configuration_errors
    assert (error.code, error.path, error.field) == ("run_identity_mismatch", "run.json", field)
    assert "the log's run_started entry (seq 0)" in error.message
    evidence = verdict.result_evidence
    assert evidence is not None and evidence.agent == logged["agent"]
    assert evidence.corpus["seed"] == logged["corpus"]["seed"]
    assert evidence.rule_versions["grammar"] == "call-name-grammar/1"


def test_a_run_under_other_rule_versions_is_refused(
    copies: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log's rule versions (run.json says the same) are not the ones this evaluator
    applies: a configuration error naming run.json's field."""
    from provebench.pilot.evaluate import _core
    from provebench.pilot.rules._versions import rule_versions

    corpus, run = copies
    newer = rule_versions().model_copy(update={"grammar": "call-name-grammar/2"})
    monkeypatch.setattr(_core, "rule_versions", lambda: newer)
    verdict = evaluate_run(run, corpus)
    assert_fails_closed(verdict, "rule_versions")
    [error] = verdict.configuration_errors
    assert (error.path, error.field) == ("run.json", "rule_versions")
    assert verdict.result_evidence is not None
    assert verdict.result_evidence.grammar_version == "call-name-grammar/1"  # the run's, logged


def test_another_agent_in_run_json_fails_on_the_command_line(copies: tuple[Path, Path]) -> None:
    corpus, run = copies
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    record["agent"] = {"spec": "x.py:Mine", "name": "mine", "version": "9", "code_sha256": "1" * 64}
    record["corpus"]["seed"] = 99
    (run / "run.json").write_text(canonical_json(record), encoding="utf-8")
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus))
    assert result.returncode == 2, result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith(f"provebench: configuration error: {run}/run.json: agent.code_sha256: ")
    # The two differing keys, and run.json no longer being the file the laboratory signed.
    assert line.endswith(f"[run_identity_mismatch] (and 2 more; see {run}/verdict.json)")
    verdict = json.loads((run / "verdict.json").read_text())
    assert verdict["laboratory_pass"] is False
    assert verdict["result_evidence"]["agent"]["name"] == "reference"


def test_corpus_whose_manifest_does_not_verify(copies: tuple[Path, Path]) -> None:
    corpus, run = copies
    with (corpus / "expected_final_rows.csv").open("a") as handle:
        handle.write("x,1,2,3,4,5,6,7,8\n")
    assert_fails_closed(evaluate_run(run, corpus), "corpus_invalid")


def test_expected_rows_that_are_not_utf8_are_one_line_naming_file_and_line(
    copies: tuple[Path, Path],
) -> None:
    corpus, run = copies
    path = corpus / "expected_final_rows.csv"
    lines = path.read_bytes().split(b"\n")
    lines[2] = b"\xff" + lines[2]
    path.write_bytes(b"\n".join(lines))
    manifest = json.loads((corpus / "manifest.json").read_text())
    manifest["sha256"]["expected_final_rows.csv"] = sha256_file(path)
    (corpus / "manifest.json").write_text(canonical_json(manifest), encoding="utf-8")
    assert_fails_closed(evaluate_run(run, corpus), "corpus_invalid")
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus))
    assert result.returncode == 2, result.stderr
    [line] = result.stderr.strip().splitlines()
    assert "expected_final_rows.csv:3" in line and "not valid UTF-8" in line


def test_a_corpus_error_line_names_file_line_field_once(copies: tuple[Path, Path]) -> None:
    """The CLI's one line reads `FILE:LINE: FIELD: message`, as every provebench error: the
    corpus loader's location is not preceded by its field a second time."""
    corpus, run = copies
    path = corpus / "expected_final_rows.csv"
    header, rest = path.read_text(encoding="utf-8").split("\n", 1)
    rewrite_corpus_file(corpus, "expected_final_rows.csv", f"bogus,{header}\n{rest}")
    verdict = evaluate_run(run, corpus)
    assert_fails_closed(verdict, "corpus_invalid")
    [error] = verdict.configuration_errors
    assert (error.path, error.field) == (None, "header")
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus))
    assert result.returncode == 2, result.stderr
    [line] = result.stderr.splitlines()
    prefix = f"provebench: configuration error: {path}:1: header: header must be file_id,"
    assert line.startswith(prefix) and line.endswith(" [corpus_invalid]"), line
    assert line.count("header:") == 1


def test_a_run_record_field_error_line_names_run_json(
    copies: tuple[Path, Path], tmp_path: Path
) -> None:
    """An error about a field of run.json names run.json before the field (pilot CLI line)."""
    _, run = copies
    other = make_small_corpus(tmp_path, seed=9)
    verdict = evaluate_run(run, other)
    [error] = verdict.configuration_errors
    assert (error.code, error.path, error.field) == (
        "corpus_mismatch",
        "run.json",
        "corpus.manifest_sha256",
    )
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(other))
    assert result.returncode == 2, result.stderr
    [line] = result.stderr.splitlines()
    expected = f"provebench: configuration error: {run}/run.json: corpus.manifest_sha256: the run"
    assert line.startswith(expected), line
    explained = run_cli("pilot", "evaluate", str(run), "--corpus", str(other), "--explain")
    assert "[corpus_mismatch] run.json: corpus.manifest_sha256: the run" in explained.stdout


def test_another_corpus_than_the_run_was_made_on(copies: tuple[Path, Path], tmp_path: Path) -> None:
    _, run = copies
    other = make_small_corpus(tmp_path, seed=9)
    assert_fails_closed(evaluate_run(run, other), "corpus_mismatch")


def test_unreadable_input_is_one_line_and_exit_2(copies: tuple[Path, Path], tmp_path: Path) -> None:
    corpus, run = copies
    with pytest.raises(ProvebenchError):
        evaluate_run(tmp_path / "missing", corpus)
    (run / "run.json").write_text("{not json")
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "run.json" in result.stderr
    assert not (run / "verdict.json").exists()


def test_cli_writes_the_verdict_for_a_configuration_error(copies: tuple[Path, Path]) -> None:
    corpus, run = copies
    with (run / "register.csv").open("a", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerow(["x"] * 9)
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus))
    assert result.returncode == 2
    verdict = json.loads((run / "verdict.json").read_text())
    assert verdict["status"] == "configuration_error" and verdict["scorer_pass"] is False


def test_deleted_log_entry_is_named_without_a_fake_hash(copies: tuple[Path, Path]) -> None:
    corpus, run = copies
    lines = (run / "ledger.jsonl").read_text().splitlines(keepends=True)
    del lines[len(lines) // 2]  # an entry removed from the middle of the export
    (run / "ledger.jsonl").write_text("".join(lines))
    rerecord(run, "ledger.jsonl")
    verdict = evaluate_run(run, corpus)
    assert_fails_closed(verdict, "ledger_chain")
    log_refs = [
        ref
        for violation in verdict.critical_violations
        if violation.kind == "evaluator_log_modification"
        for ref in violation.evidence
        if ref.kind.startswith("ledger_problem:")
    ]
    assert log_refs
    # An evidence hash is an entry hash or nothing — never a seq number or a count.
    assert all(ref.hash == "" or len(ref.hash) == 64 for ref in log_refs)


def test_the_importers_own_files_are_hashed_never_read(copies: tuple[Path, Path]) -> None:
    """diagnostics.jsonl is the importer's account (pilot §7, §9: never evidence). The
    evaluator does not read it: junk in it, with run.json re-recorded, changes no score, and
    the verdict's evidence names the bytes it was given. (work/, the importer's state, is not
    read either, but it must be the folder the log's last commit recorded: `work_mismatch`,
    tests/pilot/evaluate/test_signed_foreign_bytes.py.)"""
    corpus, run = copies
    before = evaluate_run(run, corpus)
    with (run / "diagnostics.jsonl").open("a", encoding="utf-8") as handle:
        handle.write('{"claim": "all 10000 files imported"}\nnot json at all\n')
    rerecord(run, "diagnostics.jsonl")
    # Re-recorded by someone without the key: run.json is no longer the signed one.
    [error] = evaluate_run(run, corpus).configuration_errors
    assert (error.code, error.path) == ("run_envelope_mismatch", "run.dsse.json")
    resign(run)
    after = evaluate_run(run, corpus)
    assert exit_code(after) == 0
    assert before.result_evidence is not None and after.result_evidence is not None
    hashes = after.result_evidence.inputs_sha256
    for name in ("diagnostics.jsonl",):
        assert hashes[f"run/{name}"] == sha256_file(run / name)
        assert hashes[f"run/{name}"] != before.result_evidence.inputs_sha256[f"run/{name}"]
    hashes_only = {"result_evidence"}
    assert after.model_dump(exclude=hashes_only) == before.model_dump(exclude=hashes_only)


def test_evaluating_a_copied_run_writes_nothing_into_it(copies: tuple[Path, Path]) -> None:
    """A run folder copied without SQLite's -wal/-shm (an archive, a read-only share) is read
    as it is: nothing is created beside ledger.sqlite, so a read-only folder works too."""
    corpus, run = copies
    for companion in run.glob("ledger.sqlite-*"):
        companion.unlink()
    before = sorted(p.relative_to(run).as_posix() for p in run.rglob("*"))
    assert exit_code(evaluate_run(run, corpus)) == 0
    assert sorted(p.relative_to(run).as_posix() for p in run.rglob("*")) == before
