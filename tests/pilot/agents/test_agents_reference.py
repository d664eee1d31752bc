"""The reference importer reaches the expected final state; noop reaches nothing; the lab
confirms what an importer did without repairing it."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot import Refusal, decide_row, run_lab
from provebench.pilot.agents import load_agent
from provebench.pilot.corpus import load_corpus
from provebench.pilot.rules import REQUIRED_SELF_CHECKS
from tests.helpers.pilot_lab import make_corpus, read_rows
from tests.helpers.published_scorer import published_script_or_skip, run_published_script

# The reference reports every self-check the agent contract requires (pilot §12).
SELF_CHECKS = set(REQUIRED_SELF_CHECKS)
CORPORA = [("public", 1), ("public", 2), ("public", 7), ("control", 5), ("control", 6)]


@pytest.fixture(scope="module")
def corpora(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("corpora")


def ledger_entries(run_dir: Path) -> list[dict[str, object]]:
    lines = (run_dir / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def refused_file_ids(corpus_dir: Path) -> set[str]:
    refused = set()
    for event in load_corpus(corpus_dir).events():
        file = getattr(event, "file", None)
        if file is not None and isinstance(decide_row(file, "UTC"), Refusal):
            refused.add(file.file_id)
    return refused


@pytest.mark.parametrize(("profile", "seed"), CORPORA)
def test_reference_reaches_the_expected_final_state(
    profile: str, seed: int, corpora: Path, tmp_path: Path
) -> None:
    corpus = make_corpus(corpora, profile=profile, seed=seed)
    out = tmp_path / "run"
    run_lab(corpus, "reference", out)
    expected = read_rows(corpus / "expected_final_rows.csv")
    register = read_rows(out / "register.csv")
    assert register[0] == expected[0]
    # Every expected row, byte for byte, exactly once, and nothing else.
    assert Counter(map(tuple, register[1:])) == Counter(map(tuple, expected[1:]))
    assert len({row[0] for row in register[1:]}) == len(register) - 1

    # The published register is the expected one, byte for byte (register-order/1 applied).
    assert (out / "register.csv").read_bytes() == (corpus / "expected_final_rows.csv").read_bytes()

    # The importer's own append order, as the log keeps it: the published order within a cycle.
    entries = ledger_entries(out)
    appended_per_cycle: list[list[list[str]]] = [[]]
    for entry in entries:
        payload = entry["payload"]
        if entry["kind"] == "sheets.append" and payload.get("applied"):
            appended_per_cycle[-1].extend(payload["rows"])
        elif entry["kind"] == "cycle_confirmed":
            appended_per_cycle.append([])
    for appended in appended_per_cycle:
        keys = [(datetime.fromisoformat(r[1]), r[0]) for r in appended]
        assert keys == sorted(keys)
    rows = register[1:]
    assert sum(map(len, appended_per_cycle)) == len(rows)

    diagnostics = [
        json.loads(line)
        for line in (out / "diagnostics.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    checks = [d for d in diagnostics if d["channel"] == "self_check"]
    cycles = {d["cycle"] for d in diagnostics}
    assert {(d["cycle"], d["name"]) for d in checks} == {
        (c, n) for c in cycles for n in SELF_CHECKS
    }
    assert all(d["passed"] for d in checks), [d for d in checks if not d["passed"]]
    reported = {d["file_id"] for d in diagnostics if d["channel"] == "failed_file"}
    assert reported == refused_file_ids(corpus)
    assert reported.isdisjoint(row[0] for row in rows)  # never reported as a success

    kinds = Counter(e["kind"] for e in entries)
    assert kinds["fault_injected"] >= 1
    assert kinds["refused"] == len(cycles)  # the final-status self-check, once a cycle


def test_published_scorer_passes_the_reference_and_fails_noop(
    corpora: Path, tmp_path: Path
) -> None:
    script = published_script_or_skip(tmp_path)
    corpus = make_corpus(corpora, profile="control", seed=5)
    run_lab(corpus, "reference", tmp_path / "run")
    outcome = run_published_script(
        script, corpus / "expected_final_rows.csv", tmp_path / "run" / "register.csv"
    )
    verdict = json.loads(outcome.stdout)
    for metric in (
        "completeness",
        "precision",
        "uniqueness",
        "field_accuracy",
        "order_correctness",
    ):
        assert verdict[metric] == 1.0, metric
    assert verdict["scorer_pass"] is True
    run_lab(corpus, "noop", tmp_path / "noop")
    outcome = run_published_script(
        script, corpus / "expected_final_rows.csv", tmp_path / "noop" / "register.csv"
    )
    verdict = json.loads(outcome.stdout)
    assert verdict["scorer_pass"] is False
    assert verdict["completeness"] == 0.0


def test_noop_confirms_nothing(corpora: Path, tmp_path: Path) -> None:
    corpus = make_corpus(corpora, profile="public", seed=1)
    run_lab(corpus, "noop", tmp_path / "run")
    assert read_rows(tmp_path / "run" / "register.csv") == [
        read_rows(corpus / "expected_final_rows.csv")[0]
    ]
    confirmed = [e for e in ledger_entries(tmp_path / "run") if e["kind"] == "cycle_confirmed"]
    assert [e["payload"]["rows_confirmed"] for e in confirmed] == [0] * len(confirmed)
    assert len(confirmed) == load_corpus(corpus).info.config.sizes.cycles


BLIND_RETRY = """
from provebench.pilot import decide_row, RegisterRow
from provebench.pilot.agents import TemporaryApiError

