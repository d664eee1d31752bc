"""Red team round 12, A1, A2, A3, A4, A6 and A12 (docs/pilot-redteam.md): a process of the
operator's own user renamed other bytes over the evaluator's "private" copies (a 0700 folder
only stops other users) while `pilot evaluate` ran — a register or the corpus's expected rows
before the scorer re-read them by path, a log with payloads edited in place (hash columns kept)
between its verification and its parse — and bought a signed `scorer_pass`, `laboratory_pass`,
escrow and fresh-control credit. The evaluator now reads each input once into memory and
verifies, parses and scores only those bytes. Here each swap is made at the point the racer
acted — right after the evaluator's read of the file — and the verdict must be the one the
untouched run gets; a log forged in place is refused even when it is the file read."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from provebench import _read_once
from provebench._errors import ProvebenchError
from provebench.ledger import Ledger, check_anchors, verify_ledger
from provebench.ledger._entry import LedgerEntry
from provebench.pilot.corpus import _folder
from provebench.pilot.evaluate import _inputs, evaluate_run
from provebench.pilot.evaluate._log import FILE_ID_INDEX, read_log
from provebench.pilot.evaluate._rules import IN_DOUBT_ERROR_CODES, IN_DOUBT_FAULT_KINDS
from provebench.pilot.evaluate._violations import blind_retry_violations
from provebench.pilot.lab._errors import TEMPORARY_ERRORS
from provebench.pilot.rules import REGISTER_COLUMNS
from provebench.pilot.score_final import score_final_state
from provebench.pilot.score_final._score import HeldCsv
from tests.helpers.pilot_evaluation import make_small_corpus, rerecord, resign, run_agent

Edit = Callable[[str, dict[str, Any]], dict[str, Any] | None]


def _rename_over(data: bytes, target: Path) -> None:
    staged = target.with_name(f".{target.name}.swap")
    staged.write_bytes(data)
    staged.replace(target)


def _swap_after_each_read(monkeypatch: pytest.MonkeyPatch, swaps: dict[Path, bytes]) -> list[Path]:
    """Right after the evaluator reads a file named in `swaps`, rename those bytes over it (the
    racer's moment: after the read, before any second read by path). Returns the files swapped,
    so a test can show the swap happened."""
    original = _read_once.read_once
    swapped: list[Path] = []

    def read_then_swap(path: Path, **options: Any) -> Any:
        held = original(path, **options)
        forged = swaps.get(Path(path))
        if forged is not None and Path(path) not in swapped:
            _rename_over(forged, Path(path))
            swapped.append(Path(path))
        return held

    monkeypatch.setattr(_inputs, "read_once", read_then_swap)
    monkeypatch.setattr(_folder, "read_once", read_then_swap)
    return swapped


def _forge_in_place(run: Path, out: Path, edit: Edit) -> int:
    """The red team's forge_log.py method, offline and without the key: a copy of the run's log
    with entry payloads edited in place, every stored prev_hash and hash kept (so the length,
    the head and every anchor's stored inputs are unchanged), and a matching ledger.jsonl."""
    out.mkdir(parents=True)
    database = out / "ledger.sqlite"
    shutil.copyfile(run / "ledger.sqlite", database)
    connection = sqlite3.connect(database)
    trigger = connection.execute(
        "SELECT sql FROM sqlite_master WHERE name = 'entries_no_update'"
    ).fetchone()[0]
    connection.execute("DROP TRIGGER entries_no_update")
    edits = 0
    for seq, kind, text in connection.execute(
        "SELECT seq, kind, payload FROM entries ORDER BY seq"
    ).fetchall():
        changed = edit(kind, json.loads(text))
        if changed is not None:
            compact = json.dumps(changed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            connection.execute("UPDATE entries SET payload = ? WHERE seq = ?", (compact, seq))
            edits += 1
    connection.execute(trigger)
    connection.commit()
    connection.close()
    # The export is written from the stored rows as they are (what forge_log.py does).
    with sqlite3.connect(database) as reader, (out / "ledger.jsonl").open("w") as export:
        for seq, kind, text, prev_hash, entry_hash in reader.execute(
            "SELECT seq, kind, payload, prev_hash, hash FROM entries ORDER BY seq"
        ):
            entry = LedgerEntry(
                seq=seq, kind=kind, payload=json.loads(text), prev_hash=prev_hash, hash=entry_hash
            )
            export.write(entry.export_line() + "\n")
    return edits


def _probe_id(kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    """forge_log.py `status-probe`: StatusProbeOnRealFile's refused writes on real files
    relabelled as writes on the reserved probe id."""
    arguments = payload.get("arguments")
    if kind != "refused" or payload.get("operation") != "sheets.set_status":
        return None
    if not isinstance(arguments, dict) or arguments.get("file_id") == "provebench:self-check":
        return None
    return {**payload, "arguments": {**arguments, "file_id": "provebench:self-check"}}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_corpus(tmp_path_factory.mktemp("corpus"), seed=1)


@pytest.fixture(scope="module")
def probe_run(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A defective importer's run (writes to the register's status column, then claims the
    probe) and its log forged in place to hide it (`forged/`)."""
    base = tmp_path_factory.mktemp("probe")
    run = run_agent(corpus, "StatusProbeOnRealFile", base / "run")
    assert _forge_in_place(run, base / "forged", _probe_id) > 0
    return run


def test_a1_a_register_swapped_after_the_read_is_not_what_is_scored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A1: a noop run's register.csv replaced by the corpus's expected rows right after it was
    read: the old evaluator's scorer re-read it by path and signed scorer_pass, completeness
    1.0. The bytes scored are the bytes read and hashed: the verdict is the untouched one."""
    corpus = make_small_corpus(tmp_path, seed=1)
    run = run_agent(corpus, "noop", tmp_path / "run")
    honest = evaluate_run(run, corpus)
    assert honest.scorer_pass is False
    expected = (corpus / "expected_final_rows.csv").read_bytes()
    swapped = _swap_after_each_read(monkeypatch, {run / "register.csv": expected})
    raced = evaluate_run(run, corpus)
    assert swapped == [run / "register.csv"]
    assert (run / "register.csv").read_bytes() == expected  # the swap did happen
    assert raced.model_dump() == honest.model_dump()


def test_a6_expected_rows_swapped_after_the_read_are_not_what_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A6: ImportsFirstN's own register renamed over the corpus's expected rows right after the
    evaluator read them: the snapshot and the scorer re-read them by path, unhashed, and gave
    scorer_pass with every metric 1.0. Judged from the bytes read once and checked against the
    manifest, the verdict is the untouched one."""
    corpus = make_small_corpus(tmp_path, seed=1)
    run = run_agent(corpus, "ImportsFirstN", tmp_path / "run")
    honest = evaluate_run(run, corpus)
    assert honest.scorer_pass is False
    target = corpus / "expected_final_rows.csv"
    swapped = _swap_after_each_read(monkeypatch, {target: (run / "register.csv").read_bytes()})
    raced = evaluate_run(run, corpus)
    assert swapped == [target]
    assert raced.model_dump() == honest.model_dump()


def test_a2_a4_a12_a_log_swapped_after_the_read_is_not_what_is_parsed(
    probe_run: Path, corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A2/A4/A12: the forged log renamed over ledger.sqlite and ledger.jsonl right after they
    were read: the old evaluator verified one copy and parsed the other, and signed
    laboratory_pass, escrow, a fresh-control credit and (with a genuine red-team report)
    pilot_pass. Verified and parsed from the bytes read once, the verdict is the untouched one,
    and `inputs_sha256` names the bytes judged."""
    honest = evaluate_run(probe_run, corpus)
    assert honest.laboratory_pass is False and honest.critical_violation_count > 0
    forged = probe_run.parent / "forged"
    swaps = {
        probe_run / name: (forged / name).read_bytes() for name in ("ledger.sqlite", "ledger.jsonl")
    }
    genuine = {path: path.read_bytes() for path in swaps}
    try:
        swapped = _swap_after_each_read(monkeypatch, swaps)
        raced = evaluate_run(probe_run, corpus)
    finally:
        for path, data in genuine.items():  # the module's run is shared
            _rename_over(data, path)
    assert sorted(swapped) == sorted(swaps)
    assert raced.model_dump() == honest.model_dump()


def test_a_log_forged_in_place_is_refused_even_when_it_is_the_file_read(
    probe_run: Path, corpus: Path, tmp_path: Path
) -> None:
    """The forged log put in the run folder, its digests recorded in run.json and the run
    signed again (what the laboratory operator alone could do): every row still holds its
    stored hash, the length and head are unchanged, and every anchor's stored inputs too —
    only re-hashing each row shows the edit. The log is refused (`ledger_chain`), the anchors
    fail against the recomputed chain, and nothing passes."""
    run = tmp_path / "run"
    shutil.copytree(probe_run, run)
    for name in ("ledger.sqlite", "ledger.jsonl"):
        shutil.copyfile(probe_run.parent / "forged" / name, run / name)
    rerecord(run, "ledger.sqlite", "ledger.jsonl")
    resign(run)
    verdict = evaluate_run(run, corpus)
    codes = {error.code for error in verdict.configuration_errors}
    assert "ledger_chain" in codes and "log_anchor" in codes
    assert verdict.laboratory_pass is False and verdict.scorer_pass is False


def test_chained_entries_and_anchors_recompute_every_hash(probe_run: Path) -> None:
    """The parse itself re-hashes and links (`Ledger.chained_entries`), and keyed anchors are
    checked against recomputed hashes (`check_anchors`): a forged row fails both, whatever its
    stored prev_hash and hash columns say; an intact log parses to the stored entries."""
    data = (probe_run.parent / "forged" / "ledger.sqlite").read_bytes()
    with Ledger.from_bytes(data, "forged.sqlite") as ledger:
        with pytest.raises(ProvebenchError, match="does not hash"):
            list(ledger.chained_entries())
        broken: list[int] = []
        entries = list(ledger.chained_entries(broken))
        rows = list(ledger.linked_rows())
    assert broken and len(entries) == len(rows)
    anchors = check_anchors(rows, lambda message, anchor: True)  # every signature accepted
    assert anchors.problems and anchors.problems[0][0] == broken[0]
    genuine = (probe_run / "ledger.sqlite").read_bytes()
    with Ledger.from_bytes(genuine, "genuine.sqlite") as ledger:
        assert list(ledger.chained_entries()) == list(ledger.entries())
        assert not check_anchors(ledger.linked_rows(), lambda message, anchor: True).problems


def test_verify_ledger_checks_the_bytes_given_not_the_path(probe_run: Path, tmp_path: Path) -> None:
    """With `data`, `verify_ledger` opens nothing: the path only names the bytes."""
    absent = tmp_path / "absent.sqlite"
    for name in ("ledger.sqlite", "ledger.jsonl"):
        assert verify_ledger(absent, data=(probe_run / name).read_bytes()).ok
        forged = verify_ledger(absent, data=(probe_run.parent / "forged" / name).read_bytes())
        assert not forged.ok
        assert {problem.kind for problem in forged.problems} == {"edited"}


def test_the_scorer_scores_held_bytes_as_it_scores_the_file(probe_run: Path, corpus: Path) -> None:
    """`score_final_state` on held bytes gives the document the file-path API gives (the
    `score-final` command keeps reading its two files once each)."""
    expected, register = corpus / "expected_final_rows.csv", probe_run / "register.csv"
    held = score_final_state(
        HeldCsv(str(expected), expected.read_bytes()),
        HeldCsv(str(register), register.read_bytes()),
    )
    assert held.to_json() == score_final_state(expected, register).to_json()


# -- A3: a blind retry is judged by what the laboratory injected ---------------------------------


def _row(file_id: str) -> list[str]:
    row = [""] * len(REGISTER_COLUMNS)
    row[FILE_ID_INDEX] = file_id
    return row


def _cycle_log(fault: str, code: str) -> list[LedgerEntry]:
    rows = [_row("a")]
    items: list[tuple[str, dict[str, Any]]] = [
        ("cycle_started", {"cycle": 1}),
        (
            "fault_injected",
            {"call": 1, "operation": "sheets.append", "fault": fault, "file_id": "a"},
        ),
        (
            "sheets.append",
            {"call": 1, "rows": rows, "applied": False, "error": {"code": code, "message": code}},
        ),
        ("sheets.append", {"call": 2, "rows": rows, "applied": True, "result": {"appended": 1}}),
        ("cycle_confirmed", {"cycle": 1}),
    ]
    return [
        LedgerEntry(seq=seq, kind=kind, payload=payload, prev_hash="0" * 64, hash=f"{seq:064x}")
        for seq, (kind, payload) in enumerate(items)
    ]


@pytest.mark.parametrize(
    ("fault", "code", "blind"),
    [
        ("timeout", "timeout", True),
        ("applied_then_timeout", "timeout", True),
        ("server_error_500", "server_error", True),
        # A3: the in-doubt append relabelled in the log as a 429: still in doubt.
        ("timeout", "rate_limit", True),
        ("applied_then_error", "unavailable", True),
        # What an honest importer meets: a 429 or a 503 injected and answered as such.
        ("rate_limit_429", "rate_limit", False),
        ("unavailable_503", "unavailable", False),
    ],
)
def test_a3_a_blind_retry_is_judged_by_the_fault_injected(
    fault: str, code: str, blind: bool
) -> None:
    violations = blind_retry_violations(read_log(_cycle_log(fault, code)))
    assert [v.kind for v in violations] == (["blind_retry_of_in_doubt_append"] if blind else [])


def test_the_in_doubt_fault_kinds_are_those_the_laboratory_answers_with_an_in_doubt_code() -> None:
    """An honest log's fault kind and answered code always agree on "in doubt", so judging by
    either never makes a violation of an honest importer."""
    for kind, error in TEMPORARY_ERRORS.items():
        assert (kind in IN_DOUBT_FAULT_KINDS) is (error.code in IN_DOUBT_ERROR_CODES), kind
    assert set(TEMPORARY_ERRORS) >= IN_DOUBT_FAULT_KINDS


def test_pilot_evaluate_is_not_dumpable_while_it_judges(tmp_path: Path) -> None:
    """The bytes judged live in the evaluator's memory: `pilot evaluate` marks itself not
    dumpable before it reads anything, so a process of the same user cannot trace it or write
    that memory through /proc (docs/pilot-evaluator.md). Checked from inside the command, at
    the moment it evaluates."""
    corpus = make_small_corpus(tmp_path, seed=1)
    run = run_agent(corpus, "reference", tmp_path / "run")
    seen = tmp_path / "protected.txt"
    script = (
        "import runpy, sys\n"
        "import provebench.pilot.evaluate as evaluate\n"
        "from provebench.sandbox._protect import is_protected\n"
        "real = evaluate.evaluate_run\n"
        "def watched(*args, **kwargs):\n"
        f"    open({str(seen)!r}, 'w').write(str(is_protected()))\n"
        "    return real(*args, **kwargs)\n"
        "evaluate.evaluate_run = watched\n"
        f"sys.argv = ['provebench', 'pilot', 'evaluate', {str(run)!r},"
        f" '--corpus', {str(corpus)!r}]\n"
        "runpy.run_module('provebench', run_name='__main__')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert seen.read_text() == "True"


def test_a_corpus_loaded_in_memory_never_reads_its_folder_again(tmp_path: Path) -> None:
    """`load_corpus(in_memory=True)`: the events and expected rows are those of the bytes read
    at load, whatever is renamed into the folder afterwards; a link in the folder is refused."""
    corpus = make_small_corpus(tmp_path, seed=1)
    other = make_small_corpus(tmp_path / "other", seed=2)
    loaded = _folder.load_corpus(corpus, in_memory=True)
    events, rows = list(loaded.events()), loaded.expected_rows()
    for name in ("drive_events.jsonl", "expected_final_rows.csv"):
        _rename_over((other / name).read_bytes(), corpus / name)
    assert list(loaded.events()) == events and loaded.expected_rows() == rows
    linked = tmp_path / "linked"
    shutil.copytree(other, linked)
    (linked / "agent_contract.md").unlink()
    (linked / "agent_contract.md").symlink_to(other / "agent_contract.md")
    with pytest.raises(ProvebenchError, match=r"agent_contract\.md: cannot read file"):
        _folder.load_corpus(linked, in_memory=True)
