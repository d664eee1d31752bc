"""The seeded generator (pilot §5, §10, §11): determinism, coverage, sizes, ground truth."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from provebench._canonical import compact_json
from provebench.pilot import (
    DRIVE_EVENT_ADAPTER,
    EVENT_KINDS,
    FILE_CASES,
    FileAdded,
    FileAddedDuringScan,
    Refusal,
    RegisterRow,
    corpus_config,
    decide_row,
    load_corpus,
    register_csv_text,
    register_order_key,
    run_version_for_cycle,
    write_corpus,
)
from provebench.pilot.corpus import CORPUS_FILES, MANIFEST_FILE
from tests.helpers.pilot_corpus import generated_corpus

PROVEBENCH = Path(sys.executable).with_name("provebench")


def _bytes_of(directory: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir())}


def test_same_seed_gives_identical_bytes_and_another_seed_differs(tmp_path: Path) -> None:
    config = corpus_config(seed=11, profile="public")
    write_corpus(config, tmp_path / "a")
    write_corpus(config, tmp_path / "b")
    write_corpus(corpus_config(seed=12, profile="public"), tmp_path / "c")
    first, second, other = (_bytes_of(tmp_path / n) for n in "abc")
    assert sorted(first) == sorted([*CORPUS_FILES, MANIFEST_FILE])
    assert first == second
    for name in ("drive_events.jsonl", "expected_final_rows.csv", "manifest.json"):
        assert first[name] != other[name]


@pytest.mark.parametrize("profile", ["public", "control"])
def test_every_event_kind_and_file_case_is_present(profile: str) -> None:
    corpus = generated_corpus(21, profile)
    kinds = Counter(event.kind for event in corpus.events())
    cases = Counter(event.case for event in corpus.events() if isinstance(event, FileAdded))
    assert set(kinds) == set(EVENT_KINDS)
    assert set(cases) == set(FILE_CASES)
    assert dict(kinds) == {k: v for k, v in corpus.info.counts.by_kind.items() if v}
    faults = Counter(e.fault for e in corpus.events() if e.kind == "api_fault")  # type: ignore[union-attr]
    assert set(faults) == {
        "rate_limit_429",
        "server_error_500",
        "unavailable_503",
        "timeout",
        "applied_then_error",
        "applied_then_timeout",  # both in-doubt timeouts, applied and not (pilot §14)
    }


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_control_profile_meets_the_fresh_control_minimums(seed: int) -> None:
    corpus = generated_corpus(seed, "control")
    events = list(corpus.events())
    kinds = Counter(event.kind for event in events)
    cases = Counter(event.case for event in events if isinstance(event, FileAdded))
    file_events = sum(kinds[k] for k in EVENT_KINDS[2:9])
    adversarial_items = sum(
        1 for e in events if isinstance(e, FileAdded) and e.case == "adversarial"
    )
    assert kinds["cycle_started"] >= 20
    assert file_events >= 500
    assert len(corpus.expected_rows()) >= 200
    assert kinds["file_reappeared"] + kinds["file_relisted"] >= 30
    assert kinds["file_renamed"] + kinds["file_moved"] >= 20
    assert cases["corrupted"] + cases["unsupported"] >= 20
    assert kinds["api_fault"] >= 10
    assert adversarial_items >= 10


@pytest.mark.parametrize(("seed", "profile"), [(21, "public"), (1, "control")])
def test_each_fault_is_bound_to_an_admissible_file_new_in_its_cycle(
    seed: int, profile: str
) -> None:
    """drive-events/2: a fault lands on work a correct importer cannot avoid — a file it must
    list and import in that cycle — with room for an importer that never retries blindly."""
    corpus = generated_corpus(seed, profile)
    events = list(corpus.events())
    expected = {row.file_id for row in corpus.expected_rows()}
    new_in = {(e.cycle, e.file.file_id) for e in events if isinstance(e, FileAdded)}
    faults = [e for e in events if e.kind == "api_fault"]
    assert faults
    for fault in faults:
        assert (fault.cycle, fault.file_id) in new_in and fault.file_id in expected  # type: ignore[union-attr]
    per_cycle = Counter((f.cycle, f.operation) for f in faults)  # type: ignore[union-attr]
    assert max(n for (_, op), n in per_cycle.items() if op == "append_rows") == 1
    targets = Counter((f.cycle, f.operation, f.file_id) for f in faults)  # type: ignore[union-attr]
    assert max(targets.values()) == 1


def test_more_faults_than_the_files_can_carry_are_refused(tmp_path: Path) -> None:
    from provebench._errors import ProvebenchError

    config = corpus_config(seed=1, profile="public", overrides={"temporary_failures": 500})
    with pytest.raises(ProvebenchError) as refused:
        write_corpus(config, tmp_path / "corpus")
    assert refused.value.field == "temporary_failures"
    assert not (tmp_path / "corpus").exists()


def test_control_refuses_sizes_below_the_minimums() -> None:
    from provebench._errors import ProvebenchError

    with pytest.raises(ProvebenchError, match="at least 20"):
        corpus_config(seed=1, profile="control", overrides={"corrupted_unsupported": 19})


@pytest.mark.parametrize(
    ("seed", "profile"), [(21, "public"), (22, "public"), (1, "control"), (2, "control")]
)
def test_decide_row_agrees_with_the_generators_ground_truth(seed: int, profile: str) -> None:
    corpus = generated_corpus(seed, profile)
    expected = {row.file_id: row for row in corpus.expected_rows()}
    decided: dict[str, RegisterRow] = {}
    refused_cases: Counter[str] = Counter()
    for event in corpus.events():
        if not isinstance(event, FileAdded | FileAddedDuringScan):
            continue
        zone = run_version_for_cycle(corpus.info.run_versions, event.cycle).zone
        result = decide_row(event.file, zone)
        if isinstance(result, Refusal):
            assert event.file.file_id not in expected, (event.seq, result)
            refused_cases[event.case if isinstance(event, FileAdded) else "scan"] += 1
        else:
            decided[event.file.file_id] = result
    assert decided == expected
    assert refused_cases["corrupted"] == corpus.info.counts.by_case["corrupted"]
    assert refused_cases["unsupported"] == corpus.info.counts.by_case["unsupported"]
    assert refused_cases["nonconforming_name"] == corpus.info.counts.by_case["nonconforming_name"]
    assert set(refused_cases) <= {"corrupted", "unsupported", "nonconforming_name", "adversarial"}


def test_expected_rows_follow_the_ordering_rule_and_the_csv_dialect() -> None:
    corpus = generated_corpus(1, "control")
    rows = corpus.expected_rows()
    assert rows == sorted(rows, key=register_order_key)
    assert corpus.expected_rows_path.read_text(encoding="utf-8") == register_csv_text(rows)


@pytest.mark.parametrize(("seed", "profile"), [(21, "public"), (1, "control")])
def test_every_event_line_is_the_canonical_json_of_its_model(seed: int, profile: str) -> None:
    corpus = generated_corpus(seed, profile)
    with corpus.events_path.open(encoding="utf-8") as handle:
        for line in handle:
            event = DRIVE_EVENT_ADAPTER.validate_json(line)
            assert compact_json(event) == line.rstrip("\n")


def test_renames_keep_structured_fields_and_hard_cases_are_where_the_plan_puts_them() -> None:
    corpus = generated_corpus(1, "control")
    versions = corpus.info.run_versions
    last_cycle = corpus.info.config.sizes.cycles
    for event in corpus.events():
        if event.kind == "file_renamed":
            before = decide_row(_named(event.previous_name), "UTC")  # type: ignore[union-attr]
            after = decide_row(_named(event.new_name), "UTC")  # type: ignore[union-attr]
            assert isinstance(before, RegisterRow) and before == after
        if isinstance(event, FileAddedDuringScan):
            assert event.cycle < run_version_for_cycle(versions, event.cycle).last_cycle
        if isinstance(event, FileAdded):
            assert event.cycle < last_cycle  # the last cycle is a repeated run without new files


def _named(name: str):  # type: ignore[no-untyped-def]
    from provebench.pilot import DriveFile

    return DriveFile(
        file_id="x",
        name=name,
        created_at_utc="2026-01-01T00:00:00Z",
        mime_type="audio/mpeg",
        size_bytes=1,
        duration_sec=1.0,
        folder_id="f",
    )


def test_created_at_differs_from_the_call_time_so_using_it_is_caught() -> None:
    corpus = generated_corpus(1, "control")
    expected = {row.file_id: row for row in corpus.expected_rows()}
    different_day = 0
    for event in corpus.events():
        if isinstance(event, FileAdded) and event.file.file_id in expected:
            local_day = expected[event.file.file_id].call_local_datetime[:10]
            different_day += event.file.created_at_utc[:10] != local_day
    assert different_day > len(expected) // 2


def test_cli_generate_prints_one_summary_line_and_refuses_bad_input(tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    done = subprocess.run(
        [str(PROVEBENCH), "pilot", "generate", "--seed", "4", "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1
    assert "file_added=" in done.stdout and "api_fault=" in done.stdout
    load_corpus(out)
    again = subprocess.run(
        [str(PROVEBENCH), "pilot", "generate", "--seed", "4", "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert again.returncode == 2
    assert again.stderr.count("\n") == 1 and "not an empty directory" in again.stderr
    bad_zone = subprocess.run(
        [
            str(PROVEBENCH),
            "pilot",
            "generate",
            "--seed",
            "4",
            "--out",
            str(tmp_path / "z"),
            "--zone",
            "UTC",
            "--zone",
            "UTC",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad_zone.returncode == 2 and "zones" in bad_zone.stderr
    assert not (tmp_path / "z").exists()


def test_corpus_json_records_every_rule_version_and_the_config() -> None:
    corpus = generated_corpus(21, "public")
    info = json.loads((corpus.directory / "corpus.json").read_text(encoding="utf-8"))
    assert set(info["versions"]) >= {
        "grammar",
        "mapping",
        "time_rule",
        "tzdata",
        "row_format",
        "ordering",
        "admissibility",
        "generator",
        "precedence",
    }
    assert info["config"]["seed"] == 21
    assert [v["zone"] for v in info["run_versions"]] == ["Europe/Berlin", "America/New_York"]
    header = next(csv.reader((corpus.directory / "candidate_final_rows_template.csv").open()))
    assert tuple(header) == tuple(corpus.expected_rows()[0].model_dump())
    checks = json.loads((corpus.directory / "external_checks_template.json").read_text())
    assert [c["check"] for c in checks["external_checks"]] == [
        "recovery",
        "error_honesty",
        "cycle_stability",
        "event_log_completeness",
        "write_access_isolation",
        "evaluator_injection_isolation",
        "fresh_hidden_control",
        "escrow_observation",
        "red_team",
    ]
    assert checks["pilot_pass"] is None
    assert all(c["evidence"] == [] and c["passed"] is None for c in checks["external_checks"])


@pytest.mark.parametrize("profile", ["public", "control"])
def test_default_profiles_hold_the_whole_adversarial_catalogue(profile: str) -> None:
    from provebench.pilot.corpus._generate_cases import ADVERSARIAL_ITEMS
    from provebench.pilot.corpus._profiles import PROFILE_SIZES

    assert PROFILE_SIZES[profile].adversarial_items >= len(ADVERSARIAL_ITEMS)
    corpus = generated_corpus(21, profile)
    adversarial = [
        e for e in corpus.events() if isinstance(e, FileAdded) and e.case == "adversarial"
    ]
    zone = corpus.info.run_versions[0].zone
    refused = [e for e in adversarial if isinstance(decide_row(e.file, zone), Refusal)]
    metadata_seen = [e.file.metadata.model_dump() for e in adversarial if e.file.metadata]
    assert len(adversarial) == len(ADVERSARIAL_ITEMS)
    assert len(refused) == sum(not item.conforming for item in ADVERSARIAL_ITEMS)
    for item in ADVERSARIAL_ITEMS:
        if item.metadata is not None:
            assert any(item.metadata.items() <= seen.items() for seen in metadata_seen)