class BlindRetry:
    name = "blind-retry"
    version = "1"

    def run_cycle(self, ctx):
        seen, token = ctx.confirmed.all(), None
        rows = []
        while True:
            try:
                page = ctx.drive.list_files(1000, token)
            except TemporaryApiError:
                continue
            for f in page.files:
                row = decide_row(f, ctx.time_zone)
                if isinstance(row, RegisterRow) and f.file_id not in seen:
                    cells = row.model_dump()
                    del cells["status"]
                    rows.append(cells)
            token = page.next_page_token
            if token is None:
                break
        while True:
            try:
                ctx.sheets.append_rows(rows)
                return
            except TemporaryApiError:
                continue
"""


def test_lab_confirms_duplicates_as_received(corpora: Path, tmp_path: Path) -> None:
    agent_file = tmp_path / "blind.py"
    agent_file.write_text(BLIND_RETRY, encoding="utf-8")
    corpus = make_corpus(corpora, profile="public", seed=1)
    run_lab(corpus, f"{agent_file}:BlindRetry", tmp_path / "run")
    ids = [row[0] for row in read_rows(tmp_path / "run" / "register.csv")[1:]]
    assert len(ids) > len(set(ids))  # applied_then_error + blind retry = duplicates, kept
    record = json.loads((tmp_path / "run" / "run.json").read_text(encoding="utf-8"))
    code_sha256 = record["agent"].pop("code_sha256")
    assert record["agent"] == {
        "spec": f"{agent_file}:BlindRetry",
        "name": "blind-retry",
        "version": "1",
    }
    assert len(code_sha256) == 64 and int(code_sha256, 16) >= 0  # its code, as the sandbox shows it


MISBEHAVING = """
class Misbehaving:
    name = "misbehaving"
    version = "0"

    def run_cycle(self, ctx):
        for attempt in (
            lambda: ctx.sheets.delete_row("x"),
            lambda: ctx.drive.rename_file("x", "accept everything"),
            lambda: ctx.sheets.append_rows([{"file_id": "x", "status": "imported"}]),
        ):
            try:
                attempt()
            except Exception:
                pass
        raise RuntimeError("gave up")
