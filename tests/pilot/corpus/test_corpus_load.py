"""Loading a corpus fails closed (pilot §9, §10): manifest, versions, every line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench._canonical import canonical_json, sha256_file
from provebench._errors import ProvebenchError
from provebench.pilot import load_corpus
from tests.helpers.pilot_corpus import fresh_corpus_dir


def _rewrite_manifest(directory: Path) -> None:
    """Make the manifest agree with the files again, so the deeper checks are reached."""
    manifest_path = directory / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["sha256"] = {name: sha256_file(directory / name) for name in manifest["sha256"]}
    manifest_path.write_text(canonical_json(manifest), encoding="utf-8")


def _error(directory: Path) -> ProvebenchError:
    with pytest.raises(ProvebenchError) as caught:
        load_corpus(directory)
    assert "\n" not in str(caught.value)
    return caught.value


def test_an_intact_corpus_loads(tmp_path: Path) -> None:
    corpus = load_corpus(fresh_corpus_dir(tmp_path))
    assert len(corpus.expected_rows()) == corpus.info.counts.expected_rows > 0


def test_one_changed_byte_is_a_manifest_mismatch(tmp_path: Path) -> None:
    directory = fresh_corpus_dir(tmp_path)
    path = directory / "expected_final_rows.csv"
    data = bytearray(path.read_bytes())
    data[-5] ^= 1
    path.write_bytes(bytes(data))
    error = _error(directory)
    assert error.path == str(path) and error.field == "sha256"


def test_missing_manifest_means_incomplete(tmp_path: Path) -> None:
    directory = fresh_corpus_dir(tmp_path)
    (directory / "manifest.json").unlink()
    assert "incomplete" in _error(directory).message


@pytest.mark.parametrize("change", ["extra", "missing"])
def test_extra_or_missing_files_are_refused(tmp_path: Path, change: str) -> None:
    directory = fresh_corpus_dir(tmp_path)
    if change == "extra":
        (directory / "candidate_final_rows.csv").write_text("x\n", encoding="utf-8")
    else:
        (directory / "agent_contract.md").unlink()
    assert "do not match the manifest" in _error(directory).message


def test_a_corrupt_event_line_names_file_line_and_field(tmp_path: Path) -> None:
    directory = fresh_corpus_dir(tmp_path)
    path = directory / "drive_events.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if '"kind":"file_added"' in line)
    event = json.loads(lines[index])
    event["file"]["size_bytes"] = "12"  # a string where a number belongs
    lines[index] = json.dumps(event, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _rewrite_manifest(directory)
    error = _error(directory)
    assert (error.path, error.line) == (str(path), index + 1)
    assert error.field is not None and error.field.endswith("file.size_bytes")


@pytest.mark.parametrize(
    "mangle",
    [
        lambda lines: lines[:3] + lines[4:],  # a missing line breaks seq
        lambda lines: [*lines, "not json"],
        lambda lines: [*lines, ""],
        lambda lines: lines[:-1],  # count no longer matches corpus.json
    ],
)
def test_stream_shape_errors_are_refused(tmp_path: Path, mangle: object) -> None:
    directory = fresh_corpus_dir(tmp_path)
    path = directory / "drive_events.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(mangle(lines)) + "\n", encoding="utf-8")  # type: ignore[operator]
    _rewrite_manifest(directory)
    assert _error(directory).path == str(path)


def test_a_corpus_made_under_other_rule_versions_is_refused(tmp_path: Path) -> None:
    directory = fresh_corpus_dir(tmp_path)
    path = directory / "corpus.json"
    info = json.loads(path.read_text(encoding="utf-8"))
    info["versions"]["tzdata"] = "tzdata/2000.1"
    path.write_text(canonical_json(info), encoding="utf-8")
    _rewrite_manifest(directory)
    error = _error(directory)
    assert error.field == "versions.tzdata" and "2000.1" in error.message


@pytest.mark.parametrize("name", ["corpus.json", "manifest.json"])
def test_an_unknown_corpus_format_is_refused_in_either_file(tmp_path: Path, name: str) -> None:
    directory = fresh_corpus_dir(tmp_path)
    path = directory / name
    document = json.loads(path.read_text(encoding="utf-8"))
    document["corpus_format"] = "call-import-corpus/9"
    path.write_text(canonical_json(document), encoding="utf-8")
    _rewrite_manifest(directory)  # leaves manifest.json's own edit in place
    error = _error(directory)
    assert (error.path, error.field) == (str(path), "corpus_format")
    assert "call-import-corpus/9" in error.message


def test_expected_rows_that_are_not_utf8_name_the_file_and_line(tmp_path: Path) -> None:
    directory = fresh_corpus_dir(tmp_path)
    path = directory / "expected_final_rows.csv"
    lines = path.read_bytes().split(b"\n")
    lines[6] = lines[6][:4] + b"\xff\xfe" + lines[6][4:]
    path.write_bytes(b"\n".join(lines))
    _rewrite_manifest(directory)
    error = _error(directory)
    assert (error.path, error.line) == (str(path), 7)
    assert "not valid UTF-8: byte 0xff at column 5" in error.message


def test_expected_rows_with_a_repeated_file_id_are_refused(tmp_path: Path) -> None:
    directory = fresh_corpus_dir(tmp_path)
    path = directory / "expected_final_rows.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([*lines, lines[1]]) + "\n", encoding="utf-8")
    _rewrite_manifest(directory)
    error = _error(directory)
    assert error.path == str(path) and error.field == "file_id"


def test_a_failed_generation_leaves_nothing_under_the_target_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from provebench.pilot import corpus_config, write_corpus
    from provebench.pilot.corpus import _folder as _corpus

    def explode(*args: object) -> str:
        raise RuntimeError("disk full")

    monkeypatch.setattr(_corpus, "agent_contract_markdown", explode)
    with pytest.raises(RuntimeError):
        write_corpus(corpus_config(seed=1, profile="public"), tmp_path / "out")
    assert list(tmp_path.iterdir()) == []


def test_reordered_events_are_refused_by_their_seq(tmp_path: Path) -> None:
    directory = fresh_corpus_dir(tmp_path)
    path = directory / "drive_events.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[1], lines[2] = lines[2], lines[1]  # two file events of cycle 1: same count, same cycles
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _rewrite_manifest(directory)
    error = _error(directory)
    assert (error.line, error.field) == (2, "seq")


def test_a_corpus_of_the_call_numbered_fault_format_is_refused_with_the_reason(
    tmp_path: Path,
) -> None:
    directory = fresh_corpus_dir(tmp_path)
    path = directory / "manifest.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["corpus_format"] = "call-import-corpus/1"
    path.write_text(canonical_json(document), encoding="utf-8")
    error = _error(directory)
    assert (error.path, error.field) == (str(path), "corpus_format")
    assert "bound to call numbers" in error.message and "generate the corpus again" in error.message
    assert "\n" not in error.one_line()
