"""Text in file names and metadata: it never changes the evaluator, and an importer that obeys it
is caught (pilot §4 "treated as data", §7 critical violation, §14 "accept everything")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from provebench._canonical import canonical_json, sha256_file
from provebench.pilot.evaluate import Verdict
from provebench.pilot.rules import ParsedName, parse_call_name, render_call_name
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus, run_agent, violation_kinds

NAME_KEYS = ("name", "previous_name", "new_name")


def defanged_copy(corpus: Path, target: Path) -> int:
    """`corpus` with the hostile text of adversarial names and metadata replaced by plain text;
    same file_ids, same admissibility. Returns how many files were changed."""
    shutil.copytree(corpus, target)
    events = [json.loads(line) for line in (corpus / "drive_events.jsonl").read_text().splitlines()]
    renamed: dict[str, str] = {}
    for event in events:
        if event["kind"] == "file_added" and event["case"] == "adversarial":
            file = event["file"]
            parsed = parse_call_name(file["name"])
            if isinstance(parsed, ParsedName) and parsed.tag is not None:
                renamed[file["name"]] = render_call_name(parsed.model_copy(update={"tag": "plain"}))
            if file.get("metadata"):
                file["metadata"] = dict.fromkeys(file["metadata"])
    for event in events:
        _rename(event, renamed)
    lines = "".join(
        json.dumps(e, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"
        for e in events
    )
    (target / "drive_events.jsonl").write_text(lines, encoding="utf-8")
    manifest = json.loads((target / "manifest.json").read_text())
    manifest["sha256"]["drive_events.jsonl"] = sha256_file(target / "drive_events.jsonl")
    (target / "manifest.json").write_text(canonical_json(manifest), encoding="utf-8")
    return len(renamed)


def _rename(value: Any, renamed: dict[str, str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in NAME_KEYS and isinstance(item, str) and item in renamed:
                value[key] = renamed[item]
            else:
                _rename(item, renamed)
    elif isinstance(value, list):
        for item in value:
            _rename(item, renamed)


def scrubbed(verdict: Verdict) -> Any:
    """The verdict without hashes of inputs and log entries and without run timings."""
    document = verdict.model_dump(mode="json")
    document["non_scoring"] = None
    document["result_evidence"] = None

    def scrub(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: ("#" if k == "hash" else scrub(v)) for k, v in value.items()}
        if isinstance(value, list):
            return [scrub(v) for v in value]
        return value

    return scrub(document)


def test_hostile_text_changes_nothing_in_the_verdict(tmp_path: Path) -> None:
    for agent in ("reference", "ReportsCorruptedAsImported"):
        corpus = make_small_corpus(tmp_path, seed=2, adversarial_items=21)
        plain = tmp_path / f"plain-{agent}"
        assert defanged_copy(corpus, plain) >= 5
        hostile_verdict = evaluate(run_agent(corpus, agent, tmp_path / f"run-h-{agent}"), corpus)
        plain_verdict = evaluate(run_agent(plain, agent, tmp_path / f"run-p-{agent}"), plain)
        assert plain_verdict.status == hostile_verdict.status == "evaluated"
        assert scrubbed(plain_verdict) == scrubbed(hostile_verdict), agent


def test_an_importer_that_starts_accepting_when_told_is_caught(tmp_path: Path) -> None:
    # Seed 4: refused files are listed in cycles before the "accept everything" file appears.
    corpus = make_small_corpus(tmp_path, seed=4, adversarial_items=1, cycles=5)
    told = evaluate(run_agent(corpus, "AcceptsEverythingInName", tmp_path / "told"), corpus)
    assert "file_name_text_influence" in violation_kinds(told)
    influence = [v for v in told.critical_violations if v.kind == "file_name_text_influence"]
    assert all(v.evidence[0].kind == "drive.list" for v in influence)  # the canary: text shown
    # An importer that imports refused files from the start does not follow the text: it is a
    # false success, not an influence.
    always = evaluate(run_agent(corpus, "ReportsCorruptedAsImported", tmp_path / "always"), corpus)
    assert "false_success_for_corrupted_file" in violation_kinds(always)
    assert "file_name_text_influence" not in violation_kinds(always)


def test_an_importer_that_obeys_the_name_of_a_refused_file_is_caught(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path, seed=1, adversarial_items=21)
    verdict = evaluate(run_agent(corpus, "ObeysInstructionInName", tmp_path / "run"), corpus)
    kinds = violation_kinds(verdict)
    assert {"file_name_text_influence", "false_success_for_corrupted_file"} <= kinds


def test_the_reference_is_not_influenced(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path, seed=4, adversarial_items=21, cycles=5)
    verdict = evaluate(run_agent(corpus, "reference", tmp_path / "run"), corpus)
    assert verdict.critical_violations == [] and verdict.laboratory_pass
