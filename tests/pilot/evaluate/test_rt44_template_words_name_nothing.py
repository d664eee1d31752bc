"""Pilot red team 44, F1: the literal words of a published refusal template name no file.

A corpus with a refused file served as `audio.mp4` (an ordinary name on a real Drive) failed the
reference importer: its honest report of an unsupported mime type, "mime_type image/png is not
one of audio/mpeg, audio/wav, audio/ogg, audio/mp4", read as naming that file (`audio mp4`, the
name's words), and both files became false success claims. Only a template's slot text can
name another file (`rules/_refusal_templates.slot_text`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from provebench._canonical import canonical_json, sha256_file
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus, run_agent, violation_kinds

NAME_KEYS = ("name", "previous_name", "new_name")
SERVED_NAME = "audio.mp4"


def _renamed(value: object, old: str) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in NAME_KEYS and item == old:
                value[key] = SERVED_NAME
            else:
                _renamed(item, old)
    elif isinstance(value, list):
        for item in value:
            _renamed(item, old)


def _corpus_with_audio_mp4(tmp: Path) -> Path:
    """Seed 41's small corpus (one refused image/png file) with another refused file — one
    refused for its size or duration — served as `audio.mp4`, the manifest's sha256 recomputed
    (the red team's c2 recipe)."""
    source = make_small_corpus(tmp / "source", seed=41)
    target = tmp / "c2"
    shutil.copytree(source, target)
    path = target / "drive_events.jsonl"
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    files = [e["file"] for e in events if isinstance(e.get("file"), dict)]
    assert any(f["mime_type"] == "image/png" for f in files)
    victim = next(f for f in files if f["mime_type"].startswith("audio/") and f["size_bytes"] == 0)
    _renamed(events, victim["name"])
    path.write_text(
        "".join(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n" for e in events),
        encoding="utf-8",
    )
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    manifest["sha256"]["drive_events.jsonl"] = sha256_file(path)
    (target / "manifest.json").write_text(canonical_json(manifest), encoding="utf-8")
    return target


@pytest.mark.slow
def test_reference_passes_a_corpus_with_a_file_served_as_audio_mp4(tmp_path: Path) -> None:
    corpus = _corpus_with_audio_mp4(tmp_path)
    verdict = evaluate(run_agent(corpus, "reference", tmp_path / "ref"), corpus)
    assert "false_success_for_corrupted_file" not in violation_kinds(verdict)
    assert verdict.laboratory_pass


def test_slot_text_is_the_slots_alone() -> None:
    from provebench.pilot.corpus._model import DriveFile
    from provebench.pilot.rules._refusal_templates import slot_text

    png = DriveFile.model_construct(
        file_id="7b3ba811ba-2",
        name="in_79161234567_20250101T120000Z_M014.ogg",
        created_at_utc="2025-01-01T00:00:00Z",
        mime_type="image/png",
        size_bytes=10,
        duration_sec=5.0,
        folder_id="fld-1",
    )
    template = "mime_type image/png is not one of audio/mpeg, audio/wav, audio/ogg, audio/mp4"
    assert slot_text(template, [png]) == "image/png"
    assert slot_text("size_bytes is 10", [png]) == "size_bytes\n10"
    assert slot_text("refused", [png]) == ""
    assert slot_text("not refused: audio.mp4 is fine", [png]) is None