"""


def test_refusals_and_importer_failures_are_in_the_log(corpora: Path, tmp_path: Path) -> None:
    agent_file = tmp_path / "bad.py"
    agent_file.write_text(MISBEHAVING, encoding="utf-8")
    corpus = make_corpus(corpora, profile="public", seed=1)
    run_lab(corpus, f"{agent_file}:Misbehaving", tmp_path / "run")
    entries = ledger_entries(tmp_path / "run")
    refused = [e["payload"]["operation"] for e in entries if e["kind"] == "refused"]
    cycles = load_corpus(corpus).info.config.sizes.cycles
    assert Counter(refused) == Counter(
        {"sheets.delete_row": cycles, "drive.rename_file": cycles, "sheets.append.status": cycles}
    )
    errors = [e["payload"] for e in entries if e["kind"] == "agent_error"]
    assert errors == [{"type": "RuntimeError", "message": "gave up"}] * cycles


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nonsense", "unknown agent"),
        ("no.such.module:Class", "cannot import"),
        ("provebench.pilot.agents._noop:Missing", "has no class"),
        ("provebench.pilot.lab._errors:LabError", "must define"),
        ("/nonexistent/agent.py:Importer", "not found"),
        ("provebench.pilot.agents._noop:not-a-name", "not a class name"),
    ],
)
def test_bad_agent_specs_are_one_line_errors(spec: str, message: str) -> None:
    with pytest.raises(ProvebenchError, match=message):
        load_agent(spec)


def test_agent_specs_resolve() -> None:
    assert load_agent("noop").name == "noop"
    assert load_agent("provebench.pilot.agents._reference:ReferenceImporter").name == "reference"


def test_the_listing_of_a_cycle_is_the_union_of_its_passes() -> None:
    """`Listing.take`: the usual later pass repeats the first (nothing found, its metadata
    kept); a pass that differs adds what it found, keeps what it did not list again, and takes
    the latest metadata of each id."""
    from provebench.pilot.agents._reference import Listing

    listing = Listing([], [])
    first = listing.take(["a", "c"], ["a1", "c1"])
    assert first == ["a", "c"] and (listing.ids, listing.files) == (["a", "c"], ["a1", "c1"])
    assert listing.take(["a", "c"], ["a2", "c2"]) == []
    assert listing.files == ["a2", "c2"]
    assert listing.take(["a", "b", "c"], ["a3", "b3", "c3"]) == ["b"]
    assert dict(zip(listing.ids, listing.files, strict=True)) == {"a": "a3", "b": "b3", "c": "c3"}
    assert listing.take(["b"], ["b4"]) == []  # a or c gone meanwhile: still listed this cycle
    assert dict(zip(listing.ids, listing.files, strict=True)) == {"a": "a3", "b": "b4", "c": "c3"}
    empty = Listing([], [])
    assert empty.take([], []) == [] and empty.take(["z"], ["z1"]) == ["z"]


def _without_work_digest(entry: dict[str, object]) -> object:
    payload = entry["payload"]
    if entry["kind"] != "cycle_confirmed" or not isinstance(payload, dict):
        return payload
    assert isinstance(payload.get("work_sha256"), str) and isinstance(payload.get("anchor"), dict)
    # The keyed anchor signs the log up to its entry, so it differs wherever the run's first
    # entry (its identity) does.
    return {key: value for key, value in payload.items() if key not in ("work_sha256", "anchor")}


@pytest.mark.parametrize(("profile", "seed"), [("public", 2), ("control", 5)])
def test_the_red_teams_correct_baseline_is_the_reference(
    profile: str, seed: int, corpora: Path, tmp_path: Path
) -> None:
    """One correct importer: the red team's `CorrectImporter` only hands the reference's steps
    to the attacks in other shapes, so with no step overridden it makes the same calls, rows
    and report — every log entry but the run's identity is the same."""
    corpus = make_corpus(corpora, profile=profile, seed=seed)
    runs = {
        spec: run_lab(corpus, spec, tmp_path / spec.replace(":", "-")).run_dir
        for spec in ("reference", "provebench.pilot.agents.defective:CorrectImporter")
    }
    reference, baseline = (ledger_entries(run) for run in runs.values())
    assert len(reference) == len(baseline) > 50

    def without_identity(entries: list[dict[str, object]]) -> list[object]:
        # The red team's importers keep their own state file beside the reference's journal,
        # so the digest of the work directory each cycle_confirmed records differs (and with
        # the identity, each commit's keyed anchor); nothing else.
        return [
            (entry["kind"], _without_work_digest(entry))
            for entry in entries
            if entry["kind"] != "run_started"
        ]

    assert without_identity(reference) == without_identity(baseline)
    registers = [(run / "register.csv").read_bytes() for run in runs.values()]
    assert registers[0] == registers[1]
