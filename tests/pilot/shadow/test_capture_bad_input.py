"""Bad capture folders and shadow-corpus input: one line naming the file and field, exit 2,
nothing half-written (pilot §2; the CLI's conventions)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench._canonical import canonical_json, sha256_file
from provebench._errors import ProvebenchError
from provebench.pilot.shadow import Pseudonymiser, append_snapshot, derive_shadow_corpus
from tests.helpers.pilot_lab import run_cli
from tests.helpers.pilot_shadow_drive import KEY, call_file, daily_captures


def _manifest(folder: Path) -> dict:
    return json.loads((folder / "capture.json").read_text(encoding="utf-8"))


def _rewrite(folder: Path, manifest: dict) -> None:
    (folder / "capture.json").write_text(canonical_json(manifest), encoding="utf-8")


def _refused(snapshots: Path, out: Path) -> ProvebenchError:
    with pytest.raises(ProvebenchError) as caught:
        derive_shadow_corpus(snapshots, out)
    assert not out.exists()  # nothing half-written
    return caught.value


def test_a_capture_out_of_time_order_is_refused(tmp_path: Path) -> None:
    folder = daily_captures(tmp_path / "s", 2)
    pseudonyms = Pseudonymiser(KEY)
    with pytest.raises(ProvebenchError) as caught:
        append_snapshot(folder, [], captured_at="2026-11-03T06:00:00Z", folders=[],
                        key_check=pseudonyms.key_check)  # fmt: skip
    assert caught.value.field == "snapshots[1].captured_at"
    assert len(_manifest(folder)["snapshots"]) == 2


def test_snapshots_edited_out_of_time_order_are_refused(tmp_path: Path) -> None:
    folder = daily_captures(tmp_path / "s", 3)
    manifest = _manifest(folder)
    manifest["snapshots"][2]["captured_at"] = "2026-11-01T00:00:00Z"
    _rewrite(folder, manifest)
    error = _refused(folder, tmp_path / "corpus")
    assert error.field == "snapshots[2].captured_at" and "time order" in error.message


def test_a_snapshot_missing_a_field_the_grammar_needs_is_refused(tmp_path: Path) -> None:
    folder = daily_captures(tmp_path / "s", 2)
    path = folder / "snapshot-00002.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[1])
    del record["name"]
    lines[1] = json.dumps(record, sort_keys=True, separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    manifest = _manifest(folder)
    manifest["snapshots"][1]["sha256"] = sha256_file(path)  # re-recorded: only the line is wrong
    _rewrite(folder, manifest)
    error = _refused(folder, tmp_path / "corpus")
    assert (Path(str(error.path)).name, error.line, error.field) == (
        "snapshot-00002.jsonl",
        2,
        "name",
    )


def test_an_altered_missing_or_unlisted_snapshot_is_refused(tmp_path: Path) -> None:
    folder = daily_captures(tmp_path / "s", 2)
    path = folder / "snapshot-00001.jsonl"
    data = path.read_bytes()
    path.write_bytes(data.replace(b"30.5", b"31.5", 1))
    assert _refused(folder, tmp_path / "c1").field == "sha256"
    path.write_bytes(data)
    (folder / "snapshot-00003.jsonl").write_bytes(data)
    assert "does not list" in _refused(folder, tmp_path / "c2").message
    (folder / "snapshot-00003.jsonl").unlink()
    path.unlink()
    assert _refused(folder, tmp_path / "c3").field == "snapshots[0].file"


def test_an_empty_capture_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "s").mkdir()
    assert "capture.json is missing" in _refused(tmp_path / "s", tmp_path / "c").message


def test_duplicate_files_in_one_listing_are_refused(tmp_path: Path) -> None:
    pseudonyms = Pseudonymiser(KEY)
    twice = [pseudonyms.file(call_file(1, 0))] * 2
    with pytest.raises(ProvebenchError, match="listed one file twice"):
        append_snapshot(tmp_path / "s", twice, captured_at="2026-11-02T06:00:00Z", folders=[],
                        key_check=pseudonyms.key_check)  # fmt: skip
    assert not (tmp_path / "s" / "capture.json").exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--zone", "Mars/Base"], "--zone: unknown IANA time zone"),
        (["--period-days", "0"], "--period-days"),
    ],
)
def test_the_command_refuses_in_one_line(tmp_path: Path, arguments: list[str], said: str) -> None:
    folder = daily_captures(tmp_path / "s", 2)
    done = run_cli("pilot", "shadow-corpus", str(folder), "--out", str(tmp_path / "c"), *arguments)
    assert done.returncode == 2 and said in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "c").exists()


@pytest.mark.slow
def test_capture_needs_credentials_and_a_key(tmp_path: Path) -> None:
    key = tmp_path / "key"
    assert run_cli("pilot", "shadow-key", "--out", str(key)).returncode == 0
    assert key.stat().st_mode & 0o777 == 0o600
    again = run_cli("pilot", "shadow-key", "--out", str(key))
    assert again.returncode == 2 and "never overwritten" in again.stderr
    done = run_cli(
        "pilot", "capture", "--out", str(tmp_path / "s"), "--key-file", str(key),
        env={"GOOGLE_APPLICATION_CREDENTIALS": ""},
    )  # fmt: skip
    assert done.returncode == 2 and "--credentials" in done.stderr
    assert not (tmp_path / "s").exists()
