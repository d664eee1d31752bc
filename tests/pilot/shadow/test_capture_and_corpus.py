"""Capture through provebench's Drive emulator with Google's client, pseudonymised; the shadow
corpus of the snapshots; a shadow run of the reference importer (pilot §2)."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from provebench.pilot import run_lab
from provebench.pilot.corpus import Corpus, iter_register_csv, load_corpus
from provebench.pilot.emulator import EmulatedLab
from provebench.pilot.evaluate import Verdict, evaluate_run, write_verdict
from provebench.pilot.rules import name_shape
from provebench.pilot.shadow import (
    METADATA_READONLY_SCOPE,
    Pseudonymiser,
    derive_shadow_corpus,
    drive_service,
    read_key,
)
from tests.helpers.pilot_corpus import generated_corpus
from tests.helpers.pilot_shadow import capture_corpus_drive, drive_files, write_key

pytestmark = pytest.mark.slow


@dataclass
class Shadow:
    original: Corpus
    key: Path
    snapshots: Path
    corpus: Path
    run: Path
    verdict: Verdict
    verdict_path: Path
    requests: list[list[tuple[str, dict[str, Any]]]]


@pytest.fixture(scope="module")
def shadow(tmp_path_factory: pytest.TempPathFactory) -> Shadow:
    root = tmp_path_factory.mktemp("shadow")
    original = generated_corpus(3, admissible_files=12, file_events=30, cycles=4)
    key = write_key(root / "key")
    requests = capture_corpus_drive(original, root / "snapshots", key, root)
    derive_shadow_corpus(root / "snapshots", root / "corpus", zone="Europe/Berlin")
    run_lab(root / "corpus", "reference", root / "run")
    verdict = evaluate_run(root / "run", root / "corpus")
    write_verdict(verdict, root / "verdict.json")
    return Shadow(original, key, root / "snapshots", root / "corpus", root / "run", verdict,
                  root / "verdict.json", requests)  # fmt: skip


def test_capture_only_lists_metadata_with_the_read_only_scope(shadow: Shadow) -> None:
    for cycle in shadow.requests:
        routes = {(p.get("method"), p.get("route")) for k, p in cycle if k == "http.request"}
        assert routes == {("POST", "/token"), ("GET", "/drive/v3/files")}
        assert not [k for k, _ in cycle if k not in ("http.request", "drive.list")]
    with EmulatedLab() as lab:
        service = drive_service(lab.credentials_path, lab.drive_endpoint)
        assert service._http.credentials.scopes == [METADATA_READONLY_SCOPE]


def test_no_identifier_or_phone_survives_in_any_output_byte(shadow: Shadow) -> None:
    secrets: set[str] = set()
    for file in drive_files(shadow.original).values():
        secrets |= {file.file_id, file.folder_id, file.name}
        shape = name_shape(file.name)
        if shape is not None:
            secrets.add(shape["phone"])
        if file.metadata is not None and file.metadata.phone:
            secrets.add(file.metadata.phone)
    secrets = {s for s in secrets if len(s) >= 6}
    assert len(secrets) > 40
    secrets.add(shadow.key.read_text(encoding="ascii").strip())  # the key never leaves either
    outputs = [shadow.snapshots, shadow.corpus, shadow.run, shadow.verdict_path.parent]
    checked = 0
    for folder in outputs:
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or path.name == "key":
                continue
            data = path.read_bytes()
            checked += 1
            for secret in secrets:
                assert secret.encode("utf-8") not in data, (path, secret)
    assert checked > 15


def test_the_shadow_stream_is_the_real_one_without_invented_faults(shadow: Shadow) -> None:
    original, derived = shadow.original.info.counts, load_corpus(shadow.corpus).info.counts
    kinds = original.by_kind
    assert derived.by_kind["file_added"] == kinds["file_added"] + kinds["file_added_during_scan"]
    for kind in ("file_removed", "file_reappeared", "file_renamed", "file_moved"):
        assert derived.by_kind[kind] == kinds[kind], kind
    for kind in ("api_fault", "file_added_during_scan", "file_relisted", "time_zone_changed"):
        assert derived.by_kind[kind] == 0, kind
    # The same files are admissible, under their pseudonyms.
    pseudonyms = Pseudonymiser(read_key(shadow.key))
    expected = {row.file_id for row in iter_register_csv(shadow.original.expected_rows_path)}
    derived_rows = {
        row.file_id for row in iter_register_csv(shadow.corpus / "expected_final_rows.csv")
    }
    assert derived_rows == {pseudonyms.file_id(file_id) for file_id in expected}


def test_the_shadow_corpus_records_its_origin(shadow: Shadow) -> None:
    corpus = load_corpus(shadow.corpus)
    assert corpus.info.config.profile == "shadow"
    origin = corpus.shadow
    assert origin is not None
    manifest = json.loads((shadow.snapshots / "capture.json").read_text(encoding="utf-8"))
    assert [s.sha256 for s in origin.snapshots] == [s["sha256"] for s in manifest["snapshots"]]
    assert [s.captured_at for s in origin.snapshots] == [
        s["captured_at"] for s in manifest["snapshots"]
    ]
    assert origin.escrow.period_days == 7 and origin.key_check == manifest["pseudonym"]["key_check"]
    assert corpus.info.versions.tzdata.startswith("tzdata/")


def test_a_shadow_run_of_the_reference_importer_is_clean(shadow: Shadow) -> None:
    verdict = shadow.verdict
    assert verdict.status == "evaluated" and verdict.laboratory_pass
    assert verdict.perf_shadow == 1.0 and verdict.critical_violation_count == 0
    assert verdict.result_evidence is not None
    assert verdict.result_evidence.corpus["profile"] == "shadow"
    assert verdict.escrow is not None
    # Four daily captures: no seven-day period is complete, nothing is released yet.
    assert verdict.escrow.tranches == [] and verdict.escrow.released_total == 0.0
    assert "less than one period of 7 day(s)" in verdict.escrow.reason


def test_deriving_is_deterministic(shadow: Shadow, tmp_path: Path) -> None:
    derive_shadow_corpus(shadow.snapshots, tmp_path / "again", zone="Europe/Berlin")
    for path in sorted(shadow.corpus.iterdir()):
        assert (tmp_path / "again" / path.name).read_bytes() == path.read_bytes(), path.name


def test_a_capture_with_another_key_is_refused_and_changes_nothing(
    shadow: Shadow, tmp_path: Path
) -> None:
    from provebench._errors import ProvebenchError
    from provebench.pilot.shadow import capture

    copy = tmp_path / "snapshots"
    shutil.copytree(shadow.snapshots, copy)
    before = {p.name: p.read_bytes() for p in copy.iterdir()}
    other = write_key(tmp_path / "other-key")
    with EmulatedLab() as lab, pytest.raises(ProvebenchError) as caught:
        capture(copy, key_file=other, credentials=lab.credentials_path,
                endpoint=lab.drive_endpoint, folders=[], captured_at="2027-01-01T00:00:00Z",
                service=object())  # fmt: skip
    assert caught.value.field == "pseudonym.key_check"
    assert {p.name: p.read_bytes() for p in copy.iterdir()} == before


def test_the_capture_command_through_the_emulator(tmp_path: Path) -> None:
    from provebench.pilot.lab import DriveState
    from tests.helpers.pilot_lab import run_cli
    from tests.helpers.pilot_shadow import served_drive

    original = generated_corpus(3, admissible_files=12, file_events=30, cycles=4)
    drive = DriveState()
    for file in list(drive_files(original).values())[:5]:
        drive.add(file)
    drive.settle()
    key = write_key(tmp_path / "key")
    with EmulatedLab() as lab, served_drive(lab, drive, tmp_path):
        done = run_cli(
            "pilot", "capture", "--out", str(tmp_path / "snapshots"), "--key-file", str(key),
            "--endpoint", lab.drive_endpoint, "--captured-at", "2026-11-02T07:00:00+01:00",
            env={"GOOGLE_APPLICATION_CREDENTIALS": str(lab.credentials_path)},
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "snapshot-00001.jsonl: 5 file(s) captured at 2026-11-02T06:00:00Z" in done.stdout
    lines = (tmp_path / "snapshots" / "snapshot-00001.jsonl").read_text(encoding="utf-8")
    assert len(lines.splitlines()) == 5 and all(
        f.file_id not in lines for f in drive_files(original).values()
    )
